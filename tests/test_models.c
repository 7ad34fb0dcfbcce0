/*
 * tests/test_models.c - the built-in sequential models (weft/models.h, oracle/models.c).
 *
 * What each model answers, one operation at a time (queue FIFO, stack LIFO,
 * empty -> WEFT_NONE, cas semantics, set/map results, contents() digits, the
 * deque at both ends); random operation
 * sequences against an obviously correct reference (plain arrays); and the
 * contract the checker relies on for states that own memory: a copy is equal
 * and hashes equal, is independent of the original, equal contents reached by
 * different routes are equal, different contents are not, and destroy frees
 * everything (ASan's leak check in the sanitizer build).
 */
#include <string.h>

#include "oracle/models.h"
#include "check.h"

/* A state of model m, initialised the way the checker does (from zeroed memory). */
static void *state_new(const weft_model *m)
{
	void *s = calloc(1, m->state_size);
	REQUIRE(s != NULL, "calloc");
	m->init(s);
	return s;
}

static void *state_copy(const weft_model *m, const void *src)
{
	void *d = malloc(m->state_size);
	REQUIRE(d != NULL, "malloc");
	if (m->copy)
		m->copy(d, src);
	else
		memcpy(d, src, m->state_size);
	return d;
}

static void state_free(const weft_model *m, void *s)
{
	if (m->destroy)
		m->destroy(s);
	free(s);
}

static int64_t apply0(const weft_model *m, void *s, unsigned op)
{
	int64_t args[WEFT_MAX_ARGS] = { 0 };
	return m->apply(s, op, args);
}

static int64_t apply1(const weft_model *m, void *s, unsigned op, int64_t a)
{
	int64_t args[WEFT_MAX_ARGS] = { a, 0 };
	return m->apply(s, op, args);
}

static int64_t apply2(const weft_model *m, void *s, unsigned op, int64_t a, int64_t b)
{
	int64_t args[WEFT_MAX_ARGS] = { a, b };
	return m->apply(s, op, args);
}

static void test_register(void)
{
	const weft_model *m = &weft_model_register;
	void *s = state_new(m);
	CHECK(apply0(m, s, WEFT_REGISTER_READ) == WEFT_NONE, "a fresh register holds none");
	CHECK(apply2(m, s, WEFT_REGISTER_CAS, 0, 1) == 0, "cas(0, 1) on none fails");
	CHECK(apply2(m, s, WEFT_REGISTER_CAS, WEFT_NONE, 1) == 1, "cas(none, 1) on none swaps");
	CHECK(apply1(m, s, WEFT_REGISTER_WRITE, 5) == 0, "write returns 0");
	CHECK(apply0(m, s, WEFT_REGISTER_READ) == 5, "read after write 5");
	CHECK(apply2(m, s, WEFT_REGISTER_CAS, 4, 6) == 0, "cas with the wrong old fails");
	CHECK(apply0(m, s, WEFT_REGISTER_READ) == 5, "a failed cas changes nothing");
	CHECK(apply2(m, s, WEFT_REGISTER_CAS, 5, 6) == 1, "cas with the right old swaps");
	CHECK(apply0(m, s, WEFT_REGISTER_READ) == 6, "read after cas(5, 6)");
	CHECK(m->copy == NULL && m->partition == NULL && m->state_size == sizeof(int64_t),
	      "register: a plain 8-byte state, not partitioned");
	state_free(m, s);
}

