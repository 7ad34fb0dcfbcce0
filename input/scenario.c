/*
 * input/scenario.c - choices -> scenario and its preemption plan (format in
 * scenario.h and docs/input-format.md).  The whole plan is decoded before the
 * execution starts, so the execution itself reads no bytes except the
 * strategy's rare data choices (from the back).
 */
#include "scenario.h"

#include <string.h>

static unsigned clamp(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

input_bounds input_bounds_of(const weft_target *t)
{
	input_bounds b;
	b.min_threads = t->min_threads ? t->min_threads : INPUT_DEFAULT_MIN_THREADS;
	b.max_threads = t->max_threads ? t->max_threads : INPUT_DEFAULT_MAX_THREADS;
	b.max_ops = t->max_ops_per_thread ? t->max_ops_per_thread : INPUT_DEFAULT_MAX_OPS;
	b.step_budget = t->step_budget ? t->step_budget : INPUT_DEFAULT_STEP_BUDGET;
	b.step_budget = clamp(b.step_budget, 1, INPUT_MAX_STEP_BUDGET);
	b.min_threads = clamp(b.min_threads, 1, WEFT_MAX_THREADS);
	b.max_threads = clamp(b.max_threads, b.min_threads, WEFT_MAX_THREADS);
	b.max_ops = clamp(b.max_ops, 1, WEFT_MAX_OPS);
	b.program = (t->flags & WEFT_TARGET_PROGRAM) != 0;
	if (b.program) {
		b.min_threads = t->min_threads ? t->min_threads : 1;
		b.max_threads = t->max_threads ? t->max_threads : INPUT_MAX_THREADS;
		b.min_threads = clamp(b.min_threads, 1, INPUT_MAX_THREADS);
		b.max_threads = clamp(b.max_threads, b.min_threads, INPUT_MAX_THREADS);
		b.max_ops = 1;
	}
	b.n_thread_ops = 0;
	for (unsigned i = 0; i < t->n_ops && b.n_thread_ops < WEFT_MAX_TARGET_OPS; i++)
		if (!(t->ops[i].flags & WEFT_OP_FINAL_ONLY))
			b.thread_ops[b.n_thread_ops++] = i;
	return b;
}

static int64_t choose_arg(input_choices *c, weft_range r)
{
	if (r.max <= r.min)
		return r.min;
	/* width - 1 fits in uint64_t; a full-width range gives bound 0 = 2^64 */
	uint64_t bound = (uint64_t)r.max - (uint64_t)r.min + 1;
	return (int64_t)((uint64_t)r.min + input_choose_front(c, bound));
}

/* The k-th operation a thread may be given (flags without WEFT_OP_FINAL_ONLY). */
static unsigned thread_op(const input_bounds *b, unsigned k)
{
	return b->thread_ops[k % b->n_thread_ops];
}

/*
 * Which thread owns each non-parallel group (weft_op.group): the first thread,
 * in scenario order, that is given one of its operations.
 */
typedef struct group_owners {
	unsigned group[WEFT_MAX_GROUPS], owner[WEFT_MAX_GROUPS];
	unsigned n;
} group_owners;

/* 1 if `thread` may run an operation of `group` (claiming it if unowned). */
static int group_admits(group_owners *g, unsigned group, unsigned thread)
{
	if (group == 0)
		return 1;
	for (unsigned i = 0; i < g->n; i++)
		if (g->group[i] == group)
			return g->owner[i] == thread;
	if (g->n == WEFT_MAX_GROUPS)
		return 0;   /* input_bounds_of rejects targets with more groups */
	g->group[g->n] = group;
	g->owner[g->n++] = thread;
	return 1;
}

/*
 * The operation for the chosen index: itself if this thread may run it, else
 * the next one (in ops[] order, wrapping) that it may; -1 when none.
 */
static int admitted_op(const weft_target *t, const input_bounds *b, group_owners *g,
		       unsigned chosen, unsigned thread)
{
	for (unsigned i = 0; i < b->n_thread_ops; i++) {
		unsigned op = thread_op(b, chosen + i);
		if (group_admits(g, t->ops[op].group, thread))
			return (int)op;
	}
	return -1;
}

static void decode_args(weft_op_record *call, const weft_op *op, input_choices *c)
{
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
		call->args[a] = choose_arg(c, op->args[a]);
}

/* One call for `thread`; 0 when the thread may run no operation at all. */
static int decode_call(weft_op_record *call, unsigned thread, const weft_target *t,
		       const input_bounds *b, group_owners *g, input_choices *c)
{
	unsigned chosen = (unsigned)input_choose_front(c, b->n_thread_ops);
	int op = b->program ? (thread > 0) : admitted_op(t, b, g, chosen, thread);
	if (op < 0)
		return 0;
	memset(call, 0, sizeof *call);
	call->thread = thread;
	call->op = (unsigned)op;
	decode_args(call, &t->ops[op], c);
	call->pending = 1;   /* until it returns */
	return 1;
}

#define LEB128_MAX_BYTES 4   /* steps up to 2^28: far past any step budget */

static uint64_t take_leb128(input_choices *c, uint8_t first)
{
	uint64_t v = first & 0x7f;
	uint8_t b = first;
	for (unsigned i = 1; (b & 0x80) && i < LEB128_MAX_BYTES; i++) {
		b = input_take_front(c);
		v |= (uint64_t)(b & 0x7f) << (7 * i);
	}
	return v;
}

/*
 * Keep a preemption if it comes after the call's previous one, can happen at
 * all (a call has fewer steps than the step budget allows), and there is room.
 */
static void plan_preemption(input_scenario *s, const input_bounds *b, unsigned call,
			    uint64_t step, uint8_t to)
{
	unsigned first = s->first_plan[call];
	if (s->n_plan == INPUT_MAX_PREEMPTIONS || step > b->step_budget)
		return;
	if (s->n_plan > first && s->plan[s->n_plan - 1].step >= step)
		return;
	s->plan[s->n_plan].step = step;
	s->plan[s->n_plan].to = to;
	s->n_plan++;
}

/*
 * The control bytes after call `call` (format in scenario.h): its preemptions,
 * then what follows the call.
 */
static enum input_control decode_control(input_scenario *s, const input_bounds *bounds,
				   unsigned call, input_choices *c)
{
	s->first_plan[call] = s->n_plan;
	for (;;) {
		uint8_t first = input_take_front(c);
		if (first <= INPUT_CONTROL_NEXT_THREAD)
			return (enum input_control)first;
		uint64_t v = take_leb128(c, first);
		uint64_t step = v > INPUT_CONTROL_NEXT_THREAD ? v - INPUT_CONTROL_NEXT_THREAD : 1;
		plan_preemption(s, bounds, call, step, input_take_front(c));
	}
}

/* Thread `thread`'s calls; returns whether another thread was asked for. */
static int decode_thread(input_scenario *s, unsigned thread, const weft_target *t,
			 const input_bounds *b, group_owners *owners, input_choices *c)
{
	s->first_call[thread] = s->n_calls;
	for (unsigned i = 0; i < b->max_ops; i++) {
		unsigned call = s->n_calls;
		if (!decode_call(&s->calls[call], thread, t, b, owners, c))
			return 0;
		s->n_calls++;
		enum input_control next = decode_control(s, b, call, c);
		if (next != INPUT_CONTROL_NEXT_OP)
			return next == INPUT_CONTROL_NEXT_THREAD;
	}
	return 0;
}

/* One operation of a sequential part: its kind and arguments, nothing else. */
static void decode_part_call(weft_op_record *call, unsigned thread, const weft_target *t,
			     const input_bounds *b, input_choices *c)
{
	unsigned kind = (unsigned)input_choose_front(c, b->n_thread_ops);
	memset(call, 0, sizeof *call);
	call->thread = thread;
	call->op = b->thread_ops[kind];
	decode_args(call, &t->ops[call->op], c);
	call->pending = 1;
}

/* The init and post parts, when the marker says they follow (format above). */
static void decode_parts(input_scenario *s, const weft_target *t, const input_bounds *b,
			 input_choices *c)
{
	s->n_init = s->n_post = 0;
	if (b->program || b->n_thread_ops == 0 || input_peek_front(c) != INPUT_PARTS_MARKER)
		return;
	input_take_front(c);
	s->n_init = (unsigned)input_choose_front(c, INPUT_MAX_PART_OPS + 1);
	s->n_post = (unsigned)input_choose_front(c, INPUT_MAX_PART_OPS + 1);
	for (unsigned i = 0; i < s->n_init; i++)
		decode_part_call(&s->init[i], s->n_threads, t, b, c);
	for (unsigned i = 0; i < s->n_post; i++)
		decode_part_call(&s->post[i], s->n_threads, t, b, c);
}

void input_scenario_decode(input_scenario *s, const weft_target *t,
			     const input_bounds *b, input_choices *c)
{
	group_owners owners = { .n = 0 };
	s->n_calls = 0;
	s->n_plan = 0;
	s->n_data = 0;
	unsigned th = 0;
	for (int more = 1; th < b->max_threads && (more || th < b->min_threads); th++)
		more = decode_thread(s, th, t, b, &owners, c);
	s->n_threads = th;
	s->first_call[th] = s->n_calls;
	s->first_plan[s->n_calls] = s->n_plan;
	decode_parts(s, t, b, c);
}

/* n, but at most the capacity `cap` (a count past it would be a bug elsewhere: copy no more) */
static size_t upto(unsigned n, size_t cap)
{
	return n < cap ? n : cap;
}

/* (an empty part is most scenarios' init, post, plan and data: no call for it) */
#define COPY_USED(field, n)                                                                  \
	do {                                                                                 \
		size_t used_ = upto(n, sizeof src->field / sizeof *src->field);            \
		if (used_)                                                                   \
			memcpy(dst->field, src->field, used_ * sizeof *src->field);          \
	} while (0)

void input_scenario_copy(input_scenario *dst, const input_scenario *src)
{
	if (dst == src)
		return;
	dst->n_threads = src->n_threads;
	dst->n_calls = src->n_calls;
	dst->n_plan = src->n_plan;
	dst->n_init = src->n_init;
	dst->n_post = src->n_post;
	dst->n_data = src->n_data;
	/* first_call over its span: explore's same_scenario compares that */
	memcpy(dst->first_call, src->first_call,
	       input_scenario_first_call_span(src) * sizeof src->first_call[0]);
	COPY_USED(calls, src->n_calls);
	COPY_USED(first_plan, src->n_calls + 1);
	COPY_USED(plan, src->n_plan);
	COPY_USED(init, src->n_init);
	COPY_USED(post, src->n_post);
	COPY_USED(data, src->n_data);
}

void input_scenario_clear(input_scenario *s)
{
	s->n_threads = s->n_calls = s->n_plan = 0;
	s->n_init = s->n_post = s->n_data = 0;
	memset(s->first_call, 0, (WEFT_MAX_THREADS + 1) * sizeof s->first_call[0]);   /* its span */
	s->first_plan[0] = 0;
}

void input_scenario_list_program_threads(input_scenario *s, unsigned thread)
{
	while (s->n_threads <= thread && s->n_threads < INPUT_MAX_THREADS &&
	       s->n_calls < INPUT_MAX_CALLS) {
		weft_op_record *rec = &s->calls[s->n_calls];
		memset(rec, 0, sizeof *rec);
		rec->thread = s->n_threads;
		rec->op = 1;
		rec->pending = 1;
		s->first_call[s->n_threads++] = s->n_calls++;
		s->first_call[s->n_threads] = s->n_calls;
	}
}
