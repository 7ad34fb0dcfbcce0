/*
 * harness/death_record.c - the schedule a strategy is running, written down as
 * it goes, so that an execution that kills the process under --explore or
 * --systematic leaves bytes that replay it (issue 29).
 *
 * Why: those modes run scenarios under their own strategies (random walk,
 * PCT, uniform, POS, the systematic DFS), not under bytes; a death (a
 * sanitizer's error, a fatal signal) ends the process in the middle of one,
 * and only bytes survive it.  The mutator has a recorder for its sampled runs
 * (mutate/schedule_record.c), but it answers in the strategy's place (it asks
 * at every step and drops switches it cannot write): wrapped around a mode's
 * strategy it would change what the mode explores.  This one only listens:
 * every question reaches the strategy unchanged, every answer goes back
 * unchanged, so --explore and --systematic explore exactly what they did
 * before.  The runner calls it at each runner_run_scenario
 * (runner_watch_set); the death hook (runner/death.c) asks for the bytes.
 *
 * The writing follows the byte format's rules (input/schedule_bytes.c):
 *   - an unforced switch at (call, step) to thread T is the preemption
 *     (call, step, T): the bytes strategy switches there to T;
 *   - a forced pick (the thread ended, blocked or spins) goes on replay to the
 *     lowest runnable thread unless the call's plan has an entry at step + 1,
 *     so a forced pick of another thread is written there;
 *   - data choices (which store a load reads, a timed wait's outcome) are
 *     written at the back, in order, as the back reader answers them.
 * Exact as far as the mutator's recorder is without its corrections: a
 * thread that blocked at a step and reaches step + 1 later may be switched
 * there on replay, and a switch a call cannot carry (beyond
 * INPUT_MAX_PREEMPTIONS) is lost; a program's spawned threads are listed in
 * the written scenario as search_dfs_plan lists them.  The bytes replay the death in the cases the tests check; a lost
 * switch is counted, not hidden (the bytes are then still written: the
 * closest input known).
 *
 * Signal-safe where it is read: the writer encodes into the caller's buffer
 * from this object's arrays, no allocation.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "../input/scenario.h"
#include "../runner/runner_internal.h"

typedef struct death_entry {
	uint32_t call;     /* INPUT_NO_CALL: a program thread the scenario does not list */
	uint64_t step;
	uint8_t thread, to;
} death_entry;

typedef struct death_record {
	weft_runner *run;
	sched_strategy inner;
	const input_scenario *scenario;
	unsigned n_slots;
	unsigned n, lost;
	death_entry rec[INPUT_MAX_PREEMPTIONS];
	unsigned n_data;
	input_data data[INPUT_MAX_DATA];
	input_scenario out;   /* the scenario with the recorded plan, for the encoder */
	uint32_t call[INPUT_MAX_PREEMPTIONS];   /* each entry's call in `out` */
} death_record;

/*
 * The first thread of `mask` cyclically from `from` < n (the scheduler's
 * rule): the lowest of those in [from, n), else of those in [0, n), else of
 * all.  Set operations, not a loop with a division per thread: this runs at
 * every pick of every explored execution (issue 33).
 */
static unsigned first_from(sched_mask mask, unsigned from, unsigned n)
{
	sched_mask in = mask & sched_first_n(n);
	sched_mask after = in & ~sched_first_n(from);
	return sched_lowest(after ? after : in ? in : mask);
}

static void note(death_record *d, unsigned thread, uint32_t call, uint64_t step, unsigned to)
{
	if (d->n < INPUT_MAX_PREEMPTIONS && thread < INPUT_MAX_THREADS)
		d->rec[d->n++] = (death_entry){ call, step, (uint8_t)thread, (uint8_t)to };
	else
		d->lost++;
}

/* The call each heard switch belongs to, in s (listing program threads). */
static void resolve_calls(death_record *d, input_scenario *s, uint32_t *call)
{
	for (unsigned i = 0; i < d->n; i++) {
		const death_entry *e = &d->rec[i];
		call[i] = e->call;
		if (call[i] == INPUT_NO_CALL && runner_bounds(d->run)->program) {
			input_scenario_list_program_threads(s, e->thread);
			if (e->thread < s->n_threads)
				call[i] = s->first_call[e->thread];
		}
	}
}

static uint64_t listen_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	death_record *d = self;
	return d->inner.next_preemption(d->inner.self, thread, call, step);
}

static unsigned listen_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			    sched_mask runnable, bool forced)
{
	death_record *d = self;
	unsigned answer = d->inner.pick(d->inner.self, thread, call, step, runnable, forced);
	if (!forced && answer == thread)
		return answer;   /* it goes on: nothing to write */
	unsigned n = d->n_slots ? d->n_slots : 1;
	/* the thread that runs, as the scheduler takes the answer (`runnable`
	   excludes the asking thread; unforced, the answer `thread` means go on) */
	unsigned to = first_from(runnable, answer % n, n);
	if (forced && to != first_from(runnable, 0, n))
		note(d, thread, call, step + 1, to);
	else if (!forced && answer != thread)
		note(d, thread, call, step, to);
	return answer;
}

static uint64_t listen_choose(void *self, uint64_t bound)
{
	death_record *d = self;
	uint64_t v = d->inner.choose(d->inner.self, bound);
	if (d->n_data < INPUT_MAX_DATA)
		d->data[d->n_data++] = (input_data){ bound, bound ? v % bound : 0 };
	return v;
}

/* The run so far as bytes (runner_progress_fn): the scenario with the plan heard. */
static size_t write_progress(void *self, uint8_t *out, size_t cap)
{
	death_record *d = self;
	input_scenario *s = &d->out;
	*s = *d->scenario;
	resolve_calls(d, s, d->call);
	s->n_plan = 0;
	for (unsigned c = 0; c < s->n_calls; c++) {
		s->first_plan[c] = s->n_plan;
		for (unsigned i = 0; i < d->n; i++)   /* each call's steps ascend as heard */
			if (d->call[i] == c)
				s->plan[s->n_plan++] = (input_preemption){ d->rec[i].step, d->rec[i].to };
	}
	s->first_plan[s->n_calls] = s->n_plan;
	s->n_data = d->n_data;
	memcpy(s->data, d->data, d->n_data * sizeof d->data[0]);
	size_t n = input_scenario_encode(s, weft_runner_target(d->run), runner_bounds(d->run), out,
					 cap);
	return n == INPUT_ENCODE_FAILED ? RUNNER_NO_BYTES : n;
}

static sched_strategy watch(void *self, weft_runner *r, const input_scenario *s,
			    sched_strategy inner)
{
	death_record *d = self;
	const input_bounds *b = runner_bounds(r);
	d->run = r;
	d->inner = inner;
	d->scenario = s;
	d->n_slots = b->program ? b->max_threads : s->n_threads;
	d->n = d->lost = d->n_data = 0;
	runner_progress_set(r, write_progress, d);
	return (sched_strategy){ .self = d, .next_preemption = listen_next_preemption,
				 .pick = listen_pick, .choose = inner.choose ? listen_choose : NULL };
}

void harness_death_record(weft_runner *runner)
{
	static death_record *d;   /* one per process, as the death hooks (runner/death.c) */
	if (!d)
		d = calloc(1, sizeof *d);
	if (d)
		runner_watch_set(runner, watch, d);
}
