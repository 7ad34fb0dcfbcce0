/*
 * search/systematic.h - systematic mode: every scenario and every schedule
 * within bounds, through the same runner, scheduler, targets and oracles as
 * fuzzing, with the decisions made by a depth-first search (schedule_dfs.h)
 * instead of the input.  Fuzzing finds bugs; this proves their absence within
 * the bounds, or finds the first failure, smallest first.
 *
 * Order: for each preemption bound c = 0, 1, ..., C (or once, unbounded), for
 * each scenario smallest first (scenario_enum.h), every schedule with at most c
 * preemptions.  So the first failure has the fewest preemptions, then the
 * fewest operations.  Under bound c the executions with fewer preemptions run
 * again (the search cannot skip them without running them); they are counted
 * once, under the bound where they first appear.
 *
 * Unbounded with `deepen` d > 0 (the command line's default, d = 3): bounds
 * 0 .. d-1 first, as above, then one unbounded pass.  A depth-first search
 * without a bound goes deep into one thread's preemptions before it tries a
 * shallow switch elsewhere (a three-thread lock cycle: nothing in 200,000
 * executions, tests/test_systematic_corpus.c); iterative deepening finds the
 * shallow bugs first.  A bounded pass in which the bound cut nothing was the
 * whole search: it ends there.  Otherwise the unbounded pass is the proof and
 * its runs alone are counted as interleavings (the shallower passes' as reruns).
 * A bound that cut the search is reported (bound_cut): "fine" then means fine
 * within that bound only.
 *
 * Counting: an *interleaving* is one complete execution, a maximal sequence of
 * decisions.  Without reduction every one is run; with reduction one per
 * class of equivalent executions (at least), plus *redundant* runs that the
 * sleep sets found to be equivalent to another after they had started; those
 * are checked but not counted.
 */
#ifndef WEFT_SEARCH_SYSTEMATIC_H
#define WEFT_SEARCH_SYSTEMATIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "weft/run.h"
#include "../input/scenario.h"
#include "schedule_dfs.h"

typedef struct search_systematic_stats search_systematic_stats;

typedef struct search_systematic_options {
	unsigned min_threads, max_threads;   /* within the target's bounds */
	unsigned max_ops;                    /* per thread, 1..the target's */
	bool clip_args;                      /* arguments clipped to [arg_lo, arg_hi] */
	int64_t arg_lo, arg_hi;              /* else: each range's two lowest values */
	unsigned preemptions;                /* SEARCH_DFS_UNBOUNDED: no bound, one pass */
	unsigned deepen;                     /* unbounded: bounded passes 0..deepen-1 first */
	bool reduce;                         /* partial-order reduction */
	uint64_t max_executions;             /* stop after this many runs; 0 = never */
	uint64_t progress_every;             /* runs between progress calls; 0 = none */
	void (*progress)(void *ctx, const search_systematic_stats *st);
	void *progress_ctx;
} search_systematic_options;

struct search_systematic_stats {
	uint64_t executions;      /* runs, all of them */
	uint64_t interleavings;   /* distinct interleavings explored, each checked */
	uint64_t redundant;       /* runs the sleep sets cut short (reduction) */
	uint64_t reruns;          /* runs already counted under a lower bound */
	uint64_t scenarios;       /* distinct scenarios explored */
	uint64_t scenario;        /* the one being explored (1-based, under this bound) */
	unsigned bound;           /* the preemption bound being explored */
	uint64_t bound_cut;       /* runs of the last pass where the bound kept a runnable
				     thread from being tried: "fine" is within the bound only */
	uint64_t choices_cut;     /* runs where a data choice was cut short (schedule_dfs.h) */
};

typedef enum search_systematic_outcome {
	SEARCH_SYSTEMATIC_FINE,      /* every interleaving within the bounds passed */
	SEARCH_SYSTEMATIC_FAILED,    /* *failure describes the first failing one */
	SEARCH_SYSTEMATIC_LIMIT,     /* max_executions reached first */
	SEARCH_SYSTEMATIC_ERROR,     /* the message says why */
} search_systematic_outcome;

typedef struct search_systematic_failure {
	weft_verdict verdict;
	weft_result result;
	input_scenario scenario;    /* the failing scenario, its schedule as the plan */
	bool expressible;             /* the input format can say this schedule */
} search_systematic_failure;

/*
 * Explore (order and counting above).  On SEARCH_SYSTEMATIC_FAILED the
 * runner's last execution is the failing one (weft_runner_report prints it).
 * `message` gets a line on SEARCH_SYSTEMATIC_ERROR.
 */
search_systematic_outcome search_systematic_explore(weft_runner *r,
						      const search_systematic_options *o,
						      search_systematic_stats *st,
						      search_systematic_failure *failure,
						      char *message, size_t cap);


#endif /* WEFT_SEARCH_SYSTEMATIC_H */
