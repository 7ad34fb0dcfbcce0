/*
 * scheduler/sched.h - the managed-thread scheduler, seen from the runner.
 *
 * Design.  An execution runs N managed threads from a pool that is created on
 * first use and reused by every later execution.  Exactly one of them, or the
 * controlling thread that started the execution, runs at any moment.  Two
 * backends give the same choices and traces: real pthreads handing a baton
 * to each other (handoff.h), or fibers, user-space contexts that all run on
 * the controlling thread (fiber.h), much faster.  Both hide behind one
 * operation, sched_transfer: "the CPU goes from A to B, A waits".
 *
 * A managed thread runs its body (the runner's list of operations) and stops
 * only at switch points: the instrumented atomics of <weft/atomic.h>,
 * weft_yield(), the blocking calls (sync.c; in binaries with instrumented code
 * also right after each release), the accesses the compiler pass instruments
 * (access.c, <weft/instrument.h>), and the start of each operation.  Each thread counts its
 * switch points within its current operation; at the step the strategy named
 * (strategy.h) it is preempted, if another thread can run, and the strategy
 * picks the thread to switch to.  When a thread finishes, the lowest-numbered
 * unfinished thread runs next (a non-preemptive switch); when none is left,
 * the controlling thread gets the CPU back and the execution is over: every
 * managed thread is parked again.
 *
 * A step budget bounds the switch points of one execution.  Past it the
 * execution is cut: each unfinished thread is resumed once and unwinds (longjmp)
 * straight back to its worker loop, leaving its current operation pending.
 *
 * Files: strategy.h (the decision interface), trace.c (the event log),
 * pool.c (the managed threads), exec.c (one execution), switch_point.c (the
 * hot path), transfer.c (the hand-off, either backend), handoff_futex.c (the
 * pthread baton), handoff_fiber.c (fiber workers), fiber_switch.c (the stack
 * switch), access.c (instrumented plain accesses), race.c (happens-before).
 * Nothing here knows targets, bytes or oracles.
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
#include "fiber.h"
#include "handoff.h"
#include "strategy.h"
#include "trace.h"
#include "memory.h"

#define SCHED_MAX_THREADS 128     /* managed threads: mask.h's bits */
#define SCHED_MAX_SYNC 64          /* blocking objects one execution may touch */

struct sched_exec;
struct sched_pool;

#define SCHED_MAX_CHOICES 256      /* data choices one execution remembers (for the encoder) */

/* One data choice of an execution: an answer in [0, bound) (strategy.h `choose`). */
typedef struct sched_choice {
	uint64_t bound, value;
} sched_choice;

/* A vector clock over the managed threads (race.c). */
typedef struct sched_vc {
	uint32_t c[SCHED_MAX_THREADS];   /* 512 bytes: only touched when races are checked */
} sched_vc;

/*
 * How managed threads are made and switched; chosen per pool (the runner
 * decides per runner: runner/runner.c), never changes a choice or a trace.
 */
typedef enum sched_backend {
	SCHED_BACKEND_PTHREAD,    /* one pthread per managed thread, futex baton */
	SCHED_BACKEND_FIBER,      /* one fiber per managed thread, on the controller */
} sched_backend;

/* Why an execution stopped before every thread returned. */
enum sched_stop {
	SCHED_STOP_NONE,
	SCHED_STOP_BUDGET,        /* step budget exhausted */
	SCHED_STOP_STALL,         /* no thread can run, some wait: deadlock, or blocked
				     operations the model must justify (runner.c) */
	SCHED_STOP_LIVELOCK,      /* a spinning thread can never see a change */
	SCHED_STOP_OBSTRUCTION,   /* an operation ran alone too long (obstruction-freedom) */
	SCHED_STOP_ASSERTION,     /* the program failed an assertion (weft_impl_fail) */
	SCHED_STOP_ERROR,         /* misuse: unlock of a lock not held, too many objects */
	SCHED_STOP_EXIT,          /* the program called exit(): exit_status */
	SCHED_STOP_RACE,          /* two unordered conflicting plain accesses (race.c) */
};

