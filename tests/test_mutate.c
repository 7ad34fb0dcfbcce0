/*
 * tests/test_mutate.c - the structure-aware mutator (mutate/mutate.c,
 * weft/mutate.h) on the buggy Treiber stack: same bytes and seed, same
 * output; every sampled schedule replays from its bytes exactly (trace hashes
 * compared, no mismatch, no switch lost); the mutator's executions leave the
 * runner as they found it (the next run's trace, verdict, features and the
 * stats are those of a run without them); a shrinking request goes to the
 * engine; outputs fit max_size; and chained mutations find the ABA bug.
 * A sample the mutator judged and that the fuzzer takes instead of running it
 * (weft_mutator_take) has the verdict, trace and features a real run of its
 * bytes has, and counts once; a failing sample and anything else are not taken.
 * The mutator adapts (mutate/bandit.h), so "same output" means same calls in
 * the same order from two fresh mutators.  The empty input (the simplest
 * scenario) is only ever given a fresh scenario, never a plan edit, which
 * is made later on richer inputs (allowed_arms in mutate.c).  A plan edit
 * or race reversal of the mutant just made and taken (libFuzzer mutates its
 * last mutant again) runs nothing to measure it: that run is the mutant's
 * (issue 33); no passing mutant runs twice.
 */
#include <string.h>

#include "check.h"
#include "weft/mutate.h"
#include "weft/run.h"

#include "../targets/treiber_stack.c"

#define CAP 4096
#define CHAIN 3000

static unsigned engine_calls;

/* A stand-in for LLVMFuzzerMutate: drops the last byte, and counts. */
static size_t fake_engine(uint8_t *data, size_t size, size_t max_size)
{
	(void)data;
	engine_calls++;
	return size > max_size ? max_size : size ? size - 1 : 0;
}

static void same_outputs(weft_runner *r)
{
	weft_mutator *a = weft_mutator_new(r, 0), *b = weft_mutator_new(r, 0);
	REQUIRE(a && b, "out of memory");
	uint8_t x[CAP], y[CAP];
	unsigned differ = 0;
	const uint8_t start[] = { 0x01, 0x05, 0x01, 0x02, 0x00, 0x01 };
	for (unsigned seed = 1; seed <= 300; seed++) {
		memcpy(x, start, sizeof start);
		memcpy(y, start, sizeof start);
		size_t nx = weft_mutate(a, x, sizeof start, CAP, seed, fake_engine);
		size_t ny = weft_mutate(b, y, sizeof start, CAP, seed, fake_engine);
		differ += nx != ny || memcmp(x, y, nx) != 0;
	}
	CHECK(differ == 0, "%u of 300 seeds gave different outputs for the same bytes", differ);
	weft_mutator_free(a);
	weft_mutator_free(b);
}

/* Chained like a fuzzer: each output is the next input; a failure restarts from empty. */
static void chain(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 1);
	REQUIRE(m, "out of memory");
	uint8_t buf[CAP];
	size_t n = 0;
	unsigned failures = 0, too_long = 0;
	for (unsigned i = 1; i <= CHAIN; i++) {
		n = weft_mutate(m, buf, n, CAP, i * 2654435761u, fake_engine);
		too_long += n > CAP;
		if (weft_runner_run(r, buf, n, NULL) != WEFT_PASS) {
			failures++;
			n = 0;
		}
	}
	weft_mutator_stats s = weft_mutator_stats_get(m);
	CHECK(too_long == 0, "%u outputs longer than max_size", too_long);
	CHECK(s.sampled > CHAIN / 2, "only %llu of %u mutations sampled a schedule",
	      (unsigned long long)s.sampled, CHAIN);
	CHECK(s.verified == s.sampled, "%llu sampled, %llu verified",
	      (unsigned long long)s.sampled, (unsigned long long)s.verified);
	CHECK(s.mismatches == 0, "%llu sampled schedules replayed differently from their bytes",
	      (unsigned long long)s.mismatches);
	CHECK(s.lost == 0, "%llu switches could not be written", (unsigned long long)s.lost);
	CHECK(failures > 0, "no failure in %u chained mutations: the ABA bug was not found", CHAIN);
	weft_mutator_free(m);
}

