/*
 * harness/systematic.c - the systematic explorer's loop: bounds, scenarios,
 * schedules, counting, and the first failure (design in systematic.h).
 * Prints nothing: the command line (systematic_cli.c) does.
 */
#include "systematic.h"

#include <stdlib.h>
#include <string.h>

#include "runner_internal.h"
#include "scenario_enum.h"

typedef struct explorer {
	weft_runner *runner;
	const harness_systematic_options *o;
	harness_systematic_stats *st;
	harness_systematic_failure *failure;
	harness_dfs *dfs;
	harness_scenario_enum scenarios;
	harness_scenario scenario;
	char *message;
	size_t cap;
} explorer;

/* Count one run; returns the outcome that ends the exploration, or -1 to go on. */
static int account(explorer *x, weft_verdict v, const weft_result *res)
{
	const harness_dfs_execution *e = harness_dfs_last(x->dfs);
	harness_systematic_stats *st = x->st;
	st->executions++;
	if (e->diverged || e->out_of_memory || v == WEFT_ERROR) {
		snprintf(x->message, x->cap, "%s",
			 e->diverged ? "the target is nondeterministic: replaying a decision "
				       "prefix ran differently" :
			 v == WEFT_ERROR ? res->message : "out of memory");
		return HARNESS_SYSTEMATIC_ERROR;
	}
	if (e->redundant)
		st->redundant++;
	else if (st->bound != HARNESS_DFS_UNBOUNDED && res->preemptions < st->bound)
		st->reruns++;
	else
		st->interleavings++;
	if (v != WEFT_PASS) {
		harness_systematic_failure *f = x->failure;
		f->verdict = v;
		f->result = *res;
		f->scenario = x->scenario;
		harness_dfs_plan(e, &f->scenario);
		f->expressible = !e->forced_not_lowest;
		return HARNESS_SYSTEMATIC_FAILED;
	}
	if (x->o->progress && x->o->progress_every && st->executions % x->o->progress_every == 0)
		x->o->progress(x->o->progress_ctx, st);
	return -1;
}

/* Every schedule of x->scenario under the current bound. */
static int explore_scenario(explorer *x)
{
	harness_dfs_start(x->dfs, x->st->bound, x->o->reduce);
	sched_strategy strategy = harness_dfs_strategy(x->dfs);
	for (int more = 1; more;) {
		if (x->o->max_executions && x->st->executions >= x->o->max_executions)
			return HARNESS_SYSTEMATIC_LIMIT;
		weft_result res;
		weft_verdict v = harness_runner_run_scenario(x->runner, &x->scenario, strategy, &res);
		more = harness_dfs_next(x->dfs);
		int end = account(x, v, &res);
		if (end >= 0)
			return end;
	}
	return -1;
}

/* Every scenario under one bound. */
static int explore_bound(explorer *x)
{
	const harness_systematic_options *o = x->o;
	if (harness_enum_init(&x->scenarios, weft_runner_target(x->runner),
			      harness_runner_bounds(x->runner), o->min_threads, o->max_threads,
			      o->max_ops, o->clip_args, o->arg_lo, o->arg_hi) != 0) {
		snprintf(x->message, x->cap, "more than %d kinds of call: narrow --args",
			 HARNESS_ENUM_MAX_MENU);
		return HARNESS_SYSTEMATIC_ERROR;
	}
	x->st->scenario = 0;
	while (harness_enum_next(&x->scenarios, &x->scenario)) {
		x->st->scenario++;
		if (x->st->scenario > x->st->scenarios)
			x->st->scenarios = x->st->scenario;
		int end = explore_scenario(x);
		if (end >= 0)
			return end;
	}
	return -1;
}

harness_systematic_outcome harness_systematic_explore(weft_runner *r,
						      const harness_systematic_options *o,
						      harness_systematic_stats *st,
						      harness_systematic_failure *failure,
						      char *message, size_t cap)
{
	explorer *x = calloc(1, sizeof *x);   /* scenarios are large: not on the stack */
	memset(st, 0, sizeof *st);
	if (!x || !(x->dfs = harness_dfs_new(harness_runner_trace(r)))) {
		free(x);
		snprintf(message, cap, "out of memory");
		return HARNESS_SYSTEMATIC_ERROR;
	}
	x->runner = r;
	x->o = o;
	x->st = st;
	x->failure = failure;
	x->message = message;
	x->cap = cap;
	int end = -1;
	bool bounded = o->preemptions != HARNESS_DFS_UNBOUNDED;
	for (unsigned c = 0; end < 0 && c <= (bounded ? o->preemptions : 0); c++) {
		st->bound = bounded ? c : HARNESS_DFS_UNBOUNDED;
		end = explore_bound(x);
	}
	harness_dfs_free(x->dfs);
	free(x);
	return end < 0 ? HARNESS_SYSTEMATIC_FINE : (harness_systematic_outcome)end;
}
