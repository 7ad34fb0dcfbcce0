/*
 * search/explore.c - explore mode's loop: scenarios, strategies, length
 * estimates, the first failure (design in explore.h).  Prints nothing but the
 * report it is asked for; the command line is explore_cli.c.
 */
#include "explore.h"

#include <stdlib.h>
#include <string.h>

#include "explore_scenarios.h"
#include "../runner/runner_internal.h"
#include "strategy_baselines.h"
#include "stress.h"

#define DEFAULT_CALL_STEPS 8   /* estimate for an operation never run yet */
#define BYTES_MAX 65536

struct search_explorer {
	weft_runner *runner;
	search_stress *stress;
	int last_was_stress;
	/* the scenario being run and the one before it: two buffers that trade
	   places at each draw (a draw fills its buffer; no copy between them) */
	input_scenario buf[2];
	input_scenario *scenario, *previous;
	search_scenario_source source;
	search_random_walk walk;
	search_pct pct;
	search_uniform uniform;
	search_pos pos;
	search_rng bytes_rng;
	uint8_t *bytes;
	/* estimates (explore.h) */
	uint64_t op_steps[WEFT_MAX_TARGET_OPS], op_calls[WEFT_MAX_TARGET_OPS];
	uint64_t seen_thread[SCHED_MAX_THREADS], seen_total;   /* this scenario's runs so far */
	unsigned seen_runs;
	unsigned seen_n;   /* seen_thread[] is 0 from here on: what a new scenario clears */
};

search_explorer *search_explorer_new(weft_runner *runner)
{
	search_explorer *x = calloc(1, sizeof *x);   /* scenarios are large: not on the stack */
	if (!x)
		return NULL;
	x->runner = runner;
	return x;
}

void search_explorer_free(search_explorer *x)
{
	if (!x)
		return;
	search_stress_free(x->stress);
	free(x->bytes);
	free(x);
}

