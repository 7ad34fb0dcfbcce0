/*
 * search/explore.h - explore mode: search for a failure with a baseline
 * strategy instead of the fuzzer, through the same runner, targets and
 * oracles, until the first failure or a cap on executions.  It exists to
 * compare (bench/bench_search.sh): how many executions does each way of
 * choosing schedules need to find each bug?
 *
 * Strategies (definitions in strategy_baselines.h, stress.h):
 *   random   - random scenarios (explore_scenarios.h), random walk schedules;
 *   pct      - random scenarios, PCT with depth --depth;
 *   uniform  - random scenarios, uniform over interleavings (estimated);
 *   pos      - random scenarios, partial-order sampling;
 *   bytes    - random byte strings of 0..--bytes bytes straight into
 *              weft_runner_run: the fuzzer's encoding without the fuzzer;
 *   stress   - random scenarios on real parallel threads (stress.h).
 * Each scenario runs --schedules times before the next is drawn (not bytes).
 *
 * Length estimates (PCT's k, the uniform strategy's steps per thread): the
 * first execution of a scenario sums, over its calls, the mean switch points
 * of calls of the same operation in all earlier executions (8 for an
 * operation never seen); later executions of the same scenario use the most
 * seen in its earlier executions (per thread, and in total for k).
 *
 * Determinism: everything is drawn from --seed (scenarios from one stream,
 * schedules and bytes from others), so the same seed and options give the
 * same executions, the same first failure and the same digest - except
 * stress, whose executions are real parallel runs (its scenarios still
 * repeat).  Wall-clock time is measured for printing only.
 */
#ifndef WEFT_SEARCH_EXPLORE_H
#define WEFT_SEARCH_EXPLORE_H

#include <stdint.h>
#include <stdio.h>

#include "weft/run.h"
#include "../scheduler/trace.h"

typedef enum search_explore_kind {
	SEARCH_EXPLORE_RANDOM,
	SEARCH_EXPLORE_PCT,
	SEARCH_EXPLORE_UNIFORM,
	SEARCH_EXPLORE_BYTES,
	SEARCH_EXPLORE_STRESS,
	SEARCH_EXPLORE_POS,
} search_explore_kind;

/* One execution, as the per-execution callback sees it. */
typedef struct search_explore_execution {
	uint64_t index;                  /* 1-based */
	weft_verdict verdict;
	const weft_result *result;
	const sched_trace *trace;        /* NULL for stress */
	const weft_op_record *history;   /* stress only: its history */
	size_t n_history;
	uint64_t pct_k;                  /* pct: the step estimate this execution used */
} search_explore_execution;

typedef struct search_explore_options {
	search_explore_kind kind;
	uint64_t seed;
	unsigned depth;                  /* pct: 1..SEARCH_PCT_MAX_DEPTH */
	uint64_t max_executions;         /* >= 1 */
	unsigned min_threads, max_threads, max_ops;   /* clamped to the target's bounds */
	unsigned schedules;              /* executions per scenario, >= 1 */
	unsigned max_bytes;              /* bytes: input lengths 0..max_bytes */
	void (*on_execution)(void *ctx, const search_explore_execution *e);   /* may be NULL */
	void *ctx;
} search_explore_options;

typedef enum search_explore_outcome {
	SEARCH_EXPLORE_NONE,          /* no failure within max_executions */
	SEARCH_EXPLORE_FAILED,        /* the first failure is in the stats */
	SEARCH_EXPLORE_UNSUPPORTED,   /* the strategy cannot run this target (why: message) */
	SEARCH_EXPLORE_ERROR,         /* out of memory, threads (why: message) */
} search_explore_outcome;

typedef struct search_explore_stats {
	uint64_t executions;
	uint64_t scenarios;
	weft_verdict verdict;            /* the first failure's, or WEFT_PASS */
	weft_result result;              /* the last execution's (the failure's) */
	uint64_t digest;                 /* every execution's verdict and trace hash, in order */
	uint64_t check_unknown;          /* executions whose oracle gave up (counted as pass) */
} search_explore_stats;

typedef struct search_explorer search_explorer;

search_explorer *search_explorer_new(weft_runner *runner);
void search_explorer_free(search_explorer *x);

/*
 * Explore; on SEARCH_EXPLORE_FAILED search_explorer_report prints the
 * failing execution.  `message` gets a line when unsupported or on error.
 * The result's message pointer stays valid until the next explore.
 */
search_explore_outcome search_explore(search_explorer *x, const search_explore_options *o,
					search_explore_stats *st, char *message, size_t cap);
void search_explorer_report(const search_explorer *x, FILE *out);

/* "random", "pct3", "uniform", "bytes", "stress", "pos". */
void search_explore_name(char *buf, size_t cap, const search_explore_options *o);


#endif /* WEFT_SEARCH_EXPLORE_H */
