/*
 * tests/test_oracle_outcomes.c - the linearizability checker with
 * non-deterministic models (weft/model.h: outcomes, apply_outcome), as
 * porcupine's and Lincheck's allow:
 *   - a queue whose dequeue may fail spuriously (returns none, changes nothing)
 *     when it is not empty;
 *   - a trylock that may fail on a free lock, and whose unlock of a free lock
 *     cannot happen at all (no outcome);
 *   - a coin: pick() returns 0 or 1 and remembers it, get() says which - the
 *     search must follow the outcome a later call needs, also for a pending
 *     pick (its result never observed: any outcome).
 * Histories that must be accepted and histories that must be rejected, the
 * explanation's outcomes and text, a long sequential history (the forced-step
 * path), and random small histories against a brute force that enumerates
 * every order, pending subset and outcome (the definition, spelled out).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"

#define TEST_QUEUE_CAP 8
#include "tests/test_queue.h"

/* ---- the models ---- */

static unsigned tryq_outcomes(const weft_model *m, const void *s, unsigned op,
			      const int64_t *args)
{
	(void)m, (void)args;
	return op == TQ_DEQ && ((const test_queue *)s)->len > 0 ? 2u : 1u;
}

/* Outcome 1 of a dequeue: the spurious failure. */
static int64_t tryq_apply(const weft_model *m, void *s, unsigned op, const int64_t *args,
			  unsigned k)
{
	(void)m;
	return k == 1 ? WEFT_NONE : test_queue_apply(s, op, args);
}

static const weft_model tryq_model = { .name = "try-queue", .state_size = sizeof(test_queue),
				       .init = test_zero_init, .outcomes = tryq_outcomes,
				       .apply_outcome = tryq_apply };

enum { LOCK_TRY, LOCK_UNLOCK };

static unsigned lock_outcomes(const weft_model *m, const void *s, unsigned op,
			      const int64_t *args)
{
	(void)m, (void)args;
	int64_t held = *(const int64_t *)s;
	if (op == LOCK_UNLOCK)
		return held ? 1u : 0u;      /* nobody may unlock a free lock */
	return held ? 1u : 2u;              /* a free lock: acquire, or fail spuriously */
}

static int64_t lock_apply(const weft_model *m, void *s, unsigned op, const int64_t *args,
			  unsigned k)
{
	(void)m, (void)args;
	int64_t *held = s;
	if (op == LOCK_UNLOCK) {
		*held = 0;
		return 0;
	}
	if (*held || k == 1)
		return 0;
	*held = 1;
	return 1;
}

static const weft_model lock_model = { .name = "trylock", .state_size = sizeof(int64_t),
				       .init = test_zero_init, .outcomes = lock_outcomes,
				       .apply_outcome = lock_apply };

enum { COIN_PICK, COIN_GET };

static unsigned coin_outcomes(const weft_model *m, const void *s, unsigned op,
			      const int64_t *args)
{
	(void)m, (void)s, (void)args;
	return op == COIN_PICK ? 2u : 1u;
}

static int64_t coin_apply(const weft_model *m, void *s, unsigned op, const int64_t *args,
			  unsigned k)
{
	(void)m, (void)args;
	int64_t *side = s;
	if (op == COIN_PICK)
		*side = k;
	return *side;
}

static const weft_model coin_model = { .name = "coin", .state_size = sizeof(int64_t),
				       .init = test_zero_init, .outcomes = coin_outcomes,
				       .apply_outcome = coin_apply };

/* ---- histories ---- */

/* One operation: invoked at `inv`, returned at `ret`; ret == 0 means pending. */
static weft_op_record op(unsigned thread, unsigned o, int64_t arg, int64_t result, uint32_t inv,
			 uint32_t ret)
{
	return (weft_op_record){ .thread = thread, .op = o, .args = { arg }, .result = result,
				 .invoked_at = inv, .returned_at = ret, .pending = ret == 0 };
}

