/*
 * report/report.c - an execution as a person reads it.
 *
 *   ==weft== FAIL validation in counter_buggy: <message>
 *   ==weft== 2 threads, 2 operations, 1 preemption, 2 switches, 6 steps
 *   scenario:
 *     thread 0: increment()
 *     thread 1: increment()
 *   interleaving:
 *      step  thread 0                        thread 1
 *         1  increment()
 *         2  load counter.c:37 -> 0
 *         3  ~~ preempted ~~>
 *   ...
 * Steps are numbered by their event index (the logical time of the history).
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

#define COLUMN_WIDTH 30

static const char *access_name(unsigned kind)
{
	static const char *const names[WEFT_ACCESS_KIND_COUNT] = {
		[WEFT_ACCESS_LOAD] = "load", [WEFT_ACCESS_STORE] = "store",
		[WEFT_ACCESS_EXCHANGE] = "xchg", [WEFT_ACCESS_CAS] = "cas",
		[WEFT_ACCESS_FETCH_ADD] = "fetch_add", [WEFT_ACCESS_FETCH_SUB] = "fetch_sub",
		[WEFT_ACCESS_FETCH_AND] = "fetch_and", [WEFT_ACCESS_FETCH_OR] = "fetch_or",
		[WEFT_ACCESS_FETCH_XOR] = "fetch_xor", [WEFT_ACCESS_YIELD] = "yield",
	};
	return kind < WEFT_ACCESS_KIND_COUNT && names[kind] ? names[kind] : "?";
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void format_call(char *buf, size_t cap, const weft_target *t, const weft_op_record *call)
{
	const weft_op *op = &t->ops[call->op];
	int n = snprintf(buf, cap, "%s(", op->name);
	for (int a = 0; a < op->n_args && n > 0 && (size_t)n < cap; a++)
		n += snprintf(buf + n, cap - (size_t)n, "%s%" PRId64, a ? ", " : "", call->args[a]);
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ")");
}

static void format_value(char *buf, size_t cap, const sched_event *e)
{
	if (e->is_pointer)
		snprintf(buf, cap, "%s", e->value ? "ptr" : "NULL");
	else if (e->kind == WEFT_ACCESS_CAS)
		snprintf(buf, cap, "%s", e->value ? "ok" : "failed");
	else
		snprintf(buf, cap, "%" PRId64, (int64_t)e->value);
}

static void format_access(char *buf, size_t cap, const sched_event *e)
{
	char value[32];
	format_value(value, sizeof value, e);
	const char *file = e->site ? base_name(e->site->file) : "?";
	int line = e->site ? e->site->line : 0;
	if (e->kind == WEFT_ACCESS_YIELD)
		snprintf(buf, cap, "yield %s:%d", file, line);
	else if (e->kind == WEFT_ACCESS_STORE)
		snprintf(buf, cap, "store %s:%d <- %s", file, line, value);
	else
		snprintf(buf, cap, "%s %s:%d -> %s", access_name(e->kind), file, line, value);
}

/* "call = result", "none" standing for WEFT_NONE. */
static void format_returned(char *buf, size_t cap, const char *call, int64_t result)
{
	if (result == WEFT_NONE)
		snprintf(buf, cap, "%s = none", call);
	else
		snprintf(buf, cap, "%s = %" PRId64, call, result);
}

/* One event as the text of its thread's column; "" for events not shown. */
static void format_event(char *buf, size_t cap, const report_case *c, const sched_event *e)
{
	char call[96];
	buf[0] = 0;
	switch (e->kind) {
	case SCHED_EV_OP_BEGIN:
		format_call(buf, cap, c->target, &c->calls[e->site_id]);
		break;
	case SCHED_EV_OP_END:
		format_call(call, sizeof call, c->target, &c->calls[e->site_id]);
		format_returned(buf, cap, call, (int64_t)e->value);
		break;
	case SCHED_EV_PREEMPT:
		snprintf(buf, cap, "~~ preempted, to thread %u", e->other);
		break;
	case SCHED_EV_SWITCH:
		snprintf(buf, cap, "-- done, to thread %u", e->other);
		break;
	case SCHED_EV_CUT:
		snprintf(buf, cap, "!! step budget exhausted");
		break;
	default:
		format_access(buf, cap, e);
	}
}

static void print_summary(FILE *out, const report_case *c)
{
	const weft_result *r = c->result;
	if (r->verdict == WEFT_PASS)
		fprintf(out, "==weft== PASS %s\n", c->target->name);
	else
		fprintf(out, "==weft== FAIL %s in %s: %s\n", weft_verdict_name(r->verdict),
			c->target->name, r->message);
	fprintf(out, "==weft== %u threads, %u operations, %u preemption%s, %u switches, %" PRIu64
		" steps\n", r->n_threads, r->n_ops, r->preemptions, r->preemptions == 1 ? "" : "s",
		r->switches, r->steps);
}

static void print_scenario(FILE *out, const report_case *c)
{
	char call[96];
	fprintf(out, "scenario:\n");
	for (unsigned th = 0; th < c->result->n_threads; th++) {
		fprintf(out, "  thread %u:", th);
		const char *sep = " ";
		for (unsigned i = 0; i < c->n_calls; i++) {
			if (c->calls[i].thread != th)
				continue;
			format_call(call, sizeof call, c->target, &c->calls[i]);
			fprintf(out, "%s%s", sep, call);
			sep = "; ";
		}
		fprintf(out, "\n");
	}
}

static void print_interleaving(FILE *out, const report_case *c)
{
	char text[128];
	fprintf(out, "interleaving:\n  step  ");
	for (unsigned th = 0; th + 1 < c->result->n_threads; th++)
		fprintf(out, "thread %-*u", COLUMN_WIDTH - 7, th);
	fprintf(out, "thread %u\n", c->result->n_threads - 1);
	for (size_t i = 0; i < c->n_events; i++) {
		const sched_event *e = &c->events[i];
		format_event(text, sizeof text, c, e);
		fprintf(out, "  %4zu  %*s%s\n", i + 1, (int)(e->thread * COLUMN_WIDTH), "", text);
	}
}

static void print_final(FILE *out, const report_case *c)
{
	char call[96], text[128];
	if (!c->final_call)
		return;
	format_call(call, sizeof call, c->target, c->final_call);
	format_returned(text, sizeof text, call, c->final_call->result);
	fprintf(out, "after all threads: %s\n", text);
}

static void print_linearizability(FILE *out, const report_case *c)
{
	if (!c->check)
		return;
	weft_history h = { c->history, c->n_history };
	if (c->final_call)
		fprintf(out, "linearizability (thread %u stands for the final operation):\n",
			c->final_call->thread);
	else
		fprintf(out, "linearizability:\n");
	weft_check_explain(out, &h, c->target->ops, c->check);
}

void report_print(FILE *out, const report_case *c)
{
	print_summary(out, c);
	print_scenario(out, c);
	print_interleaving(out, c);
	print_final(out, c);
	print_linearizability(out, c);
}
