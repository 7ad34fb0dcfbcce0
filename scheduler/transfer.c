/*
 * scheduler/transfer.c - the hand-off: the CPU goes from one managed thread (or
 * the controlling thread) to another, and the first waits.
 *
 * Why one operation: exec.c (start, preempt, block, finish) and pool.c
 * (shutting fibers down) must not care how managed threads are made.  With
 * pthreads a transfer is the baton's pass + wait (handoff_futex.c): two
 * system calls and a kernel context switch.  With fibers it is a stack switch
 * on the one OS thread (fiber_switch.c): no system call.  The scheduler state
 * is only touched by whoever holds the CPU in both cases, so nothing else
 * differs: the same choices, the same trace.
 *
 * What a fiber transfer must restore by hand, because every fiber shares the
 * controlling thread's thread-locals: weft_impl_current (which managed thread
 * the instrumented atomics belong to) and errno (each pthread has its own; a
 * target that reads errno after a switch point must see its own value).
 */
#include "sched.h"

#include <errno.h>

/*
 * Back on the CPU as `self` (NULL = the controlling thread).  Out of line so
 * that the thread-local and errno addresses are computed after the switch:
 * a runner may be driven by another controlling thread next time, and a
 * fiber parked between executions then resumes on that thread.
 */
static __attribute__((noinline)) void resumed_as(sched_thread *self, int saved_errno)
{
	weft_impl_current = self;
	errno = saved_errno;
}

static void fiber_transfer(sched_pool *pool, sched_thread *from, sched_thread *to)
{
	sched_fiber *here = from ? &from->fiber : &pool->controller_fiber;
	sched_fiber *there = to ? &to->fiber : &pool->controller_fiber;
	int saved_errno = errno;
	sched_fiber_switch(here, there);
	resumed_as(from, saved_errno);
}

void sched_transfer(sched_pool *pool, sched_thread *from, sched_thread *to)
{
	if (pool->backend == SCHED_BACKEND_FIBER) {
		fiber_transfer(pool, from, to);
		return;
	}
	/* After the pass `to` owns the execution: only our own baton is ours to touch. */
	sched_baton_pass(to ? &to->baton : &pool->controller);
	sched_baton_wait(from ? &from->baton : &pool->controller);
}