static weft_check_verdict check(const weft_model *m, const weft_op_record *ops, size_t n,
				weft_check_result *res)
{
	static weft_checker *c[3];
	static const weft_model *models[3] = { &tryq_model, &lock_model, &coin_model };
	size_t i = m == &tryq_model ? 0 : m == &lock_model ? 1 : 2;
	if (!c[i])
		c[i] = weft_checker_new(models[i]);
	REQUIRE(c[i] != NULL, "checker for %s", m->name);
	weft_history h = { ops, n };
	return weft_check(c[i], &h, NULL, res);
}

static void test_try_queue(void)
{
	weft_check_result res;
	/* Sequential: enq(1); deq() = none (spurious); deq() = 1. */
	const weft_op_record spurious[] = { op(0, TQ_ENQ, 1, 0, 1, 2), op(0, TQ_DEQ, 0, WEFT_NONE, 3, 4),
					    op(0, TQ_DEQ, 0, 1, 5, 6) };
	CHECK(check(&tryq_model, spurious, 3, &res) == WEFT_CHECK_LINEARIZABLE,
	      "a spurious empty dequeue is allowed: %d", res.verdict);
	weft_checker *strict = weft_checker_new(&test_queue_model);
	REQUIRE(strict != NULL, "checker");
	CHECK(weft_check(strict, &(weft_history){ spurious, 3 }, NULL, NULL) ==
	      WEFT_CHECK_NOT_LINEARIZABLE, "but not by the strict queue");
	weft_checker_free(strict);
	/* enq(1); deq() = 2: neither outcome gives 2. */
	const weft_op_record wrong[] = { op(0, TQ_ENQ, 1, 0, 1, 2), op(1, TQ_DEQ, 0, 2, 3, 4) };
	CHECK(check(&tryq_model, wrong, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "deq = 2 rejected");
	CHECK(res.stuck == 1 && res.n_stuck_outcomes == 2 && res.stuck_outcomes[0] == 1 &&
	      res.stuck_outcomes[1] == WEFT_NONE && res.stuck_model_result == 1,
	      "the model allowed 1 or none: %zu outcomes", res.n_stuck_outcomes);
	/* A spurious failure changes nothing: the element cannot be dequeued twice. */
	const weft_op_record twice[] = { op(0, TQ_ENQ, 1, 0, 1, 2), op(0, TQ_DEQ, 0, WEFT_NONE, 3, 4),
					 op(1, TQ_DEQ, 0, 1, 5, 6), op(0, TQ_DEQ, 0, 1, 7, 8) };
	CHECK(check(&tryq_model, twice, 4, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "1 dequeued twice");
	CHECK(res.stuck == 3 && res.n_longest == 3 && res.n_stuck_outcomes == 1 &&
	      res.stuck_outcomes[0] == WEFT_NONE, "empty: one outcome, none");
	/* Overlapping: t1's deq = none may be spurious even when linearized after enq. */
	const weft_op_record overlap[] = { op(0, TQ_ENQ, 1, 0, 1, 4), op(1, TQ_DEQ, 0, WEFT_NONE, 2, 6),
					   op(0, TQ_DEQ, 0, 1, 5, 7) };
	CHECK(check(&tryq_model, overlap, 3, &res) == WEFT_CHECK_LINEARIZABLE, "overlap");
}

static void test_trylock(void)
{
	weft_check_result res;
	const weft_op_record fail_free[] = { op(0, LOCK_TRY, 0, 0, 1, 2), op(0, LOCK_TRY, 0, 1, 3, 4),
					     op(0, LOCK_UNLOCK, 0, 0, 5, 6), op(1, LOCK_TRY, 0, 1, 7, 8) };
	CHECK(check(&lock_model, fail_free, 4, &res) == WEFT_CHECK_LINEARIZABLE,
	      "a trylock may fail on a free lock");
	const weft_op_record both[] = { op(0, LOCK_TRY, 0, 1, 1, 2), op(1, LOCK_TRY, 0, 1, 3, 4) };
	CHECK(check(&lock_model, both, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "two owners");
	CHECK(res.n_stuck_outcomes == 1 && res.stuck_outcomes[0] == 0, "held: only 0");
	/* Overlapping: the unlock may go first only if someone holds the lock. */
	const weft_op_record unlock_free[] = { op(0, LOCK_UNLOCK, 0, 0, 1, 2), op(1, LOCK_TRY, 0, 1, 3, 4) };
	CHECK(check(&lock_model, unlock_free, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE,
	      "an unlock of a free lock has no outcome");
	CHECK(res.stuck == 0 && res.n_stuck_outcomes == 0, "no outcome: %zu", res.n_stuck_outcomes);
	const weft_op_record unlock_overlap[] = { op(0, LOCK_UNLOCK, 0, 0, 1, 4), op(1, LOCK_TRY, 0, 1, 2, 3) };
	CHECK(check(&lock_model, unlock_overlap, 2, &res) == WEFT_CHECK_LINEARIZABLE,
	      "the unlock after the overlapping trylock");
}

static void test_coin(void)
{
	weft_check_result res;
	const weft_op_record one[] = { op(0, COIN_PICK, 0, 1, 1, 2), op(1, COIN_GET, 0, 1, 3, 4) };
	CHECK(check(&coin_model, one, 2, &res) == WEFT_CHECK_LINEARIZABLE, "pick = 1, get = 1");
	const weft_op_record liar[] = { op(0, COIN_PICK, 0, 0, 1, 2), op(1, COIN_GET, 0, 1, 3, 4) };
	CHECK(check(&coin_model, liar, 2, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "pick = 0, get = 1");
	/* A pick whose result was never observed: any outcome, the one get needs. */
	const weft_op_record unseen[] = { op(0, COIN_PICK, 0, 0, 1, 0), op(1, COIN_GET, 0, 1, 3, 4),
					  op(1, COIN_GET, 0, 1, 5, 6) };
	CHECK(check(&coin_model, unseen, 3, &res) == WEFT_CHECK_LINEARIZABLE, "pending pick");
	const weft_op_record flip[] = { op(0, COIN_PICK, 0, 0, 1, 0), op(1, COIN_GET, 0, 1, 3, 4),
					op(1, COIN_GET, 0, 0, 5, 6) };
	CHECK(check(&coin_model, flip, 3, &res) == WEFT_CHECK_NOT_LINEARIZABLE,
	      "one pending pick cannot give both sides");
}

/* The explanation's last line lists the outcomes, in the model's order. */
static void test_explain_text(void)
{
	static const weft_op ops[] = { [TQ_ENQ] = { .name = "enq", .n_args = 1 },
				       [TQ_DEQ] = { .name = "deq" } };
	weft_check_result res;
	const weft_op_record wrong[] = { op(0, TQ_ENQ, 1, 0, 1, 2), op(1, TQ_DEQ, 0, 2, 3, 4) };
	check(&tryq_model, wrong, 2, &res);
	FILE *f = tmpfile();
	REQUIRE(f != NULL, "tmpfile");
	weft_check_explain(f, &(weft_history){ wrong, 2 }, ops, &res);
	char text[512] = { 0 };
	rewind(f);
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	CHECK(n > 0 && strcmp(text, "  longest linearizable prefix: 1 of 2 operations\n"
				    "    1. thread 0  enq(1) = 0\n"
				    "  cannot be placed next: thread 1  deq() = 2, but the model "
				    "allows one of 1, none\n") == 0, "text:\n%s", text);
}

/* Thousands of dequeues, one at a time: forced steps where the queue is empty. */
static void test_long_sequential(void)
{
	enum { N = 4000 };
	weft_op_record *h = calloc(N, sizeof *h);
	REQUIRE(h != NULL, "calloc");
	for (uint32_t i = 0; i < N; i++) {
		unsigned o = i % 4 == 0 ? TQ_ENQ : TQ_DEQ;
		int64_t result = o == TQ_ENQ ? 0 : i % 4 == 2 ? 7 : WEFT_NONE;
		h[i] = op(0, o, 7, result, 2 * i + 1, 2 * i + 2);   /* enq(7) deq()=none deq()=7 deq()=none */
	}
	weft_check_result res;
	CHECK(check(&tryq_model, h, N, &res) == WEFT_CHECK_LINEARIZABLE, "long: %d", res.verdict);
	CHECK(res.cost <= 2 * N, "long: cost %llu", (unsigned long long)res.cost);
	h[N - 2].result = 8;
	CHECK(check(&tryq_model, h, N, &res) == WEFT_CHECK_NOT_LINEARIZABLE && res.stuck == N - 2,
	      "long, one wrong result: %d", res.verdict);
	free(h);
}

/* ---- the brute force, and random histories ---- */

static int before(const weft_op_record *a, const weft_op_record *b)
{
	return !a->pending && a->returned_at < b->invoked_at;
}

/*
 * Some order of the ops not in `done`, with some outcome each, explains the
 * rest.  Every model here fits its state in a test_queue (the lock's and the
 * coin's int64_t is its first word).
 */
static int brute(const weft_model *m, const weft_op_record *h, size_t n, unsigned done,
		 const test_queue *state)
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
		unsigned outs = ready ? m->outcomes(m, state, h[i].op, h[i].args) : 0;
		for (unsigned k = 0; k < outs; k++) {
			test_queue next = *state;
			int64_t got = m->apply_outcome(m, &next, h[i].op, h[i].args, k);
			if ((h[i].pending || got == h[i].result) && brute(m, h, n, done | 1u << i, &next))
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

/* n ops on up to 3 threads, random intervals, results near the right ones. */
static size_t random_history(const weft_model *m, weft_op_record *h, uint64_t *s)
{
	size_t n = 1 + rnd(s) % 6;
	uint32_t t[3] = { 1, 1, 1 };
	for (size_t i = 0; i < n; i++) {
		unsigned th = (unsigned)(rnd(s) % 3);
		unsigned o = (unsigned)(rnd(s) % 2);
		int64_t result = rnd(s) % 3 == 0 ? WEFT_NONE : (int64_t)(rnd(s) % 3);
		if (m == &lock_model)
			result = o == LOCK_TRY ? (int64_t)(rnd(s) % 2) : 0;
		if (m == &coin_model)
			result = (int64_t)(rnd(s) % 2);
		if (m == &tryq_model && o == TQ_ENQ)
			result = 0;
		uint32_t inv = t[th] + (uint32_t)(rnd(s) % 3), ret = inv + 1 + (uint32_t)(rnd(s) % 6);
		h[i] = op(th, o, (int64_t)(1 + rnd(s) % 2), result, inv, rnd(s) % 8 == 0 ? 0 : ret);
		t[th] = h[i].pending ? UINT32_MAX / 2 : ret + 1;
	}
	/* in order of invocation, as weft_check wants; a pending thread's later ops dropped */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (h[i].invoked_at < UINT32_MAX / 2)
			h[kept++] = h[i];
	for (size_t i = 1; i < kept; i++)
		for (size_t j = i; j > 0 && h[j - 1].invoked_at > h[j].invoked_at; j--) {
			weft_op_record x = h[j];
			h[j] = h[j - 1], h[j - 1] = x;
		}
	return kept;
}

static void test_against_brute_force(const weft_model *m)
{
	uint64_t s = 0x9E3779B97F4A7C15u;
	unsigned counts[2] = { 0, 0 };
	for (int round = 0; round < 3000; round++) {
		weft_op_record h[8];
		size_t n = random_history(m, h, &s);
		weft_check_result res;
		weft_check_verdict v = check(m, h, n, &res);
		test_queue init = { 0 };
		int expect = brute(m, h, n, 0, &init);
		CHECK(v == (expect ? WEFT_CHECK_LINEARIZABLE : WEFT_CHECK_NOT_LINEARIZABLE),
		      "%s round %d: checker %d, brute force %d", m->name, round, v, expect);
		counts[expect]++;
	}
	CHECK(counts[0] > 300 && counts[1] > 300, "%s: both verdicts: %u rejected, %u accepted",
	      m->name, counts[0], counts[1]);
}

int main(void)
{
	test_try_queue();
	test_trylock();
	test_coin();
	test_explain_text();
	test_long_sequential();
	test_against_brute_force(&tryq_model);
	test_against_brute_force(&lock_model);
	test_against_brute_force(&coin_model);
	return check_summary("test_oracle_outcomes");
}
