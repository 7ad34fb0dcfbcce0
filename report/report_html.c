/*
 * report/report_html.c - an execution as one self-contained web page:
 * `NAME_replay --html=FILE INPUT`, weft_runner_report_html.
 *
 * The third rendering of a report_case, beside the text (report.c) and JSON
 * (report_json.c).  It writes the page's data (format: html_page.c) and the
 * page draws it: the scenario, one lane per thread with each step as the text
 * report words it (report_format_event: site, value, preemptions), the history
 * as intervals (history_html.c, shared with weft-check's page) and the oracle's
 * explanation, all linked by operation.  Every step is in the data, folded
 * spins too: the page folds them for the eye, a tool still finds them.
 *
 * Linking by operation: an operation's number is its index in the history.
 * Its begin event is the trace event at its invoked_at, whose site_id names
 * the scenario call; every step a thread takes between its begin and its end
 * event belongs to that operation.  The final operation runs after the trace
 * and has no steps.
 */
#include <stdlib.h>

#include "report.h"

/* op_of_call[call] = the history index of the scenario call, -1 if it never began. */
static void map_calls(const report_case *c, long *op_of_call)
{
	for (unsigned i = 0; i < c->n_calls; i++)
		op_of_call[i] = -1;
	for (size_t h = 0; h < c->n_history; h++) {
		size_t at = c->history[h].invoked_at;
		if (at < c->n_events && c->events[at].kind == SCHED_EV_OP_BEGIN &&
		    c->events[at].site_id < c->n_calls)
			op_of_call[c->events[at].site_id] = (long)h;
	}
}

static const char *step_kind(const sched_event *e)
{
	switch (e->kind) {
	case SCHED_EV_OP_BEGIN: return "begin";
	case SCHED_EV_OP_END: return "end";
	case SCHED_EV_PREEMPT: return "preempt";
	case SCHED_EV_SWITCH: return "switch";
	case SCHED_EV_CUT: case SCHED_EV_BLOCK: case SCHED_EV_STALL: case SCHED_EV_SPIN:
		return "note";
	default: return "access";
	}
}

static void print_scenario(FILE *out, const report_case *c, const long *op_of_call)
{
	char call[128];
	bool program = (c->target->flags & WEFT_TARGET_PROGRAM) != 0;
	fputs("\"scenario\": [", out);
	for (unsigned th = 0; th < c->result->n_threads; th++) {
		fputs(th ? ",\n  [" : "\n  [", out);
		const char *sep = "";
		for (unsigned i = 0; i < c->n_calls; i++) {
			if (c->calls[i].thread != th || (program && th > 0))
				continue;
			report_html_call(call, sizeof call, c->target->ops, &c->calls[i], 1);
			fprintf(out, "%s{\"call\": ", sep);
			report_html_string(out, call);
			fprintf(out, ", \"op\": %ld}", op_of_call[i]);
			sep = ", ";
		}
		fputc(']', out);
	}
	fputs("],\n", out);
}

/* One step; `current` is each thread's running operation (history index, -1: none). */
static void print_step(FILE *out, const report_case *c, const sched_event *e,
		       const long *op_of_call, long *current)
{
	char text[160];
	unsigned th = e->thread;
	long op = th <= c->result->n_threads ? current[th] : -1;
	if (e->kind == SCHED_EV_OP_BEGIN && e->site_id < c->n_calls)
		op = op_of_call[e->site_id];
	report_format_event(text, sizeof text, c, e);
	fprintf(out, "{\"t\": %u, \"k\": \"%s\", \"x\": ", th, step_kind(e));
	report_html_string(out, text);
	fprintf(out, ", \"op\": %ld}", op);
	if (th <= c->result->n_threads)
		current[th] = e->kind == SCHED_EV_OP_END ? -1 : op;
}

static void print_steps(FILE *out, const report_case *c, const long *op_of_call)
{
	long *current = malloc((c->result->n_threads + 1) * sizeof *current);
	fputs("\"steps\": [", out);
	for (unsigned t = 0; current && t <= c->result->n_threads; t++)
		current[t] = -1;
	for (size_t i = 0; current && i < c->n_events; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		print_step(out, c, &c->events[i], op_of_call, current);
	}
	fputs("],\n", out);
	free(current);
}

/* The weak reads or delayed commits (issue 18), only when there are some. */
static void print_weak(FILE *out, const report_case *c)
{
	if (!c->n_weak)
		return;
	char access[128], why[512];
	fputs("\"weak\": {\"title\": ", out);
	report_html_string(out, report_weak_title(c));
	fputs(", \"items\": [", out);
	for (size_t i = 0; i < c->n_weak; i++) {
		const sched_weak_read *w = &c->weak[i];
		report_format_event(access, sizeof access, c, &c->events[w->event]);
		report_format_weak_why(why, sizeof why, c, w, " ");
		fprintf(out, "%s{\"step\": %zu, \"t\": %u, \"x\": ", i ? ",\n  " : "\n  ",
			w->event + 1, c->events[w->event].thread);
		report_html_string(out, access);
		fputs(", \"why\": ", out);
		report_html_string(out, why);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

static void print_header(FILE *out, const report_case *c)
{
	const weft_result *r = c->result;
	char summary[256];
	snprintf(summary, sizeof summary, "%u threads, %u operations, %u preemption%s, "
		 "%u switches, %llu steps", r->n_threads, r->n_ops, r->preemptions,
		 r->preemptions == 1 ? "" : "s", r->switches, (unsigned long long)r->steps);
	fputs("{\"title\": ", out);
	report_html_string(out, c->target->name);
	fputs(", \"verdict\": ", out);
	report_html_string(out, weft_verdict_name(r->verdict));
	fputs(", \"message\": ", out);
	report_html_string(out, r->message);
	fputs(",\n\"summary\": ", out);
	report_html_string(out, summary);
	fprintf(out, ", \"threads\": %u, \"final_thread\": %ld,\n", r->n_threads,
		c->final_call ? (long)c->final_call->thread : -1L);
	if (c->first_run) {
		fputs("\"first_run\": ", out);
		report_html_string(out, c->first_run);
		fputs(",\n", out);
	}
	if (c->fresh_run) {
		fputs("\"fresh_run\": ", out);
		report_html_string(out, c->fresh_run);
		fputs(",\n", out);
	}
}

void report_print_html(FILE *out, const report_case *c)
{
	long *op_of_call = malloc((c->n_calls + 1) * sizeof *op_of_call);
	if (!op_of_call) {
		fputs("<!DOCTYPE html><p>weft: out of memory writing the report</p>\n", out);
		return;
	}
	map_calls(c, op_of_call);
	weft_history h = { c->history, c->n_history };
	report_html_begin(out, c->target->name);
	print_header(out, c);
	print_scenario(out, c, op_of_call);
	print_steps(out, c, op_of_call);
	print_weak(out, c);
	report_html_history(out, &h, c->target->ops, c->check, 1);
	fputs("}", out);
	report_html_end(out);
	free(op_of_call);
}
