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
 *   pick             at that preemption, which thread runs next (0..n_threads-1);
 *                    the scheduler takes the first runnable thread other than
 *                    `thread`, cyclically, from the one named;
 *   choose           any other data choice in [0, bound) (e.g. a timed wait's
 *                    outcome); 0 is always the simplest answer.
 * The hot path is then one increment and one compare per switch point.
 *
 * Implementations: harness/schedule_bytes.c (the plan decoded from the fuzzer's
 * bytes).  Random, PCT and exhaustive strategies implement the same three.
 */
#ifndef WEFT_SCHED_STRATEGY_H
#define WEFT_SCHED_STRATEGY_H

#include <stdint.h>

typedef struct sched_strategy {
	void *self;
	uint64_t (*next_preemption)(void *self, unsigned thread, uint32_t call, uint64_t step);
	unsigned (*pick)(void *self, unsigned thread, uint32_t call, uint64_t step,
			 unsigned n_threads);
	uint64_t (*choose)(void *self, uint64_t bound);
} sched_strategy;

#endif /* WEFT_SCHED_STRATEGY_H */
