/*
 * mutate/schedule_record.c - a strategy wrapper that writes down the switches
 * a strategy makes, as a plan of the byte format (design in schedule_record.h).
 */
#include "schedule_record.h"

#include <string.h>

#include "../input/schedule_bytes.h"


/*
 * The call a thread's switches are written under.  A program's thread t is
 * the scenario's thread t with one call, number t; a thread the scenario does
 * not list yet (INPUT_NO_CALL) gets that number too, and write_plan lists it:
 * so a sample may switch any of a program's threads, not only those listed
 * before it ran (issue 33: a pool of 20 threads lost every switch of the
 * threads created last).
 */
static uint32_t call_of(const mutate_recorder *r, unsigned thread, uint32_t call)
{
	if (call == INPUT_NO_CALL && r->program && thread < INPUT_MAX_THREADS)
		return thread;
	return call;
}

/* Whether a switch of `call` can be written (the call is or will be listed). */
static int writable(const mutate_recorder *r, uint32_t call)
{
	return (call < r->scenario->n_calls || (r->program && call < INPUT_MAX_THREADS)) &&
	       r->n < INPUT_MAX_PREEMPTIONS;
}

static uint64_t record_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	mutate_recorder *r = self;
	call = call_of(r, thread, call);
	if (call < INPUT_MAX_CALLS && step > r->call_steps[call]) {
		r->call_steps[call] = step;
		if (call >= r->n_call_steps)
			r->n_call_steps = call + 1;
	}
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

/* The first thread of `mask` cyclically from `from` (the scheduler's rule). */
static unsigned first_from(sched_mask mask, unsigned from, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (sched_has(mask, (from + i) % n))
			return (from + i) % n;
	return sched_lowest(mask);
}

/* The bit of (call, step) in the recorder's filter of recorded switches. */
static uint64_t filter_bit(uint32_t call, uint64_t step, unsigned *word)
{
	uint64_t h = step * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)call * UINT64_C(0xc2b2ae3d27d4eb4f);
	h ^= h >> 29;
	*word = (unsigned)(h >> 6) % MUTATE_RECORD_FILTER_WORDS;
	return UINT64_C(1) << (h & 63);
}

static void add_entry(mutate_recorder *r, uint32_t call, uint64_t step, unsigned to)
{
	unsigned w;
	uint64_t bit = filter_bit(call, step, &w);
	r->filter[w] |= bit;
	r->rec[r->n++] = (mutate_record_entry){ call, step, (uint8_t)to };
}

/*
 * The switch recorded at (call, step), or NULL.  Asked at every switch point
 * and nearly always absent: the filter answers most misses without the scan
 * (a program of 100 threads records hundreds of switches, issue 33).
 */
static const mutate_record_entry *recorded_at(const mutate_recorder *r, uint32_t call,
					      uint64_t step)
{
	unsigned w;
	uint64_t bit = filter_bit(call, step, &w);
	if (!(r->filter[w] & bit))
		return NULL;
	for (unsigned i = r->n; i-- > 0;)
		if (r->rec[i].call == call && r->rec[i].step == step)
			return &r->rec[i];
	return NULL;
}

/* The bytes strategy's forced answer under the scenario's plan: from its step + 1 entry. */
static unsigned planned_forced(const mutate_recorder *r, uint32_t call, uint64_t step,
			       sched_mask runnable)
{
	const input_scenario *s = r->scenario;
	unsigned n = r->n_slots ? r->n_slots : 1, from = 0;
	for (unsigned p = call < s->n_calls ? s->first_plan[call] : 0;
	     call < s->n_calls && p < s->first_plan[call + 1]; p++)
		if (s->plan[p].step == step + 1)
			from = s->plan[p].to % n;
	return first_from(runnable, from, n);
}

/*
 * Whether the forced pick under way follows the thread's end rather than a
 * block or a spin (the scheduler appends those events before it asks).  Only
 * ends are written: with a blocked thread's choice written too, 4-5% of
 * samples on blocking_queue and transfer replayed differently
 * (WEFT_MUTATOR=verify, 3,000 runs of the fixed targets; where a woken
 * thread comes back is not what the recorder saw), with ends only none did.
 */
