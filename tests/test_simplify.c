/*
 * tests/test_simplify.c - weft's simplifier (reduce/simplify.c) on the buggy
 * counter: every failing input, however it got there, ends at the known
 * minimum (1 preemption, 1 other switch, 2 operations, 2 threads) written as
 * the one byte 05; the result is a fixed point; a passing input is left alone.
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"

#include "../targets/counter.c"

#define INPUTS 3000

static int equal_complexity(weft_complexity a, unsigned p, unsigned s, unsigned o, unsigned t)
{
	return a.preemptions == p && a.switches == s && a.operations == o && a.threads == t;
}

int main(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	uint64_t seed = 0x51a1;
	uint8_t buf[64 + 4096];
	unsigned failing = 0, not_minimal = 0, not_canonical = 0, worse = 0;
	for (int i = 0; i < INPUTS; i++) {
		size_t n = 1 + test_rand(&seed) % 24;
		for (size_t k = 0; k < n; k++)
			buf[k] = (uint8_t)(test_rand(&seed) % 7);
		if (weft_runner_run(r, buf, n, NULL) == WEFT_PASS)
			continue;
		failing++;
		weft_complexity before, after;
		size_t m = weft_runner_simplify(r, buf, n, sizeof buf, &before, &after);
		not_minimal += !equal_complexity(after, 1, 1, 2, 2);
		not_canonical += !(m == 1 && buf[0] == 5);
		worse += after.preemptions > before.preemptions;
	}
	CHECK(failing > 50, "only %u failing inputs: the test tests little", failing);
	CHECK(not_minimal == 0, "%u of %u failing inputs did not reach (1, 1, 2, 2)", not_minimal, failing);
	CHECK(not_canonical == 0, "%u of %u did not end as the byte 05", not_canonical, failing);
	CHECK(worse == 0, "%u simplifications added preemptions", worse);
	fprintf(stderr, "simplify: %u failing inputs, all simplified to 05 (1, 1, 2, 2)\n", failing);

	/* A fixed point: simplifying the result again changes nothing. */
	uint8_t once[8] = { 5 };
	weft_complexity before, after;
	CHECK(weft_runner_simplify(r, once, 1, sizeof once, &before, &after) == 1 && once[0] == 5,
	      "05 is a fixed point");
	CHECK(equal_complexity(before, 1, 1, 2, 2) && equal_complexity(after, 1, 1, 2, 2),
	      "complexity of 05 before and after");

	/* A passing input is returned as it is. */
	uint8_t pass[4] = { 1, 1, 0, 0 };
	CHECK(weft_runner_simplify(r, pass, 4, sizeof pass, &before, &after) == 4 &&
	      pass[0] == 1 && pass[1] == 1, "a passing input is left unchanged");
	weft_runner_free(r);
	return check_summary("test_simplify");
}
