/*
 * weft/target.h - how a fuzz target declares a data structure to weft.
 *
 * A target is one constant weft_target: its operations (name, function,
 * argument ranges, which thread may run them), a fresh instance per execution
 * (setup/teardown), a sequential model (weft/model.h) and optional checks.
 * weft decides, from the fuzzer's bytes, how many threads run, which operations
 * each runs with which arguments, and the interleaving; it records the history,
 * checks it for linearizability against the model, then calls validate.
 *
 * Without a model, the implementation itself, run sequentially on a fresh
 * instance, is the model (Lincheck's default): a history is accepted when some
 * order of its operations, replayed one at a time, gives the same results.
 *
 * 95% of target authors need: weft_op, weft_target, weft_model,
 * WEFT_FUZZ_TARGET, and the atomics of <weft/atomic.h> inside their data
 * structure.  A target file has no main() and no LLVMFuzzerTestOneInput: the
 * harness provides them.
 *
 * Example (the whole counter target is targets/counter.c):
 *
 *   static int64_t op_increment(void *self, const int64_t *args) { ... }
 *   static const weft_op ops[] = {
 *       [OP_INCREMENT] = { .name = "increment", .run = op_increment },
 *       [OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
 *   };
 *   static const weft_target counter = { .name = "counter", .ops = ops, .n_ops = 2,
 *       .setup = counter_new, .teardown = counter_free,
 *       .model = &counter_model, .final_op = &ops[OP_GET] };
 *   WEFT_FUZZ_TARGET(counter)
 */
#ifndef WEFT_TARGET_H
#define WEFT_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "weft/export.h"
#include "weft/model.h"
#include "weft/value.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_MAX_ARGS 4        /* arguments per operation */
#define WEFT_MAX_THREADS 16    /* threads of a scenario (a program: WEFT_MAX_PROGRAM_THREADS) */
#define WEFT_MAX_OPS 8         /* operations per thread */
/*
 * Managed threads of a whole program (WEFT_PROGRAM_TARGET): main and every
 * thread it spawns, each with control bytes of its own (scenario.h): its
 * preemptions.  (Up to the seventh session only the first 16 had them, so a
 * thread created later ran unpreempted: an ordering among the threads of a
 * pool of 20 could not be written down.)
 */
#define WEFT_MAX_PROGRAM_THREADS 128
#define WEFT_MAX_TARGET_OPS 32 /* operations a target declares */
#define WEFT_MAX_GROUPS 8      /* distinct non-zero weft_op.group values */

/* Inclusive range an argument is drawn from; the simplest value is `min`. */
typedef struct weft_range {
	int64_t min, max;
} weft_range;

/* weft_op.flags */
#define WEFT_OP_FINAL_ONLY 1u   /* never chosen for a thread; only as weft_target.final_op */

/*
 * One operation.  `run` executes on a managed thread, may use weft atomics (each
 * a switch point) and returns the operation's result (0 when it has none,
 * WEFT_NONE for "no value").
 *
 * `group` (Lincheck's non-parallel group): operations sharing a non-zero group
 * only ever run on one thread - the first thread, in scenario order, that picks
 * one.  Give a single-producer queue's enqueue group 1 and its dequeue group 2.
 * A thread that picks an operation of a group owned by another thread gets the
 * next operation (in ops[] order, wrapping) that it may run; a thread that may
 * run none stops there.
 *
 * `arg_types` / `result_type` (weft/value.h; NULL: an int64_t): an argument or
 * result that is a string, a struct or a sequence, passed as a value handle.
 * An argument's type makes the value from the integer drawn from its range;
 * both types print the value in reports.
 */
typedef struct weft_op {
	const char *name;
	int64_t (*run)(void *instance, const int64_t *args);
	int n_args;                         /* 0..WEFT_MAX_ARGS */
	weft_range args[WEFT_MAX_ARGS];
	unsigned group;                     /* 0: any thread */
	unsigned flags;                     /* WEFT_OP_* */
	const weft_value_type *arg_types[WEFT_MAX_ARGS];   /* NULL: int64_t */
	const weft_value_type *result_type;                /* NULL: int64_t */
} weft_op;

/*
 * One operation as it happened.  Logical times are positions in the execution's
 * event trace: a call returned before another was invoked iff its returned_at
 * is smaller than the other's invoked_at.
 */
typedef struct weft_op_record {
	unsigned thread;       /* 0-based managed thread; n_threads for the final operation */
	unsigned op;           /* index into weft_target.ops */
	int64_t args[WEFT_MAX_ARGS];   /* values (a typed argument made: weft/value.h) */
	int64_t result;        /* meaningless when pending */
	uint32_t invoked_at;   /* logical time: index of the begin event in the trace */
	uint32_t returned_at;  /* logical time of the end event; 0 when pending */
	int pending;           /* 1: never returned (execution cut short); may or may not have taken effect */
} weft_op_record;

typedef struct weft_history {
	const weft_op_record *ops;  /* in order of invocation */
	size_t n_ops;
} weft_history;

