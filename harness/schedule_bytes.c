/*
 * harness/schedule_bytes.c - the fuzzer-bytes strategy (format in scenario.h).
 *
 * Why steps relative to the operation and not to the whole execution: with a
 * global count, dropping an earlier operation moves every later preemption to a
 * different switch point, so a minimizer that only erases bytes gets stuck (it
 * must drop the operation and shorten a distance in one move).  Anchored to its
 * operation, a preemption stays where it was when anything else is erased.
 */
#include "schedule_bytes.h"

/* The first planned preemption of `call` after `step`, or 0. */
static uint64_t plan_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	const harness_scenario *s = ((harness_plan_reader *)self)->scenario;
	(void)thread;
	for (unsigned p = s->first_plan[call]; p < s->first_plan[call + 1]; p++)
		if (s->plan[p].step > step)
			return s->plan[p].step;
	return 0;
}

static unsigned plan_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			  unsigned n_threads)
{
	const harness_scenario *s = ((harness_plan_reader *)self)->scenario;
	for (unsigned p = s->first_plan[call]; p < s->first_plan[call + 1]; p++)
		if (s->plan[p].step == step)
			return s->plan[p].to;
	return (thread + 1) % n_threads;
}

static uint64_t bytes_choose(void *self, uint64_t bound)
{
	return harness_choose_back(((harness_plan_reader *)self)->choices, bound);
}

sched_strategy harness_schedule_bytes(harness_plan_reader *p)
{
	sched_strategy s = {
		.self = p,
		.next_preemption = plan_next_preemption,
		.pick = plan_pick,
		.choose = bytes_choose,
	};
	return s;
}
