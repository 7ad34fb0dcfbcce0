/*
 * harness/fuzz_libfuzzer.c - the libFuzzer (and AFL++ driver) entry point.
 *
 * One runner per process, made on the first input (not in LLVMFuzzerInitialize:
 * a fork server forks after initialisation and the child would have no
 * threads).  A failing execution prints its report and aborts, so the fuzzer
 * saves the input as a crash; passing executions print nothing.
 *
 * Before the abort, one "ASSERTION FAILED: weft: <verdict> in <target>: ..."
 * line, the form crash triage matches (ClusterFuzz's stack analyzer,
 * ASSERT_REGEX), so a crash is titled by its verdict and target rather than
 * "deadly signal"; and, when the environment variable WEFT_REPORT_JSON names
 * a file, the report as JSON in that file (overwritten) for tools.
 *
 * The same file is the AFL++ entry point (linked with libAFLDriver.a, persistent
 * mode) and any $LIB_FUZZING_ENGINE's (cmake/WeftFuzzEngine.cmake).
 *
 * Interleaving feedback (issue 7; the features are defined in harness/feedback.h):
 * after every execution the runner's features go to the fuzzer, each at
 * (id % WEFT_FEEDBACK_MAP) with its count.  libFuzzer: a counter array in the
 * __libfuzzer_extra_counters section, which libFuzzer clears before every input
 * (TracePC::ResetMaps) and reads after it; we also clear the counters we set for
 * the previous input, so nothing leaks between inputs under any driver.  AFL++
 * ignores that section, so under afl-clang-fast (__AFL_COMPILER) each feature is
 * a real code edge instead: feedback_edge() below switches on the index, one
 * instrumented case per value, called once per occurrence (up to 128: AFL++
 * buckets hit counts the way libFuzzer buckets counters).  libweft itself stays
 * uninstrumented; these are the only edges weft adds.  WEFT_FEEDBACK (read once,
 * weft_feedback_parse: none, all, or pairs,rf,outcome; default all) picks the kinds;
 * a bad value stops the binary with exit status 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "weft/run.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static weft_runner *runner;

/* ---- interleaving feedback ---- */

#define WEFT_FEEDBACK_MAP 4096      /* counters (libFuzzer) or edges (AFL++) */
#define WEFT_FEEDBACK_MAX 1024      /* features exported per execution */

static unsigned feedback_kinds;
static int feedback_ready;
static weft_feature features[WEFT_FEEDBACK_MAX];

/* WEFT_FEEDBACK, once: from LLVMFuzzerInitialize (an exit there is an ordinary
 * exit, not libFuzzer's "fuzz target exited"), or the first input for drivers
 * that do not call it. */
static void feedback_setup(void)
{
	if (feedback_ready)
		return;
	feedback_ready = 1;
	const char *spec = getenv("WEFT_FEEDBACK");
	if (weft_feedback_parse(spec, &feedback_kinds) != 0) {
		fprintf(stderr, "weft: WEFT_FEEDBACK=%s: expected none, all, or a comma-separated "
			"list of pairs, rf, outcome\n", spec);
		exit(2);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	feedback_setup();
	return 0;
}

#if defined(__AFL_COMPILER)
/* One case per index, each a distinct block (the asm operand differs, so the
 * compiler can neither merge the cases nor turn the switch into a table). */
#define WEFT_EDGE1(n) case (n): __asm__ volatile("" : : "i"(n)); break;
#define WEFT_EDGE4(n) WEFT_EDGE1(n) WEFT_EDGE1((n) + 1) WEFT_EDGE1((n) + 2) WEFT_EDGE1((n) + 3)
#define WEFT_EDGE16(n) WEFT_EDGE4(n) WEFT_EDGE4((n) + 4) WEFT_EDGE4((n) + 8) WEFT_EDGE4((n) + 12)
#define WEFT_EDGE64(n) WEFT_EDGE16(n) WEFT_EDGE16((n) + 16) WEFT_EDGE16((n) + 32) \
	WEFT_EDGE16((n) + 48)
#define WEFT_EDGE256(n) WEFT_EDGE64(n) WEFT_EDGE64((n) + 64) WEFT_EDGE64((n) + 128) \
	WEFT_EDGE64((n) + 192)
#define WEFT_EDGE1024(n) WEFT_EDGE256(n) WEFT_EDGE256((n) + 256) WEFT_EDGE256((n) + 512) \
	WEFT_EDGE256((n) + 768)

__attribute__((noinline)) static void feedback_edge(unsigned index)
{
	switch (index) {
	WEFT_EDGE1024(0)
	WEFT_EDGE1024(1024)
	WEFT_EDGE1024(2048)
	WEFT_EDGE1024(3072)
	default: break;
	}
}

static void export_feedback(weft_runner *r)
{
	size_t n = weft_runner_features(r, features, WEFT_FEEDBACK_MAX);
	n = n < WEFT_FEEDBACK_MAX ? n : WEFT_FEEDBACK_MAX;
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = features[i].count < 128 ? features[i].count : 128; k > 0; k--)
			feedback_edge(features[i].id % WEFT_FEEDBACK_MAP);
}
#else
/* libFuzzer's extra counters: word-aligned (libFuzzer clears them word by word). */
__attribute__((section("__libfuzzer_extra_counters"), used, aligned(64)))
static uint8_t feedback_counters[WEFT_FEEDBACK_MAP];
static uint16_t feedback_set[WEFT_FEEDBACK_MAX];   /* indices set for the last input */
static size_t n_feedback_set;

