/*
 * scheduler/strategy.h - who decides: the three questions a schedule answers.
 *
 * The scheduler asks a strategy only these, in a deterministic order:
 *   steps_to_preemption  how many more *eligible* switch points (ones where
 *                        another thread could run) to let pass before the next
 *                        preemption; 0 = never again in this execution;
 *   pick                 at a preemption, which of the n other runnable threads
 *                        (0..n-1, in thread-number order) runs next;
 *   choose               any other data choice in [0, bound) (e.g. a timed wait's
 *                        outcome); 0 is always the simplest answer.
 * Asking in terms of distances keeps the hot path a countdown and lets an
 * encoding pay O(1) per preemption however deep it is.
 *
 * Implementations: harness/schedule_bytes.c (the fuzzer's bytes).  Random, PCT and
 * exhaustive strategies implement the same three functions.
 */
#ifndef WEFT_SCHED_STRATEGY_H
#define WEFT_SCHED_STRATEGY_H

#include <stdint.h>

typedef struct sched_strategy {
	void *self;
	uint64_t (*steps_to_preemption)(void *self);
	unsigned (*pick)(void *self, unsigned n_candidates);
	uint64_t (*choose)(void *self, uint64_t bound);
} sched_strategy;

#endif /* WEFT_SCHED_STRATEGY_H */
