/*
 * scheduler/handoff_fiber.c - managed threads as fibers on the controlling thread.
 *
 * A fiber worker is the fiber twin of pool.c's worker pthread: a loop that
 * runs the thread's part of one execution (sched_thread_run, which ends by
 * transferring the CPU to the next thread) and, when it is transferred to
 * again, the next execution's part.  Its stack is mapped once, when the pool
 * slot is first needed, and reused by every later execution.
 *
 * Why fibers survive fork() when pthreads do not: a fiber is only memory (a
 * stack and a saved stack pointer) and a forked child gets a copy of all of
 * it, with the forking thread - the controller every fiber runs on - alive.
 * Fibers are parked between executions, and afl-fuzz's fork server forks
 * between executions, so the child resumes them exactly where the parent
 * would have.  pool.c therefore keeps no fork generation for fiber pools.
 *
 * Why no signal mask: there is no other OS thread to take a signal; the
 * fuzzer's handlers run on the fuzzer's thread, as they do between executions.
 */
#include "sched.h"

#include <unistd.h>

static void fiber_worker_main(void *arg)
{
	sched_thread *self = arg;
	sched_fiber_begin(&self->fiber);
	while (!self->quit)
		sched_thread_run(self);   /* returns when transferred to again */
	sched_fiber_exit(&self->fiber, &self->pool->controller_fiber);
}

int sched_fiber_worker_start(sched_pool *pool, sched_thread *t)
{
	(void)pool;
	return sched_fiber_init(&t->fiber, fiber_worker_main, t);
}

/* Between executions, on the controlling thread: the fiber leaves its loop for good. */
void sched_fiber_worker_stop(sched_pool *pool, sched_thread *t)
{
	t->quit = true;
	sched_transfer(pool, NULL, t);
	sched_fiber_free(&t->fiber);
}

/*
 * For a SIGSEGV handler on the faulting thread (harness/replay_main.c): did the
 * running managed thread run off the bottom of its fiber stack?  The fault
 * lands in the guard page below the stack, or, for a frame larger than a page,
 * a little further down (FIBER_OVERFLOW_SLACK).  Reads only weft_impl_current
 * and the fiber's mapping: no lock, no allocation.  Returns the stack's size
 * in bytes (for the message), or 0 when the fault is something else.
 */
#define FIBER_OVERFLOW_SLACK (64u * 1024u)

size_t weft_fault_fiber_stack_overflow(const void *addr)
{
	const sched_thread *self = weft_impl_current;
	if (!self || !self->fiber.map)
		return 0;   /* the controller, or a pthread worker: the system's stacks */
	uintptr_t a = (uintptr_t)addr, low = (uintptr_t)self->fiber.map;
	uintptr_t guard_end = low + (uintptr_t)sysconf(_SC_PAGESIZE);
	if (a >= guard_end || a + FIBER_OVERFLOW_SLACK < low)
		return 0;
	return self->fiber.map_size - (guard_end - low);
}
