/*
 * report/report_json.c - the report for tools: one JSON object per execution.
 *
 * Why a second rendering: the text report is for people and may change its
 * layout; scripts (crash triage, dashboards, diffing two runs) want fields.
 * Same input (report_case), same stability rules: no addresses, no times,
 * sites as basename:line, so equal runs give byte-equal JSON.
 *
 *   {"target": "counter", "verdict": "linearizability", "message": "...",
 *    "symptom": "linearizability",        the reducers' key (symptom.c)
 *    "threads": 2, "operations": 2, "preemptions": 1, "switches": 2, "steps": 6,
 *    "trace_hash": "8f94466ed880668c",
 *    "first_run_report": "...",           only when the verdict is nondeterministic
 *    "fresh_run_report": "...",           only when nondeterministic because a fresh
 *                                         process passed (runner/fresh.h)
 *    "scenario": [[{"op": "increment", "args": []}], ...],      one array per thread
 *    "init": [{"op": ..., "args": ...}, ...], "post": [...],    only when the input has them
 *    "history": [{"thread": 0, "op": "increment", "args": [], "result": 0,
 *                 "invoked_at": 1, "returned_at": 10, "pending": false}, ...],
 *    "interleaving": [{"step": 1, "thread": 0, "kind": "op_begin", "op": ..., "args": ...},
 *                     {"step": 2, ..., "kind": "load", "site": "counter.c:37", "value": 0},
 *                     {"step": 3, ..., "kind": "preempt", "to": 1}, ...],
 *    "weak_memory": {"model": "c11", "title": "weak reads (...)",      only when some
 *                    "events": [{"step": 9, "thread": 1, "kind": "stale_read",
 *                                "read_from": {"step": 4, "thread": 0, "site": "a.c:9", "value": 0},
 *                                "unseen": {"step": 7, "thread": 0, "site": "a.c:9", "value": 1},
 *                                "skipped": 1, "why": "read from ..."}]},
 *    "linearizability": {"longest_prefix": [0, 1], "stuck": 2, "observed": 1,
 *                        "model": 2, "partition_key": null}          or null}
 *
 * (wrapped here; the output is) one object on one line, ended by a newline, so a
 * replay of many inputs is JSON Lines that tools read line by line.  Conventions:
 *   - "step" numbers the trace's events from 1, as the text report does;
 *     "invoked_at" and "returned_at" are the steps of an operation's begin and
 *     end events; "longest_prefix" and "stuck" index the "history" array;
 *   - strings are UTF-8: a byte of a name or message that is not part of
 *     well-formed UTF-8 is written as \ufffd (the replacement character);
 *   - results that are WEFT_NONE, and results of pending operations, are null;
 *     an operation still blocked when no thread could run has "blocked";
 *   - access values: an integer, what a read read or a store wrote; a pointer
 *     gives "NULL" or "ptr" (addresses are never traced); a yield has none; a
 *     cas gives the value it read and "succeeded": true/false;
 *   - op_begin/op_end events carry the operation ("op", "args"), op_end its
 *     "result"; preempt/switch carry "to";
 *   - "weak_memory" (issue 18) lists each load that read an older store (C11,
 *     kind "stale_read": the store it read, null for the value before any
 *     tracked store, and the newest one it did not see) or each access that
 *     came before another thread's buffered store committed (tso/pso, kind
 *     "delayed_commit": "unseen" is that store, "read_from" null); "skipped"
 *     is the choice (stores not seen), "why" the text report's sentence.
 */
#include "report.h"
#include "../oracle/value_arena.h"

#include <inttypes.h>

/*
 * Bytes of the well-formed UTF-8 sequence at p (1 to 4; RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0 when the byte at p starts
 * none.  p is NUL-terminated, so a sequence cut short stops at the NUL.
 */
size_t report_utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		   : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	unsigned char lo = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;
	for (size_t i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (p[i] < lo || p[i] > hi)
			return 0;
	return n;
}

