/*
 * tests/test_flip.c - the mutator's race reversal (mutate/flip.h).
 *
 *   1. On a hand-made trace, mutate_flip_choose names only real races: two
 *      accesses to one object by different threads with a write among them,
 *      neither thread touching it in between (two loads are no race; a race
 *      whose first access was not run by the logged decision before it is
 *      not reversed), with the decision to replay up to and the second
 *      thread's access count; every race of the trace is drawn; and a race
 *      whose reversal makes a reads-from pair not seen yet is always chosen.
 *   2. On the buggy counter (2-3 threads x 1-3 increments, random scenarios),
 *      from a run following the scenario's plan: replaying it up to the
 *      chosen decision and then running the second thread first (POS with a
 *      lead) makes the second access happen before the first in every run
 *      (no thread here ever blocks), each written schedule replays from its
 *      bytes exactly, and some reversals are the lost update.
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "../input/scenario.h"
#include "../mutate/flip.h"
#include "../mutate/schedule_record.h"
#include "../runner/feedback.h"
#include "../runner/runner_internal.h"
#include "../search/explore_scenarios.h"
#include "../search/strategy_baselines.h"

#include "../targets/counter.c"

static sched_event ev(unsigned thread, unsigned kind, const void *addr)
{
	sched_event e;
	memset(&e, 0, sizeof e);
	e.kind = (uint8_t)kind;
	e.thread = (uint8_t)thread;
	e.addr = addr;
	return e;
}

static int only_4_to_1_unseen(void *ctx, uint32_t id)
{
	(void)ctx;
	return id != runner_feedback_rf_id(104, 101);
}

/* 1. The choice on a hand-made trace: every event after a decision of its own thread. */
static void choice_on_a_trace(void)
{
	static int x, y, z;
	sched_event events[] = {
		ev(0, WEFT_ACCESS_STORE, &x),   /* 0: races with 2 */
		ev(0, WEFT_ACCESS_LOAD, &y),    /* 1: races with 4 */
		ev(1, WEFT_ACCESS_LOAD, &x),    /* 2 */
		ev(1, WEFT_ACCESS_LOAD, &z),    /* 3: with 5, but its decision ran thread 0 */
		ev(1, WEFT_ACCESS_STORE, &y),   /* 4 */
		ev(0, WEFT_ACCESS_STORE, &z),   /* 5 */
		ev(0, SCHED_EV_OP_END, NULL),   /* 6 */
	};
	sched_trace t = { events, sizeof events / sizeof events[0], 0 };
	uint32_t at[] = { 0, 1, 2, 3, 4, 5 };
	uint8_t to[] = { 0, 0, 1, 0, 1, 0 };   /* decision 4 (before event 3) "ran" 0 */
	unsigned seen[2] = { 0, 0 }, other = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		search_rng rng;
		search_rng_seed(&rng, seed, 1);
		mutate_flip f;
		if (!mutate_flip_choose(&t, at, to, 6, &rng, NULL, NULL, &f)) {
			other++;
			continue;
		}
		if (f.first_event == 0 && f.second_event == 2 && f.follow == 0 && f.first == 0 &&
		    f.second == 1 && f.accesses == 1)
			seen[0]++;
		else if (f.first_event == 1 && f.second_event == 4 && f.follow == 1 &&
			 f.first == 0 && f.second == 1 && f.accesses == 3)
			seen[1]++;
		else
			other++;
	}
	CHECK(other == 0, "%u of 200 choices were not one of the two races", other);
	CHECK(seen[0] > 0 && seen[1] > 0, "races drawn: %u and %u", seen[0], seen[1]);

	/* a reversal that makes an unseen reads-from pair is preferred: event 1 would
	   read event 4's store (race 2); race 1's load would read the initial x */
	for (size_t k = 0; k < t.n; k++)
		events[k].site_id = 100 + (uint32_t)k;
	unsigned second = 0;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		search_rng rng;
		search_rng_seed(&rng, seed, 1);
		mutate_flip f;
		second += mutate_flip_choose(&t, at, to, 6, &rng, only_4_to_1_unseen, NULL, &f) &&
			  f.first_event == 1;
	}
	CHECK(second == 50, "the unseen reads-from's race chosen %u of 50 times", second);

	/* the only pair is two loads: nothing to reverse */
	sched_event loads[] = { ev(0, WEFT_ACCESS_LOAD, &x), ev(1, WEFT_ACCESS_LOAD, &x),
				ev(1, SCHED_EV_OP_END, NULL) };
	sched_trace tl = { loads, 3, 0 };
	uint32_t at2[] = { 0, 1 };
	uint8_t to2[] = { 0, 1 };
	search_rng rng;
	search_rng_seed(&rng, 7, 1);
	mutate_flip f;
	CHECK(!mutate_flip_choose(&tl, at2, to2, 2, &rng, NULL, NULL, &f), "two loads taken for a race");
}