typedef struct weft_target {
	const char *name;
	const weft_op *ops;
	unsigned n_ops;

	/* Scenario bounds; 0 means the default (2, 3, 3). */
	unsigned min_threads, max_threads, max_ops_per_thread;
	/* Switch points per execution before it is cut short; 0 = default (10000). */
	unsigned step_budget;

	/* A fresh instance for one execution (called on the controlling thread). */
	void *(*setup)(void);
	void (*teardown)(void *instance);

	/*
	 * The sequential model the history is checked against (weft/model.h); its
	 * operation numbers are the indices of ops[].  NULL: the implementation run
	 * sequentially is the model (fine for small scenarios; a real model is
	 * faster and says what "correct" means).
	 */
	const weft_model *model;

	/*
	 * Optional: an element of ops[] run once after every thread has returned,
	 * on the controlling thread, with minimal arguments (Lincheck's post part).
	 * Its result joins the history, so the oracle sees the final state: a
	 * counter's lost update shows as get() returning too little.  Skipped when
	 * the execution was cut short.
	 */
	const weft_op *final_op;

	/*
	 * Optional postcondition, called after the linearizability check passed, on
	 * the controlling thread.  Returns 0 when the execution is correct; otherwise writes a one-line
	 * explanation into msg (cap bytes, NUL-terminated) and returns non-zero.
	 * Must not read addresses or time: its message goes into reports.
	 */
	int (*validate)(void *instance, const weft_history *history, char *msg, size_t cap);

	/*
	 * Blocking and progress (weft/sync.h, scheduler/progress.c).  A thread that
	 * passes spin_limit switch points (0 = 64) while nothing in shared memory
	 * changes is spinning: it is descheduled until something changes; one that
	 * goes on alone for livelock_limit such points (0 = 1000) is a livelock.
	 */
	unsigned spin_limit, livelock_limit;
	/*
	 * The target claims obstruction-freedom: an operation running alone (no
	 * other thread ran since it last resumed) finishes within this many switch
	 * points; 0 = no claim.  A violation is the verdict "obstruction".
	 */
	unsigned obstruction_free_steps;
	/* Condition waits may wake up spuriously (a choice of the input); 0 = never. */
	int spurious_wakeups;
	/* WEFT_TARGET_* below. */
	unsigned flags;
	/*
	 * The memory model the target's atomics run under unless $WEFT_MEMORY
	 * says otherwise: "sc", "c11", "tso" or "pso" (scheduler/memory.h); NULL =
	 * "c11".  For code written for one machine: a lock tuned for x86 says
	 * "tso", so that its fuzz binary looks for what x86 can do to it.
	 */
	const char *memory;
} weft_target;

/* Made by WEFT_PROGRAM_TARGET (below); set by nothing else. */
#define WEFT_TARGET_PROGRAM 1u
/*
 * The target needs each managed thread to be a real OS thread: it uses
 * thread-local storage (_Thread_local, pthread_getspecific) or thread identity
 * (pthread_self, gettid), or more than 256 KiB of stack in an operation.
 * Without it weft may run every managed thread as a fiber on the calling
 * thread (the same interleavings, much faster; weft/run.h: weft_runner_backend).
 */
#define WEFT_TARGET_REAL_THREADS 2u

/*
 * WEFT_FUZZ_TARGET(t): names the weft_target a fuzz or replay binary runs.  Put it
 * once at the end of the target file; the harness glue calls weft_fuzz_target().
 */
#define WEFT_FUZZ_TARGET(t) \
	const weft_target *weft_fuzz_target(void) { return &(t); }

/*
 * WEFT_PROGRAM_TARGET(name, fn): the target is a whole program, `int fn(void)`,
 * run on managed thread 0 once per input; the threads it creates with
 * pthread_create (through <weft/sync.h> or <weft/dropin.h>) are managed
 * threads 1, 2, ... in creation order, up to WEFT_MAX_PROGRAM_THREADS in all.  The
 * input schedules each of them (scenario.h).  Verdicts: a deadlock, livelock,
 * failed assert() (with harness/program_main.c) or weft_fail(), or fn
 * returning non-zero ("validation").  Built by weft_add_program (or with its
 * section renaming, README), the program's own globals are restored to their
 * start-up values before every input (harness/program_main.c); otherwise fn
 * must set up every global it uses: globals keep their values between inputs.
 */
#define WEFT_PROGRAM_TARGET(tname, fn)                                              \
	static int64_t weft_program_main_op_(void *instance, const int64_t *args)  \
	{                                                                          \
		(void)instance;                                                    \
		(void)args;                                                        \
		return (fn)();                                                     \
	}                                                                          \
	static int64_t weft_program_thread_op_(void *instance, const int64_t *args) \
	{                                                                          \
		(void)instance;                                                    \
		(void)args;                                                        \
		return 0;                                                          \
	}                                                                          \
	static const weft_op weft_program_ops_[] = {                               \
		{ .name = "main", .run = weft_program_main_op_ },                  \
		{ .name = "thread", .run = weft_program_thread_op_,                \
		  .flags = WEFT_OP_FINAL_ONLY },                                   \
	};                                                                         \
	static const weft_target weft_program_target_ = {                          \
		.name = (tname), .ops = weft_program_ops_, .n_ops = 2,             \
		.flags = WEFT_TARGET_PROGRAM,                                      \
	};                                                                         \
	WEFT_FUZZ_TARGET(weft_program_target_)

const weft_target *weft_fuzz_target(void);

/*
 * NULL when `target` is well formed, else a one-line description of what is
 * wrong (no operations, too many, an op without run, n_args out of range, an
 * empty argument range, final_op outside ops[], too many groups, no operation
 * a thread may run).  weft_runner_new refuses a target with a problem.
 */
WEFT_API const char *weft_target_problem(const weft_target *target);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_TARGET_H */
