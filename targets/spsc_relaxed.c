/*
 * targets/spsc_relaxed.c - a single-producer single-consumer ring whose
 * indices are published with relaxed atomics (issue 18: weak memory).
 *
 * Structure: a ring of two slots, each an atomic element stored and loaded
 * relaxed; `tail` counts pushes (written by the producer only), `head` pops
 * (written by the consumer only).  push(v) reads head to see the ring is not
 * full, stores the slot, then publishes tail + 1; pop() reads tail to see it
 * is not empty, loads the slot, then publishes head + 1.  Operations: push(v),
 * v in 1..2, -> 0 or 1 (full), on one thread (group 1); pop() -> the oldest
 * value or -1 (empty), on one other thread (group 2).
 *
 * Seeded bug (default build): both indices are stored and loaded relaxed, so
 * a consumer that sees the producer's new tail has no happens-before to the
 * slot store before it and may load the slot's old value, 0: a value nobody
 * pushed (and a producer may see a stale head and call a ring full that is
 * not).  Under sequential consistency the ring is correct.  Fixed build
 * (-DWEFT_SPSC_RELAXED_FIXED): release stores and acquire loads of both
 * indices, the pairing every SPSC ring needs.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption,
 * 1 weak read; found by systematic mode with --preemptions=1,
 * corpus/spsc_relaxed/stale-slot.linearizability.bin, 01 04 00 00 00 00 00 01
 * 00): t0 pop() loads head ~~preempted~~> t1 push(1) runs to its end -> t0
 * loads tail = 1 (the newest store), then the slot from its initial 0 rather
 * than t1's store (no happens-before from it): pop() returns 0.
 *
 * Oracle: linearizability against a bounded FIFO of two elements.
 */
#include <stdlib.h>

#include "weft/weft.h"

enum { OP_PUSH, OP_POP, RING = 2 };

#ifdef WEFT_SPSC_RELAXED_FIXED
#define PUBLISH memory_order_release   /* the slot's store (or load) happens before it */
#define OBSERVE memory_order_acquire   /* pairs with PUBLISH: the slot is visible */
#else
#define PUBLISH memory_order_relaxed   /* bug: orders nothing */
#define OBSERVE memory_order_relaxed
#endif

typedef struct ring {
	_Atomic int64_t slot[RING];
	_Atomic int64_t head, tail;   /* pops and pushes so far */
} ring;

static int64_t ring_push(ring *r, int64_t v)
{
	/* the producer's own index: relaxed is enough, only it writes tail */
	int64_t t = weft_atomic_load_explicit(&r->tail, memory_order_relaxed);
	if (t - weft_atomic_load_explicit(&r->head, OBSERVE) == RING)
		return 1;
	weft_atomic_store_explicit(&r->slot[t % RING], v, memory_order_relaxed);
	weft_atomic_store_explicit(&r->tail, t + 1, PUBLISH);
	return 0;
}

static int64_t ring_pop(ring *r)
{
	int64_t h = weft_atomic_load_explicit(&r->head, memory_order_relaxed);
	if (h == weft_atomic_load_explicit(&r->tail, OBSERVE))
		return -1;
	int64_t v = weft_atomic_load_explicit(&r->slot[h % RING], memory_order_relaxed);
	weft_atomic_store_explicit(&r->head, h + 1, PUBLISH);
	return v;
}

static int64_t op_push(void *self, const int64_t *args) { return ring_push(self, args[0]); }
static int64_t op_pop(void *self, const int64_t *args) { (void)args; return ring_pop(self); }

static void *ring_setup(void) { return calloc(1, sizeof(ring)); }
static void ring_teardown(void *self) { free(self); }

/* The model: a FIFO of at most RING values, oldest first. */
typedef struct fifo { int64_t n, v[RING]; } fifo;

static void model_init(void *state) { *(fifo *)state = (fifo){ 0 }; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	fifo *f = state;
	if (op == OP_PUSH) {
		if (f->n == RING)
			return 1;
		f->v[f->n++] = args[0];
		return 0;
	}
	if (f->n == 0)
		return -1;
	int64_t v = f->v[0];
	for (int64_t i = 1; i < f->n; i++)
		f->v[i - 1] = f->v[i];
	f->v[--f->n] = 0;   /* states equal by bytes: clear what left */
	return v;
}

static const weft_model fifo_model = {
	.name = "bounded fifo", .state_size = sizeof(fifo),
	.init = model_init, .apply = model_apply,
};

static const weft_op ring_ops[] = {
	[OP_PUSH] = { .name = "push", .run = op_push, .n_args = 1, .args = { { 1, 2 } }, .group = 1 },
	[OP_POP] = { .name = "pop", .run = op_pop, .group = 2 },
};
static const weft_target spsc_relaxed_target = {
#ifdef WEFT_SPSC_RELAXED_FIXED
	.name = "spsc_relaxed_fixed",
#else
	.name = "spsc_relaxed_buggy",
#endif
	.ops = ring_ops, .n_ops = 2,
	.setup = ring_setup, .teardown = ring_teardown,
	.model = &fifo_model,
};
WEFT_FUZZ_TARGET(spsc_relaxed_target)
