/*
 * harness/scenario.h - choices -> scenario: which threads run which operations.
 *
 * Decoded from the front of the input, in this order (each a choice, see choice.h):
 *   threads   min_threads + choose(max_threads - min_threads + 1)
 *   for each thread t, operations one after another:
 *     kind    choose(n)                     n: ops without WEFT_OP_FINAL_ONLY (no byte when 1);
 *                                           an op of a group another thread owns becomes
 *                                           the next op this thread may run (target.h);
 *                                           none at all ends the thread's list
 *     args    min + choose(max - min + 1)   (each argument, no byte when min == max)
 *     more    one byte: 0 = this thread's list ends here (also at max_ops_per_thread)
 * All zeros: min_threads threads, one operation each, operation 0, minimal arguments.
 * Every extra operation costs at least one byte, every extra thread at least one,
 * so the fuzzers' length minimization also minimizes the scenario.
 */
#ifndef WEFT_HARNESS_SCENARIO_H
#define WEFT_HARNESS_SCENARIO_H

#include "choice.h"
#include "weft/target.h"

#define HARNESS_DEFAULT_MIN_THREADS 2
#define HARNESS_DEFAULT_MAX_THREADS 3
#define HARNESS_DEFAULT_MAX_OPS 3
#define HARNESS_DEFAULT_STEP_BUDGET 10000
#define HARNESS_MAX_CALLS (WEFT_MAX_THREADS * WEFT_MAX_OPS)

/* Bounds of a target with its defaults filled in and its limits clamped. */
typedef struct harness_bounds {
	unsigned min_threads, max_threads, max_ops;
	unsigned step_budget;
	unsigned n_thread_ops;                       /* operations a thread may be given */
	unsigned thread_ops[WEFT_MAX_TARGET_OPS];    /* their indices in target->ops */
} harness_bounds;

typedef struct harness_scenario {
	unsigned n_threads;
	unsigned n_calls;
	unsigned first_call[WEFT_MAX_THREADS + 1];  /* thread t runs calls [first_call[t], first_call[t+1]) */
	weft_op_record calls[HARNESS_MAX_CALLS];    /* thread, op and args filled; results after the run */
} harness_scenario;

harness_bounds harness_bounds_of(const weft_target *target);
void harness_scenario_decode(harness_scenario *s, const weft_target *target,
			     const harness_bounds *b, harness_choices *c);

#endif /* WEFT_HARNESS_SCENARIO_H */