static void test_counter(void)
{
	const weft_model *m = &weft_model_counter;
	void *s = state_new(m);
	CHECK(apply0(m, s, WEFT_COUNTER_GET) == 0, "a fresh counter is 0");
	CHECK(apply0(m, s, WEFT_COUNTER_INCREMENT) == 0, "increment returns 0");
	CHECK(apply1(m, s, WEFT_COUNTER_ADD, 5) == 0, "add returns 0");
	CHECK(apply1(m, s, WEFT_COUNTER_ADD, -2) == 0, "add of a negative");
	CHECK(apply0(m, s, WEFT_COUNTER_GET) == 4, "1 + 5 - 2");
	apply1(m, s, WEFT_COUNTER_ADD, INT64_MAX - 4);
	apply0(m, s, WEFT_COUNTER_INCREMENT);   /* wraps, no signed overflow (UBSan) */
	CHECK(apply0(m, s, WEFT_COUNTER_GET) == INT64_MIN, "wraps like uint64_t");
	state_free(m, s);
}

static void test_queue_basics(void)
{
	const weft_model *m = &weft_model_queue;
	void *s = state_new(m);
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == WEFT_NONE, "empty queue: deq gives none");
	CHECK(apply1(m, s, WEFT_QUEUE_ENQ, 1) == 0, "enq returns 0");
	apply1(m, s, WEFT_QUEUE_ENQ, 2);
	apply1(m, s, WEFT_QUEUE_ENQ, 3);
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == 1, "FIFO: first in, first out");
	apply1(m, s, WEFT_QUEUE_ENQ, 4);
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == 2, "FIFO");
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == 3, "FIFO");
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == 4, "FIFO");
	CHECK(apply0(m, s, WEFT_QUEUE_DEQ) == WEFT_NONE, "emptied queue: none");
	state_free(m, s);
}

static void test_stack_basics(void)
{
	const weft_model *m = &weft_model_stack;
	void *s = state_new(m);
	CHECK(apply0(m, s, WEFT_STACK_POP) == WEFT_NONE, "empty stack: pop gives none");
	CHECK(apply1(m, s, WEFT_STACK_PUSH, 1) == 0, "push returns 0");
	apply1(m, s, WEFT_STACK_PUSH, 2);
	CHECK(apply0(m, s, WEFT_STACK_POP) == 2, "LIFO: last in, first out");
	apply1(m, s, WEFT_STACK_PUSH, 3);
	CHECK(apply0(m, s, WEFT_STACK_POP) == 3, "LIFO");
	CHECK(apply0(m, s, WEFT_STACK_POP) == 1, "LIFO");
	CHECK(apply0(m, s, WEFT_STACK_POP) == WEFT_NONE, "emptied stack: none");
	state_free(m, s);
}

static void test_set_basics(void)
{
	const weft_model *m = &weft_model_set;
	void *s = state_new(m);
	CHECK(apply1(m, s, WEFT_SET_CONTAINS, 7) == 0, "empty set contains nothing");
	CHECK(apply1(m, s, WEFT_SET_ADD, 7) == 1, "add of a new key: 1");
	CHECK(apply1(m, s, WEFT_SET_ADD, 7) == 0, "add of a present key: 0");
	CHECK(apply1(m, s, WEFT_SET_ADD, -3) == 1, "negative keys");
	CHECK(apply1(m, s, WEFT_SET_CONTAINS, 7) == 1, "contains after add");
	CHECK(apply1(m, s, WEFT_SET_REMOVE, 7) == 1, "remove of a present key: 1");
	CHECK(apply1(m, s, WEFT_SET_REMOVE, 7) == 0, "remove of an absent key: 0");
	CHECK(apply1(m, s, WEFT_SET_CONTAINS, 7) == 0, "contains after remove");
	CHECK(apply1(m, s, WEFT_SET_CONTAINS, -3) == 1, "other keys untouched");
	int64_t args[WEFT_MAX_ARGS] = { 42, 0 };
	CHECK(m->partition && m->partition(WEFT_SET_CONTAINS, args) == 42, "partition by key");
	state_free(m, s);
}

