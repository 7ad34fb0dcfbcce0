/*
 * tests/test_keep_order.c - the race reversal that keeps the run's order
 * (mutate/keep_order.h).
 *
 * On the buggy counter (2-3 threads x 1-3 increments, random scenarios, each
 * run once following its plan):
 *   1. the order of the run with nothing reversed, followed from the start,
 *      repeats the run exactly (the same trace hash);
 *   2. with one pair reversed (mutate_flip_choose_far: e2 any later access
 *      to e1's object), e2 runs before e1, the other threads' accesses keep
 *      their order (thread by thread as before: the counter never branches
 *      on a value), each written schedule replays from its bytes, and some
 *      reversals lose an update;
 *   3. a pair is reversed only when the sequence holds it in that order
 *      (mutate_order_reverse of the same pair twice: the second refuses).
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "../input/scenario.h"
#include "../mutate/flip.h"
#include "../mutate/keep_order.h"
#include "../mutate/schedule_record.h"
#include "../runner/runner_internal.h"
#include "../search/explore_scenarios.h"
#include "../search/strategy_baselines.h"

#include "../targets/counter.c"

static int counted(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT;
}

/* The index of thread th's access number k (0-based) in t, or t->n. */
static size_t access_at(const sched_trace *t, unsigned th, uint32_t k)
{
	for (size_t i = 0; i < t->n; i++)
		if (counted(&t->events[i]) && t->events[i].thread == th && k-- == 0)
			return i;
	return t->n;
}

static uint32_t number_of(const sched_trace *t, size_t i)
{
	uint32_t k = 0;
	for (size_t j = 0; j < i; j++)
		k += counted(&t->events[j]) && t->events[j].thread == t->events[i].thread;
	return k;
}

/* The threads of t's accesses not made by `skip`, in order, into out; their count. */
static size_t others(const sched_trace *t, unsigned skip, uint8_t *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n && n < cap; i++)
		if (counted(&t->events[i]) && t->events[i].thread != skip)
			out[n++] = t->events[i].thread;
	return n;
}

static weft_runner *r;
static mutate_recorder rec;
static input_scenario s, plan;
static mutate_order order;
static uint8_t bytes[16384], before[4096], after[4096];

static void run_order(search_pos *pos, uint64_t seed, uint64_t follow)
{
	search_pos_init(pos, seed);
	search_pos_start(pos);
	static input_data data[INPUT_MAX_DATA];
	unsigned n_data = s.n_data;
	memcpy(data, s.data, n_data * sizeof data[0]);
	sched_strategy st = mutate_order_strategy(&order, runner_trace(r), pos, data, n_data,
						  &rec.n_data);
	rec.judge = 1;
	mutate_record_run(r, &s, &st, follow, &rec);
}

int main(void)
{
	r = weft_runner_new(weft_fuzz_target());
	REQUIRE(r, "weft_runner_new");
	search_scenario_source src;
	search_scenario_source_init(&src, weft_fuzz_target(), runner_bounds(r), 42, 2, 3, 3);
	unsigned tried = 0, same = 0, reversed = 0, kept = 0, replayed = 0, lost_update = 0,
		 refused = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		search_scenario_draw(&src, &s);
		memset(&rec, 0, sizeof rec);
		plan = s;
		uint64_t hash = mutate_record_run(r, &s, NULL, 0, &rec), h0 = rec.hash;
		(void)hash;
		search_pos pos;
		/* 1. nothing reversed, followed from the start */
		mutate_order_from_trace(&order, runner_trace(r));
		run_order(&pos, seed, 0);
		same += rec.hash == h0;
		/* 2. one pair reversed, from the plan's run again */
		s = plan;
		mutate_record_run(r, &s, NULL, 0, &rec);
		const sched_trace *t = runner_trace(r);
		search_rng rng;
		search_rng_seed(&rng, seed, 3);
		mutate_flip f;
		if (!mutate_flip_choose_far(t, rec.decision_at, rec.decision_to, rec.decisions, &rng,
					    NULL, NULL, &f))
			continue;
		tried++;
		uint32_t k1 = number_of(t, f.first_event), k2 = number_of(t, f.second_event);
		size_t n_before = others(t, f.first, before, sizeof before);
		mutate_order_from_trace(&order, t);
		REQUIRE(mutate_order_reverse(&order, t, &f), "a chosen pair was not reversed");
		refused += !mutate_order_reverse(&order, t, &f);
		run_order(&pos, seed, f.follow);
		t = runner_trace(r);
		reversed += access_at(t, f.second, k2) < access_at(t, f.first, k1);
		size_t n_after = others(t, f.first, after, sizeof after);
		kept += n_after == n_before && memcmp(before, after, n_after) == 0;
		lost_update += rec.result.verdict != WEFT_PASS;
		size_t n = input_scenario_encode(&s, weft_fuzz_target(), runner_bounds(r), bytes,
						 sizeof bytes);
		REQUIRE(n != INPUT_ENCODE_FAILED, "a reversal could not be written");
		replayed += rec.lost == 0 && mutate_record_verify(r, &rec, bytes, n);
	}
	CHECK(same == 300, "%u of 300 runs repeated by their own order", same);
	CHECK(tried >= 250, "a pair to reverse in only %u of 300 runs", tried);
	CHECK(reversed == tried, "%u of %u reversals ran e2 first", reversed, tried);
	CHECK(kept == tried, "%u of %u reversals kept the other threads' order", kept, tried);
	CHECK(refused == tried, "%u of %u pairs reversed twice", tried - refused, tried);
	CHECK(replayed == tried, "%u of %u reversals replayed from their bytes", replayed, tried);
	CHECK(lost_update > 0, "no reversal of %u lost an update", tried);
	weft_runner_free(r);
	return check_summary("test_keep_order");
}