/* A mutation between two runs of the same input changes nothing the fuzzer sees. */
static void no_leak(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 1);
	REQUIRE(m && weft_runner_set_feedback(r, WEFT_FEEDBACK_ALL) == 0, "out of memory");
	const uint8_t input[] = { 0x01, 0x06, 0x01, 0x01, 0x02, 0x01, 0x01 };
	weft_feature f1[256], f2[256];
	weft_result r1, r2;
	weft_verdict v1 = weft_runner_run(r, input, sizeof input, &r1);
	size_t n1 = weft_runner_features(r, f1, 256);
	weft_runner_stats s1 = weft_runner_stats_get(r);
	uint8_t buf[CAP];
	for (unsigned seed = 1; seed <= 50; seed++) {
		memcpy(buf, input, sizeof input);
		weft_mutate(m, buf, sizeof input, CAP, seed, fake_engine);
	}
	weft_runner_stats s2 = weft_runner_stats_get(r);
	CHECK(s2.executions == s1.executions, "the mutator's runs were counted: %llu -> %llu",
	      (unsigned long long)s1.executions, (unsigned long long)s2.executions);
	CHECK(weft_mutator_stats_get(m).runs >= 50, "the mutator ran nothing: the test tests little");
	weft_verdict v2 = weft_runner_run(r, input, sizeof input, &r2);
	size_t n2 = weft_runner_features(r, f2, 256);
	CHECK(v1 == v2 && r1.trace_hash == r2.trace_hash, "the run after mutations differs");
	CHECK(n1 == n2 && n1 > 0 && memcmp(f1, f2, n1 * sizeof *f1) == 0,
	      "features after mutations differ (%zu vs %zu)", n1, n2);
	weft_runner_set_feedback(r, 0);
	weft_mutator_free(m);
}

static void shrinking_goes_to_engine(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 0);
	REQUIRE(m, "out of memory");
	uint8_t buf[16] = { 0x01, 0x05, 0x01, 0x02, 0x00, 0x01, 0x07, 0x01 };
	unsigned before = engine_calls, not_shorter = 0;
	for (unsigned seed = 1; seed <= 100; seed++)
		not_shorter += weft_mutate(m, buf, 8, 7, seed, fake_engine) > 7;
	CHECK(engine_calls - before == 100, "%u of 100 shrinking requests reached the engine",
	      engine_calls - before);
	CHECK(not_shorter == 0, "%u outputs were not shorter", not_shorter);
	weft_mutator_free(m);
}

static void crossover(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 1), *m2 = weft_mutator_new(r, 1);
	REQUIRE(m && m2, "out of memory");
	const uint8_t a[] = { 0x01, 0x05, 0x01, 0x02, 0x00, 0x01 };
	const uint8_t b[] = { 0x00, 0x02, 0x01, 0x02, 0x01, 0x01, 0x03 };
	uint8_t x[CAP], y[CAP];
	unsigned differ = 0;
	for (unsigned seed = 1; seed <= 200; seed++) {
		size_t nx = weft_crossover(m, a, sizeof a, b, sizeof b, x, CAP, seed);
		size_t ny = weft_crossover(m2, a, sizeof a, b, sizeof b, y, CAP, seed);
		differ += nx != ny || memcmp(x, y, nx) != 0;
	}
	CHECK(differ == 0, "%u of 200 crossovers not deterministic", differ);
	CHECK(weft_mutator_stats_get(m).mismatches == 0, "a crossover's schedule did not replay");
	weft_mutator_free(m);
	weft_mutator_free(m2);
}

/* A taken sample is what a real run of its bytes gives; counted once; failures never taken. */
static void take(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 0);
	REQUIRE(m && weft_runner_set_feedback(r, WEFT_FEEDBACK_ALL) == 0, "out of memory");
	uint8_t buf[CAP];
	size_t n = 0;
	unsigned taken = 0, failing = 0, differ = 0, miscounted = 0, retaken = 0;
	weft_feature f1[1024], f2[1024];
	for (unsigned i = 1; i <= CHAIN; i++) {
		n = weft_mutate(m, buf, n, CAP, i * 2654435761u, fake_engine);
		weft_runner_stats before = weft_runner_stats_get(r);
		weft_result got, real;
		if (!weft_mutator_take(m, buf, n, &got)) {
			failing += weft_runner_run(r, buf, n, NULL) != WEFT_PASS;
			n = 0;
			continue;
		}
		taken++;
		miscounted += weft_runner_stats_get(r).executions != before.executions + 1;
		retaken += weft_mutator_take(m, buf, n, NULL);   /* once only */
		size_t k1 = weft_runner_features(r, f1, 1024);
		weft_verdict v = weft_runner_run(r, buf, n, &real);
		size_t k2 = weft_runner_features(r, f2, 1024);
		differ += v != got.verdict || real.trace_hash != got.trace_hash || k1 != k2 ||
			  memcmp(f1, f2, k1 * sizeof *f1) != 0;
	}
	CHECK(taken > CHAIN / 2, "only %u of %u mutants were taken", taken, CHAIN);
	CHECK(failing > 0, "no failing mutant in %u: the test does not see failures not taken",
	      CHAIN);
	CHECK(differ == 0, "%u taken samples differ from a real run of their bytes", differ);
	CHECK(miscounted == 0, "%u taken samples were not counted exactly once", miscounted);
	CHECK(retaken == 0, "%u samples were taken twice", retaken);
	CHECK(weft_mutator_stats_get(m).twice == 0, "%llu passing mutants ran twice",
	      (unsigned long long)weft_mutator_stats_get(m).twice);
	weft_runner_set_feedback(r, 0);
	weft_mutator_free(m);
}

