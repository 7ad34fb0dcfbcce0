/*
 * input/schedule_bytes.c - the fuzzer-bytes strategy (format in scenario.h).
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
	const input_scenario *s = ((input_plan_reader *)self)->scenario;
	(void)thread;
	if (call >= s->n_calls)
		return 0;
	for (unsigned p = s->first_plan[call]; p < s->first_plan[call + 1]; p++)
		if (s->plan[p].step > step)
			return s->plan[p].step;
	return 0;
}

/* The first thread of `mask` cyclically from `from`; `mask` is not empty. */
static unsigned first_from(sched_mask mask, unsigned from, unsigned n_threads)
{
	for (unsigned i = 0; i < n_threads; i++) {
		unsigned t = (from + i) % n_threads;
		if (sched_has(mask, t))
			return t;
	}
	return from;
}

/*
 * A planned preemption goes to the first runnable thread cyclically from the
 * plan's `to` (so every byte names some thread).  A forced switch (the thread
 * finished or cannot go on at step k of its call) goes to the lowest-numbered
 * runnable thread, the simplest answer, unless the call's plan has a
 * preemption at step k + 1: then cyclically from its `to` (issue 17: a
 * finished call never reaches that step, so the byte would be unused, and the
 * mutator's sampled schedules need to say who runs after a thread ends).
 */
static unsigned plan_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			  sched_mask runnable, bool forced)
{
	const input_plan_reader *p = self;
	const input_scenario *s = p->scenario;
	unsigned n = p->n_slots;
	if (forced) {
		unsigned from = 0;
		for (unsigned i = call < s->n_calls ? s->first_plan[call] : 0;
		     call < s->n_calls && i < s->first_plan[call + 1]; i++)
			if (s->plan[i].step == step + 1)
				from = s->plan[i].to % n;
		return first_from(runnable, from, n);
	}
	unsigned to = (thread + 1) % n;
	for (unsigned i = call < s->n_calls ? s->first_plan[call] : 0;
	     call < s->n_calls && i < s->first_plan[call + 1]; i++)
		if (s->plan[i].step == step)
			to = s->plan[i].to % n;
	return first_from(runnable, to, n);
}

static uint64_t bytes_choose(void *self, uint64_t bound)
{
	return input_choose_back(((input_plan_reader *)self)->choices, bound);
}

sched_strategy input_schedule_bytes(input_plan_reader *p)
{
	sched_strategy s = {
		.self = p,
		.next_preemption = plan_next_preemption,
		.pick = plan_pick,
		.choose = bytes_choose,
	};
	return s;
}