/*
 * A JSON string: quote, backslash and control characters escaped, and every
 * byte that is not part of well-formed UTF-8 (a name can hold any byte) as
 * \ufffd, the replacement character, so every line is valid JSON (RFC 8259).
 */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		size_t n = report_utf8_len(p);
		if (n == 0) {
			fputs("\\ufffd", out);
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, out);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* A typed value (weft/value.h) as a JSON string of its printed text. */
static void json_typed(FILE *out, const weft_value_type *type, int64_t value)
{
	char text[512];
	weft_value_format(type, value, text, sizeof text);
	json_string(out, text);
}

/* An operation's result: null for WEFT_NONE, "blocked" for WEFT_BLOCKED, a typed one as text. */
static void json_result(FILE *out, int64_t value, const weft_value_type *type)
{
	if (type && value != WEFT_NONE && value != WEFT_BLOCKED)
		json_typed(out, type, value);
	else if (value == WEFT_NONE)
		fputs("null", out);
	else if (value == WEFT_BLOCKED)
		fputs("\"blocked\"", out);
	else
		fprintf(out, "%" PRId64, value);
}

/* "op": "push", "args": [1]; `drawn`: a scenario record (typed arguments made, then printed). */
static void json_call(FILE *out, const weft_target *t, const weft_op_record *call, int drawn)
{
	const weft_op *op = &t->ops[call->op];
	fputs("\"op\": ", out);
	json_string(out, op->name);
	fputs(", \"args\": [", out);
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++) {
		if (op->arg_types[a]) {
			char text[512];
			oracle_value_format_arg(op, a, call->args[a], drawn, text, sizeof text);
			fputs(a ? ", " : "", out);
			json_string(out, text);
			continue;
		}
		fprintf(out, "%s%" PRId64, a ? ", " : "", call->args[a]);
	}
	fputc(']', out);
}

static void print_counts(FILE *out, const report_case *c)
{
	const weft_result *r = c->result;
	fputs("\"target\": ", out);
	json_string(out, c->target->name);
	fputs(", \"verdict\": ", out);
	json_string(out, weft_verdict_name(r->verdict));
	fputs(", \"message\": ", out);
	json_string(out, r->message);
	if (r->verdict != WEFT_PASS) {
		char symptom[1024];
		report_symptom(symptom, sizeof symptom, r->verdict, r->message);
		fputs(", \"symptom\": ", out);
		json_string(out, symptom);
	}
	if (c->first_run) {   /* only for a nondeterministic verdict: the failing first run */
		fputs(", \"first_run_report\": ", out);
		json_string(out, c->first_run);
	}
	if (c->fresh_run) {   /* only when a fresh process passed the input this one failed */
		fputs(", \"fresh_run_report\": ", out);
		json_string(out, c->fresh_run);
	}
	fprintf(out, ", \"threads\": %u, \"operations\": %u, \"preemptions\": %u, "
		"\"switches\": %u, \"steps\": %" PRIu64 ", \"trace_hash\": \"%016" PRIx64
		"\", ", r->n_threads, r->n_ops, r->preemptions, r->switches, r->steps,
		r->trace_hash);
}

/* One thread's calls: [{"op": ..., "args": [...]}, ...] */
static void print_thread_calls(FILE *out, const report_case *c, unsigned thread)
{
	const char *sep = "";
	fputc('[', out);
	for (unsigned i = 0; i < c->n_calls; i++) {
		if (c->calls[i].thread != thread)
			continue;
		fprintf(out, "%s{", sep);
		json_call(out, c->target, &c->calls[i], 1);
		fputc('}', out);
		sep = ", ";
	}
	fputc(']', out);
}

