/*
 * tests/test_atomic_types.c - every instrumented atomic on 8/16/32/64-bit integers
 * and pointers gives the C11 result, inside a managed execution (where each is a
 * recorded switch point) and outside one (plain C11).  Built twice: as is, and
 * with -DWEFT_NO_INSTRUMENT (then no step may be recorded at all).
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "weft/weft.h"

#define EXERCISE(type, obj)                                                            \
	do {                                                                           \
		type expected = 5;                                                     \
		weft_atomic_store(&(obj), (type)5);                                    \
		ok &= weft_atomic_load(&(obj)) == 5;                                   \
		ok &= weft_atomic_exchange(&(obj), (type)7) == 5;                      \
		ok &= weft_atomic_compare_exchange_strong(&(obj), &expected, (type)9) == 0; \
		ok &= expected == 7;                                                   \
		ok &= weft_atomic_compare_exchange_weak(&(obj), &expected, (type)9) == 1; \
		ok &= weft_atomic_fetch_add(&(obj), (type)3) == 9;                     \
		ok &= weft_atomic_fetch_sub(&(obj), (type)2) == 12;                    \
		ok &= weft_atomic_fetch_and(&(obj), (type)6) == 10;                    \
		ok &= weft_atomic_fetch_or(&(obj), (type)1) == 2;                      \
		ok &= weft_atomic_fetch_xor_explicit(&(obj), (type)3, memory_order_relaxed) == 3; \
		ok &= weft_atomic_load_explicit(&(obj), memory_order_acquire) == 0;    \
	} while (0)

typedef struct cells {
	_Atomic uint8_t u8;
	_Atomic int16_t i16;
	_Atomic uint32_t u32;
	_Atomic int64_t i64;
	_Atomic(int *) ptr;
	int target;
} cells;

/* Returns 1 when every result matched C11; 11 steps per type, 5 for the pointer. */
static int64_t exercise_all(void *self, const int64_t *args)
{
	cells *c = self;
	int ok = 1;
	(void)args;
	EXERCISE(uint8_t, c->u8);
	EXERCISE(int16_t, c->i16);
	EXERCISE(uint32_t, c->u32);
	EXERCISE(int64_t, c->i64);
	int *expected = NULL;
	weft_atomic_store(&c->ptr, NULL);
	ok &= weft_atomic_compare_exchange_strong(&c->ptr, &expected, &c->target) == 1;
	ok &= weft_atomic_load(&c->ptr) == &c->target;
	ok &= weft_atomic_exchange(&c->ptr, NULL) == &c->target;
	ok &= weft_atomic_load(&c->ptr) == NULL;
	weft_yield();
	return ok;
}

static int64_t last_result = -1;

static int remember_result(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)self;
	(void)msg;
	(void)cap;
	last_result = h->n_ops ? h->ops[0].result : -1;
	return 0;
}

static void *cells_setup(void) { return calloc(1, sizeof(cells)); }
static void cells_teardown(void *c) { free(c); }

static const weft_op ops[] = { { .name = "exercise", .run = exercise_all } };
static const weft_target target = {
	.name = "atomic_types", .ops = ops, .n_ops = 1, .min_threads = 1, .max_threads = 1,
	.setup = cells_setup, .teardown = cells_teardown, .validate = remember_result,
};

int main(void)
{
	cells *plain = cells_setup();
	CHECK(exercise_all(plain, NULL) == 1, "outside an execution: a result differs from C11");
	cells_teardown(plain);

	weft_runner *r = weft_runner_new(&target);
	weft_result res;
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_PASS, "run");
	CHECK(last_result == 1, "inside an execution: a result differs from C11");
#ifdef WEFT_NO_INSTRUMENT
	const uint64_t steps = 1;                 /* only the operation's start */
#else
	const uint64_t steps = 1 + 4 * 11 + 6;    /* start, 4 x 11 accesses, 5 pointer ops, yield */
#endif
	CHECK(res.steps == steps, "%llu switch points, expected %llu",
	      (unsigned long long)res.steps, (unsigned long long)steps);
	weft_runner_free(r);
	return check_summary("test_atomic_types");
}
