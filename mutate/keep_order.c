/*
 * mutate/keep_order.c - repeat a run's order of accesses, a few races
 * reversed (design in keep_order.h).
 */
#include "keep_order.h"

#include <string.h>

#define ORDER_LAST UINT32_MAX   /* the rank of an access the sequence does not hold */

/* An access as POS counts one (strategy_pos.c, flip.c). */
static int counted(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT && e->thread < SCHED_MAX_THREADS;
}

void mutate_order_from_trace(mutate_order *o, const sched_trace *t)
{
	o->n = 0;
	for (size_t i = 0; i < t->n && o->n < MUTATE_ORDER_MAX; i++)
		if (counted(&t->events[i]))
			o->seq[o->n++] = t->events[i].thread;
}

/* Event i's name: its thread's accesses before it. */
static uint32_t number_of(const sched_trace *t, size_t i)
{
	uint32_t k = 0;
	for (size_t j = 0; j < i; j++)
		k += counted(&t->events[j]) && t->events[j].thread == t->events[i].thread;
	return k;
}

/* Where the k-th access of `thread` is in the sequence, or -1. */
static long place_of(const mutate_order *o, unsigned thread, uint32_t k)
{
	for (uint32_t i = 0; i < o->n; i++)
		if (o->seq[i] == thread && k-- == 0)
			return (long)i;
	return -1;
}

int mutate_order_reverse(mutate_order *o, const sched_trace *t, const mutate_flip *f)
{
	if (f->first_event >= t->n || f->second_event >= t->n)
		return 0;
	long p1 = place_of(o, f->first, number_of(t, f->first_event));
	long p2 = place_of(o, f->second, number_of(t, f->second_event));
	if (p1 < 0 || p2 <= p1)
		return 0;
	/* seq[p1..p2]: A's entries go after the others, each group in its order */
	uint8_t a = o->seq[p1];
	uint32_t moved = 0, w = (uint32_t)p1;
	for (uint32_t i = (uint32_t)p1; i <= (uint32_t)p2; i++) {
		if (o->seq[i] == a)
			moved++;
		else
			o->seq[w++] = o->seq[i];
	}
	memset(&o->seq[w], a, moved);
	return 1;
}

/* rank[first[t] + k] := the place of t's k-th access in seq. */
static void index_ranks(mutate_order *o)
{
	uint32_t count[SCHED_MAX_THREADS] = { 0 };
	for (uint32_t i = 0; i < o->n; i++)
		count[o->seq[i]]++;
	o->first[0] = 0;
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		o->first[t + 1] = o->first[t] + count[t];
	memset(count, 0, sizeof count);
	for (uint32_t i = 0; i < o->n; i++) {
		unsigned t = o->seq[i];
		o->rank[o->first[t] + count[t]++] = i;
	}
}

/* Count the accesses the live run made since the last look. */
static void catch_up(mutate_order *o)
{
	const sched_trace *t = o->live;
	for (size_t i = o->seen; i < t->n; i++)
		if (counted(&t->events[i]))
			o->made[t->events[i].thread]++;
	o->seen = t->n;
}

static uint32_t rank_of_next(const mutate_order *o, unsigned thread)
{
	uint32_t k = o->made[thread];
	if (k >= o->first[thread + 1] - o->first[thread])
		return ORDER_LAST;
	return o->rank[o->first[thread] + k];
}

static uint64_t order_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	mutate_order *o = self;   /* POS's own answer: it asks at every step */
	sched_strategy pos = search_pos_strategy(o->fallback);
	return pos.next_preemption(pos.self, thread, call, step);
}

static unsigned order_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			   sched_mask runnable, bool forced)
{
	mutate_order *o = self;
	catch_up(o);
	sched_mask candidates = forced ? runnable : runnable | sched_bit(thread);
	unsigned best = thread;
	uint32_t best_rank = ORDER_LAST;
	for (sched_mask m = candidates; m; m &= m - 1) {
		unsigned t = sched_lowest(m);
		uint32_t r = t < SCHED_MAX_THREADS ? rank_of_next(o, t) : ORDER_LAST;
		if (r < best_rank) {
			best = t;
			best_rank = r;
		}
	}
	if (best_rank != ORDER_LAST)
		return best;
	sched_strategy pos = search_pos_strategy(o->fallback);
	return pos.pick(pos.self, thread, call, step, runnable, forced);
}

static uint64_t order_choose(void *self, uint64_t bound)
{
	mutate_order *o = self;
	unsigned i = *o->data_index;
	if (i < o->n_data && o->data[i].bound == bound)
		return o->data[i].value;
	sched_strategy pos = search_pos_strategy(o->fallback);
	return pos.choose(pos.self, bound);
}

sched_strategy mutate_order_strategy(mutate_order *o, const sched_trace *live, search_pos *fallback,
				     const input_data *data, unsigned n_data,
				     const unsigned *data_index)
{
	index_ranks(o);
	o->live = live;
	o->seen = 0;
	memset(o->made, 0, sizeof o->made);
	o->fallback = fallback;
	o->data = data;
	o->n_data = n_data;
	o->data_index = data_index;
	sched_strategy s = {
		.self = o,
		.next_preemption = order_next_preemption,
		.pick = order_pick,
		.choose = order_choose,
	};
	return s;
}
