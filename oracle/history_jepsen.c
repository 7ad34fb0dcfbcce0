/*
 * oracle/history_jepsen.c - reader for Jepsen register logs (the etcd
 * histories of tests/data/jepsen-etcd, see its README.md), checked against the
 * built-in register model.  One event per line:
 *
 *   INFO  jepsen.util - 3	:invoke	:cas	[1 4]
 *   INFO  jepsen.util - 3	:fail	:cas	[1 4]
 *
 * Fields are separated by tabs in most logs and by spaces in a few, so any run
 * of blanks separates them; the value is the rest of the line ("[1 4]" holds a
 * blank).  What the four types become:
 *   :invoke  a call: read (value nil), write v, cas [old new];
 *   :ok      it returned: read -> the value read (nil = none), write -> 0, cas -> 1;
 *   :fail    it returned and had no effect: a cas whose compare failed -> result
 *            0 (it still tells us the value differed from `old`); a failed read
 *            or write is dropped (it tells us nothing);
 *   :info    outcome unknown (timed out): pending - may have taken effect at any
 *            time after its call, or never.  A call still open at the end of the
 *            log is pending too.
 * A return must repeat its call's :f, and for write and cas its value, so a log
 * whose lines got mixed up is refused rather than checked.
 *
 * Strict on purpose: the 103 logs hold nothing but event lines (and an empty
 * file), so any other non-blank line is an error naming its line, not noise to
 * skip - a skipped line could be a lost return.
 */
#include <limits.h>
#include <string.h>

#include "history_io.h"

typedef enum jepsen_type { J_INVOKE, J_OK, J_FAIL, J_INFO, J_TYPES } jepsen_type;
static const char *const type_names[J_TYPES] = { ":invoke", ":ok", ":fail", ":info" };
static const char *const f_names[] = {
	[WEFT_REGISTER_READ] = ":read", [WEFT_REGISTER_WRITE] = ":write",
	[WEFT_REGISTER_CAS] = ":cas" };

/* The last field: nil, an integer, [a b], or a keyword such as :timed-out. */
typedef struct jepsen_value {
	enum { V_NIL, V_INT, V_PAIR, V_KEYWORD } kind;
	int64_t a, b;
} jepsen_value;

typedef struct jepsen_event {
	unsigned process;
	jepsen_type type;
	unsigned op;           /* WEFT_REGISTER_* */
	jepsen_value value;
} jepsen_event;

static const char *const event_shape =
	"want 'INFO  jepsen.util - PROCESS :TYPE :F VALUE'";

/* "[a b]" spread over the tokens "[a" and "b]". */
static int parse_pair(oracle_token first, const char **cur, const char *end, jepsen_value *v)
{
	oracle_token second = oracle_next_token(cur, end);
	if (first.end - first.start < 2 || second.end - second.start < 2 || second.end[-1] != ']')
		return -1;
	first.start++;
	second.end--;
	v->kind = V_PAIR;
	return oracle_token_int(first, &v->a) || oracle_token_int(second, &v->b) ? -1 : 0;
}

static int parse_value(const char **cur, const char *end, jepsen_value *v)
{
	oracle_token t = oracle_next_token(cur, end);
	if (t.start == t.end)
		return -1;
	if (*t.start == '[') {
		if (parse_pair(t, cur, end, v))
			return -1;
	} else if (oracle_token_is(t, "nil"))
		v->kind = V_NIL;
	else if (*t.start == ':' && t.end - t.start > 1)
		v->kind = V_KEYWORD;
	else if (oracle_token_int(t, &v->a) == 0)
		v->kind = V_INT;
	else
		return -1;
	return oracle_next_token(cur, end).start == end ? 0 : -1;   /* nothing after it */
}

/* Index of the keyword t in names[0..n), or -1. */
static int parse_keyword(oracle_token t, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (oracle_token_is(t, names[i]))
			return i;
	return -1;
}

static int parse_process(oracle_token t, unsigned *process)
{
	int64_t v;
	if (t.start == t.end || *t.start < '0' || *t.start > '9' || oracle_token_int(t, &v) ||
	    v > UINT_MAX)
		return -1;
	*process = (unsigned)v;
	return 0;
}

/* Splits a line into an event; a message for the first field that is wrong. */
static int parse_event(oracle_builder *b, const oracle_line *line, jepsen_event *e)
{
	const char *cur = line->start;
	oracle_token t[6];
	for (int i = 0; i < 6; i++)
		t[i] = oracle_next_token(&cur, line->end);
	if (!oracle_token_is(t[0], "INFO") || !oracle_token_is(t[1], "jepsen.util") ||
	    !oracle_token_is(t[2], "-"))
		return oracle_build_error(b, "not a Jepsen event line (%s)", event_shape);
	if (parse_process(t[3], &e->process))
		return oracle_build_error(b, "bad process '%.*s' (want a number >= 0)",
					  ORACLE_TOKEN_ARG(t[3]));
	int type = parse_keyword(t[4], type_names, J_TYPES);
	int op = parse_keyword(t[5], f_names, 3);
	if (type < 0)
		return oracle_build_error(b, "bad type '%.*s' (want :invoke, :ok, :fail or :info)",
					  ORACLE_TOKEN_ARG(t[4]));
	if (op < 0)
		return oracle_build_error(b, "bad operation '%.*s' (want :read, :write or :cas)",
					  ORACLE_TOKEN_ARG(t[5]));
	e->type = (jepsen_type)type;
	e->op = (unsigned)op;
	if (parse_value(&cur, line->end, &e->value))
		return oracle_build_error(b, "bad or missing value (want nil, an integer, [old new] "
					  "or a :keyword)");
	return 0;
}

