/*
 * mutate/schedule_record.h - run a scenario under any strategy and write the
 * switches it made back as an explicit plan in weft's byte format
 * (docs/input-format.md), so a sampled schedule becomes an ordinary input:
 * it replays in every binary, and the fuzzers' minimizers and --simplify
 * reduce it.  Used by the structure-aware mutator (mutate.c).
 *
 * Why the recording is exact: the format writes a preemption as (call, step
 * of the call, to), and the bytes strategy (input/schedule_bytes.c) switches
 * at that step to the first runnable thread cyclically from `to`.  So every
 * *unforced* switch the sampled strategy makes is written as a preemption at
 * that step to that very thread.  A *forced* pick (the thread finished,
 * blocked or spins at step k) goes to the lowest runnable thread unless the
 * call's plan has a preemption at step k + 1, which then names the thread
 * (input/schedule_bytes.c): the recorder writes a forced pick that way, and
 * if a blocked thread reaches step k + 1 later, it switches there as the
 * replay will (one unforced decision taken from the sampler).
 * What remains inexact: progress.c counts only switch points that are not
 * planned preemptions as spinning, and the recorder asks at every step
 * (strategy_common.h spaces the questions while a thread spins); a spinner
 * may be descheduled at another step on replay.  mutate_record_verify
 * replays the written bytes and compares trace hashes; the mutator counts
 * mismatches (bench/results.md prints them).
 *
 * Following a plan: before `follow` decisions (unforced picks) the recorder
 * answers from the scenario's own plan, as the bytes strategy would, and only
 * then asks the inner strategy: a prefix of the input kept, the rest sampled.
 * With no inner strategy it follows the plan to the end: a run that measures
 * each call's steps (call_steps) for edits at steps the input really has.
 * While it follows, a data choice is the scenario's own (s->data, when the
 * caller put the input's there); the decoder leaves none: then the one the
 * input's bytes hold (rec->back, the caller's reader after the decode), else 0.
 * Every unforced pick is logged with the trace's length at that moment
 * (decision_at), so a later run with follow = d - 1 reaches decision d at
 * the same event of the same run: where the race reversal (flip.h) steps in.
 */
#ifndef WEFT_MUTATE_SCHEDULE_RECORD_H
#define WEFT_MUTATE_SCHEDULE_RECORD_H

#include "../input/choice.h"
#include "../runner/runner_internal.h"
#include "../search/strategy_common.h"

#define MUTATE_MAX_FORCED 1024   /* forced picks a run records (was 128: a program of 100 threads makes more) */
#define MUTATE_MAX_DECISIONS 4096
#define MUTATE_RECORD_FILTER_WORDS 32   /* 2,048 bits: which (call, step) rec may hold */

/* A forced pick as it was answered: the replay's must agree (schedule_record.c). */
typedef struct mutate_forced {
	uint32_t call;
	uint64_t step;
	uint8_t answer;
	sched_mask runnable;
} mutate_forced;

typedef struct mutate_record_entry {
	uint32_t call;
	uint64_t step;
	uint8_t to;
} mutate_record_entry;

typedef struct mutate_recorder {
	const sched_strategy *inner;          /* NULL: follow the plan to the end */
	const input_scenario *scenario;       /* whose plan is followed */
	weft_runner *run;                     /* the runner it records on */
	const sched_trace *trace;             /* the running execution's (runner_trace) */
	unsigned n_slots;
	int program;                          /* a program: a thread's call is its number */
	uint64_t follow;                      /* unforced picks answered from the plan */
	uint64_t decisions;                   /* unforced picks so far */
	/* unforced pick d + 1 (d < MUTATE_MAX_DECISIONS): the trace's length when
	   it was asked and the thread that ran on (for the race reversal, flip.h) */
	uint32_t decision_at[MUTATE_MAX_DECISIONS];
	uint8_t decision_to[MUTATE_MAX_DECISIONS];
	search_steps steps;
	uint64_t call_steps[INPUT_MAX_CALLS]; /* the last step each call reached */
	unsigned n_call_steps;                /* call_steps from here on are 0 */
	unsigned n;
	unsigned lost;                        /* switches that could not be written */
	uint64_t hash;                        /* the recorded run's trace hash */
	int judge;                            /* judge the run (runner_run_speculative) */
	weft_result result;                   /* its verdict and counts, when judged */
	mutate_record_entry rec[INPUT_MAX_PREEMPTIONS];
	uint64_t filter[MUTATE_RECORD_FILTER_WORDS];   /* bits of rec's (call, step) */
	unsigned n_data;                      /* data choices answered (which store a
						 load read): written back at the back */
	input_data data[INPUT_MAX_DATA];
	/* the bytes `scenario` was decoded from, read past the scenario (NULL:
	   none): while following, a scenario without data choices takes them
	   from there, as the bytes strategy does on replay */
	const input_choices *back;
	input_choices back_now;               /* the run's reader, from *back */
	unsigned n_forced;                    /* forced picks answered so far */
	mutate_forced forced[MUTATE_MAX_FORCED];
	input_scenario replay;                /* scratch for mutate_record_verify */
} mutate_recorder;

/*
 * Run `s` on `r` under the recorder (inner may be NULL, see above); then
 * replace s's plan by the recorded switches.  Returns the number of lost
 * switches (0: the plan says exactly what ran, up to the spinner caveat).
 * With rec->judge set the run is judged but not counted (runner_run_speculative:
 * the runner keeps its verdict and features for weft_mutator_take).
 * `rec` is all zero before its first run (static or calloc'd): each run then
 * clears only what the last one used.
 */
unsigned mutate_record_run(weft_runner *r, input_scenario *s, const sched_strategy *inner,
			   uint64_t follow, mutate_recorder *rec);
/*
 * Decode `bytes`, run them unjudged under the bytes strategy, and return 1
 * when the trace hash is the recorded run's (rec->hash).
 */
int mutate_record_verify(weft_runner *r, mutate_recorder *rec, const uint8_t *bytes, size_t size);

#endif /* WEFT_MUTATE_SCHEDULE_RECORD_H */
