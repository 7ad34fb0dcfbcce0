/*
 * targets/correct/cxx_condvar_queue.cpp - correct corpus (issue 30): a
 * std::deque queue with std::mutex and std::condition_variable (wait with a
 * predicate).  One producer pushes 1..4 then a 0 as the end mark; one
 * consumer pops until the mark, checking the order; main asserts the sum.
 */
#include <cassert>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {
std::mutex lock;
std::condition_variable ready;
std::deque<int> items;
int sum;

void produce()
{
	for (int v = 1; v <= 5; v++) {
		std::lock_guard<std::mutex> guard(lock);
		items.push_back(v % 5);   // 1, 2, 3, 4, then 0: the end
		ready.notify_one();
	}
}

void consume()
{
	for (int expect = 1;; expect++) {
		std::unique_lock<std::mutex> guard(lock);
		ready.wait(guard, [] { return !items.empty(); });
		int v = items.front();
		items.pop_front();
		if (v == 0)
			return;
		assert(v == expect);
		sum += v;
	}
}
} // namespace

int main()
{
	std::thread consumer(consume), producer(produce);
	producer.join();
	consumer.join();
	assert(sum == 10 && items.empty());
	return 0;
}