static void print_scenario(FILE *out, const report_case *c)
{
	unsigned n = c->result->n_threads;
	fputs("\"scenario\": [", out);
	for (unsigned th = 0; th < n; th++) {
		fputs(th ? ", " : "", out);
		print_thread_calls(out, c, th);
	}
	fputs(n ? "], " : "], ", out);
	for (int post = 0; post < 2 && (c->n_init || c->n_post); post++) {
		const weft_op_record *part = post ? c->post : c->init;
		unsigned k = post ? c->n_post : c->n_init;
		fputs(post ? "\"post\": [" : "\"init\": [", out);
		for (unsigned i = 0; i < k; i++) {
			fputs(i ? ", {" : "{", out);
			json_call(out, c->target, &part[i], 0);
			fputc('}', out);
		}
		fputs("], ", out);
	}
}

static void print_record(FILE *out, const report_case *c, const weft_op_record *h)
{
	fprintf(out, "{\"thread\": %u, ", h->thread);
	json_call(out, c->target, h, 0);
	fputs(", \"result\": ", out);
	if (h->pending)
		fputs("null", out);
	else
		json_result(out, h->result, c->target->ops[h->op].result_type);
	/* the steps of the operation's begin and end events, numbered like "step" */
	fprintf(out, ", \"invoked_at\": %" PRIu64 ", \"returned_at\": ", (uint64_t)h->invoked_at + 1);
	if (h->pending)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu64, (uint64_t)h->returned_at + 1);
	fprintf(out, ", \"pending\": %s}", h->pending ? "true" : "false");
}

static void print_history(FILE *out, const report_case *c)
{
	fputs("\"history\": [", out);
	for (size_t i = 0; i < c->n_history; i++) {
		fputs(i ? ", " : "", out);
		print_record(out, c, &c->history[i]);
	}
	fputs(c->n_history ? "], " : "], ", out);
}

/* ", "site": "file.c:12", "value": ..." of an instrumented access. */
static void print_access(FILE *out, const sched_event *e)
{
	char site[256];
	snprintf(site, sizeof site, "%s:%d", e->site ? report_base_name(e->site->file) : "?",
		 e->site ? e->site->line : 0);
	fputs(", \"site\": ", out);
	json_string(out, site);
	if (e->kind == WEFT_ACCESS_YIELD)
		return;
	fputs(", \"value\": ", out);
	if (e->is_pointer)
		fputs(e->value ? "\"ptr\"" : "\"NULL\"", out);
	else
		fprintf(out, "%" PRId64, (int64_t)e->value);
	if (e->kind == WEFT_ACCESS_CAS)
		fprintf(out, ", \"succeeded\": %s", sched_cas_wrote(e) ? "true" : "false");
}

/* The operation an op_begin/op_end event belongs to (site_id = call index). */
static void print_event_call(FILE *out, const report_case *c, const sched_event *e)
{
	if (e->site_id >= c->n_calls)
		return;
	fputs(", ", out);
	json_call(out, c->target, &c->calls[e->site_id], 1);
	if (e->kind == SCHED_EV_OP_END) {
		fputs(", \"result\": ", out);
		json_result(out, (int64_t)e->value, c->target->ops[c->calls[e->site_id].op].result_type);
	}
}

static const char *event_kind(const sched_event *e)
{
	switch (e->kind) {
	case SCHED_EV_OP_BEGIN: return "op_begin";
	case SCHED_EV_OP_END: return "op_end";
	case SCHED_EV_SWITCH: return "switch";
	case SCHED_EV_PREEMPT: return "preempt";
	case SCHED_EV_CUT: return "cut";
	default: return report_access_name(e->kind);
	}
}

static void print_event(FILE *out, const report_case *c, size_t step, const sched_event *e)
{
	fprintf(out, "{\"step\": %zu, \"thread\": %u, \"kind\": ", step, e->thread);
	json_string(out, event_kind(e));
	switch (e->kind) {
	case SCHED_EV_OP_BEGIN:
	case SCHED_EV_OP_END:
		print_event_call(out, c, e);
		break;
	case SCHED_EV_SWITCH:
	case SCHED_EV_PREEMPT:
		fprintf(out, ", \"to\": %u", e->other);
		break;
	case SCHED_EV_CUT:
		break;
	default:
		print_access(out, e);
	}
	fputc('}', out);
}

