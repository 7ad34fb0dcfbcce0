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
 * Oracle: model equivalence: the final value equals the increments performed
 * (an increment cut short may or may not have happened).
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

static void *counter_setup(void) { return calloc(1, sizeof(counter)); }
static void counter_teardown(void *self) { free(self); }

/* Final value == increments performed (an increment cut short may or may not count). */
static int counter_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	uint32_t done = 0, pending = 0;
	for (size_t i = 0; i < h->n_ops; i++)
		h->ops[i].pending ? pending++ : done++;
	uint32_t value = atomic_load(&((counter *)self)->value);
	if (value >= done && value <= done + pending)
		return 0;
	snprintf(msg, cap, "final value %u after %u increments (lost update)", value, done);
	return 1;
}

static const weft_op counter_ops[] = { { .name = "increment", .run = op_increment } };
static const weft_target counter_target = {
#ifdef WEFT_COUNTER_FIXED
	.name = "counter_fixed",
#else
	.name = "counter_buggy",
#endif
	.ops = counter_ops, .n_ops = 1,
	.setup = counter_setup, .teardown = counter_teardown, .validate = counter_validate,
};
WEFT_FUZZ_TARGET(counter_target)
