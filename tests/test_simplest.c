/*
 * tests/test_simplest.c - finite entropy: the empty input, all-zero inputs,
 * '0'-filled inputs and exhausted inputs all give the simplest run: min_threads
 * threads, one operation each, no preemption (and one identical trace).
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"

#define WEFT_COUNTER_FIXED
#include "../targets/counter.c"

static void expect_simplest(weft_runner *r, const uint8_t *data, size_t n, uint64_t hash,
			    const char *what)
{
	weft_result res;
	weft_verdict v = weft_runner_run(r, data, n, &res);
	CHECK(v == WEFT_PASS, "%s (%zu bytes): %s", what, n, weft_verdict_name(v));
	CHECK(res.n_threads == 2 && res.n_ops == 2 && res.preemptions == 0,
	      "%s (%zu bytes): %u threads, %u ops, %u preemptions", what, n, res.n_threads,
	      res.n_ops, res.preemptions);
	CHECK(res.trace_hash == hash, "%s (%zu bytes): trace differs from the empty input's", what, n);
}

int main(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	weft_result empty;
	weft_runner_run(r, NULL, 0, &empty);
	CHECK(empty.n_threads == 2 && empty.n_ops == 2 && empty.preemptions == 0 &&
	      empty.switches == 1, "empty input: %u threads, %u ops, %u preemptions, %u switches",
	      empty.n_threads, empty.n_ops, empty.preemptions, empty.switches);
	uint8_t buf[256];
	for (size_t n = 1; n <= sizeof buf; n *= 2) {
		memset(buf, 0, n);
		expect_simplest(r, buf, n, empty.trace_hash, "all-zero");
		memset(buf, '0', n);
		expect_simplest(r, buf, n, empty.trace_hash, "all-'0'");
	}
	/* Exhausted mid-scenario: "more ops" bytes that run out end the lists. */
	const uint8_t exhausted[] = { 0 };
	expect_simplest(r, exhausted, sizeof exhausted, empty.trace_hash, "exhausted");
	weft_runner_free(r);
	return check_summary("test_simplest");
}
