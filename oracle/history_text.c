/*
 * oracle/history_text.c - reader for weft's text history format
 * (docs/history-format.md has the grammar and a worked example).
 *
 *   model queue          # which built-in model; before the first event
 *   0 invoke enq 1       # thread 0 calls enq(1)
 *   1 invoke deq
 *   0 ok                 # enq returns (no value: 0)
 *   1 ok none            # deq returns "no value"
 *
 * One event per line, '#' starts a comment, blank lines are ignored.  Events
 * become records through the shared builder (history_io.c), which enforces the
 * per-thread rules; this file only knows the words.  Every malformed line
 * stops the read with "FILE:LINE: what is wrong": a history half-read would be
 * checked as something the user never wrote.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "history_io.h"

typedef struct text_reader {
	oracle_builder b;
	const oracle_builtin *cli_model;   /* --model, or NULL */
	unsigned model_line;               /* line of the `model` directive, 0 if none */
} text_reader;

/* A value: an integer, none / nil (WEFT_NONE), true / false (1 / 0). */
static int parse_value(text_reader *r, oracle_token t, int64_t *v)
{
	if (oracle_token_is(t, "none") || oracle_token_is(t, "nil"))
		*v = WEFT_NONE;
	else if (oracle_token_is(t, "true") || oracle_token_is(t, "false"))
		*v = oracle_token_is(t, "true");
	else if (oracle_token_int(t, v) != 0)
		return oracle_build_error(&r->b, "bad value '%.*s' (want an integer, none, nil, "
					  "true or false)", ORACLE_TOKEN_ARG(t));
	return 0;
}

static int expect_end(text_reader *r, const char **cur, const char *end, const char *after)
{
	oracle_token extra = oracle_next_token(cur, end);
	if (extra.start == extra.end)
		return 0;
	return oracle_build_error(&r->b, "unexpected '%.*s' after %s", ORACLE_TOKEN_ARG(extra), after);
}

/* "a, b, c" into buf: the names the user could have written. */
static void list_names(char *buf, size_t cap, const char *(*name)(const void *, size_t),
		       const void *table, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
					 name(table, i));
}

static const char *model_name(const void *table, size_t i)
{
	return ((const oracle_builtin *)table)[i].model->name;
}

static const char *op_name(const void *table, size_t i)
{
	return ((const weft_op *)table)[i].name;
}

/* Copies a token into word (NUL-terminated, cut to fit) to look it up by name. */
static const char *token_word(oracle_token t, char *word, size_t cap)
{
	snprintf(word, cap, "%.*s", (int)(t.end - t.start), t.start);
	return word;
}

/* "model NAME": once, before any event, agreeing with --model if given. */
static int parse_model(text_reader *r, const char **cur, const char *end)
{
	char known[128], word[64];
	token_word(oracle_next_token(cur, end), word, sizeof word);
	list_names(known, sizeof known, model_name, oracle_builtins, ORACLE_N_BUILTINS);
	if (r->model_line)
		return oracle_build_error(&r->b, "second 'model' line (the first is line %u)",
					  r->model_line);
	if (r->b.h->n_ops > 0)
		return oracle_build_error(&r->b, "'model' must come before the first event");
	if (!word[0])
		return oracle_build_error(&r->b, "'model' needs a name (one of %s)", known);
	const oracle_builtin *m = oracle_builtin_find(word);
	if (!m)
		return oracle_build_error(&r->b, "unknown model '%s' (known: %s)", word, known);
	if (m->strings)
		return oracle_build_error(&r->b, "model %s is read from Jepsen EDN files (one map "
					  "per line), not the text format", word);
	if (r->cli_model && r->cli_model != m)
		return oracle_build_error(&r->b, "the file says model %s but --model=%s", word,
					  r->cli_model->model->name);
	r->b.h->builtin = m;
	r->model_line = r->b.line;
	return expect_end(r, cur, end, "the model name");
}

/* No such operation: the message lists the ones the model has. */
static int op_error(text_reader *r, const oracle_builtin *m, const char *word)
{
	char known[128];
	list_names(known, sizeof known, op_name, m->ops, m->n_ops);
	if (!word[0])
		return oracle_build_error(&r->b, "invoke needs an operation (model %s has: %s)",
					  m->model->name, known);
	return oracle_build_error(&r->b, "unknown operation '%s' for model %s (it has: %s)",
				  word, m->model->name, known);
}

