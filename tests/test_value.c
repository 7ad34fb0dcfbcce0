/*
 * tests/test_value.c - values of any size (weft/value.h, oracle/value.c):
 * interning (same bytes, same handle; other bytes, another), reset, the
 * printers, the checker comparing sequence results by contents (a history it
 * must reject included), and a runner whose operation takes a string argument
 * and returns a sequence, checked against the implementation-as-model and
 * printed readably in the report.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oracle/value_arena.h"
#include "weft/check.h"
#include "weft/run.h"
#include "weft/weft.h"

static void test_interning(void)
{
	oracle_value_reset();
	int64_t a = weft_value_string("abc"), b = weft_value_string("abd");
	int64_t a2 = weft_value_bytes("abc", 3);
	int64_t e = weft_value_bytes("", 0), e2 = weft_value_seq(NULL, 0);
	CHECK(a == a2, "same bytes, same handle");
	CHECK(a != b, "other bytes, another handle");
	CHECK(e == e2 && e != a, "the empty value is one value");
	size_t len = 0;
	const char *text = weft_value_data(b, &len);
	CHECK(text && len == 3 && memcmp(text, "abd", 3) == 0, "bytes back");
	CHECK(!weft_value_data(0, NULL) && !weft_value_data(42, NULL) &&
	      !weft_value_data(WEFT_NONE, NULL) && !weft_value_data(INT64_MAX, NULL),
	      "ordinary integers are no handles");
	CHECK(oracle_value_count() == 3, "three distinct values, got %zu", oracle_value_count());
	/* enough values to grow the table several times, each found again */
	int64_t h[2000];
	for (int64_t i = 0; i < 2000; i++)
		h[i] = weft_value_seq(&i, 1);
	int same = 1;
	for (int64_t i = 0; i < 2000; i++)
		same &= weft_value_seq(&i, 1) == h[i];
	CHECK(same, "2,000 values each found again after the table grew");
	oracle_value_reset();
	CHECK(oracle_value_count() == 0 && !weft_value_data(a, NULL), "reset forgets");
	CHECK(weft_value_string("zz") == a, "handles are numbered again from the start");
}

static void test_format(void)
{
	oracle_value_reset();
	char buf[64];
	int64_t s = weft_value_string("a\"b\n");
	weft_value_format(&weft_type_string, s, buf, sizeof buf);
	CHECK(strcmp(buf, "\"a\\\"b\\x0a\"") == 0, "string escapes: %s", buf);
	int64_t v[3] = { 1, -2, 30 };
	weft_value_format(&weft_type_seq, weft_value_seq(v, 3), buf, sizeof buf);
	CHECK(strcmp(buf, "[1, -2, 30]") == 0, "sequence: %s", buf);
	weft_value_format(&weft_type_seq, weft_value_seq(v, 0), buf, sizeof buf);
	CHECK(strcmp(buf, "[]") == 0, "empty sequence: %s", buf);
	weft_value_format(&weft_type_seq, WEFT_NONE, buf, sizeof buf);
	CHECK(strcmp(buf, "none") == 0, "none: %s", buf);
	weft_value_format(NULL, 7, buf, sizeof buf);
	CHECK(strcmp(buf, "7") == 0, "an int64: %s", buf);
	static const weft_value_type raw = { "raw", NULL, NULL };
	weft_value_format(&raw, weft_value_bytes("\x01\xff", 2), buf, sizeof buf);
	CHECK(strcmp(buf, "0x01ff") == 0, "no printer: hex, %s", buf);
	char tiny[5];
	size_t want = weft_value_format(&weft_type_seq, weft_value_seq(v, 3), tiny, sizeof tiny);
	CHECK(want == 11 && strcmp(tiny, "[1, ") == 0, "truncated like snprintf: %zu %s", want, tiny);
}

/* A model whose snapshot() returns every element so far, in order. */
typedef struct snap_state { int64_t n, v[8]; } snap_state;
static void snap_init(void *s) { (void)s; }
static int64_t snap_apply(void *state, unsigned op, const int64_t *args)
{
	snap_state *s = state;
	if (op == 0) {
		s->v[s->n++] = args[0];
		return 0;
	}
	return weft_value_seq(s->v, (size_t)s->n);
}
static const weft_model snap_model = { .name = "snap", .state_size = sizeof(snap_state),
				       .init = snap_init, .apply = snap_apply };