/* A plan edit is the one arm that runs without sampling: runs - sampled counts them. */
static void fresh_first(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 0);
	REQUIRE(m, "out of memory");
	uint8_t buf[CAP];
	for (unsigned seed = 1; seed <= 400; seed++)
		weft_mutate(m, buf, 0, CAP, seed, fake_engine);
	weft_mutator_stats st = weft_mutator_stats_get(m);
	CHECK(st.sampled > 300 && st.runs == st.sampled,
	      "the empty input: %llu runs, %llu sampled (every run should be a fresh sample)",
	      (unsigned long long)st.runs, (unsigned long long)st.sampled);
	const uint8_t start[] = { 0x01, 0x05, 0x01, 0x02, 0x00, 0x01 };
	for (unsigned seed = 1; seed <= 2000; seed++) {
		memcpy(buf, start, sizeof start);
		weft_mutate(m, buf, sizeof start, CAP, seed, fake_engine);
	}
	weft_mutator_stats later = weft_mutator_stats_get(m);
	CHECK(later.runs - later.sampled > 0, "a richer input after the warm-up: no plan edit in 2000");
	weft_mutator_free(m);
}

/* Before the mutation of the last mutant with `arm`: the stats, and after. */
static int reused_run(weft_mutator *m, const uint8_t *buf, size_t n, const char *arm,
		      unsigned seed, int *applied)
{
	uint8_t copy[CAP];
	memcpy(copy, buf, n);
	weft_mutator_only_arm(m, arm);
	weft_mutator_stats a = weft_mutator_stats_get(m);
	weft_mutate(m, copy, n, CAP, seed, fake_engine);
	weft_mutator_stats b = weft_mutator_stats_get(m);
	weft_mutator_only_arm(m, NULL);
	int edit = strcmp(arm, "edit-plan") == 0;
	/* the arm ran (not the engine's 1%, not a fresh sample of a simplest input) */
	*applied = b.engine == a.engine &&
		   (edit ? b.sampled == a.sampled : b.flipped > a.flipped);
	/* a plan edit samples nothing; a reversal samples once: more runs = measured */
	return b.runs - a.runs == (edit ? 0u : 1u);
}

/* A plan edit or a race reversal of the mutant just taken reuses its run. */
static void reuse(weft_runner *r)
{
	weft_mutator *m = weft_mutator_new(r, 0);
	REQUIRE(m, "out of memory");
	uint8_t buf[CAP];
	size_t n = 0;
	unsigned tried[2] = { 0, 0 }, measured[2] = { 0, 0 };
	const char *arms[2] = { "edit-plan", "flip" };
	for (unsigned i = 1; i <= 600; i++) {
		n = weft_mutate(m, buf, n, CAP, i * 2654435761u, fake_engine);
		if (!weft_mutator_take(m, buf, n, NULL)) {   /* not a sample, or failing: */
			weft_runner_run(r, buf, n, NULL);        /* run it, as the fuzzer does */
			n = 0;
			continue;
		}
		int applied, a = (int)(i % 2);
		int reused = reused_run(m, buf, n, arms[a], i, &applied);
		tried[a] += applied;
		measured[a] += applied && !reused;
	}
	CHECK(tried[0] > 50 && measured[0] == 0,
	      "plan edits of the last mutant: %u of %u ran the input again to measure it",
	      measured[0], tried[0]);
	CHECK(tried[1] > 50 && measured[1] == 0,
	      "race reversals of the last mutant: %u of %u ran the input again", measured[1],
	      tried[1]);
	weft_mutator_free(m);
}

int main(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	REQUIRE(r, "out of memory");
	same_outputs(r);
	chain(r);
	no_leak(r);
	shrinking_goes_to_engine(r);
	crossover(r);
	take(r);
	fresh_first(r);
	reuse(r);
	weft_runner_free(r);
	return check_summary("test_mutate");
}
