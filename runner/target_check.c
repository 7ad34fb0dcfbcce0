/*
 * runner/target_check.c - is a weft_target well formed?
 *
 * A target is user code: a mistake in its declaration (an op without a
 * function, a final_op that is not one of its ops) must give a clear message
 * before the first execution, not a crash in the middle of a campaign.
 */
#include <stdio.h>
#include <string.h>

#include "weft/target.h"
#include "../input/scenario.h"

static const char *op_problem(const weft_op *op)
{
	if (!op->name || !op->run)
		return "an operation has no name or no run function";
	if (op->n_args < 0 || op->n_args > WEFT_MAX_ARGS)
		return "an operation's n_args is outside 0..WEFT_MAX_ARGS";
	for (int a = 0; a < op->n_args; a++)
		if (op->args[a].min > op->args[a].max)
			return "an operation has an argument range with min > max";
	return NULL;
}

static unsigned count_groups(const weft_target *t)
{
	unsigned n = 0;
	for (unsigned i = 0; i < t->n_ops; i++) {
		unsigned seen = t->ops[i].group == 0;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = t->ops[j].group == t->ops[i].group;
		n += !seen;
	}
	return n;
}

static int has_thread_op(const weft_target *t)
{
	for (unsigned i = 0; i < t->n_ops; i++)
		if (!(t->ops[i].flags & WEFT_OP_FINAL_ONLY))
			return 1;
	return 0;
}

/*
 * Bounds a target asks for but cannot get are refused rather than clamped: a
 * target that says 1000 threads and runs 8 would test less than its author
 * believes.  0 still means "the default".
 */
static const char *bounds_problem(const weft_target *t)
{
	if (t->min_threads > WEFT_MAX_THREADS || t->max_threads > WEFT_MAX_THREADS)
		return "min_threads and max_threads must be at most WEFT_MAX_THREADS";
	if (t->min_threads && t->max_threads && t->min_threads > t->max_threads)
		return "min_threads is greater than max_threads";
	if (t->max_ops_per_thread > WEFT_MAX_OPS)
		return "max_ops_per_thread must be at most WEFT_MAX_OPS";
	if (t->step_budget > INPUT_MAX_STEP_BUDGET)
		return "step_budget must be at most 2^20 switch points";
	return NULL;
}

const char *weft_target_problem(const weft_target *t)
{
	if (!t || !t->name)
		return "no target, or a target without a name";
	if (!t->ops || t->n_ops == 0 || t->n_ops > WEFT_MAX_TARGET_OPS)
		return "a target needs 1..WEFT_MAX_TARGET_OPS operations";
	for (unsigned i = 0; i < t->n_ops; i++) {
		const char *p = op_problem(&t->ops[i]);
		if (p)
			return p;
	}
	if (!has_thread_op(t))
		return "every operation is WEFT_OP_FINAL_ONLY: threads have nothing to run";
	if (t->final_op && (t->final_op < t->ops || t->final_op >= t->ops + t->n_ops))
		return "final_op does not point into the target's ops[]";
	if (bounds_problem(t))
		return bounds_problem(t);
	if (count_groups(t) > WEFT_MAX_GROUPS)
		return "more than WEFT_MAX_GROUPS distinct operation groups";
	if (t->model && (!t->model->init || t->model->state_size == 0 ||
			 !(t->model->apply || (t->model->outcomes && t->model->apply_outcome))))
		return "the model needs init, apply (or outcomes and apply_outcome) and a non-zero state_size";
	if (t->memory && strcmp(t->memory, "sc") != 0 && strcmp(t->memory, "c11") != 0 &&
	    strcmp(t->memory, "tso") != 0 && strcmp(t->memory, "pso") != 0)
		return "memory must be NULL, \"sc\", \"c11\", \"tso\" or \"pso\"";
	return NULL;
}
