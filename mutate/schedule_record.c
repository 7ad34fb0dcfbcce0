/*
 * mutate/schedule_record.c - a strategy wrapper that writes down the switches
 * a strategy makes, as a plan of the byte format (design in schedule_record.h).
 */
#include "schedule_record.h"

#include <string.h>

#include "../input/schedule_bytes.h"

static uint64_t record_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	mutate_recorder *r = self;
	if (call < INPUT_MAX_CALLS && step > r->call_steps[call])
		r->call_steps[call] = step;
	uint64_t next = search_steps_next(&r->steps, thread, call, step);
	if (r->inner)   /* keeps its own counts (PCT's change points) */
		r->inner->next_preemption(r->inner->self, thread, call, step);
	return next;
}

/* What the bytes strategy answers at (call, step): the planned thread, or `thread`. */
static unsigned planned_pick(const mutate_recorder *r, unsigned thread, uint32_t call,
			     uint64_t step, sched_mask runnable)
{
	const input_scenario *s = r->scenario;
	if (call >= s->n_calls)
		return thread;
	for (unsigned p = s->first_plan[call]; p < s->first_plan[call + 1]; p++)
		if (s->plan[p].step == step) {
			unsigned n = r->n_slots ? r->n_slots : 1;
			for (unsigned i = 0; i < n; i++) {
				unsigned t = (s->plan[p].to % n + i) % n;
				if (sched_has(runnable, t))
					return t;
			}
		}
	return thread;
}

static unsigned record_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			    sched_mask runnable, bool forced)
{
	mutate_recorder *r = self;
	if (forced)   /* the byte format's rule: the lowest-numbered runnable thread */
		return sched_lowest(runnable);
	r->decisions++;
	unsigned to;
	if (!r->inner || r->decisions <= r->follow)
		to = planned_pick(r, thread, call, step, runnable);
	else
		to = r->inner->pick(r->inner->self, thread, call, step, runnable, false);
	if (to == thread)
		return to;
	if (call < r->scenario->n_calls && r->n < INPUT_MAX_PREEMPTIONS)
		r->rec[r->n++] = (mutate_record_entry){ call, step, (uint8_t)to };
	else
		r->lost++;
	return to;
}

/*
 * Data choices (which store a load reads, issue 18): 0 while the plan is
 * followed, the inner strategy's answer after (a random walk reads an older
 * store with probability (n - 1) / n); each is written back at the end of the
 * input (input/encode.c), where the back reader answers it on replay.
 */
static uint64_t record_choose(void *self, uint64_t bound)
{
	mutate_recorder *r = self;
	uint64_t v = 0;
	if (r->inner && r->decisions > r->follow && bound >= 2 && bound <= 256)
		v = r->inner->choose(r->inner->self, bound) % bound;
	if (r->n_data < INPUT_MAX_DATA)
		r->data[r->n_data++] = (input_data){ bound, v };
	return v;
}

/* s's plan := the records, grouped by call (each call's steps already ascend). */
static void write_plan(input_scenario *s, const mutate_recorder *r)
{
	s->n_plan = 0;
	for (unsigned c = 0; c < s->n_calls; c++) {
		s->first_plan[c] = s->n_plan;
		for (unsigned i = 0; i < r->n; i++)
			if (r->rec[i].call == c) {
				input_preemption p = { r->rec[i].step, r->rec[i].to };
				s->plan[s->n_plan++] = p;
			}
	}
	s->first_plan[s->n_calls] = s->n_plan;
}

unsigned mutate_record_run(weft_runner *run, input_scenario *s, const sched_strategy *inner,
			   uint64_t follow, mutate_recorder *r)
{
	const input_bounds *b = runner_bounds(run);
	r->inner = inner;
	r->scenario = s;
	r->n_slots = b->program ? b->max_threads : s->n_threads;
	r->follow = follow;
	r->decisions = 0;
	r->n = 0;
	r->lost = 0;
	r->n_data = 0;
	search_steps_reset(&r->steps);
	memset(r->call_steps, 0, sizeof r->call_steps);
	sched_strategy st = {
		.self = r,
		.next_preemption = record_next_preemption,
		.pick = record_pick,
		.choose = record_choose,
	};
	r->hash = runner_run_unjudged(run, s, st, NULL);
	write_plan(s, r);
	s->n_data = r->n_data;
	memcpy(s->data, r->data, r->n_data * sizeof r->data[0]);
	return r->lost;
}

int mutate_record_verify(weft_runner *run, mutate_recorder *r, const uint8_t *bytes, size_t size)
{
	input_scenario *s = &r->replay;
	input_choices c;
	const input_bounds *b = runner_bounds(run);
	input_choices_init(&c, bytes, size);
	input_scenario_decode(s, weft_runner_target(run), b, &c);
	input_plan_reader p = { .scenario = s, .choices = &c,
				.n_slots = b->program ? b->max_threads : s->n_threads };
	return runner_run_unjudged(run, s, input_schedule_bytes(&p), NULL) == r->hash;
}