/* What a blocked thread waits for (sync.c). */
enum sched_wait {
	SCHED_WAIT_NONE,
	SCHED_WAIT_MUTEX,         /* to lock a mutex */
	SCHED_WAIT_COND,          /* a signal on a condition variable */
	SCHED_WAIT_READ,          /* to read-lock a rwlock */
	SCHED_WAIT_WRITE,         /* to write-lock a rwlock */
	SCHED_WAIT_SEM,           /* a semaphore to be posted */
	SCHED_WAIT_JOIN,          /* a thread to finish */
	SCHED_WAIT_BARRIER,       /* the other threads of a barrier (sync_barrier.c) */
	SCHED_WAIT_ONCE,          /* another thread's pthread_once routine to return */
};

enum sched_sync_kind {
	SCHED_SYNC_MUTEX = 1, SCHED_SYNC_COND, SCHED_SYNC_RWLOCK, SCHED_SYNC_SEM,
	SCHED_SYNC_BARRIER, SCHED_SYNC_SPIN, SCHED_SYNC_ONCE,   /* sync_barrier.c */
};

/*
 * The managed state of one lock, condition or semaphore, kept by the execution
 * (not in the object) so that nothing leaks from one execution to the next: a
 * cut execution may leave a mutex "held", the next one starts with it free.
 */
typedef struct sched_sync {
	const void *addr;
	uint8_t kind;             /* enum sched_sync_kind */
	uint8_t owner;            /* mutex, rwlock writer: thread + 1; 0 = free */
	uint8_t recursive;        /* mutex: PTHREAD_MUTEX_RECURSIVE */
	uint32_t depth;           /* recursive mutex: times locked by its owner */
	sched_mask readers;       /* rwlock: bit t = thread t holds it for reading */
	int64_t count;            /* semaphore value */
	unsigned number;          /* 1, 2, ... in order of first use: its name in reports */
	const weft_site *first_site;
	sched_vc vc;              /* happens-before: what its releases published (race.c) */
} sched_sync;

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
	const void *pending_addr;   /* the access it makes after its current switch point */
	uint8_t pending_kind;       /* (weft_impl_switch; for strategies: POS), its weft_access */
	uint64_t atomic_old;        /* the bits an instrumented atomic found, for its
				       post-hook (access.c -> access_memory.c) */
	bool finished;              /* this execution: body returned or unwound */
	/* blocking (sync.c) */
	uint8_t wait;               /* enum sched_wait; SCHED_WAIT_NONE = not blocked */
	bool timed;                 /* the wait may time out (timed wait, spurious wake-ups) */
	bool timed_out;             /* set when the scheduler ended the wait by a timeout */
	int16_t wait_sync;          /* index in exec->sync, or the thread joined */
	const weft_site *wait_site; /* where it blocked */
	uint64_t wait_order;        /* FIFO among waiters of one condition */
	/* progress (progress.c) */
	uint64_t quiet;             /* its switch points since shared memory last changed */
	uint64_t seen_epoch;        /* exec->epoch when it last looked */
	uint64_t solo;              /* its switch points in this call since it was resumed */
	sched_vc vc;                /* happens-before (race.c), when races are checked */
	sched_vc rel_fence;         /* race.c: vc at its last release fence (relaxed stores publish it) */
	sched_vc acq_pending;       /* race.c: what its relaxed loads read (an acquire fence takes it) */
	/* spawned threads (sync.c: pthread_create) */
	void *(*start)(void *);
	void *start_arg;
	void *retval;
	bool quit;                  /* pool shutting down */
	jmp_buf unwind;             /* where a cut execution sends the thread */
	struct sched_pool *pool;    /* the pool it belongs to */
	pthread_t pthread;          /* SCHED_BACKEND_PTHREAD: its worker */
	sched_fiber fiber;          /* SCHED_BACKEND_FIBER: its context and stack */
};
typedef struct weft_impl_thread sched_thread;

typedef struct sched_pool {
	sched_thread *threads[SCHED_MAX_THREADS];
	unsigned n_created;
	sched_backend backend;
	sched_baton controller;     /* pthreads: the controlling thread's own baton */
	sched_fiber controller_fiber;   /* fibers: the controlling thread's saved context */
	unsigned fork_generation;   /* pthread workers do not survive fork(); see pool.c */
	int pinned_cpu;             /* CPU the workers are pinned to, -1 = none */
	bool controller_held;       /* controller pinned for the current execution */
	cpu_set_t controller_mask;  /* its own affinity, restored after the execution */
} sched_pool;

