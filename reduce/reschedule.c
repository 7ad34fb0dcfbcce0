/*
 * reduce/reschedule.c - escape the simplifier's fixed points by deriving a
 * new plan instead of editing the old one.
 *
 * Why: the simplifier's moves (simplify.c) edit the scenario and keep its
 * plan, so a scenario that needs both a different call and a different
 * schedule is out of reach: the Treiber stack's ABA found as t0: pop();
 * t1: pop(); push(1); t2: push(1) with three preemptions is a fixed point,
 * because turning push into pop, or removing a preemption, each alone
 * passes.  Here each variant of the best scenario (itself, one call of
 * another kind with its lowest arguments, two threads merged, one call moved
 * to any position of any thread) is run under every schedule with at most
 * as many preemptions as the best, fewest first (search/schedule_dfs.h, the
 * systematic mode's depth-first search, without reduction), and each failing
 * one with the same verdict is offered to the simplifier, which writes it,
 * replays the bytes and keeps it only if its key is smaller: the contract
 * (same verdict, never more complex, fixed point) stays the simplifier's.
 *
 * Deterministic (the search is), and bounded: at most RESCHEDULE_PER_VARIANT
 * runs per variant and the budget the simplifier gives each escape.  dejafu gets
 * there differently (its simplification reorders the trace's independent
 * steps); a search over schedules is simpler here because weft replays.
 */
#include "reschedule.h"

#include <string.h>

#include "../runner/runner_internal.h"

#define RESCHEDULE_PER_VARIANT 200

int reduce_rescheduler_init(reduce_rescheduler *x, weft_runner *runner, const input_bounds *b)
{
	x->runner = runner;
	x->target = weft_runner_target(runner);
	x->bounds = b;
	x->dfs = search_dfs_new(runner_trace(runner));
	return x->dfs ? 0 : -1;
}

void reduce_rescheduler_free(reduce_rescheduler *x)
{
	search_dfs_free(x->dfs);
	x->dfs = NULL;
}

/* Every schedule of x->variant with at most `preemptions`; 1 when one was kept. */
static int schedules(reduce_rescheduler *x, unsigned preemptions)
{
	unsigned used = 0;
	for (unsigned bound = 0; bound <= preemptions; bound++) {
		search_dfs_start(x->dfs, bound, false);
		sched_strategy strategy = search_dfs_strategy(x->dfs);
		for (int more = 1; more; used++) {
			if (used >= RESCHEDULE_PER_VARIANT || *x->runs >= x->max_runs)
				return 0;
			weft_result res;
			++*x->runs;
			weft_verdict v = runner_run_scenario(x->runner, &x->variant, strategy, &res);
			more = search_dfs_next(x->dfs);
			const search_dfs_execution *e = search_dfs_last(x->dfs);
			if (e->diverged || e->out_of_memory || e->too_many_threads)
				return 0;
			/* fewer preemptions than the bound: offered under a lower one */
			if (v != x->keep || e->forced_not_lowest || res.preemptions < bound)
				continue;
			x->found = x->variant;
			search_dfs_plan(e, &x->found);
			x->found.n_data = runner_data_choices(x->runner, x->found.data, INPUT_MAX_DATA);
			if (x->offer(x->ctx, &x->found))
				return 1;
		}
	}
	return 0;
}

/* One call of another kind, with its lowest arguments. */
static int other_kinds(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions)
{
	for (unsigned c = 0; c < best->n_calls; c++) {
		for (unsigned k = 0; k < x->bounds->n_thread_ops; k++) {
			unsigned op = x->bounds->thread_ops[k];
			if (op == best->calls[c].op)
				continue;
			x->variant = *best;
			x->variant.calls[c].op = op;
			for (int a = 0; a < WEFT_MAX_ARGS; a++)
				x->variant.calls[c].args[a] = x->target->ops[op].args[a].min;
			if (schedules(x, preemptions))
				return 1;
		}
	}
	return 0;
}

static int merged_threads(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions)
{
	if (best->n_threads <= x->bounds->min_threads)
		return 0;
	for (unsigned a = 0; a < best->n_threads; a++) {
		for (unsigned b = 0; b < best->n_threads; b++) {
			for (int after = 0; after <= 1 && a != b; after++) {
				reduce_merge_lists(&x->lists, best, a, b, after);
				reduce_rebuild(&x->variant, best, &x->lists, x->bounds);
				if (schedules(x, preemptions))
					return 1;
			}
		}
	}
	return 0;
}

/*
 * Two threads' lists exchanged: execution starts with thread 0 and a forced
 * switch goes to the lowest-numbered runnable thread, so which thread runs a
 * list decides which schedules cost no preemption.  pool_stack's ABA found as
 * t0: push(3); t1: pop(); t2: pop() needs a preemption at push's first step
 * to let the pops go first, (2, 2, 3, 3); with the lists of t0 and t2
 * exchanged one preemption does, (1, 2, 3, 3).  The rounds' exchange keeps
 * the old plan, which then preempts the wrong calls.
 */
static int swapped_threads(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions)
{
	for (unsigned a = 0; a < best->n_threads; a++) {
		for (unsigned b = a + 1; b < best->n_threads; b++) {
			reduce_swap_lists(&x->lists, best, a, b);
			reduce_rebuild(&x->variant, best, &x->lists, x->bounds);
			if (schedules(x, preemptions))
				return 1;
		}
	}
	return 0;
}

/* Lists with call c taken out of its thread and put at position i of thread `to`. */
static int move_lists(reduce_lists *l, const input_scenario *s, unsigned c, unsigned to, unsigned i)
{
	unsigned from = s->calls[c].thread, at = c - s->first_call[from];
	reduce_lists_of(l, s);
	if (l->n[from] == 1 || (to == from && i == at) || i > l->n[to] - (to == from))
		return 0;   /* an empty thread, no move, or past the end */
	memmove(&l->call[from][at], &l->call[from][at + 1], (l->n[from] - at - 1) * sizeof l->call[0][0]);
	l->n[from]--;
	memmove(&l->call[to][i + 1], &l->call[to][i], (l->n[to] - i) * sizeof l->call[0][0]);
	l->call[to][i] = c;
	l->n[to]++;
	return 1;
}

static int moved_calls(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions)
{
	for (unsigned c = 0; c < best->n_calls; c++) {
		for (unsigned to = 0; to < best->n_threads; to++) {
			unsigned n_to = best->first_call[to + 1] - best->first_call[to];
			for (unsigned i = 0; i <= n_to; i++) {
				if (!move_lists(&x->lists, best, c, to, i))
					continue;
				reduce_rebuild(&x->variant, best, &x->lists, x->bounds);
				if (schedules(x, preemptions))
					return 1;
			}
		}
	}
	return 0;
}

int reduce_reschedule(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions)
{
	x->variant = *best;
	return schedules(x, preemptions) || other_kinds(x, best, preemptions) ||
	       merged_threads(x, best, preemptions) || swapped_threads(x, best, preemptions) ||
	       moved_calls(x, best, preemptions);
}
