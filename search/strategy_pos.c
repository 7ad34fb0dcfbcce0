/*
 * search/strategy_pos.c - partial-order sampling (Yuan et al., CAV 2018;
 * definition in strategy_baselines.h): random priorities per event, the
 * highest runnable runs, racing events re-drawn after each step.
 *
 * The events executed since the last decision are read off the execution's
 * trace (each access event names its thread and object); the next event of a
 * waiting thread is the access it was stopped at (sched_thread.pending_addr).
 * A lead thread (search_pos_lead) runs first while it can, until its access
 * count reaches the mark; the accesses are counted off the same trace.
 */
#include "strategy_baselines.h"

static int is_write(unsigned kind)
{
	return kind != WEFT_ACCESS_LOAD && kind != WEFT_ACCESS_YIELD && kind != WEFT_ACCESS_RDLOCK;
}

/* New priorities for the makers of the events since the last look, and their racers. */
static void pos_update(search_pos *p)
{
	const sched_thread *self = weft_impl_current;
	if (!self)
		return;
	const sched_exec *x = self->exec;
	const sched_trace *t = &x->trace;
	for (size_t i = p->seen; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		if (e->kind == 0 || e->kind >= WEFT_ACCESS_KIND_COUNT || e->thread >= SCHED_MAX_THREADS)
			continue;
		p->prio[e->thread] = search_rng_next(&p->rng);
		p->accesses[e->thread]++;
		for (unsigned v = 0; v < x->pool->n_created && v < SCHED_MAX_THREADS; v++) {
			const sched_thread *o = x->pool->threads[v];
			if (v != e->thread && e->addr && ((x->live >> v) & 1u) && o->exec == x &&
			    o->pending_addr == e->addr &&
			    (is_write(e->kind) || is_write(o->pending_kind)))
				p->prio[v] = search_rng_next(&p->rng);
		}
	}
	p->seen = t->n;
}

static uint64_t pos_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	search_pos *p = self;
	return search_steps_next(&p->steps, thread, call, step);
}

static unsigned pos_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			 sched_mask runnable, bool forced)
{
	search_pos *p = self;
	(void)call;
	(void)step;
	pos_update(p);
	sched_mask candidates = forced ? runnable : runnable | sched_bit(thread);
	if (p->lead >= 0 && p->accesses[p->lead] >= p->lead_until)
		p->lead = -1;
	if (p->lead >= 0 && sched_has(candidates, (unsigned)p->lead))
		return (unsigned)p->lead;
	unsigned best = thread;
	int found = 0;
	for (sched_mask m = candidates; m; m &= m - 1) {   /* ascending: ties to the lowest */
		unsigned t = sched_lowest(m);
		if (!found || p->prio[t] > p->prio[best]) {
			best = t;
			found = 1;
		}
	}
	return best;
}

static uint64_t pos_choose(void *self, uint64_t bound)
{
	search_pos *p = self;
	return bound ? search_rng_below(&p->rng, bound) : search_rng_next(&p->rng);
}

void search_pos_init(search_pos *p, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	search_pos_reseed(p, seed);
}

void search_pos_reseed(search_pos *p, uint64_t seed)
{
	search_rng_seed(&p->rng, seed, 5);
}

void search_pos_start(search_pos *p)
{
	search_steps_restart(&p->steps);
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		p->prio[t] = search_rng_next(&p->rng);
	p->seen = 0;
	memset(p->accesses, 0, sizeof p->accesses);
	p->lead = -1;
}

void search_pos_lead(search_pos *p, unsigned thread, uint32_t accesses)
{
	if (thread < SCHED_MAX_THREADS) {
		p->lead = (int)thread;
		p->lead_until = accesses;
	}
}

sched_strategy search_pos_strategy(search_pos *p)
{
	sched_strategy s = {
		.self = p,
		.next_preemption = pos_next_preemption,
		.pick = pos_pick,
		.choose = pos_choose,
	};
	return s;
}
