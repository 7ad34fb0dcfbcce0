/*
 * tests/test_determinism.c - the same bytes give the same interleaving, verdict
 * and trace, every time: run twice in one runner, and once more in a second
 * runner (its own pool of threads), comparing trace hashes, verdicts, the
 * oracle's cost and the failure message.  The cross-process
 * and cross-compiler halves are in determinism_across_processes.sh.
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"

#include "../targets/counter.c"   /* the buggy counter: failing and passing runs */

#define RUNS 3000

int main(void)
{
	weft_runner *a = weft_runner_new(weft_fuzz_target());
	weft_runner *b = weft_runner_new(weft_fuzz_target());
	uint64_t seed = 0x5eed;
	uint8_t buf[48];
	unsigned mismatches = 0, failures = 0, distinct = 0;
	uint64_t prev_hash = 0;
	for (int run = 0; run < RUNS; run++) {
		size_t n = test_rand(&seed) % sizeof buf;
		for (size_t i = 0; i < n; i++) {   /* small values reach the counter's 3 steps */
			uint64_t x = test_rand(&seed);
			buf[i] = (uint8_t)((x & 1) ? (x >> 56) : (x >> 56) % 8);
		}
		weft_result r1, r2, r3;
		char message[256];
		weft_runner_run(a, buf, n, &r1);
		snprintf(message, sizeof message, "%s", r1.message);
		weft_runner_run(a, buf, n, &r2);
		weft_runner_run(b, buf, n, &r3);
		int same = r1.trace_hash == r2.trace_hash && r1.trace_hash == r3.trace_hash &&
			   r1.verdict == r2.verdict && r1.verdict == r3.verdict &&
			   r1.preemptions == r3.preemptions && r1.steps == r3.steps &&
			   r1.check_cost == r3.check_cost && strcmp(message, r3.message) == 0;
		mismatches += !same;
		failures += r1.verdict != WEFT_PASS;
		distinct += r1.trace_hash != prev_hash;
		prev_hash = r1.trace_hash;
	}
	CHECK(mismatches == 0, "%u of %d inputs gave different traces", mismatches, RUNS);
	CHECK(failures > 0 && failures < RUNS, "%u failing runs: want a mix", failures);
	CHECK(distinct > RUNS / 4, "only %u distinct traces: inputs too alike", distinct);
	fprintf(stderr, "determinism: %d inputs x 3 runs, %u failing, 0 expected mismatches, %u seen\n",
		RUNS, failures, mismatches);
	weft_runner_free(a);
	weft_runner_free(b);
	return check_summary("test_determinism");
}
