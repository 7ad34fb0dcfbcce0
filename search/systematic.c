/*
 * search/systematic.c - the systematic explorer's loop: bounds, scenarios,
 * schedules, counting, and the first failure (design in systematic.h).
 * Prints nothing: the command line (systematic_cli.c) does.
 */
#include "systematic.h"

#include <stdlib.h>
#include <string.h>

#include "../runner/runner_internal.h"
#include "scenario_enum.h"

typedef struct explorer {
	weft_runner *runner;
	const search_systematic_options *o;
	search_systematic_stats *st;
	search_systematic_failure *failure;
	search_dfs *dfs;
	search_scenario_enum scenarios;
	input_scenario scenario;
	uint64_t counted_before;     /* interleavings counted before this scenario's search */
	char *message;
	size_t cap;
} explorer;

/* Count one run; returns the outcome that ends the exploration, or -1 to go on. */
static int account(explorer *x, weft_verdict v, const weft_result *res)
{
	const search_dfs_execution *e = search_dfs_last(x->dfs);
	search_systematic_stats *st = x->st;
	st->executions++;
	if (e->diverged || e->out_of_memory || e->too_many_threads || v == WEFT_ERROR) {
		snprintf(x->message, x->cap, "%s",
			 e->diverged ? "the target is nondeterministic: replaying a decision "
				       "prefix ran differently" :
			 e->too_many_threads ? "more than 32 threads: systematic mode explores "
					       "at most 32 (search/dpor.h)" :
			 v == WEFT_ERROR ? res->message : "out of memory");
		return SEARCH_SYSTEMATIC_ERROR;
	}
	st->bound_cut += e->bound_cut;
	st->choices_cut += e->choices_cut;
	if (e->restart) {   /* the search starts again (schedule_dfs.h): count those runs again */
		st->reruns += st->interleavings - x->counted_before + 1;
		st->interleavings = x->counted_before;
	} else if (e->redundant)
		st->redundant++;
	else if (st->bound != SEARCH_DFS_UNBOUNDED && res->preemptions < st->bound)
		st->reruns++;
	else
		st->interleavings++;
	if (v != WEFT_PASS) {
		search_systematic_failure *f = x->failure;
		f->verdict = v;
		f->result = *res;
		f->scenario = x->scenario;
		search_dfs_plan(e, &f->scenario);
		f->scenario.n_data = runner_data_choices(x->runner, f->scenario.data, INPUT_MAX_DATA);
		f->expressible = !e->forced_not_lowest;
		return SEARCH_SYSTEMATIC_FAILED;
	}
	if (x->o->progress && x->o->progress_every && st->executions % x->o->progress_every == 0)
		x->o->progress(x->o->progress_ctx, st);
	return -1;
}

/* Every schedule of x->scenario under the current bound. */
static int explore_scenario(explorer *x)
{
	search_dfs_start(x->dfs, x->st->bound, x->o->reduce);
	x->counted_before = x->st->interleavings;
	sched_strategy strategy = search_dfs_strategy(x->dfs);
	for (int more = 1; more;) {
		if (x->o->max_executions && x->st->executions >= x->o->max_executions)
			return SEARCH_SYSTEMATIC_LIMIT;
		weft_result res;
		weft_verdict v = runner_run_scenario(x->runner, &x->scenario, strategy, &res);
		more = search_dfs_next(x->dfs);
		int end = account(x, v, &res);
		if (end >= 0)
			return end;
	}
	return -1;
}

/* Every scenario under one bound. */
static int explore_bound(explorer *x)
{
	const search_systematic_options *o = x->o;
	if (search_enum_init(&x->scenarios, weft_runner_target(x->runner),
			      runner_bounds(x->runner), o->min_threads, o->max_threads,
			      o->max_ops, o->clip_args, o->arg_lo, o->arg_hi) != 0) {
		snprintf(x->message, x->cap, "more than %d kinds of call: narrow --args",
			 SEARCH_ENUM_MAX_MENU);
		return SEARCH_SYSTEMATIC_ERROR;
	}
	x->st->scenario = 0;
	while (search_enum_next(&x->scenarios, &x->scenario)) {
		x->st->scenario++;
		if (x->st->scenario > x->st->scenarios)
			x->st->scenarios = x->st->scenario;
		int end = explore_scenario(x);
		if (end >= 0)
			return end;
	}
	return -1;
}

/* One pass under `bound`; -1 when it ends without an outcome. */
static int explore_pass(explorer *x, unsigned bound)
{
	x->st->bound = bound;
	x->st->bound_cut = 0;
	return explore_bound(x);
}

/* The passes (order in systematic.h); -1 when every one ended without an outcome. */
static int explore_passes(explorer *x)
{
	const search_systematic_options *o = x->o;
	search_systematic_stats *st = x->st;
	int end = -1;
	if (o->preemptions != SEARCH_DFS_UNBOUNDED) {
		for (unsigned c = 0; end < 0 && c <= o->preemptions; c++)
			end = explore_pass(x, c);
		return end;
	}
	for (unsigned c = 0; c < o->deepen; c++) {
		end = explore_pass(x, c);
		if (end >= 0 || st->bound_cut == 0)
			return end;   /* a failure, or the bound cut nothing: complete */
	}
	if (o->deepen > 0) {   /* the unbounded pass is the proof: count its runs alone */
		st->reruns += st->interleavings;
		st->interleavings = 0;
	}
	return explore_pass(x, SEARCH_DFS_UNBOUNDED);
}

search_systematic_outcome search_systematic_explore(weft_runner *r,
						      const search_systematic_options *o,
						      search_systematic_stats *st,
						      search_systematic_failure *failure,
						      char *message, size_t cap)
{
	explorer *x = calloc(1, sizeof *x);   /* scenarios are large: not on the stack */
	memset(st, 0, sizeof *st);
	if (!x || !(x->dfs = search_dfs_new(runner_trace(r)))) {
		free(x);
		snprintf(message, cap, "out of memory");
		return SEARCH_SYSTEMATIC_ERROR;
	}
	x->runner = r;
	x->o = o;
	x->st = st;
	x->failure = failure;
	x->message = message;
	x->cap = cap;
	search_dfs_weak(x->dfs, strcmp(weft_runner_memory(r), "sc") != 0);
	int end = explore_passes(x);
	search_dfs_free(x->dfs);
	free(x);
	return end < 0 ? SEARCH_SYSTEMATIC_FINE : (search_systematic_outcome)end;
}
