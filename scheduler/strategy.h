/*
 * scheduler/strategy.h - who decides: the three questions a schedule answers.
 *
 * Preemptions are placed relative to the operation a thread is in, not to the
 * whole execution: "preempt thread t at the k-th switch point of its call c".
 * Why: dropping an operation, a thread or another preemption from a schedule
 * (what every minimizer does) then leaves the remaining preemptions where they
 * were, so a failing schedule shrinks by erasing alone.
 *
 * The scheduler asks, in a deterministic order:
 *   next_preemption  thread `thread` has passed `step` switch points of its
 *                    current call `call` (0 when the call starts): at which later
 *                    step of that call is it preempted next?  0 = not again in
 *                    this call.  Steps count the thread's own switch points
 *                    outside atomic blocks, the call's start being step 1;
 *   pick             which thread runs next, out of `runnable` (a set of the
 *                    threads that can run, mask.h, never including `thread`).  Asked
 *                    at a planned preemption (`forced` false: answering
 *                    `thread` itself means "no switch after all") and when
 *                    `thread` cannot go on (`forced` true: it finished, blocked
 *                    or was descheduled as a spinner) and more than one thread
 *                    could take over.  An answer outside the mask is taken as
 *                    "the first runnable thread cyclically from it";
 *   choose           any other data choice in [0, bound) (e.g. a timed wait's
 *                    outcome); 0 is always the simplest answer.
 * The hot path is then one increment and one compare per switch point.
 *
 * A forced pick with one candidate is not asked: the only thread that can run
 * runs.  Implementations: input/schedule_bytes.c (the plan decoded from the
 * fuzzer's bytes: a forced pick is the lowest-numbered runnable thread).
 * Random, PCT and exhaustive strategies implement the same three.
 */
#ifndef WEFT_SCHED_STRATEGY_H
#define WEFT_SCHED_STRATEGY_H

#include <stdbool.h>
#include <stdint.h>

#include "mask.h"

typedef struct sched_strategy {
	void *self;
	uint64_t (*next_preemption)(void *self, unsigned thread, uint32_t call, uint64_t step);
	unsigned (*pick)(void *self, unsigned thread, uint32_t call, uint64_t step,
			 sched_mask runnable, bool forced);
	uint64_t (*choose)(void *self, uint64_t bound);
} sched_strategy;

#endif /* WEFT_SCHED_STRATEGY_H */
