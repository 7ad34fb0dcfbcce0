/*
 * tests/test_scenario_draw.c - explore's scenario draw skips the round trip
 * through the bytes (encode + decode) only where it changes nothing (issue 33,
 * search/explore_scenarios.h): for targets the check calls exact (operation
 * groups included: their refused draws are drawn again, as the encoder's
 * refusal did, and a target whose every draw is refused gets the empty
 * input's scenario), thousands of draws are the same scenarios, field by
 * field, with the generator left in the same state, as the draw before the
 * shortcuts (written out here: every call written, encoded, decoded); for
 * targets it does not call exact (an argument the format writes with more
 * than one byte or cannot write), skipping the bytes would give other
 * scenarios, so the check is what keeps the digests.
 */
#include <string.h>

#include "check.h"
#include "../input/choice.h"
#include "../search/explore_scenarios.h"

static int64_t op_none(void *instance, const int64_t *args)
{
	(void)instance, (void)args;
	return 0;
}

#define OP(nm, n, g, ...) { .name = nm, .run = op_none, .n_args = n, .group = g, .args = { __VA_ARGS__ } }

static const weft_op plain_ops[] = { OP("inc", 0, 0), OP("get", 0, 0) };
static const weft_op args_ops[] = {
	OP("put", 2, 0, { 0, 3 }, { -5, 5 }), OP("fixed", 1, 0, { 7, 7 }),
	OP("widest", 3, 0, { 0, 47 }, { -100, -53 }, { 1, 1 }), OP("none", 0, 0),
};
static const weft_op wide_ops[] = { OP("put", 1, 0, { 0, 48 }), OP("get", 0, 0) };
static const weft_op full_ops[] = { OP("put", 1, 0, { INT64_MIN, INT64_MAX }) };
static const weft_op group_ops[] = { OP("enq", 1, 0, { 0, 3 }), OP("deq", 0, 1), OP("peek", 0, 1) };
static const weft_op solo_ops[] = { OP("deq", 0, 1) };
static const weft_op wide_group_ops[] = { OP("enq", 1, 0, { 0, 1000 }), OP("deq", 0, 1) };

static const weft_target plain = { .name = "plain", .ops = plain_ops, .n_ops = 2 };
static const weft_target args_big = { .name = "args", .ops = args_ops, .n_ops = 4,
				      .min_threads = 1, .max_threads = WEFT_MAX_THREADS,
				      .max_ops_per_thread = WEFT_MAX_OPS };
static const weft_target wide = { .name = "wide", .ops = wide_ops, .n_ops = 2 };
static const weft_target full = { .name = "full", .ops = full_ops, .n_ops = 1,
				  .max_threads = 4, .max_ops_per_thread = 4 };
static const weft_target grouped = { .name = "grouped", .ops = group_ops, .n_ops = 3,
				     .max_threads = 4, .max_ops_per_thread = 4 };
static const weft_target solo = { .name = "solo", .ops = solo_ops, .n_ops = 1 };   /* 2+ threads: never admissible */
static const weft_target wide_grouped = { .name = "wide_grouped", .ops = wide_group_ops, .n_ops = 2 };

static int same_call(const weft_op_record *a, const weft_op_record *b)
{
	return a->thread == b->thread && a->op == b->op &&
	       memcmp(a->args, b->args, sizeof a->args) == 0 && a->result == b->result &&
	       a->invoked_at == b->invoked_at && a->returned_at == b->returned_at &&
	       a->pending == b->pending;
}

/* Everything a draw sets that a run or explore's same_scenario reads. */
static int same_draw(const input_scenario *a, const input_scenario *b)
{
	if (a->n_threads != b->n_threads || a->n_calls != b->n_calls || a->n_plan != b->n_plan ||
	    a->n_init != b->n_init || a->n_post != b->n_post || a->n_data != b->n_data ||
	    memcmp(a->first_call, b->first_call,
		   input_scenario_first_call_span(a) * sizeof a->first_call[0]) != 0)
		return 0;
	for (unsigned i = 0; i < a->n_calls; i++)
		if (!same_call(&a->calls[i], &b->calls[i]))
			return 0;
	for (unsigned i = 0; i <= a->n_calls; i++)
		if (a->first_plan[i] != b->first_plan[i])
			return 0;
	return 1;
}

/*
 * The draw as it was before the shortcuts (the reference): every call
 * written, the whole draw encoded, refused ones drawn again, the bytes decoded.
 */
static int64_t reference_arg(search_rng *rng, weft_range r)
{
	if (r.max <= r.min)
		return r.min;
	uint64_t width = (uint64_t)r.max - (uint64_t)r.min + 1;
	uint64_t v = width ? search_rng_below(rng, width) : search_rng_next(rng);
	return (int64_t)((uint64_t)r.min + v);
}

