/*
 * tests/target_misbehaves.c - a target whose operations misbehave in ways the
 * replay tool must name instead of hanging or dying mute
 * (harness/replay_main.c; tests/replay_misbehaving.sh):
 *   op 0 `nothing`       returns at once: the empty input passes;
 *   op 1 `wait_forever`  loops without a switch point (a plain volatile read
 *                        nobody changes), so no strategy can preempt it:
 *                        --timeout names the input and the operation;
 *   op 2 `recurse`       uses about 2 MiB of stack: it overflows a fiber stack
 *                        (256 KiB, 1 MiB under ASan) and fits a pthread's.
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

/*
 * 2,048 frames of about 1 KiB each.  Each frame hands its array to the next,
 * so every frame stays live during the call: no compiler may fold the
 * recursion into a loop (clang did, with the frames merely volatile).
 */
enum { DEEP_FRAMES = 2048, FRAME_BYTES = 1024 };
/* what replay_misbehaving.sh relies on: more than the largest fiber stack (ASan's
   1 MiB), less than a pthread's default 8 MiB */
_Static_assert(DEEP_FRAMES * FRAME_BYTES > (1 << 20) && DEEP_FRAMES * FRAME_BYTES < (8 << 20),
	       "recurse() must overflow a fiber stack and fit a pthread's");

static __attribute__((noinline)) int64_t deep(int depth, volatile char *caller)
{
	volatile char frame[FRAME_BYTES];
	frame[0] = (char)(caller[0] + 1);
	frame[sizeof frame - 1] = frame[0];
	return depth ? deep(depth - 1, frame) + frame[sizeof frame - 1] : frame[0];
}

static int64_t recurse(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	volatile char start[1] = { 0 };
	return deep(DEEP_FRAMES, start) != 0;
}

static int64_t nothing(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	return 0;
}

static const weft_op ops[] = {
	{ .name = "nothing", .run = nothing },
	{ .name = "wait_forever", .run = wait_forever },
	{ .name = "recurse", .run = recurse },
};
static const weft_target misbehaves = {
	.name = "misbehaves", .ops = ops, .n_ops = 3, .setup = setup, .min_threads = 1,
	.max_threads = 1, .max_ops_per_thread = 1,
};
WEFT_FUZZ_TARGET(misbehaves)
