/*
 * tests/test_oracle_relaxed.c - k-relaxed queues and stacks (weft/models.h,
 * oracle/model_relaxed.c): a dequeue may return any of the k + 1 oldest
 * elements, a pop any of the k + 1 newest.
 *
 * Histories accepted at k and rejected at k - 1 (and by the strict model),
 * the explanation's outcomes, k = 0 against the strict model on random
 * histories, and random histories at k = 1 and 2 against a brute force that
 * tries every real-time-respecting order, pending subset and choice of element
 * (a reference written from the definition, on plain arrays).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"
#include "weft/models.h"

static const weft_model queue0 = WEFT_MODEL_QUEUE_RELAXED(0);
static const weft_model queue1 = WEFT_MODEL_QUEUE_RELAXED(1);
static const weft_model queue2 = WEFT_MODEL_QUEUE_RELAXED(2);
static const weft_model stack1 = WEFT_MODEL_STACK_RELAXED(1);
static const weft_model stack2 = WEFT_MODEL_STACK_RELAXED(2);

/* One operation: invoked at `inv`, returned at `ret`; ret == 0 means pending. */
static weft_op_record op(unsigned thread, unsigned o, int64_t arg, int64_t result, uint32_t inv,
			 uint32_t ret)
{
	return (weft_op_record){ .thread = thread, .op = o, .args = { arg }, .result = result,
				 .invoked_at = inv, .returned_at = ret, .pending = ret == 0 };
}

/* One checker per model, kept: a result's arrays point into its checker. */
static struct { const weft_model *model; weft_checker *checker; } checkers[8];

static weft_check_verdict check(const weft_model *m, const weft_op_record *ops, size_t n,
				weft_check_result *res)
{
	size_t i = 0;
	while (checkers[i].model && checkers[i].model != m)
		i++;
	REQUIRE(i < 8, "too many models");
	if (!checkers[i].model)
		checkers[i].model = m, checkers[i].checker = weft_checker_new(m);
	REQUIRE(checkers[i].checker != NULL, "checker");
	weft_history h = { ops, n };
	return weft_check(checkers[i].checker, &h, NULL, res);
}

/* enq(1) enq(2) enq(3), then the dequeues in `order` (sequential, one thread). */
static size_t drain(unsigned add, unsigned take, const int64_t *order, size_t n,
		    weft_op_record *h)
{
	uint32_t t = 1;
	for (int64_t v = 1; v <= 3; v++, t += 2)
		h[v - 1] = op(0, add, v, 0, t, t + 1);
	for (size_t i = 0; i < n; i++, t += 2)
		h[3 + i] = op(1, take, 0, order[i], t, t + 1);
	return 3 + n;
}

