/*
 * tests/test_refute_queue.c - the FIFO queue's violation patterns
 * (oracle/refute_queue.c): each pattern found on a history made for it, none
 * where a pending deq() could explain the order, every refutation of
 * thousands of random small histories confirmed by the search (itself checked
 * against brute force in test_oracle_differential), and a 1,000-operation
 * 5-client history with one wrong deq() decided, not `unknown`, with the
 * proof in its explanation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"
#include "weft/models.h"
#include "oracle/checker.h"

enum { ENQ = WEFT_QUEUE_ENQ, DEQ = WEFT_QUEUE_DEQ };

static weft_op_record call(unsigned t, unsigned op, int64_t v, uint32_t inv, uint32_t ret)
{
	weft_op_record r = { .thread = t, .op = op, .invoked_at = inv, .returned_at = ret };
	if (op == ENQ)
		r.args[0] = v;
	else
		r.result = v;
	r.pending = ret == 0;
	return r;
}

static const char *refute(const weft_op_record *ops, size_t n)
{
	static char buf[256];
	weft_history h = { ops, n };
	return oracle_refute_queue(&h, buf, sizeof buf);
}

static void test_patterns(void)
{
	weft_op_record fresh[] = { call(0, DEQ, 5, 1, 2), call(1, ENQ, 5, 3, 4) };
	const char *why = refute(fresh, 2);
	CHECK(why && strstr(why, "before any enq(5)"), "fresh: %s", why ? why : "(none)");
	weft_op_record overlap[] = { call(0, DEQ, 5, 1, 4), call(1, ENQ, 5, 2, 3) };
	CHECK(!refute(overlap, 2), "an enq overlapping its deq is not fresh");
	weft_op_record twice[] = { call(0, ENQ, 5, 1, 2), call(0, DEQ, 5, 3, 4), call(1, DEQ, 5, 5, 6) };
	why = refute(twice, 3);
	CHECK(why && strstr(why, "2 deq() calls returned 5"), "repeated: %s", why ? why : "(none)");
	weft_op_record order[] = { call(0, ENQ, 1, 1, 2), call(0, ENQ, 2, 3, 4),
				   call(1, DEQ, 2, 5, 6), call(1, DEQ, 1, 7, 8) };
	why = refute(order, 4);
	CHECK(why && strstr(why, "enq(1) returned before enq(2)"), "order: %s", why ? why : "(none)");
	weft_op_record never[] = { call(0, ENQ, 1, 1, 2), call(0, ENQ, 2, 3, 4), call(1, DEQ, 2, 5, 6) };
	CHECK(refute(never, 3) != NULL, "order: 1 never dequeued, 2 was");
	weft_op_record pend[] = { call(0, ENQ, 1, 1, 2), call(0, ENQ, 2, 3, 4), call(2, DEQ, 0, 5, 0),
				  call(1, DEQ, 2, 6, 7) };
	CHECK(!refute(pend, 4), "a pending deq() may have taken 1: no refutation");
	weft_op_record fifo[] = { call(0, ENQ, 1, 1, 2), call(0, ENQ, 2, 3, 4),
				  call(1, DEQ, 1, 5, 6), call(1, DEQ, 2, 7, 8) };
	CHECK(!refute(fifo, 4), "a FIFO history is not refuted");
	weft_op_record racing[] = { call(0, ENQ, 1, 1, 4), call(1, ENQ, 2, 2, 3),
				    call(1, DEQ, 2, 5, 6), call(0, DEQ, 1, 7, 8) };
	CHECK(!refute(racing, 4), "overlapping enqs may take effect in either order");
}

/* A random queue history on 1..3 threads: real results, then some corrupted. */
static size_t random_history(weft_op_record *h, uint64_t *rng)
{
	int64_t q[16], next = 1;
	size_t head = 0, tail = 0, n = 0;
	unsigned threads = 1 + (unsigned)(test_rand(rng) % 3), want = 2 + (unsigned)(test_rand(rng) % 6);
	int open[3] = { -1, -1, -1 }, took[3] = { 0 };
	uint32_t now = 1;
	while (n < want || open[0] >= 0 || open[1] >= 0 || open[2] >= 0) {
		unsigned t = (unsigned)(test_rand(rng) % threads);
		if (open[t] < 0) {
			if (n >= want)
				continue;
			int enq = test_rand(rng) % 2;
			h[n] = call(t, enq ? ENQ : DEQ, enq ? next++ : 0, now++, 0);
			open[t] = (int)n++, took[t] = 0;
		} else if (!took[t]) {
			weft_op_record *r = &h[open[t]];
			if (r->op == ENQ)
				q[tail++ % 16] = r->args[0];
			else
				r->result = head < tail ? q[head++ % 16] : WEFT_NONE;
			took[t] = 1;
		} else {
			h[open[t]].returned_at = now++, h[open[t]].pending = 0;
			open[t] = -1;
		}
		if (n == want && test_rand(rng) % 8 == 0)
			break;   /* leave what is open pending */
	}
	for (size_t i = 0; i < n; i++)
		if (h[i].op == DEQ && test_rand(rng) % 4 == 0)
			h[i].result = (int64_t)(test_rand(rng) % 4) - 1;   /* -1: never enqueued */
	return n;
}

