/*
 * tests/test_parts.c - scenarios with parts (Lincheck's init and post parts,
 * input/scenario.h): decoded only behind the 'S' marker (any other trailing
 * byte is left unread, so today's inputs mean what they meant), written back
 * by the encoder byte for byte, run before and after the parallel part with
 * logical times that order them so, checked (a history that is wrong only
 * because the init part is sequential must be rejected), printed, and removed
 * by the simplifier when the failure does not need them.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "check.h"
#include "../input/choice.h"
#include "../input/scenario.h"
#include "weft/mutate.h"
#include "weft/run.h"
#define WEFT_DRAIN_QUEUE_FIXED
#include "../targets/drain_queue.c"

/* t0: drain(); t1: enq(3); 'S' 2 1; init: enq(1), enq(2); post: drain() */
static const uint8_t with_parts[] = { 0x01, 0x00, 0x00, 0x02, 0x00, 0x53, 0x02, 0x01,
				      0x00, 0x00, 0x00, 0x01, 0x01 };

static void decode(input_scenario *s, const uint8_t *b, size_t n, input_choices *c)
{
	input_bounds bounds = input_bounds_of(&dq_target);
	input_choices_init(c, b, n);
	input_scenario_decode(s, &dq_target, &bounds, c);
}

static void test_decode_encode(void)
{
	static input_scenario s;
	input_choices c;
	decode(&s, with_parts, sizeof with_parts, &c);
	CHECK(s.n_threads == 2 && s.n_calls == 2, "the parallel part: %u threads", s.n_threads);
	CHECK(s.n_init == 2 && s.n_post == 1, "init %u, post %u", s.n_init, s.n_post);
	CHECK(s.init[0].op == OP_ENQ && s.init[0].args[0] == 1 && s.init[1].args[0] == 2,
	      "init: enq(1); enq(2)");
	CHECK(s.post[0].op == OP_DRAIN && s.post[0].thread == 2, "post: drain() on thread 2");
	input_bounds bounds = input_bounds_of(&dq_target);
	uint8_t out[64];
	size_t n = input_scenario_encode(&s, &dq_target, &bounds, out, sizeof out);
	CHECK(n == sizeof with_parts && memcmp(out, with_parts, n) == 0, "written back byte for byte");
	/* any byte but the marker after the threads: no parts, and it stays unread */
	uint8_t other[sizeof with_parts];
	memcpy(other, with_parts, sizeof other);
	other[5] = 0x54;
	decode(&s, other, sizeof other, &c);
	CHECK(s.n_init == 0 && s.n_post == 0 && input_used_front(&c) == 5,
	      "no marker: no parts, %zu bytes read", input_used_front(&c));
	s.n_init = s.n_post = 0;
	n = input_scenario_encode(&s, &dq_target, &bounds, out, sizeof out);
	CHECK(n == 4 && memcmp(out, with_parts, 4) == 0, "no parts: nothing written for them");
}

/* The history the oracle checked, as validate (called after it) sees it. */
static weft_op_record seen[16];
static size_t n_seen;
static int capture(void *instance, const weft_history *h, char *msg, size_t cap)
{
	(void)instance, (void)msg, (void)cap;
	n_seen = h->n_ops < 16 ? h->n_ops : 16;
	memcpy(seen, h->ops, n_seen * sizeof seen[0]);
	return 0;
}

/* The init part is sequential and first, the post part last, in the history's times. */
static void test_times(void)
{
	weft_target t = dq_target;
	t.validate = capture;
	weft_runner *r = weft_runner_new(&t);
	REQUIRE(r, "runner");
	weft_result res;
	CHECK(weft_runner_run(r, with_parts, sizeof with_parts, &res) == WEFT_PASS, "fixed: pass");
	REQUIRE(n_seen == 6, "2 init + 2 parallel + 1 post + final: %zu", n_seen);
	const weft_op_record *h = seen;
	CHECK(h[0].invoked_at == 0 && h[0].returned_at == 1 && h[1].invoked_at == 2 &&
	      h[1].returned_at == 3, "init operations one after the other, first");
	uint32_t last = 0;
	for (int i = 2; i < 4; i++) {
		CHECK(h[i].thread < 2 && h[i].invoked_at > h[1].returned_at, "parallel after init");
		last = h[i].returned_at > last ? h[i].returned_at : last;
	}
	CHECK(h[4].thread == 2 && h[4].invoked_at > last && h[5].invoked_at > h[4].returned_at,
	      "post after the parallel part, final last");
	size_t len;
	const int64_t *drained = weft_value_data(h[2].thread == 0 ? h[2].result : h[3].result, &len);
	CHECK(drained && len == 2 * sizeof(int64_t) && drained[0] == 1 && drained[1] == 2,
	      "the parallel drain() took the init part's elements in order");
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	weft_runner_report(r, out);
	fclose(out);
	CHECK(strstr(text, "  init: enq(1); enq(2)\n") && strstr(text, "  post: drain()\n") &&
	      strstr(text, "before all threads: enq(2) = 0\n") &&
	      strstr(text, "after all threads: drain() = [3]\n"), "printed:\n%s", text);
	free(text);
	weft_runner_free(r);
}

