/*
 * harness/scenario.c - choices -> scenario (format in scenario.h and docs/input-format.md).
 */
#include "scenario.h"

#include <string.h>

static unsigned clamp(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

harness_bounds harness_bounds_of(const weft_target *t)
{
	harness_bounds b;
	b.min_threads = t->min_threads ? t->min_threads : HARNESS_DEFAULT_MIN_THREADS;
	b.max_threads = t->max_threads ? t->max_threads : HARNESS_DEFAULT_MAX_THREADS;
	b.max_ops = t->max_ops_per_thread ? t->max_ops_per_thread : HARNESS_DEFAULT_MAX_OPS;
	b.step_budget = t->step_budget ? t->step_budget : HARNESS_DEFAULT_STEP_BUDGET;
	b.min_threads = clamp(b.min_threads, 1, WEFT_MAX_THREADS);
	b.max_threads = clamp(b.max_threads, b.min_threads, WEFT_MAX_THREADS);
	b.max_ops = clamp(b.max_ops, 1, WEFT_MAX_OPS);
	return b;
}

static int64_t choose_arg(harness_choices *c, weft_range r)
{
	if (r.max <= r.min)
		return r.min;
	/* width - 1 fits in uint64_t; a full-width range gives bound 0 = 2^64 */
	uint64_t bound = (uint64_t)r.max - (uint64_t)r.min + 1;
	return (int64_t)((uint64_t)r.min + harness_choose_front(c, bound));
}

static void decode_call(weft_op_record *call, unsigned thread, const weft_target *t,
			harness_choices *c)
{
	memset(call, 0, sizeof *call);
	call->thread = thread;
	call->op = (unsigned)harness_choose_front(c, t->n_ops);
	const weft_op *op = &t->ops[call->op];
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
		call->args[a] = choose_arg(c, op->args[a]);
	call->pending = 1;   /* until it returns */
}

void harness_scenario_decode(harness_scenario *s, const weft_target *t,
			     const harness_bounds *b, harness_choices *c)
{
	s->n_threads = b->min_threads +
		       (unsigned)harness_choose_front(c, b->max_threads - b->min_threads + 1);
	s->n_calls = 0;
	for (unsigned th = 0; th < s->n_threads; th++) {
		s->first_call[th] = s->n_calls;
		for (unsigned i = 0; i < b->max_ops; i++) {
			decode_call(&s->calls[s->n_calls++], th, t, c);
			if (i + 1 == b->max_ops || harness_take_front(c) == 0)
				break;
		}
	}
	s->first_call[s->n_threads] = s->n_calls;
}
