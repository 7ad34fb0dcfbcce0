/*
 * tests/target_thread_local.c - a correct data-structure target that keeps
 * per-thread state in a _Thread_local (issue 20: thread-locals on fibers).
 *
 * `stash` writes its argument to a thread-local scratch word, passes a switch
 * point, and returns the scratch word: on real threads that is always its own
 * argument (the model: echo).  On fibers every managed thread would share the
 * controlling thread's one copy, and a preemption between the write and the
 * read would return another thread's argument: a false linearizability
 * failure.  runner/tls_probe.c finds the thread-local in the executable's
 * symbol table and runs the target on pthreads; tests/tls_probe.sh checks the
 * backend and that a search finds no failure.  (Not built with
 * weft_add_program's launcher: the probe alone must catch it.)
 */
#include <stdlib.h>

#include "weft/weft.h"

static _Thread_local int64_t scratch;   /* this thread's argument, across a switch point */
static _Atomic int64_t shared;          /* gives the operation its switch points */

static int64_t op_stash(void *self, const int64_t *args)
{
	(void)self;
	scratch = args[0];
	weft_atomic_store(&shared, args[0]);
	(void)weft_atomic_load(&shared);
	return scratch;
}

static void *stash_setup(void) { return malloc(1); }
static void stash_teardown(void *self) { free(self); }

static void model_init(void *state) { (void)state; }
static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state;
	(void)op;
	return args[0];
}

static const weft_model echo_model = {
	.name = "echo", .state_size = sizeof(int64_t), .init = model_init, .apply = model_apply,
};
static const weft_op stash_ops[] = {
	{ .name = "stash", .run = op_stash, .n_args = 1, .args = { { 1, 9 } } },
};
static const weft_target stash_target = {
	.name = "thread_local_stash", .ops = stash_ops, .n_ops = 1,
	.setup = stash_setup, .teardown = stash_teardown, .model = &echo_model,
};
WEFT_FUZZ_TARGET(stash_target)