/* Which instrumented plain accesses are switch points (access.c, <weft/instrument.h>). */
enum sched_accesses {
	SCHED_ACCESSES_SHARED,    /* memory another managed thread touched in this execution */
	SCHED_ACCESSES_ALL,       /* every one */
	SCHED_ACCESSES_ATOMICS,   /* none: atomic instructions only */
};

typedef struct sched_shared sched_shared;   /* access.c: granule -> threads, per execution */

/* The data-race check (race.c): off, a race stops the execution, or it is listed. */
enum sched_races { SCHED_RACES_OFF, SCHED_RACES_FAIL, SCHED_RACES_WARN };

#define SCHED_MAX_RACES 16         /* distinct races one execution lists (WARN) */

/* A race found in WARN mode: its pair of sites (the later access first) and its sentence. */
typedef struct sched_race_found {
	const struct weft_access_site *site[2];
	char message[256];
} sched_race_found;

/* What the runner asks of one execution. */
typedef struct sched_exec_config {
	unsigned n_threads;                        /* 1..SCHED_MAX_THREADS */
	uint64_t step_budget;                      /* switch points before the cut */
	unsigned max_threads;                      /* slots, >= n_threads: threads may be
						      spawned up to it (0 = n_threads) */
	uint64_t spin_limit;                       /* quiet steps before a spinner is
						      descheduled (0 = default) */
	uint64_t livelock_limit;                   /* quiet steps alone = livelock (0 = default) */
	uint64_t solo_limit;                       /* steps of one call alone (0 = unchecked) */
	bool spurious_wakeups;                     /* condition waits may end by themselves */
	uint8_t accesses;                          /* enum sched_accesses */
	uint8_t races;                             /* enum sched_races: check instrumented
						      accesses for data races (race.c) */
	uint8_t memory;                            /* enum sched_memory (memory.h) */
	sched_strategy strategy;
	void (*body)(void *ctx, unsigned thread);  /* runs on managed thread `thread` */
	void *body_ctx;
} sched_exec_config;

typedef struct sched_exec {
	sched_exec_config cfg;
	sched_pool *pool;
	sched_thread *current;      /* holder of the baton, NULL = controller */
	sched_mask runnable;        /* bit t: thread t can run (not finished, blocked or descheduled) */
	sched_mask live;            /* bit t: thread t started and not finished */
	sched_mask spinning;        /* bit t: descheduled as a spinner until memory changes */
	sched_mask stalled;         /* the live threads when no thread could run (reports) */
	unsigned n_slots;           /* cfg.max_threads or cfg.n_threads */
	unsigned n_started;         /* threads started (spawned ones included) */
	uint64_t epoch;             /* changes of shared memory so far */
	uint8_t stop;               /* enum sched_stop */
	uint8_t stop_thread;        /* the thread that stopped it */
	char stop_message[256];     /* SCHED_STOP_ASSERTION / _ERROR / _RACE: what happened */
	int exit_status;            /* SCHED_STOP_EXIT: exit()'s argument */
	unsigned n_sync;
	sched_sync sync[SCHED_MAX_SYNC];
	uint64_t wait_counter;
	uint64_t steps;             /* switch points so far */
	unsigned preemptions;       /* switches away from a thread that could go on */
	unsigned switches;          /* all switches between managed threads */
	bool cut;                   /* step budget exhausted: threads unwind */
	sched_shared *shared;       /* instrumented plain accesses (access.c); NULL until one */
	unsigned mem_locs;          /* atomic locations the memory model tracks (memory_c11.c) */
	struct sched_mem *mem;      /* its state; NULL until the first weak access */
	unsigned mem_buffered;      /* TSO/PSO: stores in the threads' buffers (memory_tso.c) */
	struct sched_tso *tso;      /* their state; NULL until the first buffered store */
	unsigned n_races;           /* SCHED_RACES_WARN: races listed so far (race.c) */
	sched_race_found race[SCHED_MAX_RACES];
	unsigned n_choices;         /* data choices made so far (sched_choose) */
	sched_choice choice[SCHED_MAX_CHOICES];   /* the first SCHED_MAX_CHOICES of them */
	sched_trace trace;
	sched_site_cache site_ids;  /* sites whose own id a program's globals reset wiped */
} sched_exec;