/* "invoke OP ARGS...": the op must be the model's, with its number of arguments. */
static int parse_invoke(text_reader *r, unsigned thread, const char **cur, const char *end)
{
	const oracle_builtin *m = r->b.h->builtin;
	char word[64];
	int op = oracle_builtin_op(m, token_word(oracle_next_token(cur, end), word, sizeof word));
	if (op < 0)
		return op_error(r, m, word);
	int64_t args[WEFT_MAX_ARGS] = { 0 };
	int n = 0, want = m->ops[op].n_args;
	for (oracle_token t = oracle_next_token(cur, end); t.start != t.end;
	     t = oracle_next_token(cur, end), n++)
		if (n < want && parse_value(r, t, &args[n]))
			return -1;
	if (n != want)
		return oracle_build_error(&r->b, "%s takes %d argument%s, got %d", word, want,
					  want == 1 ? "" : "s", n);
	return oracle_build_invoke(&r->b, thread, (unsigned)op, args);
}

/* "ok [VALUE]": the result, 0 when omitted. */
static int parse_ok(text_reader *r, unsigned thread, const char **cur, const char *end)
{
	int64_t result = 0;
	oracle_token t = oracle_next_token(cur, end);
	if (t.start != t.end && parse_value(r, t, &result))
		return -1;
	if (expect_end(r, cur, end, "the result"))
		return -1;
	return oracle_build_ok(&r->b, thread, result);
}

/* The thread: a decimal number that fits in unsigned. */
static int parse_thread(text_reader *r, oracle_token t, unsigned *thread)
{
	int64_t v;
	if (oracle_token_int(t, &v) != 0 || v < 0 || v > UINT_MAX || *t.start == '+' ||
	    *t.start == '-')
		return oracle_build_error(&r->b, "expected 'model NAME' or 'THREAD EVENT ...', "
					  "got '%.*s' (a thread is a number >= 0)", ORACLE_TOKEN_ARG(t));
	*thread = (unsigned)v;
	return 0;
}

/* "THREAD invoke|ok|fail|info ..." */
static int parse_event(text_reader *r, oracle_token first, const char **cur, const char *end)
{
	unsigned thread = 0;   /* set by parse_thread; gcc -O2 cannot tell */
	if (parse_thread(r, first, &thread))
		return -1;
	if (!r->b.h->builtin && !(r->b.h->builtin = r->cli_model))
		return oracle_build_error(&r->b, "no model: put 'model NAME' before the first "
					  "event, or pass --model=NAME");
	oracle_token ev = oracle_next_token(cur, end);
	if (oracle_token_is(ev, "invoke"))
		return parse_invoke(r, thread, cur, end);
	if (oracle_token_is(ev, "ok"))
		return parse_ok(r, thread, cur, end);
	if (oracle_token_is(ev, "fail"))
		return expect_end(r, cur, end, "fail") ? -1 : oracle_build_fail(&r->b, thread);
	if (oracle_token_is(ev, "info"))
		return expect_end(r, cur, end, "info") ? -1 : oracle_build_info(&r->b, thread);
	if (ev.start == ev.end)
		return oracle_build_error(&r->b, "thread %u: no event (want invoke, ok, fail or "
					  "info)", thread);
	return oracle_build_error(&r->b, "unknown event '%.*s' (want invoke, ok, fail or info)",
				  ORACLE_TOKEN_ARG(ev));
}

static int parse_line(text_reader *r, const oracle_line *line)
{
	const char *end = memchr(line->start, '#', (size_t)(line->end - line->start));
	const char *cur = line->start;
	if (!end)
		end = line->end;
	oracle_token first = oracle_next_token(&cur, end);
	if (first.start == first.end)
		return 0;   /* blank or comment */
	r->b.line = line->no;
	if (oracle_token_is(first, "model"))
		return parse_model(r, &cur, end);
	return parse_event(r, first, &cur, end);
}

int oracle_read_text(const char *text, size_t len, const char *file,
		     const oracle_builtin *model, oracle_history *out, char err[ORACLE_ERROR_MAX])
{
	*out = (oracle_history){ 0 };
	text_reader r = { .b = { .h = out, .file = file, .err = err }, .cli_model = model };
	oracle_line line = { 0 };
	for (size_t pos = 0; oracle_next_line(text, len, &pos, &line);) {
		if (parse_line(&r, &line) != 0) {
			oracle_build_abandon(&r.b);
			oracle_history_free(out);
			return -1;
		}
	}
	if (!out->builtin)
		out->builtin = model;   /* no events: the empty history, model may stay NULL */
	return oracle_build_finish(&r.b);
}