static void test_map_basics(void)
{
	const weft_model *m = &weft_model_map;
	void *s = state_new(m);
	CHECK(apply1(m, s, WEFT_MAP_GET, 1) == WEFT_NONE, "empty map: get gives none");
	CHECK(apply2(m, s, WEFT_MAP_PUT, 1, 10) == WEFT_NONE, "put of a new key: none");
	CHECK(apply2(m, s, WEFT_MAP_PUT, 1, 20) == 10, "put returns the previous value");
	CHECK(apply2(m, s, WEFT_MAP_PUT, 0, 5) == WEFT_NONE, "a second key");
	CHECK(apply1(m, s, WEFT_MAP_GET, 1) == 20, "get");
	CHECK(apply1(m, s, WEFT_MAP_REMOVE, 1) == 20, "remove returns the previous value");
	CHECK(apply1(m, s, WEFT_MAP_REMOVE, 1) == WEFT_NONE, "remove of an absent key: none");
	CHECK(apply1(m, s, WEFT_MAP_GET, 0) == 5, "other keys untouched");
	int64_t args[WEFT_MAX_ARGS] = { 9, 3 };
	CHECK(m->partition && m->partition(WEFT_MAP_PUT, args) == 9, "partition by key");
	state_free(m, s);
}

/* ---- long random runs against a reference (a plain array, a bitmap) ---- */

enum { LONG_RUN = 10000, KEYS = 64 };

static void test_queue_stack_long(const weft_model *m, int lifo)
{
	static int64_t ref[LONG_RUN];
	size_t head = 0, tail = 0, mismatches = 0;
	uint64_t rng = 0x1234 + (uint64_t)lifo;
	void *s = state_new(m);
	for (int64_t i = 0; i < LONG_RUN; i++) {
		if (test_rand(&rng) % 3 != 0) {   /* more pushes than pops: grows to thousands */
			apply1(m, s, 0, i);
			ref[tail++] = i;
			continue;
		}
		int64_t want = head == tail ? WEFT_NONE : lifo ? ref[--tail] : ref[head++];
		mismatches += apply0(m, s, 1) != want;
	}
	while (head != tail)
		mismatches += apply0(m, s, 1) != (lifo ? ref[--tail] : ref[head++]);
	CHECK(mismatches == 0, "%s: %zu results differ from the reference", m->name, mismatches);
	CHECK(apply0(m, s, 1) == WEFT_NONE, "%s: empty at the end", m->name);
	state_free(m, s);
}

static void test_set_map_long(const weft_model *m, int is_map)
{
	int64_t ref[KEYS];
	size_t mismatches = 0;
	uint64_t rng = 0x5678 + (uint64_t)is_map;
	for (int k = 0; k < KEYS; k++)
		ref[k] = WEFT_NONE;
	void *s = state_new(m);
	for (int i = 0; i < LONG_RUN; i++) {
		unsigned op = (unsigned)(test_rand(&rng) % 3);
		int64_t k = (int64_t)(test_rand(&rng) % KEYS), v = i, got;
		int present = ref[k] != WEFT_NONE;
		got = apply2(m, s, op, k, v);
		if (is_map) {
			mismatches += got != ref[k];
			ref[k] = op == WEFT_MAP_PUT ? v : op == WEFT_MAP_REMOVE ? WEFT_NONE : ref[k];
		} else {
			mismatches += got != (op == WEFT_SET_ADD ? !present : present);
			ref[k] = op == WEFT_SET_ADD ? 1 : op == WEFT_SET_REMOVE ? WEFT_NONE : ref[k];
		}
	}
	CHECK(mismatches == 0, "%s: %zu results differ from the reference", m->name, mismatches);
	state_free(m, s);
}

/* ---- copy / equal / hash / destroy ---- */

static int same(const weft_model *m, const void *a, const void *b)
{
	return m->equal(a, b) && m->hash(a) == m->hash(b);
}

/* Fills a state with random operations of model m (op 0 adds, others vary). */
static void *random_state(const weft_model *m, uint64_t seed, int n)
{
	void *s = state_new(m);
	for (int i = 0; i < n; i++) {
		unsigned op = test_rand(&seed) % 4 == 0 ? 1u : 0u;
		apply2(m, s, op, (int64_t)(test_rand(&seed) % 50), i);
	}
	return s;
}

