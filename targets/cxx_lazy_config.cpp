/*
 * targets/cxx_lazy_config.cpp - an ordinary C++ program: a registry made on
 * first use and published through a std::atomic pointer, two std::thread
 * workers registering in it under a std::mutex.  Built by weft_add_program
 * with the same flags as a C program: the pass makes every std::atomic
 * operation a switch point; std::thread and std::mutex reach weft by symbol.
 *
 * Program: each worker calls registry_instance() and adds its id; main joins
 * both, deletes every registry made and asserts that exactly one was made and
 * that it held both ids.  Every piece of state is a global that main never resets.
 * Seeded bug (default build): the registry is published with a plain store
 * after a check of the pointer (check-then-act): two workers that both find
 * no registry both make one, and the second store hides the first registry
 * with the registration in it.
 * Fixed build (-DWEFT_CXX_LAZY_CONFIG_FIXED): publish with
 * compare_exchange_strong; the loser deletes its copy and uses the winner's.
 *
 * Known minimal failing interleaving, 1 preemption: worker 1 loads the null
 * pointer and is preempted; worker 2 makes, publishes and fills its registry;
 * worker 1 makes another and publishes it over the first.  Oracle: main's
 * assert (made == 1, or the registry it finds misses an id).
 */
#include <atomic>
#include <cassert>
#include <mutex>
#include <thread>

namespace {

struct registry {
	std::mutex lock;
	int ids[2] = {};
	int count = 0;

	void add(int id)
	{
		std::lock_guard<std::mutex> guard(lock);
		if (count < 2)
			ids[count] = id;
		count++;
	}
};

std::atomic<registry *> instance{nullptr};
std::atomic<int> made{0};
registry *all_made[2];   // for main to delete every registry, hidden ones too

registry &registry_instance()
{
	registry *current = instance.load(std::memory_order_acquire);
	if (current)
		return *current;
	registry *fresh = new registry;
#ifdef WEFT_CXX_LAZY_CONFIG_FIXED
	if (!instance.compare_exchange_strong(current, fresh, std::memory_order_acq_rel,
					      std::memory_order_acquire)) {
		delete fresh;   // another worker published first: use its registry
		return *current;
	}
#else
	instance.store(fresh, std::memory_order_release);   // bug: may hide another's
#endif
	int slot = made.fetch_add(1);
	if (slot < 2)
		all_made[slot] = fresh;
	return *fresh;
}

void worker(int id)
{
	registry_instance().add(id);
}

} // namespace

int main()
{
	std::thread first(worker, 1);
	std::thread second(worker, 2);
	first.join();
	second.join();
	registry *r = instance.load();
	int registries = made.load();
	int ids = r->count == 2 ? r->ids[0] + r->ids[1] : 0;
	for (int i = 0; i < registries && i < 2; i++)
		delete all_made[i];
	assert(registries == 1);
	assert(ids == 3);
	return 0;
}
