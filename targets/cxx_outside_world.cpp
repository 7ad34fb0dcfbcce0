/*
 * targets/cxx_outside_world.cpp - the outside world of a C++ program, reached
 * by symbol only (harness/program_interpose.c): no header renames anything in
 * C++.  Not a bug program: tests/program_by_symbol.sh checks what it prints.
 *
 * Program: a worker sleeps 2 s with std::this_thread::sleep_for (nanosleep in
 * libstdc++.so); main sleeps 5 s with sleep(), reads steady_clock,
 * system_clock, time() and gettimeofday before and after, and writes what it
 * saw to stderr (stdout is not caught by symbol).  With
 * WEFT_CXX_OUTSIDE_WORLD_EXIT the worker calls std::exit(3) after its sleep.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

int main()
{
	using namespace std::chrono;
	auto steady0 = steady_clock::now();
	auto system0 = system_clock::now();
	std::time_t time0 = std::time(nullptr);
	std::thread worker([] {
		std::this_thread::sleep_for(seconds(2));
#ifdef WEFT_CXX_OUTSIDE_WORLD_EXIT
		std::exit(3);
#endif
	});
	sleep(5);
	worker.join();
	struct timeval tv;
	gettimeofday(&tv, nullptr);
	long long steady = duration_cast<seconds>(steady_clock::now() - steady0).count();
	long long system = duration_cast<seconds>(system_clock::now() - system0).count();
	std::fprintf(stderr, "clocks: steady +%lld s, system +%lld s, time +%lld s, "
		     "gettimeofday %lld\n", steady, system,
		     (long long)(std::time(nullptr) - time0), (long long)tv.tv_sec);
	return 0;
}