/* The index of thread th's n-th counted access (1-based) in t, or t->n. */
static size_t nth_access(const sched_trace *t, unsigned th, uint32_t n)
{
	uint32_t seen = 0;
	for (size_t k = 0; k < t->n; k++) {
		const sched_event *e = &t->events[k];
		if (e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT && e->thread == th && ++seen == n)
			return k;
	}
	return t->n;
}

static uint32_t accesses_before(const sched_trace *t, unsigned th, size_t end)
{
	uint32_t n = 0;
	for (size_t k = 0; k < end; k++)
		n += t->events[k].kind > 0 && t->events[k].kind < WEFT_ACCESS_KIND_COUNT &&
		     t->events[k].thread == th;
	return n;
}

/* 2. Reversals on the buggy counter. */
static void reversal_on_the_counter(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	REQUIRE(r, "weft_runner_new");
	static mutate_recorder rec;
	static input_scenario s;
	static uint8_t bytes[16384];
	search_scenario_source src;
	search_scenario_source_init(&src, weft_fuzz_target(), runner_bounds(r), 42, 2, 3, 3);
	unsigned tried = 0, reversed = 0, replayed = 0, lost_update = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		search_scenario_draw(&src, &s);
		memset(&rec, 0, sizeof rec);
		mutate_record_run(r, &s, NULL, 0, &rec);   /* the plan's own run */
		search_rng rng;
		search_rng_seed(&rng, seed, 3);
		mutate_flip f;
		if (!mutate_flip_choose(runner_trace(r), rec.decision_at, rec.decision_to,
					rec.decisions, &rng, NULL, NULL, &f))
			continue;
		tried++;
		uint32_t a_before = accesses_before(runner_trace(r), f.first, f.first_event);
		search_pos pos;
		search_pos_init(&pos, seed);
		search_pos_start(&pos);
		search_pos_lead(&pos, f.second, f.accesses);
		sched_strategy st = search_pos_strategy(&pos);
		rec.judge = 1;
		mutate_record_run(r, &s, &st, f.follow, &rec);
		const sched_trace *t = runner_trace(r);
		reversed += nth_access(t, f.second, f.accesses) < nth_access(t, f.first, a_before + 1);
		lost_update += rec.result.verdict != WEFT_PASS;
		size_t n = input_scenario_encode(&s, weft_fuzz_target(), runner_bounds(r), bytes,
						 sizeof bytes);
		REQUIRE(n != INPUT_ENCODE_FAILED, "a reversal could not be written");
		replayed += rec.lost == 0 && mutate_record_verify(r, &rec, bytes, n);
	}
	CHECK(tried >= 250, "a race to reverse in only %u of 300 runs", tried);
	CHECK(reversed == tried, "%u of %u reversals ran the second access first", reversed, tried);
	CHECK(replayed == tried, "%u of %u reversals replayed from their bytes", replayed, tried);
	CHECK(lost_update > 0, "no reversal of %u lost an update", tried);
	weft_runner_free(r);
}

int main(void)
{
	choice_on_a_trace();
	reversal_on_the_counter();
	return check_summary("test_flip");
}