static weft_op_record rec(unsigned th, unsigned op, int64_t arg, int64_t res, uint32_t at,
			  uint32_t ret)
{
	weft_op_record r = { .thread = th, .op = op, .result = res, .invoked_at = at,
			     .returned_at = ret };
	r.args[0] = arg;
	return r;
}

static void test_checker(void)
{
	oracle_value_reset();
	weft_checker *k = weft_checker_new(&snap_model);
	REQUIRE(k, "checker");
	int64_t one_two[2] = { 1, 2 }, two_one[2] = { 2, 1 };
	/* add(1) and add(2) overlap; a later snapshot sees [2, 1]: linearizable (2 first) */
	weft_op_record ok[3] = { rec(0, 0, 1, 0, 0, 3), rec(1, 0, 2, 0, 1, 2),
				 rec(2, 1, 0, weft_value_seq(two_one, 2), 4, 5) };
	weft_history h = { ok, 3 };
	CHECK(weft_check(k, &h, NULL, NULL) == WEFT_CHECK_LINEARIZABLE, "[2, 1] after overlapping adds");
	/* add(1) returned before add(2) began: [2, 1] is wrong, [1, 2] right */
	weft_op_record bad[3] = { rec(0, 0, 1, 0, 0, 1), rec(1, 0, 2, 0, 2, 3),
				  rec(2, 1, 0, weft_value_seq(two_one, 2), 4, 5) };
	h.ops = bad;
	weft_check_result res;
	CHECK(weft_check(k, &h, NULL, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "[2, 1] after add(1); add(2)");
	CHECK(res.stuck == 2 && res.stuck_model_result == weft_value_seq(one_two, 2),
	      "the model's answer is the handle of [1, 2]");
	bad[2].result = weft_value_seq(one_two, 2);
	CHECK(weft_check(k, &h, NULL, NULL) == WEFT_CHECK_LINEARIZABLE, "[1, 2] after add(1); add(2)");
	weft_checker_free(k);
}

/* ---- a target: append(string) to a log, read() returns the log's lengths ---- */

static int64_t make_word(int64_t i)
{
	static const char *const words[] = { "x", "yy", "zzz" };
	return weft_value_string(words[i]);
}
static const weft_value_type word_type = { "word", make_word, weft_value_format_string };

typedef struct log_t { _Atomic int64_t n; int64_t len[64]; } log_t;

static int64_t op_append(void *self, const int64_t *args)
{
	log_t *l = self;
	size_t len = 0;
	REQUIRE(weft_value_data(args[0], &len), "the operation gets a handle");
	int64_t n = weft_atomic_fetch_add(&l->n, 1);
	l->len[n] = (int64_t)len;
	return args[2] * 10 + args[3];   /* four arguments arrive */
}

static int64_t op_read(void *self, const int64_t *args)
{
	(void)args;
	log_t *l = self;
	return weft_value_seq(l->len, (size_t)weft_atomic_load(&l->n));
}

static void *log_new(void) { return calloc(1, sizeof(log_t)); }
static void log_free(void *p) { free(p); }

static const weft_op log_ops[] = {
	{ .name = "append", .run = op_append, .n_args = 4,
	  .args = { { 0, 2 }, { 0, 0 }, { 1, 3 }, { 4, 5 } }, .arg_types = { &word_type } },
	{ .name = "read", .run = op_read, .result_type = &weft_type_seq },
};
static const weft_target log_target = {
	.name = "log", .ops = log_ops, .n_ops = 2, .setup = log_new, .teardown = log_free,
	.final_op = &log_ops[1],
};

static void test_runner(void)
{
	weft_runner *r = weft_runner_new(&log_target);
	REQUIRE(r, "runner");
	/* thread 0: append(word 1 = "yy", 0, 3, 5); thread 1: append(word 2 = "zzz", ...) */
	const uint8_t in[] = { 0, 1, 2, 1, 2, 0, 2, 0, 0 };
	weft_result res;
	CHECK(weft_runner_run(r, in, sizeof in, &res) == WEFT_PASS, "passes against itself");
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	weft_runner_report(r, out);
	fclose(out);
	CHECK(strstr(text, "append(\"yy\", 0, 3, 5) = 35"), "string and four arguments printed:\n%s", text);
	CHECK(strstr(text, "append(\"zzz\", 0, 1, 4)"), "second call printed:\n%s", text);
	CHECK(strstr(text, "read() = [2, 3]"), "the final read as a sequence:\n%s", text);
	free(text);
	weft_runner_free(r);
}

int main(void)
{
	test_interning();
	test_format();
	test_checker();
	test_runner();
	return check_summary("test_value");
}
