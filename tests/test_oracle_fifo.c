/*
 * tests/test_oracle_fifo.c - the linearizability checker on the FIFO-queue
 * exercise histories (E(x) = enqueue x, D=>x = dequeue returning x), among
 * them the classic non-linearizable one of Herlihy & Wing (TOPLAS 1990):
 *
 *   (1) t1: |--- E(x) ---|   |-- D=>y --|        linearizable:
 *       t2:   |- E(y) -|       |- D=>x -|        E(y) E(x) D=>y D=>x
 *   (2) t1: |- E(x) -|   |--- D=>y ---|          not: x went in first
 *       t2:             |- E(y) -|
 *   (3) as (2), and t3:   |-- D=>y --|           not
 *
 * plus pending operations (that must, or cannot, have taken effect), the empty
 * history, the explanation's fields and text, the cost cap and buffer reuse.
 */
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"

#define TEST_QUEUE_CAP 32
#include "tests/test_queue.h"

enum { X = 1, Y = 2 };

static const weft_op queue_ops[] = {
	[TQ_ENQ] = { .name = "enq", .n_args = 1 },
	[TQ_DEQ] = { .name = "deq" },
};

/* One operation: invoked at `inv`, returned at `ret`; ret == 0 means pending. */
static weft_op_record op(unsigned thread, unsigned o, int64_t arg, int64_t result, uint32_t inv,
			 uint32_t ret)
{
	return (weft_op_record){ .thread = thread, .op = o, .args = { arg }, .result = result,
				 .invoked_at = inv, .returned_at = ret, .pending = ret == 0 };
}

static weft_check_verdict check(weft_checker *c, const weft_op_record *ops, size_t n,
				weft_check_result *res)
{
	weft_history h = { ops, n };
	return weft_check(c, &h, NULL, res);
}