/*
 * Set while the implementation-as-model replays operations one at a time on
 * the controlling thread (runner/impl_model.c): there, a call that would block
 * for good (sync.c: a lock held, an empty semaphore, an untimed wait) jumps
 * here instead, and the operation counts as WEFT_BLOCKED.
 */
extern _Thread_local jmp_buf *sched_replay_jump;

/* ---- pool.c ---- */
void sched_pool_init(sched_pool *pool, sched_backend backend);
/* Make sure `n` workers exist (creating them is the only slow part); 0 or -1. */
int sched_pool_reserve(sched_pool *pool, unsigned n);
/*
 * Around one execution, on the controlling thread: keep the workers and the
 * controller on the CPU the controller runs on now, then give the controller its
 * own affinity back (see pool.c for why).  A few system calls per execution,
 * pthreads only: fibers run on the controller anyway, these do nothing.
 */
void sched_pool_hold_controller(sched_pool *pool);
void sched_pool_release_controller(sched_pool *pool);
/* Stop and join every worker.  Only between executions. */
void sched_pool_destroy(sched_pool *pool);

/* ---- transfer.c, handoff_fiber.c ---- */
/*
 * The one hand-off: the CPU goes from `from` to `to` (NULL = the controlling
 * thread) and `from` waits until someone transfers to it again.  pthreads:
 * pass `to`'s baton, wait on `from`'s.  Fibers: switch stacks.  Either way,
 * on return weft_impl_current is `from` again on the running OS thread.
 */
void sched_transfer(sched_pool *pool, sched_thread *from, sched_thread *to);
/* Fiber workers: make `t`'s context (its stack) and end it (handoff_fiber.c). */
int sched_fiber_worker_start(sched_pool *pool, sched_thread *t);
void sched_fiber_worker_stop(sched_pool *pool, sched_thread *t);

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
/* The same for a stretch that is not an operation (a spawned thread's body): no event. */
void sched_call_begin(uint32_t call);
/* On a spawned thread: run its start routine (sync.c). */
void sched_run_start_routine(void);
void sched_op_end(uint32_t call, int64_t result);

/* ---- access.c ---- */
/* A new execution: no granule is shared yet (cheap: a generation number). */
void sched_access_reset(sched_exec *exec);
void sched_access_destroy(sched_exec *exec);
/* Does this binary hold instrumented code (the pass defines the symbol)? */
extern const uint8_t weft_impl_instrumented_module __attribute__((weak));
static inline bool sched_instrumented_binary(void)
{
	return &weft_impl_instrumented_module != NULL;
}

/* ---- race.c ---- */
typedef struct sched_shadow sched_shadow;   /* one granule's last accesses */
extern const size_t sched_shadow_size;
struct weft_access_site;
/* A new execution: every thread's clock is its own 1. */
void sched_race_start(sched_exec *exec);
void sched_race_release_slow(sched_thread *self, sched_vc *object);
void sched_race_acquire_slow(sched_thread *self, const sched_vc *object);
void sched_race_fork_slow(sched_thread *self, sched_thread *child);
void sched_race_clear(sched_shadow *s);
/* A new block at the granule (an allocation): no earlier access conflicts with it. */
void sched_race_clear_cells(sched_shadow *s);
/* An atomic access of C11 order `order`: its acquire side before the check, its release after. */
void sched_race_atomic_before(sched_thread *self, sched_shadow *s, unsigned order, bool reads);
void sched_race_atomic_after(sched_thread *self, sched_shadow *s, unsigned order, bool writes);
void sched_race_fence(sched_thread *self, unsigned order);
/* The access about to happen to the bytes `mask` of the granule; at a race stops the
   execution (SCHED_RACES_FAIL) or lists it (SCHED_RACES_WARN). */
void sched_race_access(sched_thread *self, sched_shadow *s, const struct weft_access_site *site,
		       uint8_t mask, bool write, bool atomic);
/* The edges; one branch when races are not checked. */
static inline void sched_race_release(sched_thread *self, sched_vc *object)
{
	if (__builtin_expect(self->exec->cfg.races, 0))
		sched_race_release_slow(self, object);
}
static inline void sched_race_acquire(sched_thread *self, const sched_vc *object)
{
	if (__builtin_expect(self->exec->cfg.races, 0))
		sched_race_acquire_slow(self, object);
}

