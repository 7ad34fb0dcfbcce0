/*
 * reduce/scenario_edit.h - structural edits of a decoded scenario (design in
 * scenario_edit.c).
 */
#ifndef WEFT_REDUCE_SCENARIO_EDIT_H
#define WEFT_REDUCE_SCENARIO_EDIT_H

#include "../input/scenario.h"

/* New thread lists: new thread t runs old calls call[t][0 .. n[t]); plan thread
 * numbers are renumbered old -> new (see reduce_rebuild). */
typedef struct reduce_lists {
	unsigned n_threads;
	unsigned n[INPUT_MAX_THREADS];
	unsigned call[INPUT_MAX_THREADS][INPUT_MAX_CALLS];
	unsigned renumber[INPUT_MAX_THREADS];
} reduce_lists;

void reduce_remove_plan(input_scenario *s, unsigned p);
void reduce_remove_call(input_scenario *s, unsigned call);
void reduce_remove_thread(input_scenario *s, unsigned thread);
/* Rebuild `out` from `in` with the thread lists `l`, keeping each call's plan
 * (a plan's `to` names a thread modulo the slots of `b`). */
void reduce_rebuild(input_scenario *out, const input_scenario *in, const reduce_lists *l,
		    const input_bounds *b);
/* The lists of `s` as they are (renumbering the identity). */
void reduce_lists_of(reduce_lists *l, const input_scenario *s);
/* Lists with thread a's calls put before (after = 0) or after b's, a dropped. */
void reduce_merge_lists(reduce_lists *l, const input_scenario *s, unsigned a, unsigned b, int after);
/* Lists with threads a and b exchanged, renumbering a <-> b. */
void reduce_swap_lists(reduce_lists *l, const input_scenario *s, unsigned a, unsigned b);

#endif /* WEFT_REDUCE_SCENARIO_EDIT_H */