static void test_exercise(weft_checker *c)
{
	weft_check_result res;
	const weft_op_record h1[] = { op(0, TQ_ENQ, X, 0, 1, 4), op(1, TQ_ENQ, Y, 0, 2, 3),
				      op(0, TQ_DEQ, 0, Y, 5, 8), op(1, TQ_DEQ, 0, X, 6, 7) };
	CHECK(check(c, h1, 4, &res) == WEFT_CHECK_LINEARIZABLE, "(1) %d", res.verdict);
	CHECK(res.n_longest == 0 && res.stuck == SIZE_MAX, "(1) no explanation");
	const weft_op_record h2[] = { op(0, TQ_ENQ, X, 0, 1, 2), op(1, TQ_ENQ, Y, 0, 3, 6),
				      op(0, TQ_DEQ, 0, Y, 4, 7) };
	CHECK(check(c, h2, 3, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "(2) %d", res.verdict);
	const weft_op_record h3[] = { op(0, TQ_ENQ, X, 0, 1, 2), op(1, TQ_ENQ, Y, 0, 3, 6),
				      op(0, TQ_DEQ, 0, Y, 4, 7), op(2, TQ_DEQ, 0, Y, 5, 8) };
	CHECK(check(c, h3, 4, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "(3) %d", res.verdict);
	CHECK(res.stuck == 2 || res.stuck == 3, "(3) stuck %zu", res.stuck);
}

/* What weft_check_explain prints, as a string. */
static void explain_to(char *buf, size_t cap, const weft_op_record *ops, size_t n,
		       const weft_check_result *res)
{
	FILE *f = tmpfile();
	REQUIRE(f, "tmpfile");
	weft_history h = { ops, n };
	weft_check_explain(f, &h, queue_ops, res);
	rewind(f);
	size_t got = fread(buf, 1, cap - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* (2): E(x) and E(y) linearize; D=>y cannot follow them, the model gives x. */
static void test_explanation(weft_checker *c)
{
	weft_check_result res;
	char text[1024];
	const weft_op_record h2[] = { op(0, TQ_ENQ, X, 0, 1, 2), op(1, TQ_ENQ, Y, 0, 3, 6),
				      op(0, TQ_DEQ, 0, Y, 4, 7) };
	REQUIRE(check(c, h2, 3, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "(2)");
	CHECK(res.n_longest == 2 && res.longest[0] == 0 && res.longest[1] == 1,
	      "longest %zu", res.n_longest);
	CHECK(res.stuck == 2, "stuck %zu", res.stuck);
	CHECK(res.stuck_model_result == X, "model %lld", (long long)res.stuck_model_result);
	CHECK(!res.partitioned && res.n_partitions == 1, "not partitioned");
	explain_to(text, sizeof text, h2, 3, &res);
	const char *want = "  longest linearizable prefix: 2 of 3 operations\n"
			   "    1. thread 0  enq(1) = 0\n"
			   "    2. thread 1  enq(2) = 0\n"
			   "  cannot be placed next: thread 0  deq() = 2, but the model gives 1\n";
	CHECK(strcmp(text, want) == 0, "explanation:\n%s", text);
}

/* Nothing fits: deq() = none after a completed enq; "none" on both sides. */
static void test_explanation_empty_prefix(weft_checker *c)
{
	weft_check_result res;
	char text[512];
	const weft_op_record h[] = { op(0, TQ_DEQ, 0, X, 1, 2), op(1, TQ_ENQ, X, 0, 3, 4) };
	REQUIRE(check(c, h, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "deq before enq");
	CHECK(res.n_longest == 0 && res.stuck == 0 && res.stuck_model_result == WEFT_NONE,
	      "stuck %zu", res.stuck);
	explain_to(text, sizeof text, h, 2, &res);
	const char *want = "  longest linearizable prefix: none of 2 operations\n"
			   "  cannot be placed next: thread 0  deq() = 1, but the model gives none\n";
	CHECK(strcmp(text, want) == 0, "explanation:\n%s", text);
	res.verdict = WEFT_CHECK_LINEARIZABLE;
	explain_to(text, sizeof text, h, 2, &res);
	CHECK(text[0] == '\0', "a linearizable result prints nothing: %s", text);
}

static void test_empty(weft_checker *c)
{
	weft_check_result res;
	weft_history h = { NULL, 0 };
	CHECK(weft_check(c, &h, NULL, &res) == WEFT_CHECK_LINEARIZABLE, "empty");
	CHECK(res.cost == 0 && res.n_longest == 0, "cost %llu", (unsigned long long)res.cost);
	CHECK(weft_check(c, &h, NULL, NULL) == WEFT_CHECK_LINEARIZABLE, "result may be NULL");
}

static void test_pending(weft_checker *c)
{
	weft_check_result res;
	char text[1024];
	/* enq(5) never returned, yet deq() gave 5: it must have taken effect. */
	const weft_op_record took[] = { op(0, TQ_ENQ, 5, 0, 1, 0), op(1, TQ_DEQ, 0, 5, 2, 3) };
	CHECK(check(c, took, 2, &res) == WEFT_CHECK_LINEARIZABLE, "pending enq took effect");
	/* A pending deq that must NOT have taken effect before deq() = 1. */
	const weft_op_record never[] = { op(0, TQ_DEQ, 0, 0, 1, 0), op(1, TQ_ENQ, 1, 0, 2, 3),
					 op(1, TQ_DEQ, 0, 1, 4, 5) };
	CHECK(check(c, never, 3, &res) == WEFT_CHECK_LINEARIZABLE, "pending deq left out");
	/* The pending enq(5) was invoked after deq() = 5 returned: it cannot help. */
	const weft_op_record late[] = { op(1, TQ_DEQ, 0, 5, 1, 2), op(0, TQ_ENQ, 5, 0, 3, 0) };
	CHECK(check(c, late, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "late pending enq");
	CHECK(res.stuck == 0 && res.stuck_model_result == WEFT_NONE, "stuck %zu", res.stuck);
	/* A pending enq(6) cannot explain deq() = 5; it may sit in the prefix. */
	const weft_op_record other[] = { op(0, TQ_ENQ, 6, 0, 1, 0), op(1, TQ_DEQ, 0, 5, 2, 3) };
	CHECK(check(c, other, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "wrong pending enq");
	CHECK(res.stuck == 1, "stuck %zu", res.stuck);
	explain_to(text, sizeof text, other, 2, &res);
	CHECK(strstr(text, "enq(6) = ? (pending)") != NULL, "pending shown:\n%s", text);
}

/* enq(0) deq()=0 enq(1) deq()=1 ..., one after the other: linearizable at cost n. */
static size_t sequential(weft_op_record *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h[i] = op(0, i % 2 ? TQ_DEQ : TQ_ENQ, (int64_t)i / 2, i % 2 ? (int64_t)i / 2 : 0,
			  (uint32_t)(2 * i + 1), (uint32_t)(2 * i + 2));
	return n;
}

/* Many overlapping enqs, then deqs in an impossible order: exponential without the memo. */
static size_t hard(weft_op_record *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h[i] = op((unsigned)i, TQ_ENQ, (int64_t)i, 0, (uint32_t)i + 1, (uint32_t)(n + i + 1));
	for (size_t i = 0; i < n; i++)
		h[n + i] = op(0, TQ_DEQ, 0, (int64_t)(i + 1) % (int64_t)n,
			      (uint32_t)(2 * n + 2 * i + 1), (uint32_t)(2 * n + 2 * i + 2));
	h[2 * n - 1].result = 100;   /* never enqueued */
	return 2 * n;
}

static void test_cost_cap(weft_checker *c)
{
	weft_op_record h[32];
	weft_check_result res;
	weft_history hist = { h, sequential(h, 20) };
	weft_check_options tiny = { .max_cost = 5 };
	CHECK(weft_check(c, &hist, &tiny, &res) == WEFT_CHECK_UNKNOWN, "capped: %d", res.verdict);
	CHECK(res.cost <= 5, "cost %llu over the cap", (unsigned long long)res.cost);
	CHECK(res.n_longest == 0 && res.stuck == SIZE_MAX, "no explanation when unknown");
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_LINEARIZABLE && res.cost == 20,
	      "uncapped cost %llu", (unsigned long long)res.cost);
	hist.n_ops = hard(h, 6);
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "hard");
	uint64_t full = res.cost;
	tiny.max_cost = full / 2;
	CHECK(weft_check(c, &hist, &tiny, &res) == WEFT_CHECK_UNKNOWN && res.cost <= full / 2,
	      "hard capped at %llu: cost %llu", (unsigned long long)(full / 2),
	      (unsigned long long)res.cost);
	fprintf(stderr, "hard history of 12 ops: cost %llu\n", (unsigned long long)full);
}

/* A big check, then small ones, then the big one again: same answers from reused buffers. */
static void test_reuse(weft_checker *c)
{
	static weft_op_record big[2000];
	weft_check_result res;
	weft_history hb = { big, sequential(big, 2000) };
	CHECK(weft_check(c, &hb, NULL, &res) == WEFT_CHECK_LINEARIZABLE, "big");
	test_explanation(c);
	CHECK(weft_check(c, &hb, NULL, &res) == WEFT_CHECK_LINEARIZABLE && res.cost == 2000,
	      "big again: cost %llu", (unsigned long long)res.cost);
	test_explanation(c);
}

int main(void)
{
	weft_checker *c = weft_checker_new(&test_queue_model);
	REQUIRE(c, "checker");
	CHECK(weft_checker_new(NULL) == NULL, "no model, no checker");
	test_exercise(c);
	test_explanation(c);
	test_explanation_empty_prefix(c);
	test_empty(c);
	test_pending(c);
	test_cost_cap(c);
	test_reuse(c);
	CHECK(strcmp(weft_check_verdict_name(WEFT_CHECK_NOT_LINEARIZABLE), "not-linearizable") == 0,
	      "verdict name");
	weft_checker_free(c);
	weft_checker_free(NULL);
	return check_summary("test_oracle_fifo");
}
