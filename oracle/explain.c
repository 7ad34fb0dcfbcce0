/*
 * oracle/explain.c - the one function of oracle/ that prints: why a history is
 * not linearizable, as far as the search could tell (weft/check.h).
 *
 * Format, decided once and matched exactly by tests and golden reports (two
 * spaces of indent, one fact a line, no addresses, no times):
 *
 *     in the sub-history of key 7 (5 operations)   (only when partitioned)
 *     longest linearizable prefix: 3 of 5 operations
 *       1. thread 0  enq(1) = 0
 *       2. thread 1  enq(2) = 0
 *       3. thread 0  deq() = 1
 *     cannot be placed next: thread 1  deq() = 1, but the model gives 2
 *
 *   - "3 of 5": the prefix length and the operations of the history it
 *     explains: the whole history, or when partitioned the key's sub-history
 *     (the line above names the key and counts the same operations).  An empty
 *     prefix reads "none of 5 operations".
 *   - A screenful: past ORACLE_EXPLAIN_TAIL operations only the prefix's last
 *     ones are listed (what the stuck operation had to follow), after one line
 *     "    ... N earlier operations"; numbering keeps the prefix's positions.
 *     weft-check --full (tail 0) lists them all.
 *   - An operation reads "thread T  name(args) = result": two spaces after the
 *     thread so the calls line up for threads 0..9; WEFT_NONE prints as "none"
 *     (an argument too); a pending operation, whose result is unknown, prints
 *     "= ? (pending)".  Without an op table, operations print as "op<N>()".
 *   - The last line is the operation the search could not place after the
 *     prefix (the earliest-returning one left), what it returned, and what the
 *     model says it should have returned there: "gives 2" for one outcome;
 *     for a non-deterministic model (weft/model.h) every result it allowed,
 *     "allows one of 1, 2, none", or "allows no call there".
 * Why this shape: it answers "how far did a sequential explanation get, and
 * what broke it" in the words of the target's own operations; the prefix is
 * the first deepest one the search reached, so the text is deterministic.
 * Anything but a NOT_LINEARIZABLE result prints nothing.
 *
 * A kv history (model_kv.h) carries ids; oracle_explain with its table prints the same
 * lines in its own strings: keys as written ("k", 5, :k), texts quoted with
 * C escapes, a text no get read as <a text no get read>, put and append = ok.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_kv.h"
#include "value_arena.h"
#include "weft/check.h"
#include "weft/value.h"

enum { EXPLAIN_RESULT = -1 };   /* `arg` of explain_value: the operation's result */

