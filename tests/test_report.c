/*
 * tests/test_report.c - the report's history picture and its JSON, exactly.
 *
 * Report cases are built by hand (a fake stack target, records with chosen
 * logical times, hand-written trace events), so each expected text below can
 * be checked by reading it, and a change of layout fails here first:
 *   - the interval picture: overlapping operations, one thread's sequential
 *     operations on one line, a pending operation, the final operation, a
 *     WEFT_NONE result;
 *   - for random histories, the picture keeps time order: every bar's column
 *     grows with its time (so "a returned before b was invoked" is visible);
 *   - the JSON of a small linearizability failure, and string escaping.
 */
#include <string.h>

#include "check.h"
#include "report/report.h"

/* ---- a fake stack: only names and argument counts are read ---- */

enum { OP_PUSH, OP_POP, OP_SIZE };

static int64_t nop(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	return 0;
}

static const weft_op stack_ops[] = {
	[OP_PUSH] = { .name = "push", .run = nop, .n_args = 1, .args = { { 0, 9 } } },
	[OP_POP] = { .name = "pop", .run = nop },
	[OP_SIZE] = { .name = "size", .run = nop, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target stack_target = {
	.name = "fake_stack", .ops = stack_ops, .n_ops = 3, .final_op = &stack_ops[OP_SIZE],
};

static weft_op_record returned(unsigned thread, unsigned op, int64_t arg, int64_t result,
			       uint32_t invoked_at, uint32_t returned_at)
{
	return (weft_op_record){ .thread = thread, .op = op, .args = { arg }, .result = result,
				 .invoked_at = invoked_at, .returned_at = returned_at };
}

static weft_op_record pending(unsigned thread, unsigned op, int64_t arg, uint32_t invoked_at)
{
	return (weft_op_record){ .thread = thread, .op = op, .args = { arg },
				 .invoked_at = invoked_at, .pending = 1 };
}

/* What print writes, NUL-terminated, in a static buffer (valid until the next call). */
static const char *render(void (*print)(FILE *, const report_case *), const report_case *c)
{
	static char text[1 << 16];
	FILE *out = fmemopen(text, sizeof text, "w");
	REQUIRE(out, "fmemopen");
	print(out, c);
	REQUIRE(ftell(out) < (long)sizeof text - 1, "report longer than the test's buffer");
	fclose(out);
	return text;
}

/* The history section (the last one when c->check is NULL) must be `expected`. */
static void expect_history(const char *what, unsigned n_threads, const weft_op_record *history,
			   size_t n, const char *expected)
{
	weft_result r = { .verdict = WEFT_PASS, .n_threads = n_threads, .message = "" };
	const weft_op_record *last = n ? &history[n - 1] : NULL;
	report_case c = {
		.target = &stack_target, .result = &r, .history = history, .n_history = n,
		.final_call = last && last->thread == n_threads ? last : NULL,
	};
	const char *text = render(report_print, &c);
	const char *got = strstr(text, "history (");
	CHECK(got && strcmp(got, expected) == 0, "%s: history section:\n%s\nexpected:\n%s", what,
	      got ? got : text, expected);
}

#define HISTORY_HEADER "history (each operation from its start to its return; time = step):\n"

static void test_overlapping(void)
{
	const weft_op_record h[] = {
		returned(0, OP_PUSH, 1, 0, 0, 5),
		returned(1, OP_POP, 0, 1, 2, 7),
	};
	expect_history("overlapping", 2, h, 2,
		HISTORY_HEADER
		"  thread 0  |- push(1) = 0 -|\n"
		"  thread 1    |- pop() = 1 ---|\n");
}

static void test_sequential_on_one_thread(void)
{
	const weft_op_record h[] = {
		returned(0, OP_PUSH, 1, 0, 0, 2),
		returned(1, OP_POP, 0, 2, 1, 6),
		returned(0, OP_PUSH, 2, 0, 3, 5),
	};
	expect_history("sequential", 2, h, 3,
		HISTORY_HEADER
		"  thread 0  |- push(1) = 0 -| |- push(2) = 0 -|\n"
		"  thread 1    |--- pop() = 2 -------------------|\n");
}

static void test_pending(void)
{
	const weft_op_record h[] = {
		returned(0, OP_PUSH, 1, 0, 0, 3),
		pending(1, OP_POP, 0, 1),
		returned(0, OP_PUSH, 2, 0, 4, 6),
	};
	expect_history("pending, reaching the right edge", 2, h, 3,
		HISTORY_HEADER
		"  thread 0  |- push(1) = 0 -| |- push(2) = 0 -|\n"
		"  thread 1    |--- pop() pending ------------- ...\n");
	const weft_op_record past_edge[] = {
		returned(0, OP_PUSH, 1, 0, 0, 3),
		pending(1, OP_POP, 0, 2),
	};
	expect_history("pending, past the right edge", 2, past_edge, 2,
		HISTORY_HEADER
		"  thread 0  |- push(1) = 0 -|\n"
		"  thread 1    |--- pop() pending ...\n");
}

static void test_final(void)
{
	const weft_op_record h[] = {
		returned(0, OP_PUSH, 1, 0, 0, 3),
		returned(1, OP_PUSH, 2, 0, 1, 4),
		returned(2, OP_POP, 0, 2, 5, 6),
	};
	expect_history("final", 2, h, 3,
		HISTORY_HEADER
		"  thread 0          |- push(1) = 0 -|\n"
		"  thread 1            |- push(2) = 0 -|\n"
		"  thread 2 (final)                      |- pop() = 2 -|\n");
}

static void test_none_result(void)
{
	const weft_op_record h[] = {
		returned(0, OP_POP, 0, WEFT_NONE, 0, 1),
		returned(1, OP_PUSH, 3, 0, 2, 3),
	};
	expect_history("WEFT_NONE", 2, h, 2,
		HISTORY_HEADER
		"  thread 0  |- pop() = none -|\n"
		"  thread 1                     |- push(3) = 0 -|\n");
}

/* ---- time order survives the compression, for random histories ---- */

#define RANDOM_OPS 24

typedef struct random_history {
	weft_op_record ops[RANDOM_OPS];
	size_t n;
	unsigned n_threads;
} random_history;

/* Threads take turns at random; each turn begins or ends that thread's operation. */
static void make_random_history(random_history *h, uint64_t *seed)
{
	unsigned left[WEFT_MAX_THREADS], open[WEFT_MAX_THREADS];
	h->n_threads = 2 + (unsigned)(test_rand(seed) % 3);
	h->n = 0;
	for (unsigned t = 0; t < h->n_threads; t++) {
		left[t] = 1 + (unsigned)(test_rand(seed) % 4);
		open[t] = RANDOM_OPS;
	}
	for (uint32_t time = 0; time < 200; time++) {
		unsigned t = (unsigned)(test_rand(seed) % h->n_threads);
		if (open[t] != RANDOM_OPS) {
			h->ops[open[t]].returned_at = time;
			h->ops[open[t]].pending = 0;
			open[t] = RANDOM_OPS;
		} else if (left[t] > 0) {
			left[t]--;
			open[t] = (unsigned)h->n;
			h->ops[h->n++] = pending(t, (unsigned)(test_rand(seed) % 2), (int64_t)(time % 10), time);
		}
	}
}

/* Columns of the '|' bars on `thread`'s line of the picture, left to right. */
static size_t bars_of_row(const char *text, unsigned thread, size_t *bars, size_t cap)
{
	char name[32];
	snprintf(name, sizeof name, "\n  thread %u  ", thread);
	const char *line = strstr(strstr(text, "history ("), name);
	size_t n = 0;
	if (!line)
		return 0;
	line += strlen(name);
	for (size_t col = 0; line[col] && line[col] != '\n' && n < cap; col++)
		if (line[col] == '|')
			bars[n++] = col;
	return n;
}

/* Every bar's time and column, in one list; bars of a thread come in its operations' order. */
static size_t bars_of_history(const random_history *h, const char *text, uint32_t *time,
			      size_t *column)
{
	size_t n = 0;
	for (unsigned t = 0; t < h->n_threads; t++) {
		size_t bars[2 * RANDOM_OPS], n_bars = bars_of_row(text, t, bars, 2 * RANDOM_OPS), b = 0;
		for (size_t i = 0; i < h->n; i++) {
			if (h->ops[i].thread != t)
				continue;
			if (b < n_bars) {
				time[n] = h->ops[i].invoked_at;
				column[n++] = bars[b++];
			}
			if (!h->ops[i].pending && b < n_bars) {
				time[n] = h->ops[i].returned_at;
				column[n++] = bars[b++];
			}
		}
		CHECK(b == n_bars, "thread %u: %zu bars, %zu used:\n%s", t, n_bars, b, text);
	}
	return n;
}

static void test_random_histories_keep_time_order(void)
{
	uint64_t seed = 0x5eed0fa11u;
	unsigned bad = 0;
	for (int round = 0; round < 500; round++) {
		random_history h;
		make_random_history(&h, &seed);
		weft_result r = { .verdict = WEFT_PASS, .n_threads = h.n_threads, .message = "" };
		report_case c = { .target = &stack_target, .result = &r, .history = h.ops,
				  .n_history = h.n };
		const char *text = render(report_print, &c);
		uint32_t time[2 * RANDOM_OPS];
		size_t column[2 * RANDOM_OPS], expected = 0;
		for (size_t i = 0; i < h.n; i++)
			expected += h.ops[i].pending ? 1 : 2;
		size_t n = bars_of_history(&h, text, time, column);
		CHECK(n == expected, "round %d: %zu bars, %zu expected:\n%s", round, n, expected, text);
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (time[i] < time[j] && column[i] >= column[j] && bad++ < 3)
					CHECK(0, "round %d: time %u at column %zu, time %u at column "
					      "%zu:\n%s", round, time[i], column[i], time[j],
					      column[j], text);
	}
	CHECK(bad == 0, "%u bar pairs out of time order", bad);
}

/* ---- JSON ---- */

static weft_site load_top = { "targets/stack.c", 10, WEFT_ACCESS_LOAD, 0 };
static weft_site yield_site = { "targets/stack.c", 11, WEFT_ACCESS_YIELD, 0 };
static weft_site cas_top = { "targets/stack.c", 12, WEFT_ACCESS_CAS, 0 };
static weft_site store_size = { "targets/stack.c", 13, WEFT_ACCESS_STORE, 0 };
static weft_site load_top_pop = { "/abs/path/targets/stack.c", 20, WEFT_ACCESS_LOAD, 0 };

static sched_event event(uint8_t kind, uint8_t thread, uint32_t call_or_site, uint64_t value)
{
	return (sched_event){ .kind = kind, .thread = thread, .site_id = call_or_site,
			      .value = value };
}

static sched_event access(const weft_site *site, uint8_t thread, uint64_t value, int pointer)
{
	return (sched_event){ .kind = (uint8_t)site->kind, .thread = thread, .site = site,
			      .value = value, .is_pointer = (uint8_t)pointer };
}

static sched_event hand_off(uint8_t kind, uint8_t thread, uint8_t to)
{
	return (sched_event){ .kind = kind, .thread = thread, .other = to };
}

static const char expected_json[] =
	"{\"target\": \"fake_stack\", \"verdict\": \"linearizability\", "
	"\"message\": \"size() on thread 2 returned 0, the model gives 1\", "
	"\"symptom\": \"linearizability\", \"threads\": 2, "
	"\"operations\": 2, \"preemptions\": 1, \"switches\": 2, \"steps\": 7, "
	"\"trace_hash\": \"00c0ffee12345678\", \"scenario\": [[{\"op\": \"push\", "
	"\"args\": [1]}], [{\"op\": \"pop\", \"args\": []}]], \"history\": [{\"thread\": 0, "
	"\"op\": \"push\", \"args\": [1], \"result\": 0, \"invoked_at\": 1, \"returned_at\": 11, "
	"\"pending\": false}, {\"thread\": 1, \"op\": \"pop\", \"args\": [], \"result\": null, "
	"\"invoked_at\": 4, \"returned_at\": 6, \"pending\": false}, {\"thread\": 2, "
	"\"op\": \"size\", \"args\": [], \"result\": 0, \"invoked_at\": 12, \"returned_at\": 13, "
	"\"pending\": false}], \"interleaving\": [{\"step\": 1, \"thread\": 0, "
	"\"kind\": \"op_begin\", \"op\": \"push\", \"args\": [1]}, {\"step\": 2, \"thread\": 0, "
	"\"kind\": \"load\", \"site\": \"stack.c:10\", \"value\": \"NULL\"}, {\"step\": 3, "
	"\"thread\": 0, \"kind\": \"preempt\", \"to\": 1}, {\"step\": 4, \"thread\": 1, "
	"\"kind\": \"op_begin\", \"op\": \"pop\", \"args\": []}, {\"step\": 5, \"thread\": 1, "
	"\"kind\": \"load\", \"site\": \"stack.c:20\", \"value\": \"ptr\"}, {\"step\": 6, "
	"\"thread\": 1, \"kind\": \"op_end\", \"op\": \"pop\", \"args\": [], \"result\": null}, "
	"{\"step\": 7, \"thread\": 1, \"kind\": \"switch\", \"to\": 0}, {\"step\": 8, "
	"\"thread\": 0, \"kind\": \"yield\", \"site\": \"stack.c:11\"}, {\"step\": 9, "
	"\"thread\": 0, \"kind\": \"cas\", \"site\": \"stack.c:12\", \"value\": 0, \"succeeded\": true}, "
	"{\"step\": 10, \"thread\": 0, \"kind\": \"store\", \"site\": \"stack.c:13\", "
	"\"value\": -1}, {\"step\": 11, \"thread\": 0, \"kind\": \"op_end\", \"op\": \"push\", "
	"\"args\": [1], \"result\": 0}], \"linearizability\": {\"longest_prefix\": [1, 0], "
	"\"stuck\": 2, \"observed\": 0, \"model\": 1, \"partition_key\": null}}\n";

static const char expected_json_history_picture[] =
	HISTORY_HEADER
	"  thread 0          |--- push(1) = 0 ----|\n"
	"  thread 1            |- pop() = none -|\n"
	"  thread 2 (final)                         |- size() = 0 -|\n";

/* Two threads: push(1) preempted, pop() finds the stack empty, push(1) ends; size() = 0. */
static void test_json(void)
{
	const weft_op_record calls[] = {
		returned(0, OP_PUSH, 1, 0, 0, 10),
		returned(1, OP_POP, 0, WEFT_NONE, 3, 5),
	};
	const weft_op_record history[] = { calls[0], calls[1], returned(2, OP_SIZE, 0, 0, 11, 12) };
	const sched_event events[] = {
		event(SCHED_EV_OP_BEGIN, 0, 0, 0),
		access(&load_top, 0, 0, 1),
		hand_off(SCHED_EV_PREEMPT, 0, 1),
		event(SCHED_EV_OP_BEGIN, 1, 1, 1),
		access(&load_top_pop, 1, 1, 1),
		event(SCHED_EV_OP_END, 1, 1, (uint64_t)WEFT_NONE),
		hand_off(SCHED_EV_SWITCH, 1, 0),
		access(&yield_site, 0, 0, 0),
		/* read 0 and succeeded: the value read and the success are apart */
		{ .kind = WEFT_ACCESS_CAS, .thread = 0, .site = &cas_top, .value = 0, .other = 1 },
		access(&store_size, 0, (uint64_t)-1, 0),
		event(SCHED_EV_OP_END, 0, 0, 0),
	};
	const size_t longest[] = { 1, 0 };
	weft_check_result check = {
		.verdict = WEFT_CHECK_NOT_LINEARIZABLE, .n_partitions = 1, .longest = longest,
		.n_longest = 2, .stuck = 2, .stuck_model_result = 1,
	};
	weft_result r = {
		.verdict = WEFT_FAIL_LINEARIZABILITY, .n_threads = 2, .n_ops = 2, .preemptions = 1,
		.switches = 2, .steps = 7, .trace_hash = 0x00c0ffee12345678u,
		.message = "size() on thread 2 returned 0, the model gives 1",
	};
	report_case c = {
		.target = &stack_target, .result = &r, .calls = calls, .n_calls = 2,
		.events = events, .n_events = sizeof events / sizeof *events,
		.final_call = &history[2], .history = history, .n_history = 3, .check = &check,
	};
	const char *json = render(report_print_json, &c);
	CHECK(strcmp(json, expected_json) == 0, "JSON:\n%s\nexpected:\n%s", json, expected_json);

	/* The text report of the same case: history after the final line, before the oracle. */
	const char *text = render(report_print, &c);
	const char *final = strstr(text, "after all threads: size() = 0\n");
	const char *picture = strstr(text, expected_json_history_picture);
	const char *oracle = strstr(text, "linearizability (thread 2 stands for the final operation)");
	CHECK(final && picture && oracle && final < picture && picture < oracle,
	      "sections in order: final, history, linearizability:\n%s", text);
	CHECK(strstr(text, "cas stack.c:12 -> ok, read 0\n") != NULL,
	      "a CAS prints its success and the value it read:\n%s", text);
	static const char summary[] =
		"==weft== FAIL linearizability in fake_stack: size() on thread 2 returned 0, "
		"the model gives 1\n"
		"==weft== 2 threads, 2 operations, 1 preemption, 2 switches, 7 steps\n";
	CHECK(strncmp(text, summary, strlen(summary)) == 0, "summary lines unchanged:\n%s", text);
}

static const weft_target odd_target = {
	.name = "we\"ird\\name", .ops = stack_ops, .n_ops = 3,
};

static const char expected_odd_json[] =
	"{\"target\": \"we\\\"ird\\\\name\", \"verdict\": \"step-budget\", "
	"\"message\": \"tab\\there\\nnewline \\u0001\\u001f end\\r caf\\ufffd \xc3\xa9 "
	"\\ufffd\\ufffd\\ufffd\", \"symptom\": \"step-budget\", "
	"\"threads\": 1, "
	"\"operations\": 1, \"preemptions\": 0, \"switches\": 0, \"steps\": 501, "
	"\"trace_hash\": \"ffffffffffffffff\", \"scenario\": [[{\"op\": \"pop\", "
	"\"args\": []}]], \"history\": [{\"thread\": 0, \"op\": \"pop\", \"args\": [], "
	"\"result\": null, \"invoked_at\": 1, \"returned_at\": null, \"pending\": true}], "
	"\"interleaving\": [{\"step\": 1, \"thread\": 0, \"kind\": \"op_begin\", "
	"\"op\": \"pop\", \"args\": []}, {\"step\": 2, \"thread\": 0, \"kind\": \"cut\"}], "
	"\"linearizability\": null}\n";

/*
 * Escaping (bytes outside UTF-8 as \ufffd: a Latin-1 byte, a surrogate's
 * encoding; a well-formed sequence kept), a pending operation, a cut, no
 * oracle explanation.
 */
static void test_json_escaping_and_pending(void)
{
	const weft_op_record calls[] = { pending(0, OP_POP, 0, 0) };
	const sched_event events[] = {
		event(SCHED_EV_OP_BEGIN, 0, 0, 0),
		event(SCHED_EV_CUT, 0, 0, 0),
	};
	weft_result r = {
		.verdict = WEFT_FAIL_BUDGET, .n_threads = 1, .n_ops = 1, .steps = 501,
		.trace_hash = UINT64_MAX, .message = "tab\there\nnewline \x01\x1f end\r caf\xe9 \xc3\xa9 \xed\xa0\x80",
	};
	report_case c = {
		.target = &odd_target, .result = &r, .calls = calls, .n_calls = 1, .events = events,
		.n_events = 2, .history = calls, .n_history = 1,
	};
	const char *json = render(report_print_json, &c);
	CHECK(strcmp(json, expected_odd_json) == 0, "JSON:\n%s\nexpected:\n%s", json,
	      expected_odd_json);
}

int main(void)
{
	test_overlapping();
	test_sequential_on_one_thread();
	test_pending();
	test_final();
	test_none_result();
	test_random_histories_keep_time_order();
	test_json();
	test_json_escaping_and_pending();
	return check_summary("test_report");
}