static int thread_ended(const mutate_recorder *r)
{
	if (!r->trace || r->trace->n == 0)
		return 1;
	uint8_t kind = r->trace->events[r->trace->n - 1].kind;
	return kind != SCHED_EV_BLOCK && kind != SCHED_EV_SPIN;
}

/*
 * A forced pick (the thread finished or cannot go on at `step`): the format
 * writes a choice other than the lowest runnable thread as a preemption at
 * step + 1 of the call (input/schedule_bytes.c); if the thread had only
 * blocked and reaches that step later, the replay preempts there too, and
 * record_pick answers as the replay will.
 */
static unsigned record_forced(mutate_recorder *r, unsigned thread, uint32_t call, uint64_t step,
			      sched_mask runnable)
{
	unsigned n = r->n_slots ? r->n_slots : 1, lowest = first_from(runnable, 0, n), want;
	call = call_of(r, thread, call);
	const mutate_record_entry *e = recorded_at(r, call, step + 1);
	if (e)   /* blocked again at the same step: the replay reads the same entry */
		return first_from(runnable, e->to, n);
	if (!thread_ended(r))
		return lowest;   /* blocked or spinning: see thread_ended */
	if (!r->inner || r->decisions < r->follow)
		want = planned_forced(r, call, step, runnable);
	else
		want = first_from(runnable,
				  r->inner->pick(r->inner->self, thread, call, step, runnable, true) % n,
				  n);
	if (want == lowest)
		return lowest;
	if (!writable(r, call)) {
		r->lost += r->inner != NULL;   /* cannot be written: the replay takes the lowest */
		return lowest;
	}
	add_entry(r, call, step + 1, want);
	return want;
}

/*
 * A preemption at (call, step) would also redirect a forced pick made at
 * (call, step - 1) (the thread blocked or spun there and came back) on
 * replay: 1 when that pick's answer would change, so the preemption cannot
 * be written.
 */
static int clashes(const mutate_recorder *r, uint32_t call, uint64_t step, unsigned to)
{
	unsigned n = r->n_slots ? r->n_slots : 1;
	for (unsigned i = 0; i < r->n_forced; i++) {
		const mutate_forced *f = &r->forced[i];
		if (f->call == call && f->step + 1 == step &&
		    first_from(f->runnable, to % n, n) != f->answer)
			return 1;
	}
	return 0;
}

static void log_decision(mutate_recorder *r, unsigned to)
{
	uint64_t d = r->decisions - 1;
	if (d < MUTATE_MAX_DECISIONS && r->trace) {
		r->decision_at[d] = (uint32_t)r->trace->n;
		r->decision_to[d] = (uint8_t)to;
	}
}

static unsigned record_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			    sched_mask runnable, bool forced)
{
	mutate_recorder *r = self;
	call = call_of(r, thread, call);
	if (forced) {
		unsigned to = record_forced(r, thread, call, step, runnable);
		if (r->n_forced < MUTATE_MAX_FORCED)
			r->forced[r->n_forced++] = (mutate_forced){ call, step, (uint8_t)to, runnable };
		else
			r->lost++;   /* not checked for clashes: counted as inexact */
		return to;
	}
	const mutate_record_entry *e = recorded_at(r, call, step);
	if (e)   /* a forced switch's entry, reached after all: the replay preempts here */
		return first_from(runnable, e->to, r->n_slots ? r->n_slots : 1);
	r->decisions++;
	unsigned to;
	if (!r->inner || r->decisions <= r->follow)
		to = planned_pick(r, thread, call, step, runnable);
	else
		to = r->inner->pick(r->inner->self, thread, call, step, runnable, false);
	if (to != thread && clashes(r, call, step, to))
		to = thread;
	log_decision(r, to);
	if (to == thread)
		return thread;
	if (writable(r, call))
		add_entry(r, call, step, to);
	else
		r->lost++;
	return to;
}

