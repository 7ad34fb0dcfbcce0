/*
 * tests/test_shrink_rate.c - do the fuzzers' shrinking moves simplify?
 *
 * Over many random inputs, apply one move a minimizer makes (drop 1-4 bytes,
 * overwrite a byte with 0x00, overwrite it with '0') and compare the runs before
 * and after.  No encoding can promise that a move never adds a preemption (a
 * shorter input can shift which bytes a run consumes), so this measures how
 * often it does, prints the rates, and fails only past a generous bound.
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"

#include "../targets/counter.c"

#define INPUTS 20000
#define BOUND_PERCENT 10.0   /* measured well under this; see the printed figures */

enum move { MOVE_DROP, MOVE_ZERO, MOVE_ASCII_ZERO, MOVE_COUNT };
static const char *const move_names[MOVE_COUNT] = { "drop 1-4 bytes", "byte := 0x00", "byte := '0'" };

static size_t apply_move(enum move m, uint8_t *buf, size_t n, uint64_t *seed)
{
	size_t at = test_rand(seed) % n;
	if (m == MOVE_DROP) {
		size_t len = 1 + test_rand(seed) % 4;
		if (len > n - at)
			len = n - at;
		memmove(buf + at, buf + at + len, n - at - len);
		return n - len;
	}
	buf[at] = m == MOVE_ZERO ? 0 : '0';
	return n;
}

/* Random inputs shaped like the fuzzer's: mostly small values, some zeros. */
static size_t random_input(uint8_t *buf, size_t cap, uint64_t *seed)
{
	size_t n = 1 + test_rand(seed) % cap;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = test_rand(seed);
		buf[i] = (r & 3) == 0 ? 0 : (uint8_t)((r >> 8) % ((r & 4) ? 6 : 256));
	}
	return n;
}

int main(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	uint64_t seed = 7;
	uint8_t buf[40], moved[40];
	unsigned tried[MOVE_COUNT] = { 0 }, more_preempt[MOVE_COUNT] = { 0 }, more_ops[MOVE_COUNT] = { 0 };
	unsigned fewer_preempt = 0;
	for (int i = 0; i < INPUTS; i++) {
		size_t n = random_input(buf, sizeof buf, &seed);
		enum move m = (enum move)(i % MOVE_COUNT);
		memcpy(moved, buf, n);
		size_t n2 = apply_move(m, moved, n, &seed);
		weft_result before, after;
		weft_runner_run(r, buf, n, &before);
		weft_runner_run(r, moved, n2, &after);
		tried[m]++;
		more_preempt[m] += after.preemptions > before.preemptions;
		more_ops[m] += after.n_ops > before.n_ops;
		fewer_preempt += after.preemptions < before.preemptions;
	}
	unsigned total = 0, total_more = 0;
	printf("shrinking move        runs   adds a preemption   adds an operation\n");
	for (int m = 0; m < MOVE_COUNT; m++) {
		printf("%-20s %6u   %6.2f%%             %6.2f%%\n", move_names[m], tried[m],
		       100.0 * more_preempt[m] / tried[m], 100.0 * more_ops[m] / tried[m]);
		total += tried[m];
		total_more += more_preempt[m];
	}
	double rate = 100.0 * total_more / total;
	printf("all moves            %6u   %6.2f%%   (removes one: %.2f%%)\n", total, rate,
	       100.0 * fewer_preempt / total);
	CHECK(rate < BOUND_PERCENT, "moves add a preemption %.2f%% of the time", rate);
	CHECK(fewer_preempt > total / 50, "moves almost never remove a preemption: test inputs too simple");
	weft_runner_free(r);
	return check_summary("test_shrink_rate");
}
