/*
 * tests/test_scenario_copy.c - a scenario is copied and cleared by its counts,
 * not its capacity (issue 33: 22 KB per execution was half the fixed cost),
 * and nothing a previous, bigger scenario left behind its counts reaches an
 * execution: the same scenario gives the same run, report and verdict after a
 * big one as in a fresh runner, and an explorer run twice gives the same
 * digest as a fresh one.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "check.h"
#include "../input/choice.h"
#include "../input/scenario.h"
#include "../runner/runner_internal.h"
#include "../search/explore.h"
#include "../search/strategy_baselines.h"
#include "weft/run.h"
#define WEFT_DRAIN_QUEUE_FIXED
#include "../targets/drain_queue.c"

/* t0: drain(); t1: enq(3); 'S' 2 1; init: enq(1), enq(2); post: drain() (test_parts.c) */
static const uint8_t with_parts[] = { 0x01, 0x00, 0x00, 0x02, 0x00, 0x53, 0x02, 0x01,
				      0x00, 0x00, 0x00, 0x01, 0x01 };

static void decode(input_scenario *s, const uint8_t *b, size_t n)
{
	input_bounds bounds = input_bounds_of(&dq_target);
	input_choices c;
	input_choices_init(&c, b, n);
	input_scenario_decode(s, &dq_target, &bounds, &c);
}

/* Bytes that decode to many threads, calls and preemptions (a fixed pseudo-random string). */
static size_t big_input(uint8_t *out, size_t cap)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < cap; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		out[i] = (uint8_t)(x >> 56);
	}
	return cap;
}

static int filled(const void *p, size_t n, uint8_t byte)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i] != byte)
			return 0;
	return 1;
}

/* The used part is copied, the rest of the destination is not touched. */
static void test_copy_by_counts(void)
{
	static input_scenario src, dst;
	decode(&src, with_parts, sizeof with_parts);
	src.n_data = 2;
	src.data[0] = (input_data){ 3, 1 };
	src.data[1] = (input_data){ 2, 0 };
	memset(&dst, 0xab, sizeof dst);
	input_scenario_copy(&dst, &src);
	CHECK(dst.n_threads == src.n_threads && dst.n_calls == src.n_calls &&
	      dst.n_plan == src.n_plan && dst.n_init == 2 && dst.n_post == 1 && dst.n_data == 2,
	      "the counts");
	CHECK(memcmp(dst.calls, src.calls, src.n_calls * sizeof *src.calls) == 0 &&
	      memcmp(dst.first_plan, src.first_plan, (src.n_calls + 1) * sizeof(unsigned)) == 0 &&
	      memcmp(dst.first_call, src.first_call,
		     input_scenario_first_call_span(&src) * sizeof(unsigned)) == 0 &&
	      memcmp(dst.init, src.init, 2 * sizeof *src.init) == 0 &&
	      memcmp(dst.post, src.post, sizeof *src.post) == 0 &&
	      memcmp(dst.data, src.data, 2 * sizeof *src.data) == 0, "the used parts");
	CHECK(filled(&dst.calls[src.n_calls], sizeof dst.calls[0], 0xab) &&
	      filled(&dst.plan[src.n_plan], sizeof dst.plan[0], 0xab) &&
	      filled(&dst.init[2], sizeof dst.init[0], 0xab) &&
	      filled(&dst.data[2], sizeof dst.data[0], 0xab) &&
	      filled(&dst.calls[INPUT_MAX_CALLS - 1], sizeof dst.calls[0], 0xab) &&
	      filled(&dst.first_call[WEFT_MAX_THREADS + 1],
		     (INPUT_MAX_THREADS - WEFT_MAX_THREADS) * sizeof(unsigned), 0xab),
	      "past the counts: not copied (22 KB per execution otherwise)");
	input_scenario_clear(&dst);
	CHECK(dst.n_threads == 0 && dst.n_calls == 0 && dst.n_plan == 0 && dst.n_init == 0 &&
	      dst.n_post == 0 && dst.n_data == 0 &&
	      filled(dst.first_call, (WEFT_MAX_THREADS + 1) * sizeof(unsigned), 0),
	      "cleared: empty, first_call 0 over its span");
}

