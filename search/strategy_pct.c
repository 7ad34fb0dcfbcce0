/*
 * search/strategy_pct.c - probabilistic concurrency testing with depth d
 * (Burckhardt et al., ASPLOS 2010; definition in strategy_baselines.h).
 *
 * Steps are the switch points the execution passed outside atomic blocks
 * (strategy_common.h counts them).  The step being decided at a pick is the
 * asking thread's current switch point; a change point due at or before it
 * lowers the asking (running) thread's priority first, so the change takes
 * effect at that very step.  A change point that falls on a step where nobody
 * else could run (no pick) is applied when the thread is next asked, which is
 * at that step too (next_preemption).  Data choices are uniform (pct_choose).
 */
#include "strategy_baselines.h"

/* Lower `thread` for every change point due by step `now`. */
static void apply_changes(search_pct *p, unsigned thread, uint64_t now)
{
	while (p->next_change < p->n_changes && p->change_at[p->next_change] <= now) {
		if (thread < SCHED_MAX_THREADS)
			p->prio[thread] = p->change_prio[p->next_change];
		p->next_change++;
	}
}

static uint64_t pct_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	search_pct *p = self;
	uint64_t next = search_steps_next(&p->steps, thread, call, step);
	apply_changes(p, thread, p->steps.total);
	return next;
}

static unsigned pct_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			 sched_mask runnable, bool forced)
{
	search_pct *p = self;
	(void)call;
	if (!forced)
		apply_changes(p, thread, search_steps_now(&p->steps, thread, step));
	sched_mask candidates = forced ? runnable : runnable | sched_bit(thread);
	unsigned best = thread;
	int found = 0;
	for (sched_mask m = candidates; m; m &= m - 1) {   /* ascending, as the rule says */
		unsigned t = sched_lowest(m);
		if (!found || p->prio[t] > p->prio[best]) {
			best = t;
			found = 1;
		}
	}
	return best;
}

/*
 * Data choices (a sleep or timed wait ending early, a weak read, a store left
 * buffered): uniform, from a stream of their own, so the schedule's draws
 * (priorities, change points) stay those of the same seed without them.
 */
static uint64_t pct_choose(void *self, uint64_t bound)
{
	search_pct *p = self;
	return bound ? search_rng_below(&p->choice_rng, bound) : search_rng_next(&p->choice_rng);
}

void search_pct_init(search_pct *p, uint64_t seed, unsigned depth)
{
	memset(p, 0, sizeof *p);
	search_pct_reseed(p, seed, depth);
}

void search_pct_reseed(search_pct *p, uint64_t seed, unsigned depth)
{
	search_rng_seed(&p->rng, seed, 2);
	search_rng_seed(&p->choice_rng, seed, 6);
	p->depth = depth < 1 ? 1 : depth > SEARCH_PCT_MAX_DEPTH ? SEARCH_PCT_MAX_DEPTH : depth;
}

void search_pct_start(search_pct *p, unsigned n_slots, uint64_t k)
{
	unsigned d = p->depth;
	search_steps_restart(&p->steps);
	p->n_slots = n_slots > SCHED_MAX_THREADS ? SCHED_MAX_THREADS : n_slots;
	p->k = k < 1 ? 1 : k;
	/* priorities d .. d+n-1 in a random order (Fisher-Yates) */
	unsigned order[SCHED_MAX_THREADS];
	for (unsigned i = 0; i < SCHED_MAX_THREADS; i++)
		order[i] = i;
	for (unsigned i = p->n_slots; i > 1; i--) {
		unsigned j = (unsigned)search_rng_below(&p->rng, i);
		unsigned tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		p->prio[t] = t < p->n_slots ? d + order[t] : 0;
	/* change point i = 1..d-1 at a uniform step of [1, k], lowering to d - i */
	p->n_changes = d - 1;
	p->next_change = 0;
	for (unsigned i = 0; i < p->n_changes; i++) {
		uint64_t at = 1 + search_rng_below(&p->rng, p->k);
		unsigned prio = d - 1 - i;
		unsigned j = i;   /* insertion: ascending steps */
		for (; j > 0 && p->change_at[j - 1] > at; j--) {
			p->change_at[j] = p->change_at[j - 1];
			p->change_prio[j] = p->change_prio[j - 1];
		}
		p->change_at[j] = at;
		p->change_prio[j] = prio;
	}
}

sched_strategy search_pct_strategy(search_pct *p)
{
	sched_strategy s = {
		.self = p,
		.next_preemption = pct_next_preemption,
		.pick = pct_pick,
		.choose = pct_choose,
	};
	return s;
}
