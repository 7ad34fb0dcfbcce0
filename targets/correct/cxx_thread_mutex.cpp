/*
 * targets/correct/cxx_thread_mutex.cpp - correct corpus (issue 30):
 * std::thread, std::mutex and std::lock_guard.  Three threads, each given its
 * amount as a std::thread argument, add it to a plain total under the mutex;
 * main asserts 1 + 2 + 3 after joining.
 */
#include <cassert>
#include <mutex>
#include <thread>

namespace {
std::mutex lock;
long total;

void add(int amount)
{
	std::lock_guard<std::mutex> guard(lock);
	total += amount;
}
} // namespace

int main()
{
	std::thread a(add, 1), b(add, 2), c(add, 3);
	a.join();
	b.join();
	c.join();
	assert(total == 6);
	return 0;
}
