/*
 * scheduler/sched.h - the managed-thread scheduler, seen from the harness.
 *
 * Design.  An execution runs N managed threads, real pthreads from a pool that is
 * created on first use and reused by every later execution.  Exactly one of them,
 * or the controlling thread that started the execution, runs at any moment: the
 * one holding the baton (handoff.h).  A managed thread runs its body (the
 * harness's list of operations) and stops only at switch points: the instrumented
 * atomics of <weft/atomic.h>, weft_yield(), and the start of each operation.
 * Each thread counts its switch points within its current operation; at the
 * step the strategy named (strategy.h) it is preempted, if another thread can
 * run, and the strategy picks the thread to switch to.  When a thread finishes, the lowest-numbered unfinished thread
 * runs next (a non-preemptive switch); when none is left, the controlling thread
 * gets the baton back and the execution is over: every worker is parked again.
 *
 * A step budget bounds the switch points of one execution.  Past it the
 * execution is cut: each unfinished thread is resumed once and unwinds (longjmp)
 * straight back to its worker loop, leaving its current operation pending.
 *
 * Files: strategy.h (the decision interface), trace.c (the event log),
 * pool.c (worker threads), exec.c (one execution), switch_point.c (the hot path),
 * handoff_futex.c (the baton).  Nothing here knows targets, bytes or oracles.
 */
#ifndef WEFT_SCHED_H
#define WEFT_SCHED_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* cpu_set_t */
#endif
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/atomic.h"
#include "handoff.h"
#include "strategy.h"
#include "trace.h"

#define SCHED_MAX_THREADS 8

struct sched_exec;

/* One worker of the pool; the `weft_impl_thread` that <weft/atomic.h> names. */
struct weft_impl_thread {
	sched_baton baton;          /* first: the word other threads write, alone on its line */
	char pad_[64 - sizeof(sched_baton)];
	unsigned id;                /* index in the pool = managed thread number */
	struct sched_exec *exec;    /* the execution this worker serves now */
	unsigned atomic_depth;      /* >0 inside weft_atomic_begin/end: no switch */
	uint32_t call;              /* the operation (scenario call) it is in */
	uint64_t call_step;         /* its switch points in that call so far */
	uint64_t preempt_at;        /* call_step of its next preemption, UINT64_MAX = none */
	bool finished;              /* this execution: body returned or unwound */
	bool quit;                  /* pool shutting down */
	jmp_buf unwind;             /* where a cut execution sends the thread */
	pthread_t pthread;
};
typedef struct weft_impl_thread sched_thread;

typedef struct sched_pool {
	sched_thread *threads[SCHED_MAX_THREADS];
	unsigned n_created;
	unsigned fork_generation;   /* workers do not survive fork(); see pool.c */
	int pinned_cpu;             /* CPU the workers are pinned to, -1 = none */
	bool controller_held;       /* controller pinned for the current execution */
	cpu_set_t controller_mask;  /* its own affinity, restored after the execution */
} sched_pool;

/* What the harness asks of one execution. */
typedef struct sched_exec_config {
	unsigned n_threads;                        /* 1..SCHED_MAX_THREADS */
	uint64_t step_budget;                      /* switch points before the cut */
	sched_strategy strategy;
	void (*body)(void *ctx, unsigned thread);  /* runs on managed thread `thread` */
	void *body_ctx;
} sched_exec_config;

typedef struct sched_exec {
	sched_exec_config cfg;
	sched_pool *pool;
	sched_thread *current;      /* holder of the baton, NULL = controller */
	uint32_t runnable;          /* bit t: thread t can run (not finished, blocked or descheduled) */
	uint64_t steps;             /* switch points so far */
	unsigned preemptions;       /* switches away from a thread that could go on */
	unsigned switches;          /* all switches between managed threads */
	bool cut;                   /* step budget exhausted: threads unwind */
	sched_trace trace;
	sched_baton controller;     /* the controlling thread's own baton */
} sched_exec;

/* ---- pool.c ---- */
void sched_pool_init(sched_pool *pool);
/* Make sure `n` workers exist (creating them is the only slow part); 0 or -1. */
int sched_pool_reserve(sched_pool *pool, unsigned n);
/*
 * Around one execution, on the controlling thread: keep the workers and the
 * controller on the CPU the controller runs on now, then give the controller its
 * own affinity back (see pool.c for why).  A few system calls per execution.
 */
void sched_pool_hold_controller(sched_pool *pool);
void sched_pool_release_controller(sched_pool *pool);
/* Stop and join every worker.  Only between executions. */
void sched_pool_destroy(sched_pool *pool);

/* ---- exec.c ---- */
void sched_exec_init(sched_exec *exec, sched_pool *pool);
void sched_exec_destroy(sched_exec *exec);
/*
 * Run one execution to its end on the calling (controlling) thread; returns 0, or
 * -1 if workers could not be created.  On return every worker is parked and the
 * trace holds the whole execution.
 */
int sched_exec_run(sched_exec *exec, const sched_exec_config *cfg);
/* Inside a body: mark the start / end of operation `call` of the scenario. */
void sched_op_begin(uint32_t call);
void sched_op_end(uint32_t call, int64_t result);

/* ---- internal to the scheduler room ---- */
/* Ask the strategy where `self` is next preempted in its call; none = UINT64_MAX. */
static inline void sched_arm_preemption(sched_exec *exec, sched_thread *self)
{
	const sched_strategy *s = &exec->cfg.strategy;
	uint64_t at = s->next_preemption(s->self, self->id, self->call, self->call_step);
	self->preempt_at = at > self->call_step ? at : UINT64_MAX;
}

void sched_thread_run(sched_thread *self);                   /* exec.c, on a worker */
/* The first thread of `mask` cyclically from thread `wanted`, or NULL (exec.c). */
sched_thread *sched_runnable_from(sched_exec *exec, uint32_t mask, unsigned wanted);
/* Who runs when `self` cannot go on: asks the strategy if there is a choice (exec.c). */
sched_thread *sched_forced_next(sched_exec *exec, sched_thread *self);
bool sched_switch_point(sched_thread *self);                 /* switch_point.c */
void sched_cut_execution(sched_thread *self) __attribute__((noreturn));  /* exec.c */
void sched_hand_off(sched_thread *self, sched_thread *next, bool preemptive);  /* exec.c */

#endif /* WEFT_SCHED_H */
