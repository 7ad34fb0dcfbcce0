/*
 * tests/test_scenario_draw.c - explore's scenario draw skips the round trip
 * through the bytes (encode + decode) only where it changes nothing (issue 33,
 * search/explore_scenarios.h): for targets the check calls exact (operation
 * groups included: their refused draws are drawn again, as the encoder's
 * refusal did, and a target whose every draw is refused gets the empty
 * input's scenario), thousands of draws are the same scenarios, field by
 * field, with the generator left in the same state, as through the bytes; for
 * targets it does not call exact (an argument the format writes with more
 * than one byte or cannot write), skipping the bytes would give other
 * scenarios, so the check is what keeps the digests.
 */
#include <string.h>

#include "check.h"
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
	    memcmp(a->first_call, b->first_call, sizeof a->first_call) != 0)
		return 0;
	for (unsigned i = 0; i < a->n_calls; i++)
		if (!same_call(&a->calls[i], &b->calls[i]))
			return 0;
	for (unsigned i = 0; i <= a->n_calls; i++)
		if (a->first_plan[i] != b->first_plan[i])
			return 0;
	return 1;
}

/* Draws with and without the bytes from one seed: how many differ (the generator too). */
static unsigned differences(const weft_target *t, int direct, unsigned draws)
{
	static input_scenario via_bytes, skipped;
	input_bounds b = input_bounds_of(t);
	search_scenario_source slow, fast;
	search_scenario_source_init(&slow, t, &b, 33, b.min_threads, b.max_threads, b.max_ops);
	search_scenario_source_init(&fast, t, &b, 33, b.min_threads, b.max_threads, b.max_ops);
	slow.direct = 0;
	fast.direct = direct;
	unsigned differ = 0;
	for (unsigned i = 0; i < draws; i++) {
		search_scenario_draw(&slow, &via_bytes);
		search_scenario_draw(&fast, &skipped);
		differ += !same_draw(&via_bytes, &skipped) ||
			  memcmp(&slow.rng, &fast.rng, sizeof slow.rng) != 0;
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
	/* what the check guards against: without the bytes, other scenarios */
	CHECK(differences(&full, 1, 500) > 0, "an unwritable argument is drawn again");
}

int main(void)
{
	test_exact_targets_skip_the_bytes();
	test_other_targets_keep_the_bytes();
	return check_summary("test_scenario_draw");
}
