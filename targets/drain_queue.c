/*
 * targets/drain_queue.c - a multi-producer queue whose consumer takes
 * everything at once: drain() returns all the elements as one sequence
 * (weft/value.h), which the report prints as [1, 2] and the model compares
 * whole - no packing of the elements into one number.
 *
 * Structure: an array of slots; enq(v) reserves a slot with fetch_add on
 * `tail`, then writes v into it; drain() (one consumer: group 1) reads `tail`,
 * takes slots head..tail in order and moves `head` to tail.
 * Seeded bug (default build): drain() skips a slot that is reserved but not
 * yet written, so that element is lost.  Fixed build (-DWEFT_DRAIN_QUEUE_FIXED):
 * drain() waits (yields) until the slot is written.
 * Known minimal failing interleaving: 2 threads, t0 enq(1), t1 drain(), one
 * preemption: t0 reserves slot 0 ~~preempted~~> t1 drains [] and moves head
 * past slot 0 -> t0 writes 1.  The final drain() returns [], the model [1].
 * Input bytes: 00 00 05 00 00 01 (corpus/drain_queue/lost-slot.linearizability.bin).
 * Oracle: linearizability against a FIFO queue whose drain() returns and
 * removes every element; drain() also runs once after all threads (final_op).
 */
#include <stdlib.h>

#include "weft/weft.h"

#define SLOTS (WEFT_MAX_THREADS * WEFT_MAX_OPS + 1)

typedef struct drain_queue {
	_Atomic int64_t slot[SLOTS];   /* 0: not written yet (elements are 1..3) */
	_Atomic uint32_t head, tail;
} drain_queue;

static int64_t op_enq(void *self, const int64_t *args)
{
	drain_queue *q = self;
	uint32_t i = weft_atomic_fetch_add(&q->tail, 1);
	weft_atomic_store(&q->slot[i], args[0]);
	return 0;
}

static int64_t op_drain(void *self, const int64_t *args)
{
	(void)args;
	drain_queue *q = self;
	int64_t got[SLOTS];
	size_t n = 0;
	uint32_t head = weft_atomic_load(&q->head), tail = weft_atomic_load(&q->tail);
	for (uint32_t i = head; i < tail; i++) {
		int64_t v = weft_atomic_load(&q->slot[i]);
#ifdef WEFT_DRAIN_QUEUE_FIXED
		while (v == 0) {   /* reserved, not written yet: its producer is between two steps */
			weft_yield();
			v = weft_atomic_load(&q->slot[i]);
		}
#endif
		if (v != 0)   /* the bug: an unwritten slot is skipped, and head moves past it */
			got[n++] = v;
	}
	weft_atomic_store(&q->head, tail);
	return weft_value_seq(got, n);
}

static void *dq_setup(void) { return calloc(1, sizeof(drain_queue)); }
static void dq_teardown(void *self) { free(self); }

/* The model: the elements in order; drain() returns them all and empties it. */
enum { OP_ENQ, OP_DRAIN };

typedef struct model_queue {
	int64_t n;
	int64_t v[SLOTS];
} model_queue;

static void model_init(void *state) { (void)state; /* zeroed: empty */ }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	model_queue *m = state;
	if (op == OP_ENQ) {
		m->v[m->n++] = args[0];
		return 0;
	}
	int64_t all = weft_value_seq(m->v, (size_t)m->n);
	for (int64_t i = 0; i < m->n; i++)
		m->v[i] = 0;   /* the state is compared and hashed as bytes */
	m->n = 0;
	return all;
}

static const weft_model dq_model = {
	.name = "drain-queue", .state_size = sizeof(model_queue),
	.init = model_init, .apply = model_apply,
};

static const weft_op dq_ops[] = {
	[OP_ENQ] = { .name = "enq", .run = op_enq, .n_args = 1, .args = { { 1, 3 } } },
	[OP_DRAIN] = { .name = "drain", .run = op_drain, .group = 1, .result_type = &weft_type_seq },
};
static const weft_target dq_target = {
#ifdef WEFT_DRAIN_QUEUE_FIXED
	.name = "drain_queue_fixed",
#else
	.name = "drain_queue_buggy",
#endif
	.ops = dq_ops, .n_ops = 2, .setup = dq_setup, .teardown = dq_teardown,
	.model = &dq_model, .final_op = &dq_ops[OP_DRAIN],
};
WEFT_FUZZ_TARGET(dq_target)
