/*
 * harness/explore.h - explore mode: search for a failure with a baseline
 * strategy instead of the fuzzer, through the same runner, targets and
 * oracles, until the first failure or a cap on executions.  It exists to
 * compare (bench/bench_search.sh): how many executions does each way of
 * choosing schedules need to find each bug?
 *
 * Strategies (definitions in strategy_baselines.h, stress.h):
 *   random   - random scenarios (explore_scenarios.h), random walk schedules;
 *   pct      - random scenarios, PCT with depth --depth;
 *   uniform  - random scenarios, uniform over interleavings (estimated);
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
#ifndef WEFT_HARNESS_EXPLORE_H
#define WEFT_HARNESS_EXPLORE_H

#include <stdint.h>
#include <stdio.h>

#include "weft/run.h"
#include "../scheduler/trace.h"

typedef enum harness_explore_kind {
	HARNESS_EXPLORE_RANDOM,
	HARNESS_EXPLORE_PCT,
	HARNESS_EXPLORE_UNIFORM,
	HARNESS_EXPLORE_BYTES,
	HARNESS_EXPLORE_STRESS,
} harness_explore_kind;

/* One execution, as the per-execution callback sees it. */
typedef struct harness_explore_execution {
	uint64_t index;                  /* 1-based */
	weft_verdict verdict;
	const weft_result *result;
	const sched_trace *trace;        /* NULL for stress */
	const weft_op_record *history;   /* stress only: its history */
	size_t n_history;
	uint64_t pct_k;                  /* pct: the step estimate this execution used */
} harness_explore_execution;

typedef struct harness_explore_options {
	harness_explore_kind kind;
	uint64_t seed;
	unsigned depth;                  /* pct: 1..HARNESS_PCT_MAX_DEPTH */
	uint64_t max_executions;         /* >= 1 */
	unsigned min_threads, max_threads, max_ops;   /* clamped to the target's bounds */
	unsigned schedules;              /* executions per scenario, >= 1 */
	unsigned max_bytes;              /* bytes: input lengths 0..max_bytes */
	void (*on_execution)(void *ctx, const harness_explore_execution *e);   /* may be NULL */
	void *ctx;
} harness_explore_options;

typedef enum harness_explore_outcome {
	HARNESS_EXPLORE_NONE,          /* no failure within max_executions */
	HARNESS_EXPLORE_FAILED,        /* the first failure is in the stats */
	HARNESS_EXPLORE_UNSUPPORTED,   /* the strategy cannot run this target (why: message) */
	HARNESS_EXPLORE_ERROR,         /* out of memory, threads (why: message) */
} harness_explore_outcome;

typedef struct harness_explore_stats {
	uint64_t executions;
	uint64_t scenarios;
	weft_verdict verdict;            /* the first failure's, or WEFT_PASS */
	weft_result result;              /* the last execution's (the failure's) */
	uint64_t digest;                 /* every execution's verdict and trace hash, in order */
	uint64_t check_unknown;          /* executions whose oracle gave up (counted as pass) */
} harness_explore_stats;

typedef struct harness_explorer harness_explorer;

harness_explorer *harness_explorer_new(weft_runner *runner);
void harness_explorer_free(harness_explorer *x);

/*
 * Explore; on HARNESS_EXPLORE_FAILED harness_explorer_report prints the
 * failing execution.  `message` gets a line when unsupported or on error.
 * The result's message pointer stays valid until the next explore.
 */
harness_explore_outcome harness_explore(harness_explorer *x, const harness_explore_options *o,
					harness_explore_stats *st, char *message, size_t cap);
void harness_explorer_report(const harness_explorer *x, FILE *out);

/* "random", "pct3", "uniform", "bytes", "stress". */
void harness_explore_name(char *buf, size_t cap, const harness_explore_options *o);

/*
 * The command line (explore_cli.c): `NAME_replay --explore=STRATEGY [options]`;
 * argv[skip] is the --explore flag.  Returns the exit status.
 */
int harness_explore_main(int argc, char **argv, int skip, const weft_target *target);

#endif /* WEFT_HARNESS_EXPLORE_H */
