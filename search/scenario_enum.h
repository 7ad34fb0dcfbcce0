/*
 * search/scenario_enum.h - every scenario within bounds, smallest first: what
 * the systematic explorer runs each schedule search on.
 *
 * Order: by total operations, then threads, then how the operations are spread
 * over the threads (lexicographic), then which operation and arguments each
 * call has (lexicographic, the last call varying fastest; operations in
 * target order, arguments from low to high).  So the first failing scenario
 * found is one of the smallest.  Every thread has at least one operation; a
 * scenario where two threads run operations of one non-parallel group
 * (weft_op.group) is skipped, as the input format cannot have it either.
 *
 * Arguments: each argument's range is clipped to [lo, hi] (an empty
 * intersection leaves the range's minimum alone); the default is each range's
 * two lowest values.  At most SEARCH_ENUM_MAX_MENU (operation, arguments)
 * pairs per call.
 */
#ifndef WEFT_SEARCH_SCENARIO_ENUM_H
#define WEFT_SEARCH_SCENARIO_ENUM_H

#include <stdbool.h>

#include "../input/scenario.h"

#define SEARCH_ENUM_MAX_MENU 64

typedef struct search_call_kind {
	unsigned op;
	int64_t args[WEFT_MAX_ARGS];
} search_call_kind;

typedef struct search_scenario_enum {
	const weft_target *target;
	unsigned min_threads, max_threads, max_ops;
	unsigned n_menu;
	search_call_kind menu[SEARCH_ENUM_MAX_MENU];   /* what a call may be */
	/* position */
	bool started;
	unsigned total, n_threads;
	unsigned count[WEFT_MAX_THREADS];   /* operations per thread */
	unsigned pick[INPUT_MAX_CALLS];   /* each call's menu entry */
} search_scenario_enum;

/*
 * Bounds are taken as given (the caller checks them against the target's).
 * Arguments are clipped to [lo, hi] when `clip`, else to their two lowest values.
 * Returns 0, or -1 when the operations and arguments make more than
 * SEARCH_ENUM_MAX_MENU kinds of call.
 */
int search_enum_init(search_scenario_enum *e, const weft_target *t, const input_bounds *b,
		      unsigned min_threads, unsigned max_threads, unsigned max_ops,
		      bool clip, int64_t lo, int64_t hi);
/* The next scenario (no preemption plan) into *s; 0 when there is none left. */
int search_enum_next(search_scenario_enum *e, input_scenario *s);

#endif /* WEFT_SEARCH_SCENARIO_ENUM_H */
