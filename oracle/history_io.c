/*
 * oracle/history_io.c - what both history readers share: splitting the text
 * into lines and tokens, strict integers, and the builder that turns
 * per-thread events (invoke, ok, info, fail) into weft_op_records.
 *
 * Why a builder: both formats are event logs where a call and its return are
 * separate lines matched by thread (process), so the same rules apply to both
 * and are enforced in one place - one call outstanding per thread, a return
 * needs a call, logical time = event order, unknown outcomes are pending,
 * failed-without-effect calls are dropped.  Records are appended at invoke,
 * so the history comes out in invocation order, as weft_history requires.
 *
 * Outstanding calls are few (one per live thread), so they sit in a small
 * array searched linearly, not a map.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_io.h"
#include "model_kv.h"

/* ---- histories ---- */

weft_history oracle_history_view(const oracle_history *h)
{
	return (weft_history){ .ops = h->ops, .n_ops = h->n_ops };
}

void oracle_history_free(oracle_history *h)
{
	free(h->ops);
	oracle_kv_free(h->kv);
	*h = (oracle_history){ 0 };
}

/* ---- lines and tokens ---- */

int oracle_next_line(const char *text, size_t len, size_t *pos, oracle_line *line)
{
	if (*pos >= len)
		return 0;
	const char *start = text + *pos, *nl = memchr(start, '\n', len - *pos);
	const char *end = nl ? nl : text + len;
	*pos = (size_t)(end - text) + (nl != NULL);
	if (end > start && end[-1] == '\r')    /* CRLF files read like LF ones */
		end--;
	line->start = start;
	line->end = end;
	line->no++;
	return 1;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

oracle_token oracle_next_token(const char **cursor, const char *end)
{
	const char *p = *cursor;
	while (p < end && is_space(*p))
		p++;
	oracle_token t = { p, p };
	while (t.end < end && !is_space(*t.end))
		t.end++;
	*cursor = t.end;
	return t;
}

int oracle_token_is(oracle_token t, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(t.end - t.start) == n && memcmp(t.start, word, n) == 0;
}

/* Decimal digits accumulated as a negative number, so INT64_MIN's magnitude fits. */
int oracle_token_int(oracle_token t, int64_t *value)
{
	const char *p = t.start;
	int negative = p < t.end && *p == '-';
	p += negative || (p < t.end && *p == '+');
	if (p == t.end)
		return -1;
	int64_t acc = 0;
	for (; p < t.end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		int digit = *p - '0';
		if (acc < (INT64_MIN + digit) / 10)
			return -1;   /* out of range */
		acc = acc * 10 - digit;
	}
	if (!negative && acc == INT64_MIN)
		return -1;
	*value = negative ? acc : -acc;
	return *value == WEFT_NONE ? -1 : 0;   /* that bit pattern is reserved for none */
}

/* ---- the builder ---- */

struct oracle_open {
	unsigned thread;
	unsigned line;        /* of the invoke, for messages */
	size_t op;            /* index in h->ops */
};

int oracle_build_error(oracle_builder *b, const char *fmt, ...)
{
	int n = snprintf(b->err, ORACLE_ERROR_MAX, "%s:%u: ", b->file, b->line);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && n < ORACLE_ERROR_MAX)
		vsnprintf(b->err + n, ORACLE_ERROR_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *who(const oracle_builder *b) { return b->who ? b->who : "thread"; }

static struct oracle_open *find_open(const oracle_builder *b, unsigned thread)
{
	for (size_t i = 0; i < b->n_open; i++)
		if (b->open[i].thread == thread)
			return &b->open[i];
	return NULL;
}

const weft_op_record *oracle_build_outstanding(const oracle_builder *b, unsigned thread)
{
	const struct oracle_open *o = find_open(b, thread);
	return o ? &b->h->ops[o->op] : NULL;
}

/* Doubles *buf (elements of `size` bytes) until it holds `need`; 0 or -1. */
static int grow(void **buf, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *more = realloc(*buf, n * size);
	if (!more)
		return -1;
	*buf = more;
	*cap = n;
	return 0;
}

/* Every event takes one step of logical time; uint32_t bounds a history. */
static int tick(oracle_builder *b, uint32_t *at)
{
	if (b->now == UINT32_MAX)
		return oracle_build_error(b, "too many events (the limit is %u)", UINT32_MAX);
	*at = b->now++;
	return 0;
}

static int append_record(oracle_builder *b, const weft_op_record *r)
{
	oracle_history *h = b->h;
	if (grow((void **)&h->ops, &h->cap, h->n_ops + 1, sizeof *h->ops) ||
	    grow((void **)&b->dropped, &b->cap_dropped, h->n_ops + 1, 1))
		return oracle_build_error(b, "out of memory");
	b->dropped[h->n_ops] = 0;
	h->ops[h->n_ops++] = *r;
	return 0;
}

int oracle_build_invoke(oracle_builder *b, unsigned thread, unsigned op, const int64_t *args)
{
	const struct oracle_open *o = find_open(b, thread);
	if (o)
		return oracle_build_error(b, "%s %u invokes again while its call from line %u "
					  "is outstanding (one call per %s at a time)",
					  who(b), thread, o->line, who(b));
	weft_op_record r = { .thread = thread, .op = op, .pending = 1 };
	memcpy(r.args, args, sizeof r.args);
	if (tick(b, &r.invoked_at) || append_record(b, &r))
		return -1;
	if (grow((void **)&b->open, &b->cap_open, b->n_open + 1, sizeof *b->open))
		return oracle_build_error(b, "out of memory");
	b->open[b->n_open++] = (struct oracle_open){ thread, b->line, b->h->n_ops - 1 };
	return 0;
}

/* Removes thread's outstanding call and gives its record, or NULL with b->err set. */
static weft_op_record *close_call(oracle_builder *b, unsigned thread, const char *event)
{
	struct oracle_open *o = find_open(b, thread);
	if (!o) {
		oracle_build_error(b, "%s %u: '%s' without a call outstanding", who(b), thread,
				   event);
		return NULL;
	}
	weft_op_record *r = &b->h->ops[o->op];
	*o = b->open[--b->n_open];
	return r;
}

int oracle_build_ok(oracle_builder *b, unsigned thread, int64_t result)
{
	weft_op_record *r = close_call(b, thread, "ok");
	if (!r || tick(b, &r->returned_at))
		return -1;
	r->result = result;
	r->pending = 0;
	return 0;
}

int oracle_build_info(oracle_builder *b, unsigned thread)
{
	uint32_t at;
	weft_op_record *r = close_call(b, thread, "info");
	return !r || tick(b, &at) ? -1 : 0;     /* stays pending, returned_at 0 */
}

int oracle_build_fail(oracle_builder *b, unsigned thread)
{
	uint32_t at;
	weft_op_record *r = close_call(b, thread, "fail");
	if (!r || tick(b, &at))
		return -1;
	b->dropped[r - b->h->ops] = 1;
	return 0;
}

static void free_private(oracle_builder *b)
{
	free(b->open);
	free(b->dropped);
	b->open = NULL;
	b->dropped = NULL;
	b->n_open = b->cap_open = b->cap_dropped = 0;
}

int oracle_build_finish(oracle_builder *b)
{
	oracle_history *h = b->h;
	size_t kept = 0;
	for (size_t i = 0; i < h->n_ops; i++)   /* outstanding calls are already pending */
		if (!b->dropped[i])
			h->ops[kept++] = h->ops[i];
	h->n_ops = kept;
	free_private(b);
	return 0;
}

void oracle_build_abandon(oracle_builder *b)
{
	free_private(b);
}
