/*
 * tests/target_loops_forever.c - a target whose operation loops without a
 * switch point (a plain volatile read nobody ever changes), so no strategy can
 * preempt it: the replay tool's watchdog (--timeout, harness/replay_main.c)
 * must name the input and the operation and end the process, on both backends
 * (tests/replay_timeout.sh).  `wait_forever` is op 0, what the empty input runs.
 */
#include "weft/target.h"

typedef struct gate { volatile int open; } gate;
static gate the_gate;

static void *setup(void) { the_gate.open = 0; return &the_gate; }

static int64_t wait_forever(void *self, const int64_t *args)
{
	(void)args;
	gate *g = self;
	while (!g->open)   /* no switch point: the scheduler never gets control back */
		;
	return 0;
}

static int64_t nothing(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	return 0;
}

static const weft_op ops[] = {
	{ .name = "wait_forever", .run = wait_forever },
	{ .name = "nothing", .run = nothing },
};
static const weft_target loops_forever = {
	.name = "loops_forever", .ops = ops, .n_ops = 2, .setup = setup, .min_threads = 1,
	.max_threads = 1, .max_ops_per_thread = 1,
};
WEFT_FUZZ_TARGET(loops_forever)
