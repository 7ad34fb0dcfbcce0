/*
 * search/schedule_dfs.h - the exhaustive strategy: a depth-first search over
 * the scheduling decisions of one scenario, by replaying a decision prefix and
 * extending it (stateless model checking, as in CHESS and the seeds' tiny
 * model checker).
 *
 * A *decision* is asked whenever more than one thread could take the next
 * step: at every switch point of the running thread while another thread can
 * run (answer itself: no switch; another: a preemption), and when the running
 * thread finished and several could take over (forced).  The strategy asks the
 * scheduler to stop at every switch point (next_preemption = step + 1).  A
 * thread just switched to that has not run yet (a fresh start) reaches its
 * first switch point having done nothing: that ask is answered "go on" without
 * being a decision, so every maximal decision sequence is a different
 * execution, and every execution is one sequence.
 *
 * Bounds and reduction:
 *   - preemption bound c (CHESS, Musuvathi & Qadeer, PLDI 2007): a branch
 *     that would make the c+1-th preemption is not explored;
 *   - reduction (dpor.h): each decision explores only the threads its
 *     backtrack set asks for (source-DPOR), and sleep sets skip a thread
 *     whose step commutes with everything done since it was explored.  With a
 *     bound, sleep sets are off and every race adds all its initials, at the
 *     race and at the start of the racing step's run of steps (Coons,
 *     Musuvathi, McKinley, "Bounded partial-order reduction", OOPSLA 2013, the
 *     conservative variant); dpor with a bound is not proved complete here;
 *   - data choices (strategy.h `choose`: a sleep or timed wait ending early,
 *     a weak read, a store left buffered) are nodes whose every answer is
 *     tried, with or without reduction; under a weak memory model the
 *     dependence grows from the first execution past SC (search_dfs_weak).
 *   - `bound_cut` tells the caller the bound kept a thread from being tried,
 *     so "fine" holds within the bound only.
 *
 * Use: search_dfs_start(scenario), then repeatedly run the scenario with
 * search_dfs_strategy() and call search_dfs_next() after each execution,
 * until it returns 0.  The path is the only state kept between executions.
 */
#ifndef WEFT_SEARCH_SCHEDULE_DFS_H
#define WEFT_SEARCH_SCHEDULE_DFS_H

#include <stdbool.h>

#include "../input/scenario.h"
#include "../scheduler/strategy.h"
#include "../scheduler/trace.h"

#define SEARCH_DFS_UNBOUNDED 0xffffffffu

typedef struct search_dfs search_dfs;

/* NULL when out of memory.  `trace` is the runner's trace (read during executions). */
search_dfs *search_dfs_new(const sched_trace *trace);
void search_dfs_free(search_dfs *d);

/* A new search (empty path) with this preemption bound and reduction on or off. */
void search_dfs_start(search_dfs *d, unsigned preemption_bound, bool reduce);
sched_strategy search_dfs_strategy(search_dfs *d);
/*
 * The executions run under a weak memory model (C11, TSO, PSO).  Default: false
 * (sequential consistency).  The reduction uses the SC dependence until an
 * execution goes past SC (a non-seq_cst atomic, a buffered store); that
 * execution is marked `restart` and the search starts again, from then on
 * taking barriers and thread starts as dependent with everything (dpor.h).
 * Sound because the first access past SC in any execution follows an SC
 * prefix, which the SC reduction explores a representative of.  `d` must have
 * been made with the runner's own trace (runner_trace): the memory model's
 * state is read beside it.  Call before search_dfs_start.
 */
void search_dfs_weak(search_dfs *d, bool weak);

/* How the last execution went, for counting and reporting. */
typedef struct search_dfs_execution {
	bool redundant;       /* every thread that could run was asleep: an equivalent
				 execution is explored elsewhere (reduction only) */
	bool diverged;        /* a replayed prefix ran differently: nondeterministic target */
	bool forced_not_lowest;   /* a forced switch to a thread other than the lowest
				     runnable one found the plan full: not written */
	bool out_of_memory;
	bool weak_memory;         /* went past SC: a non-seq_cst atomic (C11), a buffered store */
	bool restart;             /* that was the first such execution: the search starts
				     again with the weak models' dependence (dpor.h) */
	bool choices_cut;         /* a data choice cut short: more than 32 answers (the first
				     32 tried), or a timed wait that may not end early again
				     (schedule_dfs.c, early_again) */
	bool bound_cut;           /* a new decision where the preemption bound kept a
				     runnable thread from being tried */
	bool too_many_threads;   /* more than DPOR_MAX_THREADS: the search refuses it */
	unsigned weak_reads;      /* data choices answered other than 0 (a load that read
				     an older store, a store left buffered, a wait that ended early) */
	unsigned n_preemptions;
	input_preemption preemption[INPUT_MAX_PREEMPTIONS];
	uint32_t preempted_call[INPUT_MAX_PREEMPTIONS];   /* the call each was in */
	uint8_t preempted_thread[INPUT_MAX_PREEMPTIONS];  /* and its thread (a spawned program
							     thread may have no call: INPUT_NO_CALL) */
} search_dfs_execution;

/*
 * After an execution: analyse it (races), then set up the next decision
 * sequence.  Returns 1 when there is one, 0 when the search is over.
 */
int search_dfs_next(search_dfs *d);
/* The execution search_dfs_next just analysed. */
const search_dfs_execution *search_dfs_last(const search_dfs *d);

/*
 * The last execution's schedule as the input format's plan, into `s` (its calls
 * kept; a program's spawned threads that were preempted and that `s` does not
 * list are added, as the format's threads 1..7, so their preemptions are written).
 */
void search_dfs_plan(const search_dfs_execution *e, input_scenario *s);

#endif /* WEFT_SEARCH_SCHEDULE_DFS_H */
