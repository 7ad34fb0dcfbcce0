/*
 * tests/test_record_data.c - a run that follows a decoded input makes the
 * input's data choices (mutate/schedule_record.h, issue 33).
 *
 * The mutator measures an input it did not just make by running its scenario
 * under the recorder with no inner strategy, and the race reversal and the
 * prefix walk replay part of an input the same way.  The decoder leaves the
 * data choices (which store a relaxed load reads) in the bytes, at the back;
 * the recorder once answered 0 to each, so under weak memory most measuring
 * runs were not the input's run (82% on peterson_tso), and a mutant kept
 * none of the input's stale reads.  Here, on the relaxed SPSC ring (C11
 * model, the default): inputs sampled by a random walk, many with a stale
 * read, are encoded, decoded and run under the recorder following their plan
 * with the reader past the scenario (rec.back): each run's trace hash is the
 * replay's (mutate_record_verify), and the recorded data choices are the
 * sample's.  Without rec.back the same runs differ (the test can fail).
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "../input/choice.h"
#include "../input/scenario.h"
#include "../mutate/schedule_record.h"
#include "../runner/runner_internal.h"
#include "../search/explore_scenarios.h"
#include "../search/strategy_baselines.h"

#include "../targets/spsc_relaxed.c"

#define SAMPLES 400

static int has_nonzero_data(const input_scenario *s)
{
	for (unsigned i = 0; i < s->n_data; i++)
		if (s->data[i].value != 0)
			return 1;
	return 0;
}

static int same_data(const input_scenario *a, const mutate_recorder *r)
{
	unsigned n = a->n_data > r->n_data ? a->n_data : r->n_data;
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = i < a->n_data ? a->data[i].value : 0;
		uint64_t y = i < r->n_data ? r->data[i].value : 0;
		if (x != y)
			return 0;
	}
	return 1;
}

/* Follow the decoded bytes under the recorder, with or without the back reader. */
static int follows(weft_runner *r, mutate_recorder *rec, input_scenario *s,
		   const uint8_t *bytes, size_t n, int with_back)
{
	input_choices c;
	input_choices_init(&c, bytes, n);
	input_scenario_decode(s, weft_fuzz_target(), runner_bounds(r), &c);
	rec->back = with_back ? &c : NULL;
	rec->judge = 0;
	mutate_record_run(r, s, NULL, 0, rec);
	rec->back = NULL;
	return mutate_record_verify(r, rec, bytes, n);
}

int main(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	REQUIRE(r, "weft_runner_new");
	static mutate_recorder rec;
	static input_scenario sample, s;
	static uint8_t bytes[16384];
	search_scenario_source src;
	search_scenario_source_init(&src, weft_fuzz_target(), runner_bounds(r), 7, 2, 2, 4);
	search_random_walk walk;
	search_random_walk_init(&walk, 0);
	unsigned stale = 0, followed = 0, same = 0, without = 0;
	for (uint64_t seed = 1; seed <= SAMPLES; seed++) {
		search_scenario_draw(&src, &sample);
		search_random_walk_reseed(&walk, seed);
		search_random_walk_start(&walk);
		sched_strategy st = search_random_walk_strategy(&walk);
		rec.judge = 0;
		rec.back = NULL;
		mutate_record_run(r, &sample, &st, 0, &rec);
		if (rec.lost || !has_nonzero_data(&sample))
			continue;
		size_t n = input_scenario_encode(&sample, weft_fuzz_target(), runner_bounds(r), bytes,
						 sizeof bytes);
		if (n == INPUT_ENCODE_FAILED)
			continue;
		stale++;
		followed += follows(r, &rec, &s, bytes, n, 1);
		same += same_data(&sample, &rec);
		without += follows(r, &rec, &s, bytes, n, 0);
	}
	CHECK(stale >= 20, "only %u of %d samples read a stale value", stale, SAMPLES);
	CHECK(followed == stale, "%u of %u runs following the bytes were their replay", followed,
	      stale);
	CHECK(same == stale, "%u of %u runs made the sample's data choices", same, stale);
	CHECK(without < stale, "without the reader all %u runs were the replay: the test is blind",
	      stale);
	weft_runner_free(r);
	return check_summary("test_record_data");
}