/*
 * Data choices (which store a load reads, a timed wait that times out, issue
 * 18): while the plan is followed, the scenario's own (0 past them), or when
 * it has none (a scenario just decoded) what the input's bytes say, read as
 * the bytes strategy reads them (r->back); the inner strategy's answer after
 * (a random walk reads an older store with probability (n - 1) / n).  Each is
 * written back at the end of the input (input/encode.c), where the back
 * reader answers it on replay.  Without r->back, a run following a decoded
 * input read 0 at every choice: under weak memory 82% of the mutator's
 * measuring runs were not the input's run (issue 33).
 */
static uint64_t record_choose(void *self, uint64_t bound)
{
	mutate_recorder *r = self;
	uint64_t v = 0;
	if (r->n_data >= INPUT_MAX_DATA)
		return 0;   /* not written: the back reader gives 0 there too */
	const input_scenario *s = r->scenario;
	if (r->inner && r->decisions > r->follow && bound >= 2 && bound <= 256)
		v = r->inner->choose(r->inner->self, bound) % bound;
	else if (r->n_data < s->n_data && s->data[r->n_data].bound == bound)
		v = s->data[r->n_data].value;   /* following: the input's own */
	else if (s->n_data == 0 && r->back && bound >= 2 && bound <= 256)
		v = input_choose_back(&r->back_now, bound);   /* the input's, from its bytes */
	r->data[r->n_data++] = (input_data){ bound, v };
	return v;
}

/* s's plan := the records, grouped by call (each call's steps already ascend). */
static void write_plan(input_scenario *s, const mutate_recorder *r)
{
	for (unsigned i = 0; r->program && i < r->n; i++)   /* call t is thread t: call_of */
		if (r->rec[i].call >= s->n_calls)
			input_scenario_list_program_threads(s, r->rec[i].call);
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

/*
 * The run so far as bytes (runner_progress_set): the scenario with the switches
 * and data choices recorded up to now.  For a death inside a sampled run (the
 * process ends there; the bytes replay the schedule up to the death, and
 * replay's default picks after it never run); uses the verify scratch.
 */
static size_t record_progress(void *self, uint8_t *out, size_t cap)
{
	mutate_recorder *r = self;
	input_scenario *s = &r->replay;
	*s = *r->scenario;
	write_plan(s, r);
	s->n_data = r->n_data;
	memcpy(s->data, r->data, r->n_data * sizeof r->data[0]);
	size_t n = input_scenario_encode(s, weft_runner_target(r->run), runner_bounds(r->run), out,
					 cap);
	return n == INPUT_ENCODE_FAILED ? RUNNER_NO_BYTES : n;
}

unsigned mutate_record_run(weft_runner *run, input_scenario *s, const sched_strategy *inner,
			   uint64_t follow, mutate_recorder *r)
{
	const input_bounds *b = runner_bounds(run);
	r->inner = inner;
	r->scenario = s;
	r->trace = runner_trace(run);
	r->n_slots = b->program ? b->max_threads : s->n_threads;
	r->program = b->program;
	r->follow = follow;
	r->decisions = 0;
	r->n = 0;
	memset(r->filter, 0, sizeof r->filter);
	r->lost = 0;
	r->n_data = 0;
	if (r->back)
		r->back_now = *r->back;
	r->n_forced = 0;
	/* what the last run used, not the kilobytes of capacity (issue 33) */
	search_steps_restart(&r->steps);
	memset(r->call_steps, 0, r->n_call_steps * sizeof r->call_steps[0]);
	r->n_call_steps = 0;
	sched_strategy st = {
		.self = r,
		.next_preemption = record_next_preemption,
		.pick = record_pick,
		.choose = record_choose,
	};
	r->run = run;
	runner_progress_set(run, record_progress, r);
	if (r->judge)
		r->hash = (runner_run_speculative(run, s, st, &r->result), r->result.trace_hash);
	else
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
	runner_progress_input(run, bytes, size);
	return runner_run_unjudged(run, s, input_schedule_bytes(&p), NULL) == r->hash;
}
