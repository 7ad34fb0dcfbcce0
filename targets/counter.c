/*
 * targets/counter.c - the seeds' concurrent counter.
 *
 * Structure: one atomic 32-bit counter; operation: increment.
 * Seeded bug (default build): increment is a load followed by a store, so two
 * increments that interleave between them lose an update.  Fixed build
 * (-DWEFT_COUNTER_FIXED): one fetch_add.
 * Known minimal failing interleaving: 2 threads, 1 increment each, 1 preemption:
 *   t0 loads 0 ~~preempted~~> t1 loads 0, stores 1, finishes -> t0 stores 1.
 *   Input bytes: 00 00 00 03 (corpus/counter/lost-update-minimal.bin).
 * Oracle: linearizability against a counter model; get() runs once after all
 * threads (final_op), so a lost update shows as get() returning too little.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

typedef struct counter { _Atomic uint32_t value; } counter;

static void counter_increment(counter *c)
{
#ifdef WEFT_COUNTER_FIXED
	weft_atomic_fetch_add(&c->value, 1);
#else
	uint32_t v = weft_atomic_load(&c->value);      /* bug: not one atomic step */
	weft_atomic_store(&c->value, v + 1);
#endif
}

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	counter_increment(self);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((counter *)self)->value);
}

static void *counter_setup(void) { return calloc(1, sizeof(counter)); }
static void counter_teardown(void *self) { free(self); }

/* The model: a number that increments. */
enum { OP_INCREMENT, OP_GET };

static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *value = state;
	if (op == OP_INCREMENT) {
		++*value;
		return 0;
	}
	return *value;
}

static const weft_model counter_model = {
	.name = "counter", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op counter_ops[] = {
	[OP_INCREMENT] = { .name = "increment", .run = op_increment },
	[OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target counter_target = {
#ifdef WEFT_COUNTER_FIXED
	.name = "counter_fixed",
#else
	.name = "counter_buggy",
#endif
	.ops = counter_ops, .n_ops = 2,
	.setup = counter_setup, .teardown = counter_teardown,
	.model = &counter_model, .final_op = &counter_ops[OP_GET],
};
WEFT_FUZZ_TARGET(counter_target)