/* One execution of `s` under a random walk seeded `seed`; its result and report. */
static weft_verdict run_walk(weft_runner *r, const input_scenario *s, uint64_t seed,
			     weft_result *res, char **report)
{
	static search_random_walk walk;
	search_random_walk_init(&walk, seed);
	search_random_walk_start(&walk);
	weft_verdict v = runner_run_scenario(r, s, search_random_walk_strategy(&walk), res);
	size_t size = 0;
	FILE *out = open_memstream(report, &size);
	weft_runner_report(r, out);
	fclose(out);
	return v;
}

/* A small scenario after big ones runs as in a fresh runner. */
static void test_no_stale_scenario(void)
{
	static input_scenario small;
	static uint8_t big[600];
	uint8_t simplest[] = { 0x00 };
	decode(&small, simplest, sizeof simplest);
	REQUIRE(small.n_threads == 2 && small.n_plan == 0 && small.n_init == 0,
		"the simplest scenario: 2 threads, no plan, no parts");
	weft_runner *used = weft_runner_new(&dq_target), *fresh = weft_runner_new(&dq_target);
	REQUIRE(used && fresh, "runners");
	weft_result res;
	weft_runner_run(used, big, big_input(big, sizeof big), &res);
	const input_scenario *ran = runner_scenario(used);
	CHECK(ran->n_calls >= 2 && ran->n_plan > 10, "the big input: %u calls, %u preemptions",
	      ran->n_calls, ran->n_plan);
	weft_runner_run(used, with_parts, sizeof with_parts, &res);
	CHECK(runner_scenario(used)->n_init == 2, "then one with parts");
	for (uint64_t seed = 1; seed <= 20; seed++) {
		weft_result a, b;
		char *ra = NULL, *rb = NULL;
		weft_verdict va = run_walk(used, &small, seed, &a, &ra);
		weft_verdict vb = run_walk(fresh, &small, seed, &b, &rb);
		CHECK(va == vb && a.trace_hash == b.trace_hash && a.steps == b.steps &&
		      a.n_threads == b.n_threads && a.n_ops == b.n_ops && strcmp(ra, rb) == 0,
		      "seed %llu: after big ones as in a fresh runner:\n%s\nfresh:\n%s",
		      (unsigned long long)seed, ra, rb);
		free(ra);
		free(rb);
		/* and the bigger one again in between */
		weft_runner_run(used, big, sizeof big, &res);
	}
	weft_runner_free(used);
	weft_runner_free(fresh);
}

/* An explorer run twice, and after other runs, gives a fresh explorer's digest. */
static void test_explorer_reuse(void)
{
	search_explore_kind kinds[] = { SEARCH_EXPLORE_RANDOM, SEARCH_EXPLORE_PCT,
					SEARCH_EXPLORE_UNIFORM, SEARCH_EXPLORE_POS };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		search_explore_options o = { .kind = kinds[k], .seed = 7, .depth = 3,
					     .max_executions = 300, .min_threads = 1,
					     .max_threads = 16, .max_ops = 8, .schedules = 2 };
		search_explore_options other = o;
		other.seed = 8;
		other.max_threads = 3;
		weft_runner *r1 = weft_runner_new(&dq_target), *r2 = weft_runner_new(&dq_target);
		search_explorer *x1 = search_explorer_new(r1), *x2 = search_explorer_new(r2);
		REQUIRE(r1 && r2 && x1 && x2, "explorers");
		search_explore_stats s1, s2, s3;
		char msg[256];
		search_explore(x1, &o, &s1, msg, sizeof msg);
		search_explore(x2, &other, &s2, msg, sizeof msg);
		search_explore(x2, &o, &s3, msg, sizeof msg);
		CHECK(s1.executions == s3.executions && s1.digest == s3.digest &&
		      s1.scenarios == s3.scenarios,
		      "kind %zu: reused explorer %llx, fresh %llx", k,
		      (unsigned long long)s3.digest, (unsigned long long)s1.digest);
		search_explorer_free(x1);
		search_explorer_free(x2);
		weft_runner_free(r1);
		weft_runner_free(r2);
	}
}

int main(void)
{
	test_copy_by_counts();
	test_no_stale_scenario();
	test_explorer_reuse();
	return check_summary("test_scenario_copy");
}
