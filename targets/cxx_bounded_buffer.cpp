/*
 * targets/cxx_bounded_buffer.cpp - an ordinary C++ program: a bounded buffer
 * with std::mutex and std::condition_variable, one producer and two consumers
 * on std::thread.  No weft in sight: weft_add_program builds it with the same
 * flags as a C program (the pass for std::atomic; std::thread and the locks
 * reach weft by symbol, harness/program_interpose.c).
 *
 * Program: the producer puts 1, 2, 3, 4 into a buffer of two slots; each
 * consumer takes two items and adds them to a std::atomic total; main joins
 * the three threads and asserts the total is 10 (every item taken once).
 * Seeded bug (default build): take() waits for an item with `if`, not
 * `while`: a consumer woken by notify_one() does not look again when it gets
 * the lock back, and the other consumer may have taken the item meanwhile.
 * It then takes from an empty buffer: a slot already taken (or never filled)
 * is counted again and the count goes below zero.
 * Fixed build (-DWEFT_CXX_BOUNDED_BUFFER_FIXED): `while`.
 *
 * Known minimal failing interleaving: consumer 1 finds the buffer empty and
 * waits; the producer puts 1 and notifies it; before consumer 1 runs again,
 * consumer 2 (preempted into) takes the 1; consumer 1 wakes and takes from
 * the empty buffer.  Oracle: main's assert on the total (or a deadlock, when
 * the count gone below zero lets a later take wait for good).
 */
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace {

constexpr int capacity = 2;

class bounded_buffer {
public:
	void put(int v)
	{
		std::unique_lock<std::mutex> lock(mutex_);
		while (count_ == capacity)
			not_full_.wait(lock);
		slots_[tail_] = v;
		tail_ = (tail_ + 1) % capacity;
		count_++;
		not_empty_.notify_one();
	}

	int take()
	{
		std::unique_lock<std::mutex> lock(mutex_);
#ifdef WEFT_CXX_BOUNDED_BUFFER_FIXED
		while (count_ == 0)
			not_empty_.wait(lock);
#else
		if (count_ == 0)   // bug: another consumer may take the item before we wake
			not_empty_.wait(lock);
#endif
		int v = slots_[head_];
		head_ = (head_ + 1) % capacity;
		count_--;
		not_full_.notify_one();
		return v;
	}

private:
	std::mutex mutex_;
	std::condition_variable not_full_, not_empty_;
	int slots_[capacity] = {};
	int head_ = 0, tail_ = 0, count_ = 0;
};

std::atomic<int> total{0};

void consume(bounded_buffer &buffer, int items)
{
	for (int i = 0; i < items; i++)
		total.fetch_add(buffer.take());
}

} // namespace

int main()
{
	bounded_buffer buffer;
	std::thread producer([&buffer] {
		for (int v = 1; v <= 4; v++)
			buffer.put(v);
	});
	std::thread first(consume, std::ref(buffer), 2);
	std::thread second(consume, std::ref(buffer), 2);
	producer.join();
	first.join();
	second.join();
	assert(total.load() == 10);
	return 0;
}
