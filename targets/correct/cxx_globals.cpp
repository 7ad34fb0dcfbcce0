/*
 * targets/correct/cxx_globals.cpp - correct corpus (issue 30): C++ global
 * objects that own heap memory, built by their constructors before main.
 *
 * A global std::map of three names and a global std::vector of weights; two
 * std::threads each add a name of their own to the map and its weight to the
 * vector under a global std::mutex, then walk the whole map (how long the walk
 * takes depends on the map's size: the trace shows it).  main asserts that it
 * starts from the constructors' state (three names, three weights) and that
 * both additions are there at the end.  Correct under every interleaving.
 *
 * Why it is here: every execution must start as a fresh process does, with
 * the constructors' objects (harness/program_main.c re-runs them and the
 * destructors per execution).  Restoring the globals' bytes alone left the
 * map pointing to nodes an earlier execution had changed or freed.
 */
#include <cassert>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

std::map<std::string, int> names = { { "ada", 1 }, { "bob", 2 }, { "cy", 3 } };
std::vector<int> weights = { 10, 20, 30 };
std::mutex guard;

static void add(const char *name, int weight)
{
	int seen = 0;
	{
		std::lock_guard<std::mutex> lock(guard);
		names[name] = weight;
		weights.push_back(weight);
	}
	std::lock_guard<std::mutex> lock(guard);
	for (const auto &entry : names)
		seen += entry.second > 0;
	assert(seen >= 4);
}

int main()
{
	assert(names.size() == 3 && weights.size() == 3);   // a fresh process's state
	std::thread first(add, "dee", 4);
	std::thread second(add, "eve", 5);
	first.join();
	second.join();
	assert(names.size() == 5 && weights.size() == 5);
	assert(names["dee"] == 4 && names["eve"] == 5);
	return 0;
}
