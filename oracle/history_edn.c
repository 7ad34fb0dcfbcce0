/*
 * oracle/history_edn.c - reader for Jepsen's map-style EDN histories of a
 * key-value store (the form porcupine's kv test histories use), checked
 * against the kv model (model_kv.h).  One map per line, read as it is:
 *
 *   {:process 0, :type :invoke, :f :put, :key "k", :value "v"}
 *   {:process 0, :type :ok, :f :put, :key "k", :value "v"}
 *   {:process 1, :type :invoke, :f :get, :key "k", :value nil}
 *   {:process 1, :type :ok, :f :get, :key "k", :value "v"}
 *
 * EDN's rules as far as these lines need them: commas are blanks, ';' starts a
 * comment, keys are keywords in any order, and any other key (:time, :index,
 * :error ...) with any value (vectors, maps, sets, strings, nested) is skipped.
 * A line whose :process is not an integer (Jepsen's :nemesis) is not a client
 * call and is skipped whole.  What the four types become:
 *   :invoke  a call: get k, put k v, append k v (v a string or an integer);
 *   :ok      it returned: a get with the text it read (nil = "", the initial
 *            text); put and append must repeat their call's value;
 *   :fail    it had no effect: dropped;
 *   :info    outcome unknown: pending (may take effect at any time after its
 *            call, or never; its result is not compared), as is a call still
 *            open at the end of the file.
 * Strings and keys are interned into the history's oracle_kv_table; a key is
 * told apart by type (the string "5" is not the integer 5), a value is its
 * text (an integer 5 and the string "5" are the same text, as on a wire).
 *
 * Fuzz-friendly: every malformed line stops the read with FILE:LINE: message;
 * nesting is bounded (ORACLE_EDN_DEPTH), and memory is linear in the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_io.h"
#include "model_kv.h"

#define ORACLE_EDN_DEPTH 64
#define E_FIELDS 5               /* :process :type :f :key :value */
#define E_SLOTS (E_FIELDS + 1)   /* the last: strings inside skipped values */

typedef enum edn_type { E_INVOKE, E_OK, E_FAIL, E_INFO, E_TYPES } edn_type;
static const char *const type_names[E_TYPES] = { "invoke", "ok", "fail", "info" };
static const char *const f_names[] = { [ORACLE_KV_GET] = "get", [ORACLE_KV_PUT] = "put",
				       [ORACLE_KV_APPEND] = "append" };

/* A scalar field's value; strings are unescaped into the reader's buffer. */
typedef struct edn_value {
	enum { V_NONE, V_NIL, V_INT, V_STRING, V_KEYWORD, V_OTHER } kind;
	const char *text;      /* V_INT: digits; V_STRING: unescaped; V_KEYWORD: name */
	size_t len;
	int64_t i;
} edn_value;

typedef struct edn_reader {
	oracle_builder b;
	oracle_kv_table *kv;
	const char *p, *end;   /* the line being read */
	char *buf[E_SLOTS];    /* unescaped strings: one per field, and one for skipped ones */
	size_t cap[E_SLOTS];
} edn_reader;

typedef struct edn_event {
	edn_value process, type, f, key, value;
} edn_event;

/* ---- scanning ---- */

