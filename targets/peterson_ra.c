/*
 * targets/peterson_ra.c - Peterson's mutual exclusion, in the right order,
 * with release stores and acquire loads (issue 18: weak memory).
 *
 * Structure: as targets/peterson.c, whose fixed entry protocol this is: thread
 * i raises flag[i], gives way (turn = other), then waits while flag[other] &&
 * turn == other.  The critical section and its occupancy check are the same.
 * Operations: increment0() and increment1() -> 0 (groups 1 and 2: one thread
 * each), get() (final operation) -> the counter.
 *
 * Seeded bug (default build): the flags and turn are stored with release and
 * loaded with acquire, as a programmer might think enough for a lock.  The
 * entry is store-buffering: each thread stores its flag, then loads the
 * other's, and release/acquire orders nothing between a store and a later load
 * of another location.  So both threads may read the other's flag down (the
 * value before its store) and both enter.  Under sequential consistency it is
 * correct (WEFT_MEMORY=sc never fails).  Fixed build (-DWEFT_PETERSON_RA_FIXED):
 * seq_cst, the memory order Peterson's proof assumes.
 *
 * A failing interleaving (corpus/peterson_ra/both-inside.assertion.bin, 1 weak
 * read, 3 preemptions after --simplify; not proved minimal: systematic mode
 * runs into the step budget on the spin loop, as on targets/peterson.c):
 * t0 raises flag[1], sets turn ~~> t1 raises flag[0], sets turn ~~> t0 sees
 * flag[0] up and turn == 1, its own turn over, enters ~~preempted inside~~> t1
 * reads flag[1] from its initial 0 (no happens-before from t0's release store
 * to its acquire load: nothing was read from t0) and enters too.
 *
 * Oracle: the occupancy check (verdict "assertion"), then linearizability
 * against a counter with get() as the final operation.
 */
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

enum { OP_INCREMENT0, OP_INCREMENT1, OP_GET };

typedef struct peterson {
	_Atomic uint32_t flag[2];
	_Atomic uint32_t turn;
	_Atomic uint32_t inside;  /* threads in the critical section: the check */
	_Atomic uint32_t value;   /* guarded by the lock */
} peterson;

#ifdef WEFT_PETERSON_RA_FIXED
#define STORE memory_order_seq_cst   /* a store before a later load of another flag */
#define LOAD memory_order_seq_cst
#else
#define STORE memory_order_release   /* bug: orders nothing before the next load */
#define LOAD memory_order_acquire
#endif

static void peterson_lock(peterson *p, unsigned me)
{
	unsigned other = 1 - me;
	weft_atomic_store_explicit(&p->flag[me], 1, STORE);
	weft_atomic_store_explicit(&p->turn, other, STORE);
	while (weft_atomic_load_explicit(&p->flag[other], LOAD) &&   /* two lines: two sites */
	       weft_atomic_load_explicit(&p->turn, LOAD) == other)
		weft_yield();
}

static void peterson_unlock(peterson *p, unsigned me)
{
	weft_atomic_store_explicit(&p->flag[me], 0, STORE);
}

static int64_t peterson_increment(peterson *p, unsigned me)
{
	peterson_lock(p, me);
	if (weft_atomic_fetch_add(&p->inside, 1) != 0)
		weft_fail("two threads in the critical section");
	uint32_t v = weft_atomic_load_explicit(&p->value, memory_order_relaxed);
	weft_atomic_store_explicit(&p->value, v + 1, memory_order_relaxed);
	weft_atomic_fetch_sub(&p->inside, 1);
	peterson_unlock(p, me);
	return 0;
}

static int64_t op_increment0(void *self, const int64_t *args)
{
	(void)args;
	return peterson_increment(self, 0);
}

static int64_t op_increment1(void *self, const int64_t *args)
{
	(void)args;
	return peterson_increment(self, 1);
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((peterson *)self)->value);
}

static void *peterson_setup(void) { return calloc(1, sizeof(peterson)); }
static void peterson_teardown(void *self) { free(self); }

/* The model: a number that increments, whoever increments it. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *value = state;
	if (op == OP_GET)
		return *value;
	++*value;
	return 0;
}

static const weft_model counter_model = {
	.name = "counter", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op peterson_ops[] = {
	[OP_INCREMENT0] = { .name = "increment0", .run = op_increment0, .group = 1 },
	[OP_INCREMENT1] = { .name = "increment1", .run = op_increment1, .group = 2 },
	[OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target peterson_target = {
#ifdef WEFT_PETERSON_RA_FIXED
	.name = "peterson_ra_fixed",
#else
	.name = "peterson_ra_buggy",
#endif
	.ops = peterson_ops, .n_ops = 3,
	.min_threads = 2, .max_threads = 2,
	.setup = peterson_setup, .teardown = peterson_teardown,
	.model = &counter_model, .final_op = &peterson_ops[OP_GET],
};
WEFT_FUZZ_TARGET(peterson_target)
