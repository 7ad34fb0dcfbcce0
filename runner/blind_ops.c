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

_Static_assert(SCHED_MAX_THREADS <= SCHED_MASK_BITS, "a thread set is a sched_mask");

unsigned runner_count_blind(const sched_trace *t, unsigned *n_ops)
{
	/* sets of threads, not arrays: this runs after every execution, and four
	   128-entry arrays to clear and scan cost more than a short trace */
	sched_mask open = 0, seen = 0, spawned = 0, acted = 0;
	unsigned ops = 0, blind = 0;
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		unsigned th = e->thread;
		if (th >= SCHED_MAX_THREADS)
			continue;
		sched_mask bit = sched_bit(th);
		if (e->kind == SCHED_EV_OP_BEGIN) {
			open |= bit;
			seen &= ~bit;
			ops++;
		} else if (e->kind == SCHED_EV_OP_END && (open & bit)) {
			blind += !(seen & bit);
			open &= ~bit;
		} else if (e->kind < SCHED_EV_OP_BEGIN) {
			seen |= bit;
			acted |= bit;
			if (e->kind == WEFT_ACCESS_SPAWN && e->value < SCHED_MAX_THREADS)
				spawned |= sched_bit((unsigned)e->value);
		}
	}
	blind += sched_count(open & ~seen);
	ops += sched_count(spawned);
	blind += sched_count(spawned & ~acted);
	*n_ops = ops;
	return blind;
}