static void test_sound_on_random(void)
{
	weft_checker *c = weft_checker_new(&weft_model_queue);
	REQUIRE(c, "checker");
	uint64_t rng = 42;
	unsigned refuted = 0, wrong = 0;
	for (int i = 0; i < 20000; i++) {
		weft_op_record h[8];
		size_t n = random_history(h, &rng);
		weft_history hist = { h, n };
		if (!refute(h, n))
			continue;
		refuted++;
		weft_check_result res;
		wrong += weft_check(c, &hist, NULL, &res) != WEFT_CHECK_NOT_LINEARIZABLE;
	}
	CHECK(wrong == 0, "%u of %u refuted histories are linearizable", wrong, refuted);
	CHECK(refuted > 1000, "only %u of 20,000 random histories refuted", refuted);
	weft_checker_free(c);
}

/* 1,000 operations, 5 clients, one deq() returns a value never enqueued. */
static void test_long_history_decided(void)
{
	enum { N = 1000, T = 5 };
	weft_op_record *h = calloc(N, sizeof *h);
	REQUIRE(h, "memory");
	int64_t q[N];
	size_t head = 0, tail = 0;
	uint64_t rng = 7;
	uint32_t now = 1;
	for (size_t i = 0; i < N; i += T) {   /* rounds: T overlapping calls, effects in order */
		for (size_t k = 0; k < T && i + k < N; k++)
			h[i + k] = call((unsigned)k, test_rand(&rng) % 2 ? ENQ : DEQ, (int64_t)(i + k), now++, 0);
		for (size_t k = 0; k < T && i + k < N; k++) {
			weft_op_record *r = &h[i + k];
			if (r->op == ENQ)
				q[tail++] = r->args[0];
			else
				r->result = head < tail ? q[head++] : WEFT_NONE;
		}
		for (size_t k = 0; k < T && i + k < N; k++)
			h[i + k].returned_at = now++, h[i + k].pending = 0;
	}
	weft_checker *c = weft_checker_new(&weft_model_queue);
	REQUIRE(c, "checker");
	weft_history hist = { h, N };
	weft_check_result res;
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_LINEARIZABLE, "the real history");
	for (size_t i = N / 2; i < N; i++)
		if (h[i].op == DEQ) {
			h[i].result = -1;
			break;
		}
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "one wrong deq");
	CHECK(res.violation && strstr(res.violation, "deq() = -1"), "the proof names the deq");
	char text[512] = "";
	FILE *out = fmemopen(text, sizeof text, "w");
	weft_check_explain(out, &hist, NULL, &res);
	fclose(out);
	CHECK(strstr(text, "no order can exist: deq() = -1") != NULL, "explained: %s", text);
	weft_checker_free(c);
	free(h);
}

int main(void)
{
	test_patterns();
	test_sound_on_random();
	test_long_history_decided();
	return check_summary("test_refute_queue");
}
