/*
 * tests/program_race_cxx.cpp - C++ through the race check (tests/program_races.sh):
 * std::thread's argument tuple (written by the creating thread, read by the
 * new one: the creation's edge by symbol, and a state block libstdc++ frees
 * where the pass cannot see it and the next std::thread reuses), std::mutex
 * guarding two adjacent fields, new'd objects handed to threads and deleted
 * after the joins.  Race-free: no `data-race` with WEFT_RACES=1.
 *
 * WEFT_RACE_CXX_RACY adds one plain counter two threads bump in a member
 * function, unguarded: the race the report names with its functions
 * demangled ("tally::bump", not "_ZN5tally4bumpEv").
 * Built with weft's pass (weft_add_program ... INSTRUMENT).
 */
#include <cassert>
#include <mutex>
#include <thread>

namespace {

struct tally {
	std::mutex lock;
	int apples = 0, pears = 0;   /* one granule, both under `lock` */
	int unguarded = 0;
	void add(int kind, int n)
	{
		std::lock_guard<std::mutex> hold(lock);
		(kind ? pears : apples) += n;
	}
	void bump() { unguarded++; }
};

tally counts;

struct parcel {
	int weight;
};

void work(int kind, int n, parcel *p)
{
	counts.add(kind, n + p->weight);
#ifdef WEFT_RACE_CXX_RACY
	counts.bump();
#endif
}

}  // namespace

int main()
{
	parcel *first = new parcel{1}, *second = new parcel{2};
	std::thread a(work, 0, 3, first);
	std::thread b(work, 1, 4, second);
	a.join();
	b.join();
	delete first;
	delete second;
	parcel *third = new parcel{0};
	std::thread c(work, 1, 5, third);   /* its state block may be a's or b's, reused */
	c.join();
	delete third;
	assert(counts.apples == 4 && counts.pears == 11);
	return 0;
}
