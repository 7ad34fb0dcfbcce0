/*
 * reduce/reschedule.h - escaping the simplifier's fixed points by deriving a
 * new plan for a changed scenario (design in reschedule.c).
 */
#ifndef WEFT_REDUCE_RESCHEDULE_H
#define WEFT_REDUCE_RESCHEDULE_H

#include "weft/run.h"
#include "../input/scenario.h"
#include "../search/schedule_dfs.h"
#include "scenario_edit.h"

/* Offers a failing scenario (plan and data filled); 1 when it was kept as the new best. */
typedef int (*reduce_offer_fn)(void *ctx, input_scenario *s);

typedef struct reduce_rescheduler {
	weft_runner *runner;
	const weft_target *target;
	const input_bounds *bounds;
	weft_verdict keep;          /* the failure to keep */
	unsigned *runs;             /* the simplifier's run count, shared */
	unsigned max_runs;          /* stop when *runs reaches it */
	reduce_offer_fn offer;
	void *ctx;
	search_dfs *dfs;            /* over the runner's trace */
	input_scenario variant, found;
	reduce_lists lists;
} reduce_rescheduler;

/* Allocates the search; 0 on success. */
int reduce_rescheduler_init(reduce_rescheduler *x, weft_runner *runner, const input_bounds *b);
void reduce_rescheduler_free(reduce_rescheduler *x);
/*
 * Each variant of `best` (itself, one call of another kind, two threads
 * merged, one call moved) under every schedule with at most `preemptions`
 * preemptions, fewest first, until x->offer keeps one: returns 1 then, 0 when
 * none was kept within the budget.
 */
int reduce_reschedule(reduce_rescheduler *x, const input_scenario *best, unsigned preemptions);

#endif /* WEFT_REDUCE_RESCHEDULE_H */
