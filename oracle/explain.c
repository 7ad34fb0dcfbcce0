/*
 * oracle/explain.c - the one function of oracle/ that prints: why a history is
 * not linearizable, as far as the search could tell (weft/check.h).
 *
 * Format, decided once and matched exactly by tests and golden reports (two
 * spaces of indent, one fact a line, no addresses, no times):
 *
 *     in the sub-history of key 7                  (only when partitioned)
 *     longest linearizable prefix: 3 of 5 operations
 *       1. thread 0  enq(1) = 0
 *       2. thread 1  enq(2) = 0
 *       3. thread 0  deq() = 1
 *     cannot be placed next: thread 1  deq() = 1, but the model gives 2
 *
 *   - "3 of 5": the prefix length and the operations of the WHOLE history
 *     (a partitioned prefix counts operations of its key only; the line above
 *     says which key).  An empty prefix reads "none of 5 operations".
 *   - An operation reads "thread T  name(args) = result": two spaces after the
 *     thread so the calls line up for threads 0..9; WEFT_NONE prints as "none"
 *     (an argument too); a pending operation, whose result is unknown, prints
 *     "= ? (pending)".  Without an op table, operations print as "op<N>()".
 *   - The last line is the operation the search could not place after the
 *     prefix (the earliest-returning one left), what it returned, and what the
 *     model says it should have returned there.
 * Why this shape: it answers "how far did a sequential explanation get, and
 * what broke it" in the words of the target's own operations; the prefix is
 * the first deepest one the search reached, so the text is deterministic.
 * Anything but a NOT_LINEARIZABLE result prints nothing.
 */
#include <inttypes.h>
#include <stdio.h>

#include "weft/check.h"

static void explain_value(FILE *out, int64_t v)
{
	if (v == WEFT_NONE)
		fputs("none", out);
	else
		fprintf(out, "%" PRId64, v);
}

static int explain_n_args(const weft_op *op)
{
	if (op->n_args < 0)
		return 0;
	return op->n_args > WEFT_MAX_ARGS ? WEFT_MAX_ARGS : op->n_args;
}

/* "name(a, b)" */
static void explain_call(FILE *out, const weft_op_record *r, const weft_op *ops)
{
	if (!ops || !ops[r->op].name) {
		fprintf(out, "op%u()", r->op);
		return;
	}
	fprintf(out, "%s(", ops[r->op].name);
	for (int a = 0; a < explain_n_args(&ops[r->op]); a++) {
		if (a)
			fputs(", ", out);
		explain_value(out, r->args[a]);
	}
	fputc(')', out);
}

/* "thread T  name(args) = result" */
static void explain_op(FILE *out, const weft_op_record *r, const weft_op *ops)
{
	fprintf(out, "thread %u  ", r->thread);
	explain_call(out, r, ops);
	fputs(" = ", out);
	if (r->pending)
		fputs("? (pending)", out);
	else
		explain_value(out, r->result);
}

static void explain_prefix(FILE *out, const weft_history *h, const weft_op *ops,
			   const weft_check_result *res)
{
	if (res->n_longest == 0)
		fprintf(out, "  longest linearizable prefix: none of %zu operations\n", h->n_ops);
	else
		fprintf(out, "  longest linearizable prefix: %zu of %zu operations\n",
			res->n_longest, h->n_ops);
	for (size_t k = 0; k < res->n_longest; k++) {
		fprintf(out, "    %zu. ", k + 1);
		explain_op(out, &h->ops[res->longest[k]], ops);
		fputc('\n', out);
	}
}

void weft_check_explain(FILE *out, const weft_history *history, const weft_op *ops,
			const weft_check_result *result)
{
	if (result->verdict != WEFT_CHECK_NOT_LINEARIZABLE)
		return;
	if (result->partitioned)
		fprintf(out, "  in the sub-history of key %" PRId64 "\n", result->partition_key);
	explain_prefix(out, history, ops, result);
	if (result->stuck >= history->n_ops)
		return;
	fputs("  cannot be placed next: ", out);
	explain_op(out, &history->ops[result->stuck], ops);
	fputs(", but the model gives ", out);
	explain_value(out, result->stuck_model_result);
	fputc('\n', out);
}
