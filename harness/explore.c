/*
 * harness/explore.c - explore mode's loop: scenarios, strategies, length
 * estimates, the first failure (design in explore.h).  Prints nothing but the
 * report it is asked for; the command line is explore_cli.c.
 */
#include "explore.h"

#include <stdlib.h>
#include <string.h>

#include "explore_scenarios.h"
#include "runner_internal.h"
#include "strategy_baselines.h"
#include "stress.h"

#define DEFAULT_CALL_STEPS 8   /* estimate for an operation never run yet */
#define BYTES_MAX 65536

struct harness_explorer {
	weft_runner *runner;
	harness_stress *stress;
	int last_was_stress;
	harness_scenario scenario, previous;
	harness_scenario_source source;
	harness_random_walk walk;
	harness_pct pct;
	harness_uniform uniform;
	harness_rng bytes_rng;
	uint8_t *bytes;
	/* estimates (explore.h) */
	uint64_t op_steps[WEFT_MAX_TARGET_OPS], op_calls[WEFT_MAX_TARGET_OPS];
	uint64_t seen_thread[SCHED_MAX_THREADS], seen_total;   /* this scenario's runs so far */
	unsigned seen_runs;
};

harness_explorer *harness_explorer_new(weft_runner *runner)
{
	harness_explorer *x = calloc(1, sizeof *x);   /* scenarios are large: not on the stack */
	if (!x)
		return NULL;
	x->runner = runner;
	return x;
}

void harness_explorer_free(harness_explorer *x)
{
	if (!x)
		return;
	harness_stress_free(x->stress);
	free(x->bytes);
	free(x);
}

