/*
 * report/report_call.c - one operation as the text report writes it: the
 * call with its arguments, "call = result", and the scenario's sequential
 * parts (input/scenario.h) as lines.  Arguments and results that are values
 * (weft/value.h) print through their type; a scenario record holds the
 * integers the input drew (made into values to be printed), a history record
 * the values themselves.  Split from report.c, which prints the rest.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

#include "../oracle/value_arena.h"

/*
 * "name(1, "ab")": `drawn` says whether the record is the scenario's (the
 * integers the input drew; a typed argument is made to be printed) or the
 * history's (values already).
 */
void report_format_call(char *buf, size_t cap, const weft_target *t, const weft_op_record *call,
			int drawn)
{
	const weft_op *op = &t->ops[call->op];
	int n = snprintf(buf, cap, "%s(", op->name);
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS && n > 0 && (size_t)n < cap; a++) {
		if (op->arg_types[a]) {
			n += snprintf(buf + n, cap - (size_t)n, "%s", a ? ", " : "");
			if ((size_t)n < cap)
				n += (int)oracle_value_format_arg(op, a, call->args[a], drawn, buf + n,
								  cap - (size_t)n);
			continue;
		}
		n += snprintf(buf + n, cap - (size_t)n, "%s%" PRId64, a ? ", " : "", call->args[a]);
	}
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ")");
}

/* "call = result", "none" standing for WEFT_NONE; a typed result as its type prints it. */
void report_format_returned(char *buf, size_t cap, const char *call, int64_t result,
			    const weft_value_type *type)
{
	if (type && result != WEFT_NONE && result != WEFT_BLOCKED) {
		char text[160];
		weft_value_format(type, result, text, sizeof text);
		snprintf(buf, cap, "%s = %s", call, text);
	} else if (result == WEFT_NONE)
		snprintf(buf, cap, "%s = none", call);
	else if (result == WEFT_BLOCKED)
		snprintf(buf, cap, "%s = blocked", call);
	else
		snprintf(buf, cap, "%s = %" PRId64, call, result);
}

/* "  init: put("a", 1); get("a")": a sequential part, as run (input/scenario.h). */
void report_print_part(FILE *out, const report_case *c, const char *name,
		       const weft_op_record *calls, unsigned n)
{
	char call[96];
	if (n == 0)
		return;
	fprintf(out, "  %s:", name);
	for (unsigned i = 0; i < n; i++) {
		report_format_call(call, sizeof call, c->target, &calls[i], 0);
		fprintf(out, "%s%s", i ? "; " : " ", call);
	}
	fputc('\n', out);
}

/* "before all threads: put("a", 1) = 0" for each init-part operation ("after" for post). */
void report_print_part_results(FILE *out, const report_case *c, const char *when,
			       const weft_op_record *calls, unsigned n)
{
	char call[96], text[128];
	for (unsigned i = 0; i < n; i++) {
		report_format_call(call, sizeof call, c->target, &calls[i], 0);
		report_format_returned(text, sizeof text, call, calls[i].result,
				c->target->ops[calls[i].op].result_type);
		fprintf(out, "%s all threads: %s\n", when, text);
	}
}

