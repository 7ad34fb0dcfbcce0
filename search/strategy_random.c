/*
 * search/strategy_random.c - the random walk (strategy_baselines.h): every
 * switch point, the next thread uniformly among the runnable ones.
 */
#include "strategy_baselines.h"

static uint64_t walk_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	search_random_walk *w = self;
	return search_steps_next(&w->steps, thread, call, step);
}

static unsigned walk_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			  sched_mask runnable, bool forced)
{
	search_random_walk *w = self;
	(void)call;
	(void)step;
	sched_mask candidates = forced ? runnable : runnable | sched_bit(thread);
	return search_rng_member(&w->rng, candidates);
}

static uint64_t walk_choose(void *self, uint64_t bound)
{
	search_random_walk *w = self;
	return bound ? search_rng_below(&w->rng, bound) : search_rng_next(&w->rng);
}

void search_random_walk_init(search_random_walk *w, uint64_t seed)
{
	search_random_walk_reseed(w, seed);
	search_steps_reset(&w->steps);
}

void search_random_walk_reseed(search_random_walk *w, uint64_t seed)
{
	search_rng_seed(&w->rng, seed, 1);
}

void search_random_walk_start(search_random_walk *w)
{
	search_steps_restart(&w->steps);
}

sched_strategy search_random_walk_strategy(search_random_walk *w)
{
	sched_strategy s = {
		.self = w,
		.next_preemption = walk_next_preemption,
		.pick = walk_pick,
		.choose = walk_choose,
	};
	return s;
}
