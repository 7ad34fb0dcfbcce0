/*
 * search/stress.c - a scenario on real parallel pthreads, no scheduler
 * (design in stress.h).
 *
 * Synchronisation, all on C11 atomics of this file (never weft's):
 *   `generation` - the controller bumps it to start a run (release: the
 *       scenario and instance are published with it); workers spin on it;
 *   `arrived` - the start barrier: every thread of the run counts itself in
 *       and spins until all have, so they leave it within a cache-line
 *       transfer of each other;
 *   `done` - workers that finished this generation (acquire by the controller:
 *       their records are visible).
 * Waiting spins, and yields to the kernel after SPINS_BEFORE_YIELD rounds so
 * that more threads than CPUs still make progress.
 */
#include "stress.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "explore_scenarios.h"
#include "../runner/runner_internal.h"
#include "strategy_baselines.h"
#include "../report/report.h"

#define SPINS_BEFORE_YIELD 2000
#define PROBE_EXECUTIONS 200

typedef struct stress_worker {
	search_stress *owner;
	unsigned id;   /* scenario thread id: 1.. */
	uint64_t seen; /* the generation when it was created: it waits for the next */
	pthread_t thread;
} stress_worker;

struct search_stress {
	weft_runner *runner;
	const weft_target *target;
	stress_worker workers[WEFT_MAX_THREADS];
	unsigned n_workers;                   /* created so far (threads 1..n_workers) */
	_Atomic uint64_t generation;
	_Atomic unsigned arrived, done;
	_Atomic int quit;
	_Atomic uint32_t clock;
	/* the run in progress: written by the controller before `generation` */
	input_scenario scenario;            /* results and times filled by the threads */
	unsigned n_threads;                   /* this run's */
	void *instance;
	/* the last run */
	weft_op_record history[INPUT_MAX_CALLS + 1];
	size_t n_history;
	int has_final;
	weft_result result;
	const weft_check_result *check;
};

static void relax(unsigned *spins)
{
	if (++*spins >= SPINS_BEFORE_YIELD) {
		*spins = 0;
		sched_yield();
	}
}

/* Thread `t` of the run: the start barrier, then its operations. */
static void run_thread(search_stress *s, unsigned t)
{
	unsigned spins = 0;
	atomic_fetch_add(&s->arrived, 1);
	while (atomic_load(&s->arrived) < s->n_threads)
		relax(&spins);
	input_scenario *sc = &s->scenario;
	const weft_target *target = s->target;
	for (unsigned c = sc->first_call[t]; c < sc->first_call[t + 1]; c++) {
		weft_op_record *call = &sc->calls[c];
		call->invoked_at = atomic_fetch_add(&s->clock, 1);
		call->result = target->ops[call->op].run(s->instance, call->args);
		call->returned_at = atomic_fetch_add(&s->clock, 1);
		call->pending = 0;
	}
}

static void *worker_main(void *arg)
{
	stress_worker *w = arg;
	search_stress *s = w->owner;
	uint64_t seen = w->seen;
	for (;;) {
		unsigned spins = 0;
		uint64_t g;
		while ((g = atomic_load(&s->generation)) == seen)
			relax(&spins);
		seen = g;
		if (atomic_load(&s->quit))
			return NULL;
		if (w->id < s->n_threads)
			run_thread(s, w->id);
		atomic_fetch_add(&s->done, 1);
	}
}

search_stress *search_stress_new(weft_runner *runner)
{
	search_stress *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->runner = runner;
	s->target = weft_runner_target(runner);
	return s;
}

void search_stress_free(search_stress *s)
{
	if (!s)
		return;
	atomic_store(&s->quit, 1);
	atomic_fetch_add(&s->generation, 1);
	for (unsigned i = 0; i < s->n_workers; i++)
		pthread_join(s->workers[i].thread, NULL);
	free(s);
}

/* Workers for threads 1..n-1; 0 or -1. */
static int reserve(search_stress *s, unsigned n)
{
	while (s->n_workers + 1 < n) {
		stress_worker *w = &s->workers[s->n_workers];
		w->owner = s;
		w->id = s->n_workers + 1;
		w->seen = atomic_load(&s->generation);
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			return -1;
		s->n_workers++;
	}
	return 0;
}

static int by_invocation(const void *a, const void *b)
{
	const weft_op_record *x = a, *y = b;
	return (x->invoked_at > y->invoked_at) - (x->invoked_at < y->invoked_at);
}

/* The history: calls by invocation time, then the final operation. */
static void build_history(search_stress *s)
{
	const input_scenario *sc = &s->scenario;
	const weft_target *t = s->target;
	memcpy(s->history, sc->calls, sc->n_calls * sizeof *sc->calls);
	s->n_history = sc->n_calls;
	qsort(s->history, s->n_history, sizeof *s->history, by_invocation);
	s->has_final = 0;
	if (!t->final_op)
		return;
	weft_op_record *call = &s->history[s->n_history++];
	memset(call, 0, sizeof *call);
	call->thread = sc->n_threads;
	call->op = (unsigned)(t->final_op - t->ops);
	for (int a = 0; a < t->final_op->n_args; a++)
		call->args[a] = t->final_op->args[a].min;
	call->invoked_at = atomic_fetch_add(&s->clock, 1);
	call->result = t->final_op->run(s->instance, call->args);
	call->returned_at = atomic_fetch_add(&s->clock, 1);
	s->has_final = 1;
}