void harness_explore_name(char *buf, size_t cap, const harness_explore_options *o)
{
	static const char *const names[] = { "random", "pct", "uniform", "bytes", "stress" };
	if (o->kind == HARNESS_EXPLORE_PCT)
		snprintf(buf, cap, "pct%u", o->depth);
	else
		snprintf(buf, cap, "%s", names[o->kind]);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static unsigned slots_of(const harness_explorer *x, const harness_scenario *s)
{
	const harness_bounds *b = harness_runner_bounds(x->runner);
	return b->program ? b->max_threads : s->n_threads;
}

static int same_scenario(const harness_scenario *a, const harness_scenario *b)
{
	if (a->n_threads != b->n_threads || a->n_calls != b->n_calls ||
	    memcmp(a->first_call, b->first_call, sizeof a->first_call) != 0)
		return 0;
	for (unsigned i = 0; i < a->n_calls; i++)
		if (a->calls[i].op != b->calls[i].op ||
		    memcmp(a->calls[i].args, b->calls[i].args, sizeof a->calls[i].args) != 0)
			return 0;
	return 1;
}

/* A new scenario: forget the per-scenario lengths unless it is the same one again. */
static void next_scenario(harness_explorer *x, harness_explore_stats *st)
{
	harness_scenario_draw(&x->source, &x->scenario);
	st->scenarios++;
	if (!same_scenario(&x->scenario, &x->previous)) {
		memset(x->seen_thread, 0, sizeof x->seen_thread);
		x->seen_total = 0;
		x->seen_runs = 0;
	}
	x->previous = x->scenario;
}

/* Per-thread switch points expected of the next execution; returns their sum. */
static uint64_t estimate(const harness_explorer *x, uint64_t *per_thread)
{
	const harness_scenario *s = &x->scenario;
	unsigned n = slots_of(x, s);
	uint64_t total = 0;
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
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
static void learn(harness_explorer *x, const harness_steps *steps, int cut)
{
	const harness_scenario *s = &x->scenario;
	x->seen_runs++;
	if (steps->total > x->seen_total)
		x->seen_total = steps->total;
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		if (steps->thread[t] > x->seen_thread[t])
			x->seen_thread[t] = steps->thread[t];
	if (cut)
		return;
	for (unsigned c = 0; c < s->n_calls && c < HARNESS_MAX_CALLS; c++) {
		unsigned op = s->calls[c].op;
		if (op < WEFT_MAX_TARGET_OPS) {
			x->op_steps[op] += steps->call[c];
			x->op_calls[op]++;
		}
	}
}

/* One managed execution of x->scenario under the chosen baseline. */
static weft_verdict run_managed(harness_explorer *x, const harness_explore_options *o,
				weft_result *res, uint64_t *k)
{
	uint64_t per_thread[SCHED_MAX_THREADS];
	uint64_t total = estimate(x, per_thread);
	unsigned n = slots_of(x, &x->scenario);
	sched_strategy strategy;
	const harness_steps *steps;
	*k = 0;
	switch (o->kind) {
	case HARNESS_EXPLORE_PCT:
		*k = total;
		harness_pct_start(&x->pct, n, total);
		strategy = harness_pct_strategy(&x->pct);
		steps = &x->pct.steps;
		break;
	case HARNESS_EXPLORE_UNIFORM:
		harness_uniform_start(&x->uniform, per_thread, n);
		strategy = harness_uniform_strategy(&x->uniform);
		steps = &x->uniform.steps;
		break;
	default:
		harness_random_walk_start(&x->walk);
		strategy = harness_random_walk_strategy(&x->walk);
		steps = &x->walk.steps;
		break;
	}
	weft_verdict v = harness_runner_run_scenario(x->runner, &x->scenario, strategy, res);
	/* these verdicts stop an execution before every call returned (runner.c) */
	int cut = v == WEFT_FAIL_BUDGET || v == WEFT_FAIL_DEADLOCK || v == WEFT_FAIL_LIVELOCK ||
		  v == WEFT_FAIL_OBSTRUCTION || v == WEFT_FAIL_ASSERTION ||
		  v == WEFT_FAIL_MISUSE || v == WEFT_ERROR;
	learn(x, steps, cut);
	return v;
}

static weft_verdict run_bytes(harness_explorer *x, const harness_explore_options *o,
			      weft_result *res)
{
	size_t n = (size_t)harness_rng_below(&x->bytes_rng, (uint64_t)o->max_bytes + 1);
	for (size_t i = 0; i < n; i++)
		x->bytes[i] = (uint8_t)harness_rng_next(&x->bytes_rng);
	return weft_runner_run(x->runner, x->bytes, n, res);
}

static int setup(harness_explorer *x, const harness_explore_options *o, char *message, size_t cap)
{
	const harness_bounds *b = harness_runner_bounds(x->runner);
	const weft_target *t = weft_runner_target(x->runner);
	harness_scenario_source_init(&x->source, t, b, o->seed, o->min_threads, o->max_threads,
				     o->max_ops);
	harness_random_walk_init(&x->walk, o->seed);
	harness_pct_init(&x->pct, o->seed, o->depth);
	harness_uniform_init(&x->uniform, o->seed);
	harness_rng_seed(&x->bytes_rng, o->seed, 4);
	memset(x->op_steps, 0, sizeof x->op_steps);
	memset(x->op_calls, 0, sizeof x->op_calls);
	memset(&x->previous, 0, sizeof x->previous);
	x->seen_runs = 0;
	x->last_was_stress = o->kind == HARNESS_EXPLORE_STRESS;
	if (o->kind == HARNESS_EXPLORE_BYTES) {
		free(x->bytes);
		x->bytes = malloc(o->max_bytes ? o->max_bytes : 1);
		if (!x->bytes) {
			snprintf(message, cap, "out of memory");
			return HARNESS_EXPLORE_ERROR;
		}
	}
	if (o->kind == HARNESS_EXPLORE_STRESS) {
		const char *why = harness_stress_unsupported(x->runner);
		if (why) {
			snprintf(message, cap, "%s", why);
			return HARNESS_EXPLORE_UNSUPPORTED;
		}
		if (!x->stress && !(x->stress = harness_stress_new(x->runner))) {
			snprintf(message, cap, "out of memory");
			return HARNESS_EXPLORE_ERROR;
		}
	}
	return -1;
}

harness_explore_outcome harness_explore(harness_explorer *x, const harness_explore_options *o,
					harness_explore_stats *st, char *message, size_t cap)
{
	memset(st, 0, sizeof *st);
	st->verdict = WEFT_PASS;
	message[0] = 0;
	if (o->max_bytes > BYTES_MAX || o->schedules == 0 || o->max_executions == 0) {
		snprintf(message, cap, "bad options");
		return HARNESS_EXPLORE_ERROR;
	}
	int early = setup(x, o, message, cap);
	if (early >= 0)
		return (harness_explore_outcome)early;
	unsigned runs_left = 0;
	while (st->executions < o->max_executions) {
		weft_result res;
		weft_verdict v;
		uint64_t k = 0;
		if (o->kind != HARNESS_EXPLORE_BYTES && runs_left == 0) {
			next_scenario(x, st);
			runs_left = o->schedules;
		}
		runs_left--;
		if (o->kind == HARNESS_EXPLORE_BYTES)
			v = run_bytes(x, o, &res);
		else if (o->kind == HARNESS_EXPLORE_STRESS)
			v = harness_stress_run(x->stress, &x->scenario, &res);
		else
			v = run_managed(x, o, &res, &k);
		st->executions++;
		st->result = res;
		st->digest = mix(mix(st->digest, (uint64_t)v), res.trace_hash);
		st->check_unknown += res.check_unknown != 0;
		if (o->on_execution) {
			harness_explore_execution e = { .index = st->executions, .verdict = v,
							.result = &res, .pct_k = k };
			if (o->kind == HARNESS_EXPLORE_STRESS)
				e.history = harness_stress_history(x->stress, &e.n_history);
			else
				e.trace = harness_runner_trace(x->runner);
			o->on_execution(o->ctx, &e);
		}
		if (v == WEFT_ERROR) {
			snprintf(message, cap, "%s", res.message);
			return HARNESS_EXPLORE_ERROR;
		}
		if (v != WEFT_PASS) {
			st->verdict = v;
			return HARNESS_EXPLORE_FAILED;
		}
	}
	return HARNESS_EXPLORE_NONE;
}

void harness_explorer_report(const harness_explorer *x, FILE *out)
{
	if (x->last_was_stress && x->stress)
		harness_stress_report(x->stress, out);
	else
		weft_runner_report(x->runner, out);
}
