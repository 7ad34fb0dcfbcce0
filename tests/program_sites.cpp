/*
 * tests/program_sites.cpp - a C++ program's sites name its own lines
 * (tests/program_sites.sh, issue 32): every access below happens inside
 * libstdc++'s headers (std::atomic<int>::load and ::store in atomic_base.h,
 * std::swap in move.h), and the report must name this file's lines and
 * functions instead.
 *
 * The bug: a lost update, a load then a store of one std::atomic<int>; a
 * preemption between them loses one increment and main's assertion fails.
 * Also a data race for WEFT_RACES=warn: both threads std::swap two plain
 * ints, unguarded.  Built with weft's pass (weft_add_program ... INSTRUMENT).
 */
#include <atomic>
#include <cassert>
#include <thread>
#include <utility>

std::atomic<int> visits{0};
int left = 1, right = 2;

void visit()
{
	int seen = visits.load();   // the load of the lost update
	visits.store(seen + 1);     // the store of the lost update
	std::swap(left, right);     // the swap's race
}

int main()
{
	std::thread a(visit), b(visit);
	a.join();
	b.join();
	assert(visits.load() == 2);
	return 0;
}