/* What value_fits() accepts, for messages; indexed by WEFT_REGISTER_*. */
static const char *const invoke_wanted[] = { "nil", "an integer", "[old new]" };
static const char *const ok_wanted[] = { "nil or an integer", "an integer", "[old new]" };

/* The value an :invoke or :ok of this operation must carry. */
static int value_fits(unsigned op, jepsen_type type, const jepsen_value *v)
{
	switch (op) {
	case WEFT_REGISTER_READ:
		return v->kind == V_NIL || (type == J_OK && v->kind == V_INT);
	case WEFT_REGISTER_WRITE:
		return v->kind == V_INT;
	default:
		return v->kind == V_PAIR;
	}
}

static int apply_invoke(oracle_builder *b, const jepsen_event *e)
{
	if (!value_fits(e->op, J_INVOKE, &e->value))
		return oracle_build_error(b, ":invoke %s needs %s as its value",
					  f_names[e->op], invoke_wanted[e->op]);
	int64_t args[WEFT_MAX_ARGS] = { e->value.a, e->value.b };
	return oracle_build_invoke(b, e->process, e->op, args);
}

/* An :ok, :fail or :info must answer the process's outstanding call, same :f. */
static int check_return(oracle_builder *b, const jepsen_event *e, const weft_op_record *call)
{
	const char *type = type_names[e->type];
	if (!call)
		return oracle_build_error(b, "process %u: %s without an :invoke outstanding",
					  e->process, type);
	if (call->op != e->op)
		return oracle_build_error(b, "process %u: %s %s answers an :invoke %s",
					  e->process, type, f_names[e->op], f_names[call->op]);
	if (e->type != J_OK)
		return 0;   /* :fail and :info carry the call's value or a keyword: unused */
	if (!value_fits(e->op, J_OK, &e->value))
		return oracle_build_error(b, "process %u: :ok %s needs %s as its value", e->process,
					  f_names[e->op], ok_wanted[e->op]);
	int same = e->op == WEFT_REGISTER_READ ||
		   (e->value.a == call->args[0] &&
		    (e->op != WEFT_REGISTER_CAS || e->value.b == call->args[1]));
	if (!same)
		return oracle_build_error(b, "process %u: :ok value differs from its :invoke's",
					  e->process);
	return 0;
}

static int apply_return(oracle_builder *b, const jepsen_event *e)
{
	if (check_return(b, e, oracle_build_outstanding(b, e->process)))
		return -1;
	if (e->type == J_INFO)
		return oracle_build_info(b, e->process);
	if (e->type == J_FAIL && e->op == WEFT_REGISTER_CAS)
		return oracle_build_ok(b, e->process, 0);   /* the compare failed */
	if (e->type == J_FAIL)
		return oracle_build_fail(b, e->process);
	int64_t result = e->op == WEFT_REGISTER_READ
			 ? (e->value.kind == V_NIL ? WEFT_NONE : e->value.a)
			 : e->op == WEFT_REGISTER_CAS;
	return oracle_build_ok(b, e->process, result);
}

static int read_line(oracle_builder *b, const oracle_line *line)
{
	const char *cur = line->start;
	if (oracle_next_token(&cur, line->end).start == line->end)
		return 0;   /* blank */
	b->line = line->no;
	jepsen_event e = { 0 };
	if (parse_event(b, line, &e))
		return -1;
	return e.type == J_INVOKE ? apply_invoke(b, &e) : apply_return(b, &e);
}

int oracle_read_jepsen(const char *text, size_t len, const char *file, oracle_history *out,
		       char err[ORACLE_ERROR_MAX])
{
	*out = (oracle_history){ .builtin = oracle_builtin_find("register") };
	oracle_builder b = { .h = out, .file = file, .who = "process", .err = err };
	oracle_line line = { 0 };
	for (size_t pos = 0; oracle_next_line(text, len, &pos, &line);) {
		if (read_line(&b, &line)) {
			oracle_build_abandon(&b);
			oracle_history_free(out);
			return -1;
		}
	}
	return oracle_build_finish(&b);
}

int oracle_looks_like_jepsen(const char *text, size_t len)
{
	oracle_line line = { 0 };
	for (size_t pos = 0; oracle_next_line(text, len, &pos, &line);) {
		const char *cur = line.start;
		oracle_token first = oracle_next_token(&cur, line.end);
		if (first.start == first.end)
			continue;
		return oracle_token_is(first, "INFO") &&
		       oracle_token_is(oracle_next_token(&cur, line.end), "jepsen.util");
	}
	return 0;
}
