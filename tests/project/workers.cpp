// tests/project/workers.cpp - the workers, in C++: std::thread per worker.
#include <thread>
#include <vector>

#include "lib/tally.h"

extern "C" void run_workers(struct tally *t, int workers, long each)
{
	std::vector<std::thread> pool;
	for (int i = 0; i < workers; i++)
		pool.emplace_back([t, each] { tally_add(t, each); });
	for (auto &worker : pool)
		worker.join();
}
