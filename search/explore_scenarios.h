/*
 * search/explore_scenarios.h - random scenarios for explore mode and the
 * stress runner, drawn from a seed and passed through the fuzzer's own decoder
 * (scenario.c), so every strategy runs the same kind of scenarios as fuzzing.
 *
 * Draw: a thread count uniform in [min_threads, max_threads], for each thread
 * an operation count uniform in [1, max_ops], each operation uniform among
 * the operations a thread may be given, each argument uniform in its range.
 * The draw is written in the input format (encode.c) and decoded again
 * (scenario.c): the decoder's rules apply (an operation of a group another
 * thread owns becomes the next one this thread may run, and so on), and the
 * result is exactly a scenario the fuzzer could have run.  No plan: the
 * strategy decides the schedule.
 *
 * Why not random bytes straight into the decoder: a random byte ends an
 * operation's control bytes with probability 3/256, so almost every random
 * input decodes to one operation per thread followed by dozens of
 * preemptions.  That is what the `bytes` strategy runs (the fuzzer's encoding
 * without the fuzzer); the scenario source gives every scenario shape within
 * the bounds a fair chance instead.
 *
 * A program target (WEFT_TARGET_PROGRAM) has one scenario: main().
 *
 * Cost (issue 33): when every choice a draw writes is one plain byte
 * (search_scenario_draw_is_exact: kinds and arguments of fewer than 48
 * values), the round trip through the bytes is skipped: the encoder would
 * refuse a draw only for its groups (input_scenario_groups_admissible, asked
 * directly) and the decoder would give any other back unchanged, so the
 * scenarios, and every digest, are the same; the round trip was a tenth of an
 * execution of a small target, and a quarter of the SPSC ring's (its groups
 * refuse many draws).  `direct` off forces the bytes (test_scenario_draw
 * compares the two).
 */
#ifndef WEFT_SEARCH_EXPLORE_SCENARIOS_H
#define WEFT_SEARCH_EXPLORE_SCENARIOS_H

#include "../input/scenario.h"
#include "strategy_common.h"

typedef struct search_scenario_source {
	search_rng rng;
	const weft_target *target;
	const input_bounds *bounds;
	unsigned min_threads, max_threads, max_ops;
	int direct;   /* skip the bytes: search_scenario_draw_is_exact */
} search_scenario_source;

/* Thread and operation bounds are clamped to the target's. */
void search_scenario_source_init(search_scenario_source *src, const weft_target *target,
				  const input_bounds *bounds, uint64_t seed,
				  unsigned min_threads, unsigned max_threads, unsigned max_ops);
void search_scenario_draw(search_scenario_source *src, input_scenario *s);
/* 1 when encode + decode give every draw for this target back unchanged. */
int search_scenario_draw_is_exact(const weft_target *t, const input_bounds *b);

#endif /* WEFT_SEARCH_EXPLORE_SCENARIOS_H */