static void print_interleaving(FILE *out, const report_case *c)
{
	fputs("\"interleaving\": [", out);
	for (size_t i = 0; i < c->n_events; i++) {
		fputs(i ? ", " : "", out);
		print_event(out, c, i + 1, &c->events[i]);   /* steps from 1, as in the text */
	}
	fputs(c->n_events ? "], " : "], ", out);
}

/* {"step": ..., "thread": ..., "site": ..., "value": ...} of a store, or null. */
static void print_store(FILE *out, const weft_site *site, size_t event, unsigned thread,
			uint64_t value)
{
	if (!site) {
		fputs("null", out);
		return;
	}
	char text[256];
	snprintf(text, sizeof text, "%s:%d", report_base_name(site->file), site->line);
	fprintf(out, "{\"step\": %zu, \"thread\": %u, \"site\": ", event + 1, thread);
	json_string(out, text);
	fprintf(out, ", \"value\": %" PRId64 "}", (int64_t)value);
}

static void print_weak_event(FILE *out, const report_case *c, const sched_weak_read *w)
{
	char why[512];
	report_format_weak_why(why, sizeof why, c, w, " ");
	fprintf(out, "{\"step\": %zu, \"thread\": %u, \"kind\": \"%s\", \"read_from\": ",
		w->event + 1, c->events[w->event].thread,
		w->buffered ? "delayed_commit" : "stale_read");
	if (w->buffered)
		fputs("null", out);
	else
		print_store(out, w->store_site, w->store_event, w->store_thread, w->store_value);
	fputs(", \"unseen\": ", out);
	print_store(out, w->newer_site, w->newer_event, w->newer_thread, w->newer_value);
	fprintf(out, ", \"skipped\": %u, \"why\": ", w->skipped);
	json_string(out, why);
	fputc('}', out);
}

/* Only when there are some: JSON of executions without them is unchanged. */
static void print_weak_memory(FILE *out, const report_case *c)
{
	if (!c->n_weak)
		return;
	fputs("\"weak_memory\": {\"model\": ", out);
	json_string(out, c->memory);
	fputs(", \"title\": ", out);
	json_string(out, report_weak_title(c));
	fputs(", \"events\": [", out);
	for (size_t i = 0; i < c->n_weak; i++) {
		fputs(i ? ", " : "", out);
		print_weak_event(out, c, &c->weak[i]);
	}
	fputs("]}, ", out);
}

static void print_linearizability(FILE *out, const report_case *c)
{
	const weft_check_result *k = c->check;
	fputs("\"linearizability\": ", out);
	if (!k) {
		fputs("null", out);
		return;
	}
	fputs("{\"longest_prefix\": [", out);
	for (size_t i = 0; i < k->n_longest; i++)
		fprintf(out, "%s%zu", i ? ", " : "", k->longest[i]);
	fputs("], \"stuck\": ", out);
	int has_stuck = k->stuck < c->n_history;
	if (has_stuck)
		fprintf(out, "%zu", k->stuck);
	else
		fputs("null", out);
	fputs(", \"observed\": ", out);
	const weft_value_type *type = has_stuck ? c->target->ops[c->history[k->stuck].op].result_type
						: NULL;
	json_result(out, has_stuck && !c->history[k->stuck].pending ?
		    c->history[k->stuck].result : WEFT_NONE, type);
	fputs(", \"model\": ", out);
	json_result(out, k->stuck_model_result, type);
	fputs(", \"partition_key\": ", out);
	if (k->partitioned)
		fprintf(out, "%" PRId64, k->partition_key);
	else
		fputs("null", out);
	fputs("}", out);
}

void report_print_json(FILE *out, const report_case *c)
{
	fputs("{", out);
	print_counts(out, c);
	print_scenario(out, c);
	print_history(out, c);
	print_interleaving(out, c);
	print_weak_memory(out, c);
	print_linearizability(out, c);
	fputs("}\n", out);
}
