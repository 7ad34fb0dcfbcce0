/*
 * search/strategy_uniform.c - uniform over interleavings (definition and
 * approximations in strategy_baselines.h): the next step goes to thread i with
 * probability proportional to its remaining steps.
 *
 * Remaining steps of a candidate at a pick where `thread` asks:
 *   thread itself: estimate - passed (the switch point it is at is not counted
 *     yet, and the step after it is still to run);
 *   a thread that already passed a switch point (it waits at one): estimate -
 *     passed + 1 (the step after that switch point has not run);
 *   a thread not started yet: estimate (its start is not a step of its own:
 *     when it is chosen, its first switch point does not ask again).
 * Each at least 1.
 */
#include "strategy_baselines.h"

static uint64_t uniform_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	search_uniform *u = self;
	if (step > 0 && thread < SCHED_MAX_THREADS)
		u->committed &= ~sched_bit(thread);
	return search_steps_next(&u->steps, thread, call, step);
}

static uint64_t remaining(const search_uniform *u, unsigned t, unsigned asking)
{
	uint64_t est = u->estimate[t], passed = u->steps.thread[t];
	uint64_t left = est > passed ? est - passed : 0;
	if (t != asking && passed > 0)
		left++;
	return left ? left : 1;
}

static unsigned uniform_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			     sched_mask runnable, bool forced)
{
	search_uniform *u = self;
	(void)call;
	(void)step;
	if (!forced && thread < SCHED_MAX_THREADS && sched_has(u->committed, thread))
		return thread;   /* chosen to run its first step: this is that step */
	sched_mask candidates = forced ? runnable : runnable | sched_bit(thread);
	unsigned asking = forced ? SCHED_MAX_THREADS : thread;
	uint64_t sum = 0;   /* the candidates only, ascending: a thread's share is its weight */
	for (sched_mask m = candidates; m; m &= m - 1)
		sum += remaining(u, sched_lowest(m), asking);
	uint64_t r = search_rng_below(&u->rng, sum);
	unsigned chosen = thread;
	for (sched_mask m = candidates; m; m &= m - 1) {
		unsigned t = sched_lowest(m);
		uint64_t w = remaining(u, t, asking);
		if (r < w) {
			chosen = t;
			break;
		}
		r -= w;
	}
	if (chosen != thread && u->steps.thread[chosen] == 0)
		u->committed |= sched_bit(chosen);
	return chosen;
}

static uint64_t uniform_choose(void *self, uint64_t bound)
{
	search_uniform *u = self;
	return bound ? search_rng_below(&u->rng, bound) : search_rng_next(&u->rng);
}

void search_uniform_init(search_uniform *u, uint64_t seed)
{
	memset(u, 0, sizeof *u);
	search_uniform_reseed(u, seed);
}

void search_uniform_reseed(search_uniform *u, uint64_t seed)
{
	search_rng_seed(&u->rng, seed, 3);
}

void search_uniform_start(search_uniform *u, const uint64_t *estimate, unsigned n_slots)
{
	search_steps_restart(&u->steps);
	u->committed = 0;
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		u->estimate[t] = t < n_slots && estimate[t] ? estimate[t] : 1;
}

sched_strategy search_uniform_strategy(search_uniform *u)
{
	sched_strategy s = {
		.self = u,
		.next_preemption = uniform_next_preemption,
		.pick = uniform_pick,
		.choose = uniform_choose,
	};
	return s;
}