/* FNV-1a over what the history says: operations, results, order of times. */
static uint64_t history_hash(const search_stress *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < s->n_history; i++) {
		const weft_op_record *op = &s->history[i];
		uint64_t words[6] = { op->thread, op->op, (uint64_t)op->args[0], (uint64_t)op->args[1],
				      (uint64_t)op->result, 0 };
		for (size_t j = 0; j < s->n_history; j++)   /* returned before which invocations */
			words[5] = words[5] * 31 + (s->history[j].invoked_at > op->returned_at);
		for (int w = 0; w < 6; w++)
			for (int b = 0; b < 8; b++)
				h = (h ^ ((words[w] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
	}
	return h;
}

weft_verdict search_stress_run(search_stress *s, const input_scenario *scenario,
				weft_result *out)
{
	const weft_target *t = s->target;
	weft_result *res = &s->result;
	memset(res, 0, sizeof *res);
	res->message = "";
	s->check = NULL;
	s->n_history = 0;
	s->has_final = 0;
	s->scenario = *scenario;
	s->n_threads = scenario->n_threads;
	res->n_threads = scenario->n_threads;
	res->n_ops = scenario->n_calls;
	if (s->n_threads == 0 || reserve(s, s->n_threads) != 0) {
		res->verdict = WEFT_ERROR;
		res->message = "could not start the stress threads";
		if (out)
			*out = *res;
		return WEFT_ERROR;
	}
	s->instance = t->setup ? t->setup() : NULL;
	atomic_store(&s->clock, 0);
	atomic_store(&s->arrived, 0);
	atomic_store(&s->done, 0);
	atomic_fetch_add(&s->generation, 1);   /* go: everything above is published */
	run_thread(s, 0);
	unsigned spins = 0;
	while (atomic_load(&s->done) < s->n_workers)
		relax(&spins);
	build_history(s);
	const char *message;
	weft_verdict v = runner_check_history(s->runner, s->instance, s->history,
						      s->n_history, &message, &s->check);
	if (t->teardown)
		t->teardown(s->instance);
	s->instance = NULL;
	res->verdict = v;
	res->message = message;
	res->trace_hash = history_hash(s);
	res->check_unknown = s->check->verdict == WEFT_CHECK_UNKNOWN;
	res->check_cost = s->check->cost;
	if (out)
		*out = *res;
	return v;
}

const weft_op_record *search_stress_history(const search_stress *s, size_t *n)
{
	*n = s->n_history;
	return s->history;
}

void search_stress_report(const search_stress *s, FILE *out)
{
	report_case c = {
		.target = s->target,
		.result = &s->result,
		.calls = s->scenario.calls,
		.n_calls = s->scenario.n_calls,
		.events = NULL,
		.n_events = 0,
		.final_call = s->has_final ? &s->history[s->n_history - 1] : NULL,
		.history = s->history,
		.n_history = s->n_history,
		.check = s->result.verdict == WEFT_FAIL_LINEARIZABILITY ? s->check : NULL,
	};
	fprintf(out, "==weft== stress run: the threads ran in parallel, unscheduled; no interleaving "
		"was recorded, times are ticks of a shared counter\n");
	report_print(out, &c);
}

/* What in a managed trace shows an operation waiting for another thread, or NULL. */
static const char *waiting_in(const sched_trace *tr, weft_verdict v)
{
	if (v == WEFT_FAIL_DEADLOCK || v == WEFT_FAIL_LIVELOCK || v == WEFT_FAIL_BUDGET)
		return weft_verdict_name(v);
	for (size_t i = 0; i < tr->n; i++) {
		switch (tr->events[i].kind) {
		case WEFT_ACCESS_LOCK: case WEFT_ACCESS_TRYLOCK: case WEFT_ACCESS_RDLOCK:
			return "a lock";
		case WEFT_ACCESS_WAIT:
			return "a condition wait";
		case WEFT_ACCESS_SEM_WAIT:
			return "a semaphore wait";
		case WEFT_ACCESS_JOIN:
			return "a join";
		case WEFT_ACCESS_YIELD: case SCHED_EV_SPIN:
			return "a spin loop";
		case SCHED_EV_BLOCK: case SCHED_EV_STALL:
			return "a blocked thread";
		default:
			break;
		}
	}
	return NULL;
}

/* Some argument or result is a value handle (weft/value.h). */
static int has_values(const weft_target *t)
{
	for (unsigned i = 0; i < t->n_ops; i++) {
		if (t->ops[i].result_type)
			return 1;
		for (int a = 0; a < WEFT_MAX_ARGS; a++)
			if (t->ops[i].arg_types[a])
				return 1;
	}
	return 0;
}

const char *search_stress_unsupported(weft_runner *r)
{
	static char why[256];
	const weft_target *t = weft_runner_target(r);
	const input_bounds *b = runner_bounds(r);
	if (b->program)
		return "the target is a whole program (WEFT_PROGRAM_TARGET): its threads wait for "
		       "each other (join, locks), and a stress run has no timeout";
	if (has_values(t))
		return "an operation takes or returns a value of weft/value.h: the value arena "
		       "is for one managed execution at a time, not for threads running in parallel";
	search_scenario_source src;
	search_scenario_source_init(&src, t, b, 0x5eed, b->min_threads, b->max_threads, b->max_ops);
	search_random_walk walk;
	search_random_walk_init(&walk, 0x5eed);
	input_scenario *sc = malloc(sizeof *sc);
	if (!sc)
		return "out of memory";
	const char *seen = NULL;
	for (int i = 0; i < PROBE_EXECUTIONS && !seen; i++) {
		search_scenario_draw(&src, sc);
		search_random_walk_start(&walk);
		weft_verdict v = runner_run_scenario(r, sc, search_random_walk_strategy(&walk),
							     NULL);
		seen = waiting_in(runner_trace(r), v);
	}
	free(sc);
	if (!seen)
		return NULL;
	snprintf(why, sizeof why, "an operation can wait for another thread (a managed probe "
		 "saw %s): a real parallel run could hang, and a stress run has no timeout", seen);
	return why;
}