/* ---- internal to the scheduler room ---- */
/* Ask the strategy where `self` is next preempted in its call; none = UINT64_MAX. */
static inline void sched_arm_preemption(sched_exec *exec, sched_thread *self)
{
	const sched_strategy *s = &exec->cfg.strategy;
	uint64_t at = s->next_preemption(s->self, self->id, self->call, self->call_step);
	self->preempt_at = at > self->call_step ? at : UINT64_MAX;
}

void sched_thread_run(sched_thread *self);                   /* exec.c, on a worker */
/* Stop the execution for `why`; the caller unwinds (exec.c). */
void sched_stop_execution(sched_thread *self, enum sched_stop why) __attribute__((noreturn));
/* `self` cannot go on: hand the baton to whoever can (exec.c); returns when resumed. */
void sched_block(sched_thread *self);
/* Make a blocked thread runnable again (exec.c). */
void sched_unblock(sched_exec *exec, sched_thread *t);
/* The integer at `addr` (1, 2, 4 or 8 bytes, zero-extended; else 0), unchecked (access.c). */
uint64_t sched_access_peek(const void *addr, unsigned size);
/* A change of shared memory by `self`: spinners may go on (progress.c). */
void sched_note_change(sched_thread *self);
/* The quiet or solo count passed its limit (progress.c); true if it switched. */
bool sched_progress_check(sched_thread *self);
/* Nobody can run: time out a waiter, resume a spinner, or NULL = stalled (progress.c). */
sched_thread *sched_resolve_stall(sched_exec *exec);
/* The thread resumed: reset its counts if memory changed meanwhile (progress.c). */
void sched_note_resumed(sched_thread *self);
/* The first thread of `mask` cyclically from thread `wanted`, or NULL (exec.c). */
sched_thread *sched_runnable_from(sched_exec *exec, sched_mask mask, unsigned wanted);
/* Spawned thread `id` of this execution: its slot, made on first use (exec.c); NULL = none. */
sched_thread *sched_spawn_slot(sched_exec *exec, unsigned id);
/* Who runs when `self` cannot go on: asks the strategy if there is a choice (exec.c). */
sched_thread *sched_forced_next(sched_exec *exec, sched_thread *self);
/* A data choice from the strategy, remembered in exec->choice (exec.c). */
uint64_t sched_choose(sched_exec *exec, uint64_t bound);
/*
 * A blocking primitive synchronises: an SC fence for the memory model
 * (memory.h; under TSO/PSO it drains the thread's store buffer).
 */
static inline void sched_mem_sync(sched_thread *self)
{
	if (__builtin_expect((self->exec->mem_locs | self->exec->mem_buffered) != 0, 0))
		sched_mem_sync_slow(self);
}
/* An operation's boundary (exec.c): see memory.h. */
static inline void sched_mem_op_begin(sched_thread *self)
{
	if (__builtin_expect((self->exec->mem_locs | self->exec->mem_buffered) != 0, 0))
		sched_mem_op_begin_slow(self);
}
static inline void sched_mem_op_end(sched_thread *self)
{
	if (__builtin_expect((self->exec->mem_locs | self->exec->mem_buffered) != 0, 0))
		sched_mem_op_end_slow(self);
}
/*
 * A spawned thread's end and its join (sync.c): SC fences under c11; under
 * TSO/PSO the end leaves the buffer as it is (a store buffer drains on its
 * own time, not when its thread exits) and the join commits the child's
 * stores, then drains the joiner's (memory.c).
 */
static inline void sched_mem_thread_end(sched_thread *self)
{
	if (__builtin_expect(self->exec->mem_locs != 0, 0))
		sched_mem_sync_slow(self);
}
static inline void sched_mem_joined(sched_thread *self, sched_thread *child)
{
	if (__builtin_expect((self->exec->mem_locs | self->exec->mem_buffered) != 0, 0))
		sched_mem_joined_slow(self, child);
}
bool sched_switch_point(sched_thread *self);                 /* switch_point.c */
void sched_cut_execution(sched_thread *self) __attribute__((noreturn));  /* exec.c */
void sched_hand_off(sched_thread *self, sched_thread *next, bool preemptive);  /* exec.c */

#endif /* WEFT_SCHED_H */
