/*
 * weft/mutate.h - weft's structure-aware mutator, for the fuzz glue
 * (harness/fuzz_libfuzzer.c: LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver).  Target authors do not need this header.
 *
 * A mutation decodes the input's scenario and writes a new one in the same
 * byte format (docs/input-format.md), so every output is an explicit
 * interleaving that replays anywhere.  Most mutations *sample* a schedule: they
 * run the scenario under a seeded random walk or PCT inside the call and write
 * the switches that run made back as preemptions (so the fuzzer's search
 * contains the random schedulers'); others edit the plan at steps the input's
 * execution really had, change an operation or an argument, reverse races of
 * the input's run, draw a fresh scenario, or splice threads of two inputs; a fraction is left to the
 * engine's own byte mutation.  Design and mutation weights: mutate/mutate.c.
 *
 * Who may call: the controlling thread, between executions of `runner` (a
 * mutation runs executions on it: unjudged, no features, no stats; the next
 * weft_runner_run starts clean).  Deterministic: the same bytes and seed give
 * the same output.  Cost: at most one execution of the target per call.
 */
#ifndef WEFT_MUTATE_H
#define WEFT_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "weft/export.h"
#include "weft/run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_mutator weft_mutator;

#define WEFT_MUTATOR_ARMS 11

/* The engine's own mutation (libFuzzer: LLVMFuzzerMutate); returns the new size. */
typedef size_t (*weft_engine_mutate)(uint8_t *data, size_t size, size_t max_size);

typedef struct weft_mutator_stats {
	uint64_t mutations;    /* calls of weft_mutate and weft_crossover */
	uint64_t runs;         /* executions inside the mutator (reused ones included) */
	uint64_t reused;       /* of those, judged samples the fuzzer took (weft_mutator_take) */
	uint64_t replayed;     /* failing samples the fuzzer ran again from their bytes */
	uint64_t sampled;      /* schedules sampled and written back */
	uint64_t lost;         /* sampled switches the format could not write */
	uint64_t verified;     /* written schedules replayed from their bytes */
	uint64_t mismatches;   /* of those, replays whose trace differed */
	uint64_t engine;       /* mutations left to the engine */
	uint64_t flipped;      /* samples that reversed a race of the input's run */
	uint64_t measured;     /* runs of an input to measure it (plan edits, race reversals
				  of an input whose run the runner no longer holds) */
	uint64_t twice;        /* mutants whose sample ran, then the fuzzer ran their bytes
				  again: not taken, though they passed (should stay 0) */
	uint64_t focused;      /* mutations that started from the frontier instead of the
				  engine's input (mutate/focus.h: the last mutant that read a
				  new value) */
	uint64_t frontiers;    /* times the frontier moved */
	/* the adaptive choice's current share per mutation, permille, in this order:
	 * uniform, POS, random walk, PCT on a fresh scenario; uniform, POS on the
	 * input's scenario; a prefix of its plan then a walk; a preemption edited;
	 * an operation edited; a race reversed; a splice (mutate/bandit.h) */
	unsigned arm_permille[WEFT_MUTATOR_ARMS];
} weft_mutator_stats;

/* NULL when out of memory.  verify: replay every sampled schedule from its
 * bytes and count mismatches (one more execution per sample). */
WEFT_API weft_mutator *weft_mutator_new(weft_runner *runner, int verify);
WEFT_API void weft_mutator_free(weft_mutator *m);
/* Mutate data[0..size) in place (capacity max_size); returns the new size. */
WEFT_API size_t weft_mutate(weft_mutator *m, uint8_t *data, size_t size, size_t max_size,
			    unsigned seed, weft_engine_mutate engine);
/* Threads of two inputs spliced into out (capacity max_out); returns its size. */
WEFT_API size_t weft_crossover(weft_mutator *m, const uint8_t *a, size_t na, const uint8_t *b,
			       size_t nb, uint8_t *out, size_t max_out, unsigned seed);
WEFT_API weft_mutator_stats weft_mutator_stats_get(const weft_mutator *m);
/*
 * Call before running an input: when `data` are the bytes the last
 * weft_mutate / weft_crossover wrote for a schedule it sampled, that sample
 * already ran judged on the runner (same bytes, same interleaving: the
 * recording is exact); if it passed, it is counted as the runner's execution
 * of `data`, *out (may be NULL) gets its result, the runner's features are
 * its features, and this returns 1: the caller need not run `data`.  A
 * failing sample is never taken (0): the caller replays the bytes, so the
 * report and the crash file come from a real run of them.  Any other call
 * of the runner between the mutation and this one makes it return 0.
 */
WEFT_API int weft_mutator_take(weft_mutator *m, const uint8_t *data, size_t size,
			       weft_result *out);
/* Call after running (or taking) a mutant: its features reward the mutation
 * that made it (mutate/bandit.h).  Cheap; nothing when feedback is off. */
WEFT_API void weft_mutator_observe(weft_mutator *m);
/*
 * For measuring one mutation alone: every mutation that may use the arm
 * `name` uses it (the first 64, and those of the simplest input, stay fresh
 * samples; a splice only in crossovers).  Names, in the order of
 * arm_permille: uniform-fresh pos-fresh walk-fresh pct-fresh uniform-same
 * pos-same prefix edit-plan edit-call flip splice; NULL: the bandit again.
 * Returns 0, or -1 for an unknown name.  The harnesses take it from
 * WEFT_MUTATOR=only:NAME.
 */
WEFT_API int weft_mutator_only_arm(weft_mutator *m, const char *name);
/* For engines that judge novelty themselves (AFL++: a new queue entry): the
 * last mutant was kept (novel = 1) or not (0).  Only the first call after a
 * mutation counts. */
WEFT_API void weft_mutator_reward(weft_mutator *m, int novel);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_MUTATE_H */