static void test_copy_contract(const weft_model *m)
{
	REQUIRE(m->copy && m->destroy && m->equal && m->hash, "%s: all four functions", m->name);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		void *s = random_state(m, seed, (int)(seed * 7)), *c = state_copy(m, s);
		void *witness = state_copy(m, s);
		CHECK(same(m, s, c), "%s seed %llu: a copy is equal and hashes equal", m->name,
		      (unsigned long long)seed);
		for (int i = 0; i < 5; i++)   /* change the copy: the original must not move */
			apply2(m, c, i % 2 ? 1u : 0u, 1000 + i, i);
		CHECK(same(m, s, witness), "%s seed %llu: the original is independent of its copy",
		      m->name, (unsigned long long)seed);
		CHECK(!m->equal(s, c), "%s seed %llu: changed copy differs", m->name,
		      (unsigned long long)seed);
		state_free(m, s);
		state_free(m, c);
		state_free(m, witness);
	}
}

/* Equal contents, different routes (a queue's dead front, a set's insertion order). */
static void test_equal_by_contents(void)
{
	const weft_model *q = &weft_model_queue, *set = &weft_model_set;
	void *a = state_new(q), *b = state_new(q);
	apply1(q, a, WEFT_QUEUE_ENQ, 9);
	apply1(q, a, WEFT_QUEUE_ENQ, 1);
	apply1(q, a, WEFT_QUEUE_ENQ, 2);
	apply0(q, a, WEFT_QUEUE_DEQ);
	apply1(q, b, WEFT_QUEUE_ENQ, 1);
	apply1(q, b, WEFT_QUEUE_ENQ, 2);
	CHECK(same(q, a, b), "queues [1 2] reached two ways are one state");
	void *c = state_new(q);
	apply1(q, c, WEFT_QUEUE_ENQ, 2);
	apply1(q, c, WEFT_QUEUE_ENQ, 1);
	CHECK(!q->equal(a, c), "queue [1 2] differs from [2 1]");
	void *e1 = state_new(q), *e2 = state_new(q);
	apply1(q, e2, WEFT_QUEUE_ENQ, 0);
	apply0(q, e2, WEFT_QUEUE_DEQ);
	CHECK(same(q, e1, e2), "a fresh and an emptied queue are one state");
	CHECK(!q->equal(e1, a), "empty differs from non-empty");
	void *s1 = state_new(set), *s2 = state_new(set);
	for (int64_t k = 0; k < 10; k++) {
		apply1(set, s1, WEFT_SET_ADD, k);
		apply1(set, s2, WEFT_SET_ADD, 9 - k);
	}
	CHECK(same(set, s1, s2), "sets built in opposite orders are one state");
	apply1(set, s2, WEFT_SET_REMOVE, 4);
	CHECK(!set->equal(s1, s2), "sets differing in one key differ");
	void *states[] = { a, b, c, e1, e2 };
	for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
		state_free(q, states[i]);
	state_free(set, s1);
	state_free(set, s2);
}

/* contents(): the elements as decimal digits, oldest (queue), top (stack), front (deque) first. */
static void test_contents(void)
{
	const weft_model *q = &weft_model_queue, *st = &weft_model_stack, *d = &weft_model_deque;
	void *a = state_new(q), *b = state_new(st), *c = state_new(d);
	CHECK(apply0(q, a, WEFT_QUEUE_CONTENTS) == 0, "empty queue: 0");
	for (int64_t v = 1; v <= 3; v++) {
		apply1(q, a, WEFT_QUEUE_ENQ, v);
		apply1(st, b, WEFT_STACK_PUSH, v);
		apply1(d, c, v == 2 ? WEFT_DEQUE_PUSH_FRONT : WEFT_DEQUE_PUSH_BACK, v);
	}
	CHECK(apply0(q, a, WEFT_QUEUE_CONTENTS) == 123, "queue: oldest first");
	CHECK(apply0(st, b, WEFT_STACK_CONTENTS) == 321, "stack: top first");
	CHECK(apply0(d, c, WEFT_DEQUE_CONTENTS) == 213, "deque: front first");
	CHECK(apply0(q, a, WEFT_QUEUE_CONTENTS) == 123, "contents changes nothing");
	state_free(q, a), state_free(st, b), state_free(d, c);
}

