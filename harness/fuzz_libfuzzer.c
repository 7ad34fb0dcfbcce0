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
 * mode) and any $LIB_FUZZING_ENGINE's (cmake/WeftFuzzEngine.cmake).  Hook for
 * interleaving feedback (issue 7): AFL++ ignores libFuzzer's extra-counters section
 * (__libfuzzer_extra_counters), so feedback given that way must reach AFL++ some
 * other way, e.g. as real code edges: a switch on the feature index here, in this
 * instrumented file, hits one edge per value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "weft/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static weft_runner *runner;

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
		if (!runner) {
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
	if (weft_runner_run(runner, data, size, &res) != WEFT_PASS)
		die_with_report(runner, &res);
	return 0;
}
