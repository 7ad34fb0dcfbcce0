/*
 * harness/runner.c - bytes -> choices -> scenario + schedule -> execution ->
 * history -> verdict, for one target.  The only file that knows all the steps.
 *
 * All per-input state lives in the weft_runner and is reset at the start of
 * every run: the choice cursor, the scenario, the trace, the instance, the
 * message.  Nothing survives from one input to the next except allocated
 * capacity and the parked worker threads.
 */
#include "weft/run.h"

#include <stdlib.h>
#include <string.h>

#include "choice.h"
#include "scenario.h"
#include "schedule_bytes.h"
#include "../report/report.h"
#include "../scheduler/sched.h"

struct weft_runner {
	const weft_target *target;
	harness_bounds bounds;
	sched_pool pool;
	sched_exec exec;
	harness_choices choices;
	harness_scenario scenario;
	void *instance;
	weft_op_record history[HARNESS_MAX_CALLS];
	size_t n_history;
	char message[256];
	weft_result result;
};

const char *weft_verdict_name(weft_verdict v)
{
	switch (v) {
	case WEFT_PASS: return "pass";
	case WEFT_FAIL_VALIDATION: return "validation";
	case WEFT_FAIL_BUDGET: return "step-budget";
	case WEFT_ERROR: return "error";
	}
	return "?";
}

weft_runner *weft_runner_new(const weft_target *target)
{
	weft_runner *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->target = target;
	r->bounds = harness_bounds_of(target);
	sched_pool_init(&r->pool);
	sched_exec_init(&r->exec, &r->pool);
	return r;
}

void weft_runner_free(weft_runner *r)
{
	if (!r)
		return;
	sched_pool_destroy(&r->pool);
	sched_exec_destroy(&r->exec);
	free(r);
}

/* Managed thread `thread` runs its operations in order. */
static void run_thread_calls(void *ctx, unsigned thread)
{
	weft_runner *r = ctx;
	const weft_target *t = r->target;
	harness_scenario *s = &r->scenario;
	for (unsigned i = s->first_call[thread]; i < s->first_call[thread + 1]; i++) {
		weft_op_record *call = &s->calls[i];
		sched_op_begin(i);
		int64_t result = t->ops[call->op].run(r->instance, call->args);
		sched_op_end(i, result);
	}
}

/* The history: every call that began, in order of invocation, from the trace. */
static void build_history(weft_runner *r)
{
	const sched_trace *tr = &r->exec.trace;
	r->n_history = 0;
	for (size_t i = 0; i < tr->n; i++) {
		const sched_event *e = &tr->events[i];
		if (e->kind == SCHED_EV_OP_BEGIN) {
			r->scenario.calls[e->site_id].invoked_at = (uint32_t)i;
		} else if (e->kind == SCHED_EV_OP_END) {
			weft_op_record *call = &r->scenario.calls[e->site_id];
			call->returned_at = (uint32_t)i;
			call->result = (int64_t)e->value;
			call->pending = 0;
		}
	}
	for (size_t i = 0; i < tr->n; i++)
		if (tr->events[i].kind == SCHED_EV_OP_BEGIN)
			r->history[r->n_history++] = r->scenario.calls[tr->events[i].site_id];
}

static weft_verdict judge(weft_runner *r)
{
	if (r->exec.cut) {
		snprintf(r->message, sizeof r->message,
			 "execution exceeded the step budget of %u switch points",
			 r->bounds.step_budget);
		return WEFT_FAIL_BUDGET;
	}
	if (!r->target->validate)
		return WEFT_PASS;
	weft_history h = { r->history, r->n_history };
	if (r->target->validate(r->instance, &h, r->message, sizeof r->message) == 0)
		return WEFT_PASS;
	return WEFT_FAIL_VALIDATION;
}

static void fill_result(weft_runner *r, weft_verdict v)
{
	weft_result *res = &r->result;
	res->verdict = v;
	res->n_threads = r->scenario.n_threads;
	res->n_ops = r->scenario.n_calls;
	res->preemptions = r->exec.preemptions;
	res->switches = r->exec.switches;
	res->steps = r->exec.steps;
	res->trace_hash = sched_trace_hash(&r->exec.trace);
	res->message = r->message;
}

weft_verdict weft_runner_run(weft_runner *r, const uint8_t *data, size_t size, weft_result *out)
{
	r->message[0] = 0;
	harness_choices_init(&r->choices, data, size);
	harness_scenario_decode(&r->scenario, r->target, &r->bounds, &r->choices);
	sched_exec_config cfg = {
		.n_threads = r->scenario.n_threads,
		.step_budget = r->bounds.step_budget,
		.strategy = harness_schedule_bytes(&r->choices),
		.body = run_thread_calls,
		.body_ctx = r,
	};
	r->instance = r->target->setup ? r->target->setup() : NULL;
	weft_verdict v;
	if (sched_exec_run(&r->exec, &cfg) != 0) {
		snprintf(r->message, sizeof r->message, "could not start %u managed threads",
			 cfg.n_threads);
		sched_trace_reset(&r->exec.trace);
		v = WEFT_ERROR;
	} else {
		build_history(r);
		v = judge(r);
	}
	if (r->target->teardown)
		r->target->teardown(r->instance);
	r->instance = NULL;
	fill_result(r, v);
	if (out)
		*out = r->result;
	return v;
}

void weft_runner_report(const weft_runner *r, FILE *out)
{
	report_case c = {
		.target = r->target,
		.result = &r->result,
		.calls = r->scenario.calls,
		.n_calls = r->scenario.n_calls,
		.events = r->exec.trace.events,
		.n_events = r->exec.trace.n,
	};
	report_print(out, &c);
}