static int is_blank(char c)
{
	return c == ' ' || c == ',' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_delim(char c)
{
	return is_blank(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == '(' ||
	       c == ')' || c == '"' || c == ';';
}

/* Blanks, commas and ';' comments (to the end of the line). */
static void skip_blank(edn_reader *r)
{
	while (r->p < r->end && (is_blank(*r->p) || *r->p == ';'))
		r->p = *r->p == ';' ? r->end : r->p + 1;
}

/* An atom (number, symbol, keyword, nil): up to the next delimiter. */
static const char *atom_end(const edn_reader *r)
{
	const char *q = r->p;
	while (q < r->end && !is_delim(*q))
		q++;
	return q;
}

static int put_byte(char **buf, size_t *cap, size_t *n, unsigned c)
{
	if (*n + 1 > *cap) {
		size_t more = *cap ? 2 * *cap : 64;
		char *grown = realloc(*buf, more);
		if (!grown)
			return -1;
		*buf = grown, *cap = more;
	}
	(*buf)[(*n)++] = (char)c;
	return 0;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* \uXXXX as UTF-8 into the buffer; r->p is past the 'u'. */
static int unescape_u(edn_reader *r, int slot, size_t *n)
{
	unsigned u = 0;
	for (int k = 0; k < 4; k++, r->p++) {
		int d = r->p < r->end ? hex_digit(*r->p) : -1;
		if (d < 0)
			return -1;
		u = u * 16 + (unsigned)d;
	}
	char **b = &r->buf[slot];
	size_t *c = &r->cap[slot];
	if (u < 0x80)
		return put_byte(b, c, n, u);
	if (u < 0x800)
		return put_byte(b, c, n, 0xc0 | u >> 6) || put_byte(b, c, n, 0x80 | (u & 0x3f));
	return put_byte(b, c, n, 0xe0 | u >> 12) || put_byte(b, c, n, 0x80 | ((u >> 6) & 0x3f)) ||
	       put_byte(b, c, n, 0x80 | (u & 0x3f));
}

/* One escape after a backslash (r->p at the character after it). */
static int unescape(edn_reader *r, int slot, size_t *n)
{
	static const char from[] = "\"\\/ntrbf", to[] = "\"\\/\n\t\r\b\f";
	if (r->p >= r->end)
		return -1;
	char c = *r->p++;
	if (c == 'u')
		return unescape_u(r, slot, n);
	const char *at = memchr(from, c, sizeof from - 1);
	return at ? put_byte(&r->buf[slot], &r->cap[slot], n, (unsigned char)to[at - from]) : -1;
}

/* A string at r->p (the opening quote), unescaped into buf[slot]. */
static int scan_string(edn_reader *r, int slot, edn_value *v)
{
	size_t n = 0;
	int s = slot;
	for (r->p++; r->p < r->end && *r->p != '"';) {
		if (*r->p == '\\') {
			r->p++;
			if (unescape(r, s, &n))
				return -1;
		} else if (put_byte(&r->buf[s], &r->cap[s], &n, (unsigned char)*r->p++)) {
			return -1;
		}
	}
	if (r->p >= r->end)
		return -1;   /* unterminated */
	r->p++;
	*v = (edn_value){ .kind = V_STRING, .text = r->buf[s], .len = n };
	return 0;
}

static int closer_of(char open) { return open == '[' ? ']' : open == '(' ? ')' : '}'; }

/* Any value, skipped: nested collections are matched by a stack of closers. */
static int skip_value(edn_reader *r)
{
	char closers[ORACLE_EDN_DEPTH];
	int depth = 0;
	edn_value ignored;
	do {
		skip_blank(r);
		if (r->p >= r->end)
			return -1;
		char c = *r->p;
		if (c == '#' && r->p + 1 < r->end && r->p[1] == '{')
			c = *++r->p;    /* a set: #{...} */
		if (c == '"') {
			if (scan_string(r, E_FIELDS, &ignored))
				return -1;
		} else if (c == '[' || c == '(' || c == '{') {
			if (depth == ORACLE_EDN_DEPTH)
				return -1;
			closers[depth++] = (char)closer_of(c);
			r->p++;
		} else if (depth > 0 && c == closers[depth - 1]) {
			depth--;
			r->p++;
		} else if (c == '\\') {
			r->p += 2;        /* a character literal: \a, \newline ... */
			r->p = r->p < r->end ? atom_end(r) : r->end;
		} else {
			const char *e = atom_end(r);
			if (e == r->p)
				return -1;   /* a stray closer */
			r->p = e;
		}
	} while (depth > 0);
	return 0;
}

/* A scalar value (nil, integer, string, keyword) into *v; anything else is V_OTHER. */
static int scan_value(edn_reader *r, int slot, edn_value *v)
{
	skip_blank(r);
	if (r->p >= r->end)
		return -1;
	if (*r->p == '"')
		return scan_string(r, slot, v);
	const char *start = r->p, *e = atom_end(r);
	if (e == start)
		return skip_value(r) ? -1 : (*v = (edn_value){ .kind = V_OTHER }, 0);
	r->p = e;
	oracle_token t = { start, e };
	if (oracle_token_is(t, "nil"))
		*v = (edn_value){ .kind = V_NIL };
	else if (*start == ':')
		*v = (edn_value){ .kind = V_KEYWORD, .text = start + 1, .len = (size_t)(e - start - 1) };
	else if (oracle_token_int(t, &v->i) == 0)
		*v = (edn_value){ .kind = V_INT, .text = start, .len = (size_t)(e - start), .i = v->i };
	else
		*v = (edn_value){ .kind = V_OTHER };
	return 0;
}

/* ---- one line: a map ---- */

static edn_value *field_of(edn_event *e, oracle_token name, int *slot)
{
	static const char *const names[] = { ":process", ":type", ":f", ":key", ":value" };
	edn_value *fields[E_FIELDS] = { &e->process, &e->type, &e->f, &e->key, &e->value };
	for (int i = 0; i < E_FIELDS; i++)
		if (oracle_token_is(name, names[i])) {
			*slot = i;
			return fields[i];
		}
	return NULL;
}

static int parse_pair(edn_reader *r, edn_event *e)
{
	oracle_token name = { r->p, atom_end(r) };
	if (name.start == name.end || *name.start != ':')
		return oracle_build_error(&r->b, "a map key must be a keyword (:process, :type, "
					  ":f, :key, :value ...)");
	r->p = name.end;
	int slot = 0;
	edn_value *field = field_of(e, name, &slot);
	if (field && field->kind != V_NONE)
		return oracle_build_error(&r->b, "'%.*s' twice in one map", ORACLE_TOKEN_ARG(name));
	if (field ? scan_value(r, slot, field) : skip_value(r))
		return oracle_build_error(&r->b, "bad or missing value for '%.*s'",
					  ORACLE_TOKEN_ARG(name));
	return 0;
}

static int parse_map(edn_reader *r, edn_event *e)
{
	skip_blank(r);
	if (r->p >= r->end || *r->p != '{')
		return oracle_build_error(&r->b, "not an EDN map (want '{:process P, :type :T, "
					  ":f :F, :key K, :value V}')");
	for (r->p++;;) {
		skip_blank(r);
		if (r->p >= r->end)
			return oracle_build_error(&r->b, "the map does not end on its line ('}')");
		if (*r->p == '}')
			break;
		if (parse_pair(r, e))
			return -1;
	}
	r->p++;
	skip_blank(r);
	if (r->p < r->end)
		return oracle_build_error(&r->b, "text after the map's '}'");
	return 0;
}

/* ---- the event ---- */

static int keyword_index(const edn_value *v, const char *const *names, int n)
{
	for (int i = 0; v->kind == V_KEYWORD && i < n; i++)
		if (strlen(names[i]) == v->len && memcmp(names[i], v->text, v->len) == 0)
			return i;
	return -1;
}

/* A key by type and text: tag byte, then the text ("5" and 5 are different keys). */
static int64_t intern_key(edn_reader *r, const edn_value *k)
{
	char tag = k->kind == V_STRING ? 's' : k->kind == V_INT ? 'i' : 'k';
	size_t n = 1 + k->len;
	char *joined = malloc(n);
	if (!joined)
		return -1;
	joined[0] = tag;
	if (k->len)           /* an empty string's text may be NULL */
		memcpy(joined + 1, k->text, k->len);
	int64_t id = oracle_kv_key(r->kv, joined, n);
	free(joined);
	return id;
}

static int is_text(const edn_value *v) { return v->kind == V_STRING || v->kind == V_INT; }

static int apply_invoke(edn_reader *r, unsigned process, unsigned f, const edn_event *e)
{
	int64_t args[WEFT_MAX_ARGS] = { intern_key(r, &e->key), 0 };
	if (f != ORACLE_KV_GET && !is_text(&e->value))
		return oracle_build_error(&r->b, ":invoke :%s needs a string or integer :value",
					  f_names[f]);
	if (f != ORACLE_KV_GET)
		args[1] = oracle_kv_piece(r->kv, e->value.text, e->value.len);
	if (args[0] < 0 || args[1] < 0)
		return oracle_build_error(&r->b, "out of memory");
	return oracle_build_invoke(&r->b, process, f, args);
}

/* An :ok, :fail or :info answers the outstanding call of its process: same :f, same :key. */
static int check_return(edn_reader *r, unsigned process, unsigned f, const edn_event *e,
			const weft_op_record *call)
{
	const char *type = type_names[keyword_index(&e->type, type_names, E_TYPES)];
	if (!call)
		return oracle_build_error(&r->b, "process %u: :%s without an :invoke outstanding",
					  process, type);
	if (call->op != f)
		return oracle_build_error(&r->b, "process %u: :%s :%s answers an :invoke :%s",
					  process, type, f_names[f], f_names[call->op]);
	int64_t key = intern_key(r, &e->key);
	if (key < 0)
		return oracle_build_error(&r->b, "out of memory");
	if (key != call->args[0])
		return oracle_build_error(&r->b, "process %u: :%s :key differs from its :invoke's",
					  process, type);
	return 0;
}

static int apply_ok(edn_reader *r, unsigned process, unsigned f, const edn_event *e,
		    const weft_op_record *call)
{
	if (f == ORACLE_KV_GET) {
		if (e->value.kind != V_NIL && !is_text(&e->value))
			return oracle_build_error(&r->b, ":ok :get needs the :value read (a string, "
						  "an integer or nil)");
		int64_t node = oracle_kv_read(r->kv, e->value.text, e->value.len);
		return node < 0 ? oracle_build_error(&r->b, "out of memory")
				: oracle_build_ok(&r->b, process, node);
	}
	int64_t piece = is_text(&e->value) ? oracle_kv_piece(r->kv, e->value.text, e->value.len) : -1;
	if (piece != call->args[1])
		return oracle_build_error(&r->b, "process %u: :ok :%s :value differs from its "
					  ":invoke's", process, f_names[f]);
	return oracle_build_ok(&r->b, process, 0);
}

static int apply_event(edn_reader *r, const edn_event *e)
{
	int type = keyword_index(&e->type, type_names, E_TYPES);
	int f = keyword_index(&e->f, f_names, 3);
	if (type < 0)
		return oracle_build_error(&r->b, "bad or missing :type (want :invoke, :ok, :fail "
					  "or :info)");
	if (f < 0)
		return oracle_build_error(&r->b, "bad or missing :f (want :get, :put or :append)");
	if (e->key.kind != V_STRING && e->key.kind != V_INT && e->key.kind != V_KEYWORD)
		return oracle_build_error(&r->b, "bad or missing :key (want a string, an integer "
					  "or a keyword)");
	if (e->process.i < 0 || e->process.i > (int64_t)(UINT32_MAX - 1))
		return oracle_build_error(&r->b, "bad :process (want a number >= 0)");
	unsigned process = (unsigned)e->process.i;
	if (type == E_INVOKE)
		return apply_invoke(r, process, (unsigned)f, e);
	const weft_op_record *call = oracle_build_outstanding(&r->b, process);
	if (check_return(r, process, (unsigned)f, e, call))
		return -1;
	if (type == E_INFO)
		return oracle_build_info(&r->b, process);
	if (type == E_FAIL)
		return oracle_build_fail(&r->b, process);
	return apply_ok(r, process, (unsigned)f, e, call);
}

static int read_line(edn_reader *r, const oracle_line *line)
{
	r->p = line->start;
	r->end = line->end;
	skip_blank(r);
	if (r->p == r->end)
		return 0;   /* blank or a comment */
	r->b.line = line->no;
	edn_event e = { 0 };
	if (parse_map(r, &e))
		return -1;
	if (e.process.kind == V_KEYWORD)
		return 0;   /* :nemesis and the like: not a client call */
	if (e.process.kind != V_INT)
		return oracle_build_error(&r->b, "bad or missing :process (want a number >= 0)");
	return apply_event(r, &e);
}

int oracle_read_edn(const char *text, size_t len, const char *file, oracle_history *out,
		    char err[ORACLE_ERROR_MAX])
{
	*out = (oracle_history){ .builtin = oracle_builtin_find("kv"), .kv = oracle_kv_new() };
	edn_reader r = { .b = { .h = out, .file = file, .who = "process", .err = err },
			 .kv = out->kv };
	int failed = !out->kv;
	if (failed)
		snprintf(err, ORACLE_ERROR_MAX, "%s:0: out of memory", file);
	oracle_line line = { 0 };
	for (size_t pos = 0; !failed && oracle_next_line(text, len, &pos, &line);)
		failed = read_line(&r, &line) != 0;
	for (int i = 0; i < E_SLOTS; i++)
		free(r.buf[i]);
	if (failed) {
		oracle_build_abandon(&r.b);
		oracle_history_free(out);
		return -1;
	}
	return oracle_build_finish(&r.b);
}

int oracle_looks_like_edn(const char *text, size_t len)
{
	oracle_line line = { 0 };
	for (size_t pos = 0; oracle_next_line(text, len, &pos, &line);) {
		const char *p = line.start;
		while (p < line.end && is_blank(*p))
			p++;
		if (p < line.end && *p != ';')   /* comment lines say nothing */
			return *p == '{';
	}
	return 0;
}
