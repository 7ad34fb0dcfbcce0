/*
 * targets/publish_once.c - message passing: a value published once behind a
 * ready flag (issue 18: weak memory).
 *
 * Structure: three atomics.  publish(v) claims the cell (an exchange on
 * `claimed`: only the first publisher writes), stores the payload, then raises
 * `ready`; read() returns -1 while `ready` is down, else the payload.  The
 * payload store and load are relaxed: the flag is what orders them.
 * Operations: publish(v), v in 1..2, -> 0 (published) or 1 (already taken),
 * on one thread only (group 1: a single publisher); read() -> -1 or the value.
 *
 * Seeded bug (default build): `ready` is stored and loaded relaxed, so a
 * reader that sees the flag up has no happens-before to the payload store and
 * may read the payload's old value, 0: a value nobody published.  Under
 * sequential consistency this cannot happen (the payload is stored first);
 * under WEFT_MEMORY=c11 (the default) it can.  Fixed build
 * (-DWEFT_PUBLISH_ONCE_FIXED): a release store and an acquire load of `ready`.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption,
 * 1 weak read; corpus/publish_once/stale-payload.linearizability.bin):
 *   t0 read() begins ~~preempted at its load of `ready`~~> t1 publish(1) runs
 *   to its end -> t0 reads ready = 1, then the payload from the initial
 *   value 0 instead of t1's store (t0 has no happens-before to it): read()
 *   returns 0.
 *
 * Oracle: linearizability against a once-cell model: publish claims and
 * writes at one point, read returns -1 before it and the value after.
 */
#include <stdlib.h>

#include "weft/weft.h"

enum { OP_PUBLISH, OP_READ };

#ifdef WEFT_PUBLISH_ONCE_FIXED
#define READY_STORE memory_order_release   /* publishes the payload store before it */
#define READY_LOAD memory_order_acquire    /* pairs with it: the payload is visible */
#else
#define READY_STORE memory_order_relaxed   /* bug: orders nothing */
#define READY_LOAD memory_order_relaxed
#endif

typedef struct cell {
	_Atomic int64_t claimed;   /* 0 until the first publish */
	_Atomic int64_t payload;
	_Atomic int64_t ready;     /* 1 once the payload is stored */
} cell;

static int64_t cell_publish(cell *c, int64_t v)
{
	/* relaxed: a read-modify-write always reads the newest value */
	if (weft_atomic_exchange_explicit(&c->claimed, 1, memory_order_relaxed) != 0)
		return 1;
	weft_atomic_store_explicit(&c->payload, v, memory_order_relaxed);
	weft_atomic_store_explicit(&c->ready, 1, READY_STORE);
	return 0;
}

static int64_t cell_read(cell *c)
{
	if (!weft_atomic_load_explicit(&c->ready, READY_LOAD))
		return -1;
	return weft_atomic_load_explicit(&c->payload, memory_order_relaxed);
}

static int64_t op_publish(void *self, const int64_t *args) { return cell_publish(self, args[0]); }
static int64_t op_read(void *self, const int64_t *args) { (void)args; return cell_read(self); }

static void *cell_setup(void) { return calloc(1, sizeof(cell)); }
static void cell_teardown(void *self) { free(self); }

/* The model: the published value, 0 = none yet. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *value = state;
	if (op == OP_READ)
		return *value ? *value : -1;
	if (*value)
		return 1;
	*value = args[0];
	return 0;
}

static const weft_model once_model = {
	.name = "once cell", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op cell_ops[] = {
	/* one publishing thread (group 1): a second publisher could return "taken"
	   before the first one's value is ready, which no once cell allows */
	[OP_PUBLISH] = { .name = "publish", .run = op_publish, .n_args = 1, .args = { { 1, 2 } },
			 .group = 1 },
	[OP_READ] = { .name = "read", .run = op_read },
};
static const weft_target publish_once_target = {
#ifdef WEFT_PUBLISH_ONCE_FIXED
	.name = "publish_once_fixed",
#else
	.name = "publish_once_buggy",
#endif
	.ops = cell_ops, .n_ops = 2,
	.setup = cell_setup, .teardown = cell_teardown,
	.model = &once_model,
};
WEFT_FUZZ_TARGET(publish_once_target)
