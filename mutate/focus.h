/*
 * mutate/focus.h - the frontier of a climb: the last mutant whose run read a
 * value no earlier run had read, mutated again in place of the input the
 * fuzzer chose, MUTATE_FOCUS_PERCENT of the time.
 *
 * Why: many hard bugs sit at the top of a climb - a stage word advanced one
 * step at a time, a sequence number, a state machine, a count of retries -
 * and each step is a new value read at one site (a VALUES feature,
 * runner/feedback.h: exact below 128).  The step after it starts from the
 * input that made it.  libFuzzer's corpus schedule spreads mutations over
 * every input with a rare feature, so the newest step got a share like any
 * other and each step of a six-step chain cost thousands of executions.  A
 * quarter of the mutations (weft_mutate's and weft_crossover's) start from
 * the frontier instead.  Measured on the hard benchmark (issue 33, 40 seeds,
 * one build, ARCHITECTURE.md): the geometric mean of the fuzzer's medians
 * 5,336 without, 3,948 with weft_mutate's quarter alone, 3,218 with both;
 * the ordering chains 4-9x faster, a three-thread ABA 3.5x; bugs a sampler
 * finds without a climb (a retry after time-outs) got slower.  Only a new
 * value counts: any new feature (pairs, reads-from) moved the frontier too
 * often to climb (4,343 against 3,948).
 *
 * Deterministic like the rest of the mutator: the focus follows the calls
 * made, the choice to use it draws from the mutator's seeded generator.
 */
#ifndef WEFT_MUTATE_FOCUS_H
#define WEFT_MUTATE_FOCUS_H

#include <stddef.h>
#include <stdint.h>

#include "../search/strategy_common.h"

#define MUTATE_FOCUS_PERCENT 25
#define MUTATE_FOCUS_BYTES 16384   /* a longer mutant is not kept (nor written: mutate.c) */

typedef struct mutate_focus {
	size_t size, last_size;             /* 0: none */
	uint8_t bytes[MUTATE_FOCUS_BYTES];  /* the frontier */
	uint8_t last[MUTATE_FOCUS_BYTES];   /* the last mutant written */
} mutate_focus;

/* The mutant just written (its run comes next). */
void mutate_focus_written(mutate_focus *f, const uint8_t *bytes, size_t n);
/* That mutant's run read a new value: it is the frontier now (1; 0 when
 * there is no such mutant: too long, or none written). */
int mutate_focus_promote(mutate_focus *f);
/* Whether this mutation starts from the frontier (f->bytes, f->size):
 * MUTATE_FOCUS_PERCENT of the calls, when there is one and it fits max_size. */
int mutate_focus_instead(const mutate_focus *f, search_rng *rng, size_t max_size);

#endif /* WEFT_MUTATE_FOCUS_H */
