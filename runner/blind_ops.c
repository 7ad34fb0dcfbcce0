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

unsigned runner_count_blind(const sched_trace *t, unsigned *n_ops)
{
	bool open[SCHED_MAX_THREADS] = { false }, seen[SCHED_MAX_THREADS] = { false };
	bool spawned[SCHED_MAX_THREADS] = { false }, acted[SCHED_MAX_THREADS] = { false };
	unsigned ops = 0, blind = 0;
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		unsigned th = e->thread;
		if (th >= SCHED_MAX_THREADS)
			continue;
		if (e->kind == SCHED_EV_OP_BEGIN) {
			open[th] = true, seen[th] = false;
			ops++;
		} else if (e->kind == SCHED_EV_OP_END && open[th]) {
			blind += !seen[th];
			open[th] = false;
		} else if (e->kind < SCHED_EV_OP_BEGIN) {
			seen[th] = acted[th] = true;
			if (e->kind == WEFT_ACCESS_SPAWN && e->value < SCHED_MAX_THREADS)
				spawned[e->value] = true;
		}
	}
	for (unsigned th = 0; th < SCHED_MAX_THREADS; th++) {
		blind += open[th] && !seen[th];
		ops += spawned[th];
		blind += spawned[th] && !acted[th];
	}
	*n_ops = ops;
	return blind;
}
