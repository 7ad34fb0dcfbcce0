/*
 * weft/target.h - how a fuzz target declares a data structure to weft.
 *
 * A target is one constant weft_target: its operations (name, function,
 * argument ranges), a fresh instance per execution (setup/teardown), and a check
 * of the finished execution (validate).  weft decides, from the fuzzer's bytes,
 * how many threads run, which operations each runs with which arguments, and
 * the interleaving; it records the history and calls validate.
 *
 * 95% of target authors need: weft_op, weft_target, WEFT_FUZZ_TARGET, and the
 * atomics of <weft/atomic.h> inside their data structure.  A target file has no
 * main() and no LLVMFuzzerTestOneInput: the harness provides them.
 *
 * Example (the whole counter target is targets/counter.c):
 *
 *   static int64_t op_increment(void *self, const int64_t *args) { ... }
 *   static const weft_op ops[] = { { "increment", op_increment, 0, {{0, 0}} } };
 *   static const weft_target counter = { .name = "counter", .ops = ops, .n_ops = 1,
 *       .setup = counter_new, .teardown = counter_free, .validate = counter_check };
 *   WEFT_FUZZ_TARGET(counter)
 */
#ifndef WEFT_TARGET_H
#define WEFT_TARGET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_MAX_ARGS 2        /* arguments per operation */
#define WEFT_MAX_THREADS 8     /* managed threads per execution */
#define WEFT_MAX_OPS 8         /* operations per thread */

/* Inclusive range an argument is drawn from; the simplest value is `min`. */
typedef struct weft_range {
	int64_t min, max;
} weft_range;

/*
 * One operation.  `run` executes on a managed thread, may use weft atomics (each
 * a switch point) and returns the operation's result (0 when it has none).
 */
typedef struct weft_op {
	const char *name;
	int64_t (*run)(void *instance, const int64_t *args);
	int n_args;                         /* 0..WEFT_MAX_ARGS */
	weft_range args[WEFT_MAX_ARGS];
} weft_op;

/* One operation as it happened, for validate(). */
typedef struct weft_op_record {
	unsigned thread;       /* 0-based managed thread */
	unsigned op;           /* index into weft_target.ops */
	int64_t args[WEFT_MAX_ARGS];
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
	 * Called after all threads finished (or were cut short), on the controlling
	 * thread.  Returns 0 when the execution is correct; otherwise writes a one-line
	 * explanation into msg (cap bytes, NUL-terminated) and returns non-zero.
	 * Must not read addresses or time: its message goes into reports.
	 */
	int (*validate)(void *instance, const weft_history *history, char *msg, size_t cap);
} weft_target;

/*
 * WEFT_FUZZ_TARGET(t): names the weft_target a fuzz or replay binary runs.  Put it
 * once at the end of the target file; the harness glue calls weft_fuzz_target().
 */
#define WEFT_FUZZ_TARGET(t) \
	const weft_target *weft_fuzz_target(void) { return &(t); }

const weft_target *weft_fuzz_target(void);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_TARGET_H */