static void reference_raw(search_scenario_source *src, input_scenario *raw)
{
	const input_bounds *b = src->bounds;
	input_scenario_clear(raw);
	raw->n_threads = src->min_threads +
			 (unsigned)search_rng_below(&src->rng, src->max_threads - src->min_threads + 1);
	for (unsigned t = 0; t < raw->n_threads; t++) {
		raw->first_call[t] = raw->n_calls;
		unsigned ops = 1 + (unsigned)search_rng_below(&src->rng, src->max_ops);
		for (unsigned i = 0; i < ops; i++) {
			raw->first_plan[raw->n_calls] = 0;
			weft_op_record *call = &raw->calls[raw->n_calls++];
			memset(call, 0, sizeof *call);
			call->thread = t;
			call->op = b->thread_ops[search_rng_below(&src->rng, b->n_thread_ops)];
			const weft_op *op = &src->target->ops[call->op];
			for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
				call->args[a] = reference_arg(&src->rng, op->args[a]);
			call->pending = 1;
		}
	}
	raw->first_call[raw->n_threads] = raw->n_calls;
	raw->first_plan[raw->n_calls] = 0;
}

static void reference_draw(search_scenario_source *src, input_scenario *s)
{
	uint8_t bytes[4096];
	size_t n = 0;
	for (int tries = 0; tries < 16; tries++) {
		reference_raw(src, s);
		n = input_scenario_encode(s, src->target, src->bounds, bytes, sizeof bytes);
		if (n != INPUT_ENCODE_FAILED)
			break;
		n = 0;
	}
	input_choices c;
	input_choices_init(&c, bytes, n);
	input_scenario_decode(s, src->target, src->bounds, &c);
}

/* Draws from one seed, the reference's and the source's: how many differ (the generator too). */
static unsigned differences(const weft_target *t, int direct, unsigned draws)
{
	static input_scenario reference, drawn;
	input_bounds b = input_bounds_of(t);
	search_scenario_source ref, src;
	search_scenario_source_init(&ref, t, &b, 33, b.min_threads, b.max_threads, b.max_ops);
	search_scenario_source_init(&src, t, &b, 33, b.min_threads, b.max_threads, b.max_ops);
	src.direct = direct;
	unsigned differ = 0;
	for (unsigned i = 0; i < draws; i++) {
		reference_draw(&ref, &reference);
		search_scenario_draw(&src, &drawn);
		differ += !same_draw(&reference, &drawn) ||
			  memcmp(&ref.rng, &src.rng, sizeof ref.rng) != 0;
	}
	return differ;
}

static int exact(const weft_target *t)
{
	input_bounds b = input_bounds_of(t);
	return search_scenario_draw_is_exact(t, &b);
}

static void test_exact_targets_skip_the_bytes(void)
{
	CHECK(exact(&plain) && exact(&args_big) && exact(&grouped) && exact(&solo),
	      "one-byte choices: exact, groups or not");
	search_scenario_source src;
	input_bounds b = input_bounds_of(&plain);
	search_scenario_source_init(&src, &plain, &b, 1, 2, 3, 3);
	CHECK(src.direct, "an exact target's source skips the bytes");
	CHECK(differences(&plain, 1, 5000) == 0, "no args: the same draws");
	CHECK(differences(&args_big, 1, 5000) == 0, "args up to 48 values, 16 x 8: the same draws");
	CHECK(differences(&grouped, 1, 5000) == 0, "groups: the same draws, the same redraws");
	CHECK(differences(&solo, 1, 200) == 0, "every draw refused: the empty input's scenario");
}

static void test_other_targets_keep_the_bytes(void)
{
	CHECK(!exact(&wide), "an argument of 49 values may be written as two choices");
	CHECK(!exact(&full), "a full-width argument may not be writable");
	CHECK(!exact(&wide_grouped), "a wide argument, groups: not exact");
	CHECK(differences(&wide, 0, 500) == 0 && differences(&full, 0, 500) == 0 &&
	      differences(&wide_grouped, 0, 500) == 0, "kept: the same draws");
	CHECK(differences(&grouped, 0, 2000) == 0 && differences(&solo, 0, 200) == 0,
	      "through the bytes, refused draws not written: the same draws");
	/* what the check guards against: without the bytes, other scenarios */
	CHECK(differences(&full, 1, 500) > 0, "an unwritable argument is drawn again");
}

int main(void)
{
	test_exact_targets_skip_the_bytes();
	test_other_targets_keep_the_bytes();
	return check_summary("test_scenario_draw");
}