static void export_feedback(weft_runner *r)
{
	for (size_t i = 0; i < n_feedback_set; i++)
		feedback_counters[feedback_set[i]] = 0;
	size_t n = weft_runner_features(r, features, WEFT_FEEDBACK_MAX);
	n = n < WEFT_FEEDBACK_MAX ? n : WEFT_FEEDBACK_MAX;
	for (size_t i = 0; i < n; i++) {
		uint16_t at = (uint16_t)(features[i].id % WEFT_FEEDBACK_MAP);
		unsigned c = feedback_counters[at] + (features[i].count < 255 ? features[i].count : 255);
		feedback_counters[at] = (uint8_t)(c < 255 ? c : 255);
		feedback_set[i] = at;
	}
	n_feedback_set = n;
}
#endif

/* At exit: how many checks gave up, so a campaign never hides its unknowns. */
static void print_stats(void)
{
	weft_runner_stats s = weft_runner_stats_get(runner);
	if (s.check_unknown)
		fprintf(stderr, "==weft== %" PRIu64 " of %" PRIu64 " executions had an unknown "
			"linearizability verdict (checker cost cap reached)\n",
			s.check_unknown, s.executions);
}

static weft_runner *fuzz_runner(void)
{
	if (!runner) {
		const char *problem = weft_target_problem(weft_fuzz_target());
		if (problem) {
			fprintf(stderr, "weft: target is malformed: %s\n", problem);
			exit(2);
		}
		runner = weft_runner_new(weft_fuzz_target());
		feedback_setup();
		if (!runner || weft_runner_set_feedback(runner, feedback_kinds) != 0) {
			fputs("weft: out of memory creating the runner\n", stderr);
			abort();
		}
		atexit(print_stats);
	}
	return runner;
}

/* Distinct, never inlined: crash deduplication by stack tells failure kinds apart. */
__attribute__((noinline)) static void weft_abort_linearizability(void) { abort(); }
__attribute__((noinline)) static void weft_abort_validation(void) { abort(); }
__attribute__((noinline)) static void weft_abort_step_budget(void) { abort(); }
__attribute__((noinline)) static void weft_abort_nondeterministic(void) { abort(); }
__attribute__((noinline)) static void weft_abort_deadlock(void) { abort(); }
__attribute__((noinline)) static void weft_abort_livelock(void) { abort(); }
__attribute__((noinline)) static void weft_abort_obstruction(void) { abort(); }
__attribute__((noinline)) static void weft_abort_assertion(void) { abort(); }
__attribute__((noinline)) static void weft_abort_misuse(void) { abort(); }
__attribute__((noinline)) static void weft_abort_error(void) { abort(); }

/* WEFT_REPORT_JSON=FILE: the failing execution's JSON report, FILE overwritten. */
static void write_json_report(const weft_runner *runner)
{
	const char *path = getenv("WEFT_REPORT_JSON");
	if (!path || !*path)
		return;
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "weft: cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	weft_runner_report_json(runner, f);
	if (fclose(f) != 0)
		fprintf(stderr, "weft: cannot write %s: %s\n", path, strerror(errno));
}

static void die_with_report(weft_runner *runner, const weft_result *res)
{
	weft_runner_report(runner, stderr);
	fprintf(stderr, "ASSERTION FAILED: weft: %s in %s: %s\n", weft_verdict_name(res->verdict),
		weft_fuzz_target()->name, res->message);
	fflush(stderr);
	write_json_report(runner);
	switch (res->verdict) {
	case WEFT_FAIL_LINEARIZABILITY: weft_abort_linearizability(); break;
	case WEFT_FAIL_VALIDATION: weft_abort_validation(); break;
	case WEFT_FAIL_BUDGET: weft_abort_step_budget(); break;
	case WEFT_FAIL_NONDETERMINISM: weft_abort_nondeterministic(); break;
	case WEFT_FAIL_DEADLOCK: weft_abort_deadlock(); break;
	case WEFT_FAIL_LIVELOCK: weft_abort_livelock(); break;
	case WEFT_FAIL_OBSTRUCTION: weft_abort_obstruction(); break;
	case WEFT_FAIL_ASSERTION: weft_abort_assertion(); break;
	case WEFT_FAIL_MISUSE: weft_abort_misuse(); break;
	default: weft_abort_error(); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	weft_runner *runner = fuzz_runner();
	weft_result res;
	weft_verdict v = weft_runner_run(runner, data, size, &res);
	if (feedback_kinds)
		export_feedback(runner);
	if (v != WEFT_PASS)
		die_with_report(runner, &res);
	return 0;
}