static void explain_text(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* A key: its tag (history_edn.c) says how it was written. */
static void explain_kv_key(FILE *out, const oracle_kv_table *kv, int64_t key)
{
	size_t n;
	const char *s = oracle_kv_key_name(kv, key, &n);
	if (n && s[0] == 's')
		explain_text(out, s + 1, n - 1);
	else if (n)
		fprintf(out, "%s%.*s", s[0] == 'k' ? ":" : "", (int)(n - 1), s + 1);
}

static void explain_kv_value(FILE *out, const oracle_kv_table *kv, unsigned op, int arg,
			     int64_t v)
{
	char text[256];
	size_t n;
	if (arg == 0) {
		explain_kv_key(out, kv, v);
	} else if (arg == 1) {
		const char *s = oracle_kv_piece_text(kv, v, &n);
		explain_text(out, s, n);
	} else if (op != ORACLE_KV_GET) {
		fputs("ok", out);
	} else if (v == ORACLE_KV_DEAD) {
		fputs("<a text no get read>", out);
	} else {
		n = oracle_kv_node_text(kv, v, text, sizeof text);
		explain_text(out, text, n < sizeof text ? n : sizeof text - 1);
		if (n >= sizeof text)
			fprintf(out, "... (%zu bytes)", n);
	}
}

/* A typed value (weft/value.h) as its type prints it, cut at 200 characters. */
static void explain_typed(FILE *out, const weft_value_type *type, int64_t v)
{
	char text[200];
	size_t n = weft_value_format(type, v, text, sizeof text);
	fputs(text, out);
	if (n >= sizeof text)
		fputs("...", out);
}

static const weft_value_type *explain_type(const weft_op *ops, unsigned op, int arg)
{
	if (!ops)
		return NULL;
	return arg == EXPLAIN_RESULT ? ops[op].result_type
	       : arg >= 0 && arg < WEFT_MAX_ARGS ? ops[op].arg_types[arg] : NULL;
}

static void explain_value(FILE *out, const weft_op *ops, const oracle_kv_table *kv, unsigned op,
			  int arg, int64_t v)
{
	if (!kv && explain_type(ops, op, arg))
		explain_typed(out, explain_type(ops, op, arg), v);
	else if (kv)
		explain_kv_value(out, kv, op, arg, v);
	else if (v == WEFT_NONE)
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
static void explain_call(FILE *out, const weft_op_record *r, const weft_op *ops,
			 const oracle_kv_table *kv)
{
	if (!ops || !ops[r->op].name) {
		fprintf(out, "op%u()", r->op);
		return;
	}
	fprintf(out, "%s(", ops[r->op].name);
	for (int a = 0; a < explain_n_args(&ops[r->op]); a++) {
		if (a)
			fputs(", ", out);
		explain_value(out, ops, kv, r->op, a, r->args[a]);
	}
	fputc(')', out);
}

/* "thread T  name(args) = result" */
static void explain_op(FILE *out, const weft_op_record *r, const weft_op *ops,
		       const oracle_kv_table *kv)
{
	fprintf(out, "thread %u  ", r->thread);
	explain_call(out, r, ops, kv);
	fputs(" = ", out);
	if (r->pending)
		fputs("? (pending)", out);
	else
		explain_value(out, ops, kv, r->op, EXPLAIN_RESULT, r->result);
}

/* The operations the explanation is about: the failing key's, or the whole history's. */
static size_t explained_ops(const weft_history *h, const weft_check_result *res)
{
	return res->partitioned ? res->n_partition_ops : h->n_ops;
}

static void explain_prefix(FILE *out, const weft_history *h, const weft_op *ops,
			   const oracle_kv_table *kv, const weft_check_result *res, size_t tail)
{
	size_t of = explained_ops(h, res);
	if (res->n_longest == 0)
		fprintf(out, "  longest linearizable prefix: none of %zu operations\n", of);
	else
		fprintf(out, "  longest linearizable prefix: %zu of %zu operations\n",
			res->n_longest, of);
	size_t first = tail && res->n_longest > tail ? res->n_longest - tail : 0;
	if (first)
		fprintf(out, "    ... %zu earlier operation%s\n", first, first == 1 ? "" : "s");
	for (size_t k = first; k < res->n_longest; k++) {
		fprintf(out, "    %zu. ", k + 1);
		explain_op(out, &h->ops[res->longest[k]], ops, kv);
		fputc('\n', out);
	}
}

/*
 * ", but the model gives 2" (one outcome), ", but the model allows one of 1,
 * 2, none" (a non-deterministic model's outcomes, in its order), ", but the
 * model allows no call there" (no outcome).
 */
static void explain_model(FILE *out, const weft_op *ops, const oracle_kv_table *kv, unsigned op,
			  const weft_check_result *result)
{
	size_t n = result->n_stuck_outcomes;
	if (result->stuck_outcomes == NULL) {   /* a result made by hand: one answer */
		fputs(", but the model gives ", out);
		explain_value(out, ops, kv, op, EXPLAIN_RESULT, result->stuck_model_result);
		return;
	}
	if (n == 0) {
		fputs(", but the model allows no call there", out);
		return;
	}
	fputs(n == 1 ? ", but the model gives " : ", but the model allows one of ", out);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", out);
		explain_value(out, ops, kv, op, EXPLAIN_RESULT, result->stuck_outcomes[k]);
	}
}

void oracle_explain(FILE *out, const weft_history *history, const weft_op *ops,
		    const oracle_kv_table *kv, const weft_check_result *result, size_t tail)
{
	if (result->verdict != WEFT_CHECK_NOT_LINEARIZABLE)
		return;
	if (result->partitioned) {
		fputs("  in the sub-history of key ", out);
		if (kv)
			explain_kv_key(out, kv, result->partition_key);
		else
			fprintf(out, "%" PRId64, result->partition_key);
		fprintf(out, " (%zu operations)\n", result->n_partition_ops);
	}
	if (result->violation) {
		fprintf(out, "  no order can exist: %s\n", result->violation);
		return;
	}
	explain_prefix(out, history, ops, kv, result, tail);
	if (result->stuck >= history->n_ops)
		return;
	const weft_op_record *stuck = &history->ops[result->stuck];
	fputs("  cannot be placed next: ", out);
	explain_op(out, stuck, ops, kv);
	explain_model(out, ops, kv, stuck->op, result);
	fputc('\n', out);
}

void weft_check_explain(FILE *out, const weft_history *history, const weft_op *ops,
			const weft_check_result *result)
{
	oracle_explain(out, history, ops, NULL, result, ORACLE_EXPLAIN_TAIL);
}

/* ---- a kv history in its strings, for the web page (weft-check --html) ---- */

/* A value whose bytes are the explanation's spelling, shown as they are. */
static size_t kv_format_spelled(const void *bytes, size_t len, char *buf, size_t cap)
{
	if (cap) {
		size_t n = len < cap - 1 ? len : cap - 1;
		memcpy(buf, bytes, n);
		buf[n] = '\0';
	}
	return len;
}

static const weft_value_type kv_spelled = { .name = "kv text", .format = kv_format_spelled };

static const weft_op kv_spelled_ops[] = {
	[ORACLE_KV_GET] = { .name = "get", .n_args = 1, .arg_types = { &kv_spelled },
			    .result_type = &kv_spelled },
	[ORACLE_KV_PUT] = { .name = "put", .n_args = 2, .arg_types = { &kv_spelled, &kv_spelled },
			    .result_type = &kv_spelled },
	[ORACLE_KV_APPEND] = { .name = "append", .n_args = 2,
			       .arg_types = { &kv_spelled, &kv_spelled }, .result_type = &kv_spelled },
};

/* The handle (weft/value.h) of v's spelling in the explanation; WEFT_NONE when out of memory. */
static int64_t kv_spell(const oracle_kv_table *kv, unsigned op, int arg, int64_t v)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);
	if (!m)
		return WEFT_NONE;
	explain_kv_value(m, kv, op, arg, v);
	if (fclose(m) != 0) {
		free(text);
		return WEFT_NONE;
	}
	int64_t handle = weft_value_bytes(text, n);
	free(text);
	return handle;
}

const weft_op *oracle_kv_spelled(const weft_history *h, const oracle_kv_table *kv,
				 weft_op_record *out, weft_check_result *res)
{
	for (size_t i = 0; i < h->n_ops; i++) {
		const weft_op_record *r = &h->ops[i];
		out[i] = *r;
		for (int a = 0; a < explain_n_args(&kv_spelled_ops[r->op]); a++)
			out[i].args[a] = kv_spell(kv, r->op, a, r->args[a]);
		if (!r->pending)
			out[i].result = kv_spell(kv, r->op, EXPLAIN_RESULT, r->result);
	}
	if (res->partitioned)
		res->partition_key = kv_spell(kv, ORACLE_KV_GET, 0, res->partition_key);
	if (res->stuck < h->n_ops)
		res->stuck_model_result = kv_spell(kv, h->ops[res->stuck].op, EXPLAIN_RESULT,
						   res->stuck_model_result);
	return kv_spelled_ops;
}