static void test_queue(void)
{
	weft_op_record h[8];
	weft_check_result res;
	const int64_t skip1[] = { 2, 1, 3 }, skip2[] = { 3, 1, 2 }, starve[] = { 2, 3, 1 };
	size_t n = drain(WEFT_QUEUE_ENQ, WEFT_QUEUE_DEQ, skip1, 3, h);
	CHECK(check(&weft_model_queue, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "strict: 2 1 3");
	CHECK(check(&queue0, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "k=0: 2 1 3");
	CHECK(check(&queue1, h, n, &res) == WEFT_CHECK_LINEARIZABLE, "k=1: 2 1 3");
	n = drain(WEFT_QUEUE_ENQ, WEFT_QUEUE_DEQ, skip2, 3, h);
	CHECK(check(&queue1, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "k=1: 3 first");
	CHECK(res.stuck == 3 && res.n_stuck_outcomes == 2 && res.stuck_outcomes[0] == 1 &&
	      res.stuck_outcomes[1] == 2, "k=1 allows 1 or 2: %zu outcomes", res.n_stuck_outcomes);
	CHECK(check(&queue2, h, n, &res) == WEFT_CHECK_LINEARIZABLE, "k=2: 3 1 2");
	/* The window slides: 1 may be passed over twice (no lateness bound). */
	n = drain(WEFT_QUEUE_ENQ, WEFT_QUEUE_DEQ, starve, 3, h);
	CHECK(check(&queue1, h, n, &res) == WEFT_CHECK_LINEARIZABLE, "k=1: 2 3 1");
	/* Relaxation never invents elements, nor returns one twice, nor none while full. */
	const int64_t twice[] = { 2, 2 }, none[] = { WEFT_NONE };
	n = drain(WEFT_QUEUE_ENQ, WEFT_QUEUE_DEQ, twice, 2, h);
	CHECK(check(&queue2, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "k=2: 2 twice");
	n = drain(WEFT_QUEUE_ENQ, WEFT_QUEUE_DEQ, none, 1, h);
	CHECK(check(&queue2, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "k=2: none while full");
}

static void test_stack(void)
{
	weft_op_record h[8];
	weft_check_result res;
	const int64_t skip1[] = { 2, 3, 1 }, skip2[] = { 1, 3, 2 };
	size_t n = drain(WEFT_STACK_PUSH, WEFT_STACK_POP, skip1, 3, h);
	CHECK(check(&weft_model_stack, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "strict: 2 3 1");
	CHECK(check(&stack1, h, n, &res) == WEFT_CHECK_LINEARIZABLE, "k=1: 2 3 1");
	n = drain(WEFT_STACK_PUSH, WEFT_STACK_POP, skip2, 3, h);
	CHECK(check(&stack1, h, n, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "k=1: 1 first");
	CHECK(res.n_stuck_outcomes == 2 && res.stuck_outcomes[0] == 3 && res.stuck_outcomes[1] == 2,
	      "k=1 allows 3 or 2");
	CHECK(check(&stack2, h, n, &res) == WEFT_CHECK_LINEARIZABLE, "k=2: 1 3 2");
}

/* ---- brute force on plain arrays ---- */

typedef struct ref {
	int64_t v[8];
	size_t n;
} ref;

static int before(const weft_op_record *a, const weft_op_record *b)
{
	return !a->pending && a->returned_at < b->invoked_at;
}

/* Outcome j of h on r (j = 0 .. k): 1 when it exists, its result in *got. */
static int ref_apply(ref *r, const weft_op_record *h, int fifo, size_t k, size_t j, int64_t *got)
{
	if (h->op == WEFT_QUEUE_ENQ) {
		r->v[r->n++] = h->args[0];
		*got = 0;
		return j == 0;
	}
	if (r->n == 0) {
		*got = WEFT_NONE;
		return j == 0;
	}
	if (j > k || j >= r->n)
		return 0;
	size_t at = fifo ? j : r->n - 1 - j;
	*got = r->v[at];
	memmove(r->v + at, r->v + at + 1, (r->n - at - 1) * sizeof *r->v);
	r->n--;
	return 1;
}

static int brute(const weft_op_record *h, size_t n, unsigned done, const ref *r, int fifo,
		 size_t k)
{
	int left = 0;
	for (size_t i = 0; i < n; i++)
		left |= !(done >> i & 1) && !h[i].pending;
	if (!left)
		return 1;
	for (size_t i = 0; i < n; i++) {
		int ready = !(done >> i & 1);
		for (size_t j = 0; j < n && ready; j++)
			ready = (done >> j & 1) || !before(&h[j], &h[i]);
		for (size_t j = 0; ready && j <= k; j++) {
			ref next = *r;
			int64_t got;
			if (ref_apply(&next, &h[i], fifo, k, j, &got) &&
			    (h[i].pending || got == h[i].result) &&
			    brute(h, n, done | 1u << i, &next, fifo, k))
				return 1;
		}
	}
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* Up to 7 ops on up to 3 threads; a pending op ends its thread. */
static size_t random_history(weft_op_record *h, uint64_t *s)
{
	size_t n = 1 + rnd(s) % 7, kept = 0;
	uint32_t t[3] = { 1, 1, 1 };
	for (size_t i = 0; i < n; i++) {
		unsigned th = (unsigned)(rnd(s) % 3), o = (unsigned)(rnd(s) % 2);
		if (t[th] == 0)
			continue;
		int64_t result = o == 0 ? 0 : rnd(s) % 4 == 0 ? WEFT_NONE : (int64_t)(1 + rnd(s) % 3);
		uint32_t inv = t[th] + (uint32_t)(rnd(s) % 3), ret = inv + 1 + (uint32_t)(rnd(s) % 5);
		h[kept] = op(th, o, (int64_t)(1 + rnd(s) % 3), result, inv, rnd(s) % 10 == 0 ? 0 : ret);
		t[th] = h[kept].pending ? 0 : ret + 1;
		kept++;
	}
	for (size_t i = 1; i < kept; i++)        /* in order of invocation */
		for (size_t j = i; j > 0 && h[j - 1].invoked_at > h[j].invoked_at; j--) {
			weft_op_record x = h[j];
			h[j] = h[j - 1], h[j - 1] = x;
		}
	return kept;
}

static void test_against_brute_force(const weft_model *m, int fifo, size_t k)
{
	uint64_t s = 0x2545F4914F6CDD1Du + k + (uint64_t)fifo;
	unsigned counts[2] = { 0, 0 };
	weft_checker *c = weft_checker_new(m);
	REQUIRE(c != NULL, "checker");
	for (int round = 0; round < 3000; round++) {
		weft_op_record h[8];
		size_t n = random_history(h, &s);
		weft_history hist = { h, n };
		weft_check_verdict v = weft_check(c, &hist, NULL, NULL);
		ref empty = { .n = 0 };
		int expect = brute(h, n, 0, &empty, fifo, k);
		CHECK(v == (expect ? WEFT_CHECK_LINEARIZABLE : WEFT_CHECK_NOT_LINEARIZABLE),
		      "%s k=%zu round %d: checker %d, brute force %d", m->name, k, round, v, expect);
		counts[expect]++;
	}
	weft_checker_free(c);
	CHECK(counts[0] > 200 && counts[1] > 200, "%s k=%zu: %u rejected, %u accepted", m->name, k,
	      counts[0], counts[1]);
}

int main(void)
{
	test_queue();
	test_stack();
	test_against_brute_force(&weft_model_queue, 1, 0);
	test_against_brute_force(&queue0, 1, 0);
	test_against_brute_force(&queue1, 1, 1);
	test_against_brute_force(&queue2, 1, 2);
	test_against_brute_force(&weft_model_stack, 0, 0);
	test_against_brute_force(&stack1, 0, 1);
	test_against_brute_force(&stack2, 0, 2);
	for (size_t i = 0; checkers[i].model; i++)
		weft_checker_free(checkers[i].checker);
	return check_summary("test_oracle_relaxed");
}
