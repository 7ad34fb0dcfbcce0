/*
 * tests/target_exits.c - a target whose operations call exit() from code they
 * call, as library code might (tests/replay_exits.sh; issue 20, item 2):
 *   op 0 `bump`        a plain atomic increment: every input without op 1 or 2
 *                      passes;
 *   op 1 `exit_zero`   calls exit(0), and op 2 `exit_three` exit(3): each ends
 *                      the execution with verdict `validation`, never the
 *                      process (runner/exit_guard.c), in every mode: replay,
 *                      --systematic (exit 0 would claim "all interleavings are
 *                      fine"), --explore (exit 3 would read as
 *                      "--max-executions reached").
 *   op 3 `underscore_exit` _exit(0), op 4 `quick_exit_zero` quick_exit(0), op 5
 *                      `big_exit` _Exit(4): the calls that bypass exit
 *                      handlers (issue 29) end the execution the same way
 *                      (runner/exit_guard.c catches them by symbol), where
 *                      they used to end the process with their status: 0, a
 *                      silent pass.
 * Two threads, so an exit can happen while another thread is mid-operation.
 */
#include <stdlib.h>
#include <unistd.h>

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

/* noinline: the exit happens below the operation, in code it calls */
static __attribute__((noinline)) void give_up(int status) { exit(status); }

static int64_t exit_zero(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	give_up(0);
	return 0;
}

static int64_t exit_three(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	give_up(3);
	return 0;
}

static __attribute__((noinline)) void give_up_now(int how)
{
	if (how == 0)
		_exit(0);
	if (how == 1)
		quick_exit(0);
	_Exit(4);
}

static int64_t underscore_exit(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	give_up_now(0);
	return 0;
}

static int64_t quick_exit_zero(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	give_up_now(1);
	return 0;
}

static int64_t big_exit(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	give_up_now(2);
	return 0;
}

static const weft_op ops[] = {
	{ .name = "bump", .run = bump },
	{ .name = "exit_zero", .run = exit_zero },
	{ .name = "exit_three", .run = exit_three },
	{ .name = "underscore_exit", .run = underscore_exit },
	{ .name = "quick_exit_zero", .run = quick_exit_zero },
	{ .name = "big_exit", .run = big_exit },
};
static const weft_target exits = {
	.name = "exits", .ops = ops, .n_ops = 6, .setup = setup, .min_threads = 1,
	.max_threads = 2, .max_ops_per_thread = 2,
};
WEFT_FUZZ_TARGET(exits)