/* A model that drains newest first: wrong for enq(1); enq(2) in sequence, unless reordered. */
static int64_t lifo_apply(void *state, unsigned op, const int64_t *args)
{
	model_queue *m = state;
	if (op == OP_ENQ)
		return model_apply(state, op, args);
	int64_t rev[SLOTS];
	for (int64_t i = 0; i < m->n; i++)
		rev[i] = m->v[m->n - 1 - i];
	int64_t all = weft_value_seq(rev, (size_t)m->n);
	memset(m, 0, sizeof *m);
	return all;
}

static void test_init_is_sequential(void)
{
	static const weft_model lifo = { .name = "lifo", .state_size = sizeof(model_queue),
					 .init = model_init, .apply = lifo_apply };
	weft_target t = dq_target;
	t.model = &lifo;
	weft_runner *r = weft_runner_new(&t);
	REQUIRE(r, "runner");
	weft_result res;
	CHECK(weft_runner_run(r, with_parts, sizeof with_parts, &res) == WEFT_FAIL_LINEARIZABILITY,
	      "drain() = [1, 2] after init enq(1); enq(2) is not LIFO: rejected, got %d",
	      (int)res.verdict);
	weft_runner_free(r);
}

/* The failure does not need the parts: the simplifier removes them. */
static void test_simplified_away(void)
{
	weft_target t = dq_target;
	static const weft_model lifo = { .name = "lifo", .state_size = sizeof(model_queue),
					 .init = model_init, .apply = lifo_apply };
	t.model = &lifo;
	weft_runner *r = weft_runner_new(&t);
	REQUIRE(r, "runner");
	uint8_t buf[64];
	memcpy(buf, with_parts, sizeof with_parts);
	size_t n = weft_runner_simplify(r, buf, sizeof with_parts, sizeof buf, NULL, NULL);
	static input_scenario s;
	input_choices c;
	decode(&s, buf, n, &c);
	/* LIFO fails as soon as one drain sees two elements: init enq(1); enq(2) is still
	   needed (the threads alone never hold two when drained first), the post part is not */
	CHECK(s.n_post == 0, "the post part removed (%u left)", s.n_post);
	CHECK(s.n_init + s.n_calls <= 4, "no more operations than needed");
	weft_result res;
	CHECK(weft_runner_run(r, buf, n, &res) == WEFT_FAIL_LINEARIZABILITY, "still fails");
	weft_runner_free(r);
}

/* The fuzzer's crossover keeps the first parent's parts (the minimum the mutator knows). */
static void test_crossover(void)
{
	weft_runner *r = weft_runner_new(&dq_target);
	weft_mutator *m = r ? weft_mutator_new(r, 0) : NULL;
	REQUIRE(m, "mutator");
	/* t0: enq(2); t1: enq(3); no parts.  (Both parents' drain() on two threads would
	   break the single-consumer group, which the encoder cannot write back: the child's
	   bytes then read differently, parts included.) */
	const uint8_t other[] = { 0x00, 0x01, 0x00, 0x00, 0x02, 0x00 };
	int kept = 1;
	for (unsigned seed = 1; seed <= 20; seed++) {
		uint8_t out[256];
		size_t n = weft_crossover(m, with_parts, sizeof with_parts, other, sizeof other, out,
					  sizeof out, seed);
		static input_scenario s;
		input_choices c;
		decode(&s, out, n, &c);
		int ok = s.n_init == 2 && s.n_post == 1 && s.init[1].args[0] == 2;
		if (!ok)
			fprintf(stderr, "seed %u: %zu bytes, init %u post %u\n", seed, n, s.n_init, s.n_post);
		kept &= ok;
	}
	CHECK(kept, "every child keeps init enq(1); enq(2) and post drain()");
	weft_mutator_free(m);
	weft_runner_free(r);
}

int main(void)
{
	test_crossover();
	test_decode_encode();
	test_times();
	test_init_is_sequential();
	test_simplified_away();
	return check_summary("test_parts");
}
