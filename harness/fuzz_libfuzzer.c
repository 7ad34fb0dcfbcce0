/*
 * harness/fuzz_libfuzzer.c - the libFuzzer (and AFL++ driver) entry point.
 *
 * One runner per process, made on the first input (not in LLVMFuzzerInitialize:
 * a fork server forks after initialisation and the child would have no
 * threads).  A failing execution prints its report and aborts, so the fuzzer
 * saves the input as a crash; passing executions print nothing.
 */
#include <inttypes.h>
#include <stdlib.h>

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
__attribute__((noinline)) static void weft_abort_error(void) { abort(); }

static void die_with_report(weft_runner *runner, weft_verdict v)
{
	weft_runner_report(runner, stderr);
	fflush(stderr);
	switch (v) {
	case WEFT_FAIL_LINEARIZABILITY: weft_abort_linearizability(); break;
	case WEFT_FAIL_VALIDATION: weft_abort_validation(); break;
	case WEFT_FAIL_BUDGET: weft_abort_step_budget(); break;
	default: weft_abort_error(); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	weft_runner *runner = fuzz_runner();
	weft_verdict v = weft_runner_run(runner, data, size, NULL);
	if (v != WEFT_PASS)
		die_with_report(runner, v);
	return 0;
}
