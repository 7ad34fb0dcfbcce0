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
 * execution really had, change an operation or an argument, draw a fresh
 * scenario, or splice threads of two inputs; a fraction is left to the
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

/* The engine's own mutation (libFuzzer: LLVMFuzzerMutate); returns the new size. */
typedef size_t (*weft_engine_mutate)(uint8_t *data, size_t size, size_t max_size);

typedef struct weft_mutator_stats {
	uint64_t mutations;    /* calls of weft_mutate and weft_crossover */
	uint64_t runs;         /* executions inside the mutator (unjudged) */
	uint64_t sampled;      /* schedules sampled and written back */
	uint64_t lost;         /* sampled switches the format could not write */
	uint64_t verified;     /* written schedules replayed from their bytes */
	uint64_t mismatches;   /* of those, replays whose trace differed */
	uint64_t engine;       /* mutations left to the engine */
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

#ifdef __cplusplus
}
#endif

#endif /* WEFT_MUTATE_H */
