/*
 * harness/scenario.h - choices -> scenario: which threads run which operations.
 *
 * Decoded from the front of the input, in this order (each a choice, see choice.h):
 *   threads   min_threads + choose(max_threads - min_threads + 1)
 *   for each thread t:
 *     ops     1 + choose(max_ops_per_thread)
 *     for each op: kind choose(n_ops), then each argument min + choose(max - min + 1)
 * All zeros: min_threads threads, one operation each, operation 0, minimal arguments.
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
