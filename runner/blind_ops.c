/*
 * runner/blind_ops.c - operations that ran without a switch point (issue 31).
 *
 * Why.  An operation whose accesses weft cannot see (code built without the
 * pass, inline-assembly atomics) runs from its begin to its end in one piece:
 * no strategy can put another thread inside it, so "all N interleavings are
 * fine" would say nothing about it.  Counting such operations lets the fuzz
 * binary warn at start-up, --stats count them and systematic / explore say so
 * next to "all fine" (report/report_stats.c prints the line).
 *
 * How.  In the trace, an operation is its thread's SCHED_EV_OP_BEGIN up to its
 * SCHED_EV_OP_END (or the trace's end), and a spawned thread's body (a
 * program's pthread_create: WEFT_ACCESS_SPAWN names it) is one more; either is
 * blind when no event of its thread in it is a switch point of its own (an
 * access, a lock, a spawn...: kinds below SCHED_EV_OP_BEGIN).  Linear in the
 * trace.
 */
#include "runner_internal.h"

#define WORDS ((SCHED_MAX_THREADS + 63) / 64)   /* a set of threads: one bit each */

static unsigned count_bits(const uint64_t *set)
{
	unsigned n = 0;
	for (unsigned w = 0; w < WORDS; w++)
		n += set[w] ? (unsigned)__builtin_popcountll(set[w]) : 0;
	return n;
}

unsigned runner_count_blind(const sched_trace *t, unsigned *n_ops)
{
	/* sets of threads, not arrays: this runs after every execution, and four
	   128-entry arrays to clear and scan cost more than a short trace; one
	   word per event, not a 128-bit mask (5% of the counter's random walk) */
	uint64_t open[WORDS] = { 0 }, seen[WORDS] = { 0 }, spawned[WORDS] = { 0 },
		 acted[WORDS] = { 0 };
	unsigned ops = 0, blind = 0;
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		unsigned th = e->thread;
		if (th >= SCHED_MAX_THREADS)
			continue;
		unsigned w = th / 64;
		uint64_t bit = UINT64_C(1) << (th % 64);
		if (e->kind < SCHED_EV_OP_BEGIN) {   /* most events: a switch point */
			seen[w] |= bit;
			acted[w] |= bit;
			if (e->kind == WEFT_ACCESS_SPAWN && e->value < SCHED_MAX_THREADS)
				spawned[e->value / 64] |= UINT64_C(1) << (e->value % 64);
		} else if (e->kind == SCHED_EV_OP_BEGIN) {
			open[w] |= bit;
			seen[w] &= ~bit;
			ops++;
		} else if (e->kind == SCHED_EV_OP_END && (open[w] & bit)) {
			blind += !(seen[w] & bit);
			open[w] &= ~bit;
		}
	}
	ops += count_bits(spawned);
	for (unsigned w = 0; w < WORDS; w++) {
		open[w] &= ~seen[w];      /* still open at the end, and blind */
		spawned[w] &= ~acted[w];  /* spawned, and never at a switch point */
	}
	blind += count_bits(open) + count_bits(spawned);
	*n_ops = ops;
	return blind;
}