/* Random pushes and pops at both ends against a plain array with room both sides. */
static void test_deque_long(void)
{
	const weft_model *d = &weft_model_deque;
	enum { N = 3000 };
	static int64_t ref[2 * N + 1];
	size_t lo = N, hi = N;
	void *s = state_new(d);
	uint64_t seed = 7;
	CHECK(apply0(d, s, WEFT_DEQUE_POP_FRONT) == WEFT_NONE && apply0(d, s, WEFT_DEQUE_POP_BACK) ==
	      WEFT_NONE, "empty deque: none at both ends");
	int ok = 1;
	for (int64_t i = 0; i < N && ok; i++) {
		unsigned op = (unsigned)(test_rand(&seed) % 4);
		int64_t got = apply1(d, s, op, i), want = 0;
		if (op == WEFT_DEQUE_PUSH_FRONT)
			ref[--lo] = i;
		else if (op == WEFT_DEQUE_PUSH_BACK)
			ref[hi++] = i;
		else if (lo == hi)
			want = WEFT_NONE;
		else
			want = op == WEFT_DEQUE_POP_FRONT ? ref[lo++] : ref[--hi];
		ok = got == want;
		CHECK(ok, "deque step %lld: got %lld, want %lld", (long long)i, (long long)got,
		      (long long)want);
	}
	state_free(d, s);
}

static void test_lookup(void)
{
	static const char *const names[] = { "register", "counter", "queue", "stack", "set", "map",
					     "deque" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const oracle_builtin *b = oracle_builtin_find(names[i]);
		REQUIRE(b != NULL, "built-in '%s' found", names[i]);
		CHECK(strcmp(b->model->name, names[i]) == 0 && b->summary, "%s: name, summary",
		      names[i]);
		for (unsigned op = 0; op < b->n_ops; op++)
			CHECK(b->ops[op].run == NULL && oracle_builtin_op(b, b->ops[op].name) == (int)op,
			      "%s: op %u named and found by name", names[i], op);
	}
	CHECK(oracle_builtin_find("heap") == NULL, "unknown model");
	const oracle_builtin *q = oracle_builtin_find("queue");
	CHECK(oracle_builtin_op(q, "deq") == WEFT_QUEUE_DEQ && q->ops[WEFT_QUEUE_ENQ].n_args == 1,
	      "queue ops follow the enum");
	CHECK(oracle_builtin_op(q, "push") == -1, "unknown op");
	const oracle_builtin *r = oracle_builtin_find("register");
	CHECK(r->model == &weft_model_register && r->ops[WEFT_REGISTER_CAS].n_args == 2,
	      "register cas takes 2 arguments");
}

int main(void)
{
	test_register();
	test_counter();
	test_queue_basics();
	test_stack_basics();
	test_set_basics();
	test_map_basics();
	test_queue_stack_long(&weft_model_queue, 0);
	test_queue_stack_long(&weft_model_stack, 1);
	test_set_map_long(&weft_model_set, 0);
	test_set_map_long(&weft_model_map, 1);
	test_copy_contract(&weft_model_queue);
	test_copy_contract(&weft_model_stack);
	test_copy_contract(&weft_model_set);
	test_copy_contract(&weft_model_map);
	test_copy_contract(&weft_model_deque);
	test_contents();
	test_deque_long();
	test_equal_by_contents();
	test_lookup();
	return check_summary("test_models");
}
