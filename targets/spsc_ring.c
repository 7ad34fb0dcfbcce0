/*
 * targets/spsc_ring.c - the seeds' single-producer single-consumer ring buffer
 * (shared/seeds/003, section 5).
 *
 * Structure: RING_N = 2 slots and two indices that only grow, head (next to
 * read, written by the consumer) and tail (next to write, written by the
 * producer); slot i % RING_N holds element i.  Operations: enq(v) -> 1, or 0
 * when full (producer only: group 1); deq() -> v, or WEFT_NONE when empty
 * (consumer only: group 2); contents() (final operation only) -> the elements
 * as decimal digits, oldest first (0 = empty).
 *
 * Seeded bug (default build, the seed's): deq publishes head + 1 before it
 * reads the slot, so the producer, seeing room, overwrites the element being
 * dequeued.  Fixed build (-DWEFT_SPSC_RING_FIXED): read the slot, then publish.
 *
 * Known minimal failing interleaving (2 threads, 4 operations, 2 preemptions;
 * corpus/spsc_ring/overwrite-minimal.bin): t0 enq(3), enq(2) (now full)
 * ~~preempted~~> t1 deq() reads head 0, tail 2, publishes head 1 ~~preempted~~>
 * t0 enq(1) sees room and writes slot 0 -> t1 reads slot 0: deq() = 1, but
 * the oldest element was 3 (the oracle: enq(1) cannot come before the deq
 * that returned its value, and the ring was full before it).
 *
 * Oracle: linearizability against a bounded FIFO of capacity 2 (the model
 * below), with contents() as the final operation; validate() then checks
 * 0 <= tail - head <= RING_N.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

#define RING_N 2

enum { OP_ENQ, OP_DEQ, OP_CONTENTS };

typedef struct ring {
	_Atomic uint32_t head;     /* written by the consumer only */
	_Atomic uint32_t tail;     /* written by the producer only */
	_Atomic int64_t slot[RING_N];
} ring;

static int64_t ring_enq(ring *r, int64_t v)
{
	uint32_t tail = weft_atomic_load(&r->tail);
	uint32_t head = weft_atomic_load(&r->head);
	if (tail - head == RING_N)
		return 0;
	weft_atomic_store(&r->slot[tail % RING_N], v);
	weft_atomic_store(&r->tail, tail + 1);          /* publishes the slot */
	return 1;
}

static int64_t ring_deq(ring *r)
{
	uint32_t head = weft_atomic_load(&r->head);
	uint32_t tail = weft_atomic_load(&r->tail);
	if (tail == head)
		return WEFT_NONE;
#ifdef WEFT_SPSC_RING_FIXED
	int64_t v = weft_atomic_load(&r->slot[head % RING_N]);
	weft_atomic_store(&r->head, head + 1);          /* frees the slot: after the read */
#else
	weft_atomic_store(&r->head, head + 1);          /* bug: frees the slot before reading it */
	int64_t v = weft_atomic_load(&r->slot[head % RING_N]);
#endif
	return v;
}

static int64_t ring_contents(ring *r)
{
	uint32_t head = weft_atomic_load(&r->head), tail = weft_atomic_load(&r->tail);
	int64_t digits = 0;
	for (uint32_t i = head; i != tail && i - head < RING_N; i++)
		digits = digits * 10 + weft_atomic_load(&r->slot[i % RING_N]);
	return digits;
}

/* ---- adapters ---- */

static int64_t op_enq(void *self, const int64_t *args) { return ring_enq(self, args[0]); }
static int64_t op_deq(void *self, const int64_t *args) { (void)args; return ring_deq(self); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return ring_contents(self); }

static void *ring_setup(void) { return calloc(1, sizeof(ring)); }
static void ring_teardown(void *self) { free(self); }

static int ring_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)h;
	ring *r = self;
	uint32_t head = atomic_load(&r->head), tail = atomic_load(&r->tail);
	if (tail - head <= RING_N)
		return 0;
	snprintf(msg, cap, "indices out of range: head %u, tail %u", head, tail);
	return 1;
}

/* ---- the sequential model: a FIFO of at most RING_N, oldest first ---- */

typedef struct ring_model {
	int64_t n;
	int64_t v[RING_N];
} ring_model;

static void model_init(void *state) { (void)state; /* zeroed memory: empty */ }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	ring_model *m = state;
	int64_t r = 0;
	switch (op) {
	case OP_ENQ:
		if (m->n == RING_N)
			return 0;
		m->v[m->n++] = args[0];
		return 1;
	case OP_DEQ:
		if (m->n == 0)
			return WEFT_NONE;
		r = m->v[0];
		for (int64_t i = 1; i < m->n; i++)
			m->v[i - 1] = m->v[i];
		m->v[--m->n] = 0;      /* memcmp-equal states */
		return r;
	default:                       /* OP_CONTENTS */
		for (int64_t i = 0; i < m->n; i++)
			r = r * 10 + m->v[i];
		return r;
	}
}

static const weft_model ring_model_def = {
	.name = "bounded FIFO", .state_size = sizeof(ring_model),
	.init = model_init, .apply = model_apply,
};

static const weft_op ring_ops[] = {
	[OP_ENQ] = { .name = "enq", .run = op_enq, .n_args = 1, .args = { { 1, 3 } }, .group = 1 },
	[OP_DEQ] = { .name = "deq", .run = op_deq, .group = 2 },
	[OP_CONTENTS] = { .name = "contents", .run = op_contents, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target ring_target = {
#ifdef WEFT_SPSC_RING_FIXED
	.name = "spsc_ring_fixed",
#else
	.name = "spsc_ring_buggy",
#endif
	.ops = ring_ops, .n_ops = 3,
	.max_threads = 2, .max_ops_per_thread = 4,
	.setup = ring_setup, .teardown = ring_teardown,
	.model = &ring_model_def, .final_op = &ring_ops[OP_CONTENTS],
	.validate = ring_validate,
};
WEFT_FUZZ_TARGET(ring_target)