void search_explore_name(char *buf, size_t cap, const search_explore_options *o)
{
	static const char *const names[] = { "random", "pct", "uniform", "bytes", "stress",
					       "pos" };
	if (o->kind == SEARCH_EXPLORE_PCT)
		snprintf(buf, cap, "pct%u", o->depth);
	else
		snprintf(buf, cap, "%s", names[o->kind]);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static unsigned slots_of(const search_explorer *x, const input_scenario *s)
{
	const input_bounds *b = runner_bounds(x->runner);
	return b->program ? WEFT_MAX_PROGRAM_THREADS : s->n_threads;
}

static int same_scenario(const input_scenario *a, const input_scenario *b)
{
	if (a->n_threads != b->n_threads || a->n_calls != b->n_calls ||
	    memcmp(a->first_call, b->first_call,
		   input_scenario_first_call_span(a) * sizeof a->first_call[0]) != 0)
		return 0;   /* past n_threads + 1 too: the draw's own (see draw_raw) */
	for (unsigned i = 0; i < a->n_calls; i++)
		if (a->calls[i].op != b->calls[i].op ||
		    memcmp(a->calls[i].args, b->calls[i].args, sizeof a->calls[i].args) != 0)
			return 0;
	return 1;
}

/* A new scenario: forget the per-scenario lengths unless it is the same one again. */
static void next_scenario(search_explorer *x, search_explore_stats *st)
{
	x->scenario = x->previous == &x->buf[0] ? &x->buf[1] : &x->buf[0];
	search_scenario_draw(&x->source, x->scenario);
	st->scenarios++;
	if (!same_scenario(x->scenario, x->previous)) {
		memset(x->seen_thread, 0, x->seen_n * sizeof *x->seen_thread);
		x->seen_n = 0;
		x->seen_total = 0;
		x->seen_runs = 0;
	}
	x->previous = x->scenario;
}

/*
 * Per-thread switch points expected of the next execution (the first
 * slots_of entries: the strategies read no more); returns their sum.
 */
static uint64_t estimate(const search_explorer *x, uint64_t *per_thread)
{
	const input_scenario *s = x->scenario;
	unsigned n = slots_of(x, s);
	uint64_t total = 0;
	for (unsigned t = 0; t < n; t++)
		per_thread[t] = 0;
	if (x->seen_runs > 0) {
		for (unsigned t = 0; t < n; t++)
			per_thread[t] = x->seen_thread[t];
		return x->seen_total;
	}
	for (unsigned t = 0; t < n && t < s->n_threads; t++)
		for (unsigned c = s->first_call[t]; c < s->first_call[t + 1]; c++) {
			unsigned op = s->calls[c].op;
			uint64_t steps = x->op_calls[op] ? (x->op_steps[op] + x->op_calls[op] - 1) /
								   x->op_calls[op]
							 : DEFAULT_CALL_STEPS;
			per_thread[t] += steps;
		}
	for (unsigned t = 0; t < n; t++)
		total += per_thread[t];
	return total;
}

/*
 * After an execution: what its threads and calls took, for later estimates.
 * `cut`: it stopped before every call returned (their lengths are partial).
 */
static void learn(search_explorer *x, const search_steps *steps, int cut)
{
	const input_scenario *s = x->scenario;
	x->seen_runs++;
	if (steps->total > x->seen_total)
		x->seen_total = steps->total;
	if (steps->n_thread > x->seen_n)
		x->seen_n = steps->n_thread;
	for (unsigned t = 0; t < steps->n_thread; t++)   /* past it, steps->thread[] is 0 */
		if (steps->thread[t] > x->seen_thread[t])
			x->seen_thread[t] = steps->thread[t];
	if (cut)
		return;
	for (unsigned c = 0; c < s->n_calls && c < INPUT_MAX_CALLS; c++) {
		unsigned op = s->calls[c].op;
		if (op < WEFT_MAX_TARGET_OPS) {
			x->op_steps[op] += steps->call[c];
			x->op_calls[op]++;
		}
	}
}

/* One managed execution of x->scenario under the chosen baseline. */
static weft_verdict run_managed(search_explorer *x, const search_explore_options *o,
				weft_result *res, uint64_t *k)
{
	uint64_t per_thread[SCHED_MAX_THREADS];
	/* only PCT and the uniform strategy read the estimates (a fifth of the
	   random walk's own cost per execution: issue 33) */
	int estimated = o->kind == SEARCH_EXPLORE_PCT || o->kind == SEARCH_EXPLORE_UNIFORM;
	uint64_t total = estimated ? estimate(x, per_thread) : 0;
	unsigned n = slots_of(x, x->scenario);
	sched_strategy strategy;
	const search_steps *steps;
	*k = 0;
	switch (o->kind) {
	case SEARCH_EXPLORE_PCT:
		*k = total;
		search_pct_start(&x->pct, n, total);
		strategy = search_pct_strategy(&x->pct);
		steps = &x->pct.steps;
		break;
	case SEARCH_EXPLORE_POS:
		search_pos_start(&x->pos);
		strategy = search_pos_strategy(&x->pos);
		steps = &x->pos.steps;
		break;
	case SEARCH_EXPLORE_UNIFORM:
		search_uniform_start(&x->uniform, per_thread, n);
		strategy = search_uniform_strategy(&x->uniform);
		steps = &x->uniform.steps;
		break;
	default:
		search_random_walk_start(&x->walk);
		strategy = search_random_walk_strategy(&x->walk);
		steps = &x->walk.steps;
		break;
	}
	weft_verdict v = runner_run_scenario(x->runner, x->scenario, strategy, res);
	/* these verdicts stop an execution before every call returned (runner.c) */
	int cut = v == WEFT_FAIL_BUDGET || v == WEFT_FAIL_DEADLOCK || v == WEFT_FAIL_LIVELOCK ||
		  v == WEFT_FAIL_OBSTRUCTION || v == WEFT_FAIL_ASSERTION ||
		  v == WEFT_FAIL_MISUSE || v == WEFT_FAIL_DATA_RACE || v == WEFT_ERROR;
	if (estimated)
		learn(x, steps, cut);
	return v;
}

static weft_verdict run_bytes(search_explorer *x, const search_explore_options *o,
			      weft_result *res)
{
	size_t n = (size_t)search_rng_below(&x->bytes_rng, (uint64_t)o->max_bytes + 1);
	for (size_t i = 0; i < n; i++)
		x->bytes[i] = (uint8_t)search_rng_next(&x->bytes_rng);
	return weft_runner_run(x->runner, x->bytes, n, res);
}

static int setup(search_explorer *x, const search_explore_options *o, char *message, size_t cap)
{
	const input_bounds *b = runner_bounds(x->runner);
	const weft_target *t = weft_runner_target(x->runner);
	search_scenario_source_init(&x->source, t, b, o->seed, o->min_threads, o->max_threads,
				     o->max_ops);
	search_random_walk_init(&x->walk, o->seed);
	search_pct_init(&x->pct, o->seed, o->depth);
	search_uniform_init(&x->uniform, o->seed);
	search_pos_init(&x->pos, o->seed);
	search_rng_seed(&x->bytes_rng, o->seed, 4);
	memset(x->op_steps, 0, sizeof x->op_steps);
	memset(x->op_calls, 0, sizeof x->op_calls);
	x->previous = &x->buf[1];
	x->scenario = &x->buf[0];
	input_scenario_clear(x->previous);
	memset(x->seen_thread, 0, sizeof x->seen_thread);
	x->seen_n = 0;
	x->seen_total = 0;
	x->seen_runs = 0;
	x->last_was_stress = o->kind == SEARCH_EXPLORE_STRESS;
	if (o->kind == SEARCH_EXPLORE_BYTES) {
		free(x->bytes);
		x->bytes = malloc(o->max_bytes ? o->max_bytes : 1);
		if (!x->bytes) {
			snprintf(message, cap, "out of memory");
			return SEARCH_EXPLORE_ERROR;
		}
	}
	if (o->kind == SEARCH_EXPLORE_STRESS) {
		const char *why = search_stress_unsupported(x->runner);
		if (why) {
			snprintf(message, cap, "%s", why);
			return SEARCH_EXPLORE_UNSUPPORTED;
		}
		if (!x->stress && !(x->stress = search_stress_new(x->runner))) {
			snprintf(message, cap, "out of memory");
			return SEARCH_EXPLORE_ERROR;
		}
	}
	return -1;
}

search_explore_outcome search_explore(search_explorer *x, const search_explore_options *o,
					search_explore_stats *st, char *message, size_t cap)
{
	memset(st, 0, sizeof *st);
	st->verdict = WEFT_PASS;
	message[0] = 0;
	if (o->max_bytes > BYTES_MAX || o->schedules == 0 || o->max_executions == 0) {
		snprintf(message, cap, "bad options");
		return SEARCH_EXPLORE_ERROR;
	}
	int early = setup(x, o, message, cap);
	if (early >= 0)
		return (search_explore_outcome)early;
	unsigned runs_left = 0;
	while (st->executions < o->max_executions) {
		weft_result res;
		weft_verdict v;
		uint64_t k = 0;
		if (o->kind != SEARCH_EXPLORE_BYTES && runs_left == 0) {
			next_scenario(x, st);
			runs_left = o->schedules;
		}
		runs_left--;
		if (o->kind == SEARCH_EXPLORE_BYTES)
			v = run_bytes(x, o, &res);
		else if (o->kind == SEARCH_EXPLORE_STRESS)
			v = search_stress_run(x->stress, x->scenario, &res);
		else
			v = run_managed(x, o, &res, &k);
		st->executions++;
		st->result = res;
		st->digest = mix(mix(st->digest, (uint64_t)v), res.trace_hash);
		st->check_unknown += res.check_unknown != 0;
		if (o->on_execution) {
			search_explore_execution e = { .index = st->executions, .verdict = v,
							.result = &res, .pct_k = k };
			if (o->kind == SEARCH_EXPLORE_STRESS)
				e.history = search_stress_history(x->stress, &e.n_history);
			else
				e.trace = runner_trace(x->runner);
			o->on_execution(o->ctx, &e);
		}
		if (v == WEFT_ERROR) {
			snprintf(message, cap, "%s", res.message);
			return SEARCH_EXPLORE_ERROR;
		}
		if (v != WEFT_PASS) {
			st->verdict = v;
			return SEARCH_EXPLORE_FAILED;
		}
	}
	return SEARCH_EXPLORE_NONE;
}

void search_explorer_report(const search_explorer *x, FILE *out)
{
	if (x->last_was_stress && x->stress)
		search_stress_report(x->stress, out);
	else
		weft_runner_report(x->runner, out);
}
