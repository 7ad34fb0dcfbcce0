/*
 * report/history_html.c - a history and its check as page data, and the page
 * of a history alone (what `weft-check --html` writes).
 *
 * Both pages draw the history and the oracle's explanation from the same
 * fields ("history", "lin"; format in html_page.c), written here once: the
 * execution page (report_html.c) adds the scenario and the steps around them.
 * Why this lives in report/ and not in oracle/: the oracle must not print pages
 * (it stands alone and includes nothing but public headers), and weft-check
 * reaches this code only through the public weft_check_report_html, so no room
 * includes a later one.
 *
 * Operations are named as the explanation names them (oracle/explain.c):
 * "name(args)", WEFT_NONE as "none", and without an op table "op<N>()".
 */
#include <inttypes.h>
#include <string.h>

#include "report.h"
#include "../oracle/value_arena.h"

/*
 * "push(1)"; the arguments the op table says it takes (at most WEFT_MAX_ARGS);
 * `drawn`: a scenario's record (typed arguments made to be printed, weft/value.h).
 */
void report_html_call(char *buf, size_t cap, const weft_op *ops, const weft_op_record *r,
		      int drawn)
{
	if (!ops || !ops[r->op].name) {
		snprintf(buf, cap, "op%u()", r->op);
		return;
	}
	int n_args = ops[r->op].n_args < 0 ? 0 : ops[r->op].n_args;
	n_args = n_args > WEFT_MAX_ARGS ? WEFT_MAX_ARGS : n_args;
	int n = snprintf(buf, cap, "%s(", ops[r->op].name);
	for (int a = 0; a < n_args && n > 0 && (size_t)n < cap; a++) {
		if (ops[r->op].arg_types[a]) {
			n += snprintf(buf + n, cap - (size_t)n, "%s", a ? ", " : "");
			if ((size_t)n < cap)
				n += (int)oracle_value_format_arg(&ops[r->op], a, r->args[a], drawn,
								  buf + n, cap - (size_t)n);
		} else if (r->args[a] == WEFT_NONE)
			n += snprintf(buf + n, cap - (size_t)n, "%snone", a ? ", " : "");
		else
			n += snprintf(buf + n, cap - (size_t)n, "%s%" PRId64, a ? ", " : "", r->args[a]);
	}
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ")");
}

/* A result as a string field: "none", "blocked", the number or the typed value. */
void report_html_value(FILE *out, int64_t v, const weft_value_type *type)
{
	char text[160];
	if (type)
		weft_value_format(type, v, text, sizeof text);
	else if (v == WEFT_NONE)
		snprintf(text, sizeof text, "none");
	else if (v == WEFT_BLOCKED)
		snprintf(text, sizeof text, "blocked");
	else
		snprintf(text, sizeof text, "%" PRId64, v);
	report_html_string(out, text);
}

static void print_record(FILE *out, const weft_op_record *r, const weft_op *ops, unsigned base)
{
	char call[128];
	report_html_call(call, sizeof call, ops, r, 0);
	fprintf(out, "{\"t\": %u, \"call\": ", r->thread);
	report_html_string(out, call);
	fputs(", \"res\": ", out);
	if (r->pending)
		report_html_string(out, "?");
	else
		report_html_value(out, r->result, ops ? ops[r->op].result_type : NULL);
	fprintf(out, ", \"inv\": %" PRIu64 ", \"ret\": %" PRIu64 ", \"pending\": %s}",
		(uint64_t)r->invoked_at + base, r->pending ? 0 : (uint64_t)r->returned_at + base,
		r->pending ? "true" : "false");
}

static void print_lin(FILE *out, const weft_history *h, const weft_op *ops,
		      const weft_check_result *k)
{
	if (!k || k->verdict != WEFT_CHECK_NOT_LINEARIZABLE) {
		fputs("\"lin\": null", out);
		return;
	}
	fputs("\"lin\": {\"prefix\": [", out);
	for (size_t i = 0; i < k->n_longest; i++)
		fprintf(out, "%s%zu", i ? ", " : "", k->longest[i]);
	fputs("], \"stuck\": ", out);
	if (k->stuck < h->n_ops) {
		fprintf(out, "%zu, \"observed\": ", k->stuck);
		if (h->ops[k->stuck].pending)
			report_html_string(out, "? (pending)");
		else
			report_html_value(out, h->ops[k->stuck].result,
					  ops ? ops[h->ops[k->stuck].op].result_type : NULL);
	} else {
		fputs("null, \"observed\": null", out);
	}
	fputs(", \"model\": ", out);
	report_html_value(out, k->stuck_model_result,
			  ops && k->stuck < h->n_ops ? ops[h->ops[k->stuck].op].result_type : NULL);
	const weft_value_type *key_type = ops && k->stuck < h->n_ops ?
						  ops[h->ops[k->stuck].op].arg_types[0] : NULL;
	if (k->partitioned && key_type) {   /* a typed key (weft-check's kv): its text */
		fputs(", \"key\": ", out);
		report_html_value(out, k->partition_key, key_type);
		fputs("}", out);
	} else if (k->partitioned)
		fprintf(out, ", \"key\": %" PRId64 "}", k->partition_key);
	else
		fputs(", \"key\": null}", out);
}

void report_html_history(FILE *out, const weft_history *h, const weft_op *ops,
			 const weft_check_result *check, unsigned time_base)
{
	fputs("\"history\": [", out);
	for (size_t i = 0; i < h->n_ops; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		print_record(out, &h->ops[i], ops, time_base);
	}
	fputs("],\n", out);
	print_lin(out, h, ops, check);
}

void weft_check_report_html(FILE *out, const char *title, const weft_history *history,
			    const weft_op *ops, const weft_check_result *result)
{
	char message[128] = "";
	if (result)
		snprintf(message, sizeof message, "%zu operations, cost %" PRIu64, history->n_ops,
			 result->cost);
	report_html_begin(out, title);
	fputs("{\"title\": ", out);
	report_html_string(out, title);
	fputs(", \"verdict\": ", out);
	report_html_string(out, result ? weft_check_verdict_name(result->verdict) : "");
	fputs(", \"message\": ", out);
	report_html_string(out, message);
	fputs(",\n", out);
	report_html_history(out, history, ops, result, 0);
	fputs("}", out);
	report_html_end(out);
}
