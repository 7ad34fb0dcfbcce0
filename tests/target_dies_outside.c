/*
 * tests/target_dies_outside.c - a process that dies outside any execution
 * (issue 29; tests/death_outside.sh).
 *
 * One harmless operation (an atomic increment).  With WEFT_TEST_DIE_AT_EXIT set,
 * a destructor at process exit overflows a signed int, which UBSan (with
 * -fno-sanitize-recover, WEFT_SANITIZE=ON builds) turns into a death after
 * every execution has ended: weft has no interleaving to report and no input to
 * write, and must say so (runner/death.c) rather than end in silence with
 * libFuzzer's death callback replaced.
 */
#include <limits.h>
#include <stdlib.h>

#include "weft/weft.h"

typedef struct tally { _Atomic int64_t n; } tally;
static tally the_tally;

static void *setup(void) { weft_atomic_store(&the_tally.n, 0); return &the_tally; }

static int64_t bump(void *self, const int64_t *args)
{
	(void)args;
	tally *t = self;
	return weft_atomic_fetch_add(&t->n, 1);
}

static volatile int big = INT_MAX;

__attribute__((destructor)) static void die_at_exit(void)
{
	if (getenv("WEFT_TEST_DIE_AT_EXIT"))
		big = big + 1;   /* signed overflow: UBSan's error, outside any execution */
}

static const weft_op ops[] = { { .name = "bump", .run = bump } };
static const weft_target dies_outside = {
	.name = "dies_outside", .ops = ops, .n_ops = 1, .setup = setup, .min_threads = 1,
	.max_threads = 2, .max_ops_per_thread = 2,
};
WEFT_FUZZ_TARGET(dies_outside)

/*
 * A program, not a test: tests/death_outside.sh runs it and fails unless a death outside
 * an execution prints that line and writes no crash file.
 */
