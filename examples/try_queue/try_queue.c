/*
 * examples/try_queue/try_queue.c - a non-deterministic model (weft/model.h:
 * outcomes, apply_outcome): a ring whose try_deq gives up (returns none) when
 * it loses a race, and the specification that allows it - "deq may fail
 * spuriously while the queue is not empty, changing nothing" - built on the
 * built-in queue's state (weft/models.h).  Against weft_model_queue the same
 * target fails (deq() = none while 1 is queued); against try_queue_model it
 * passes.  -DTRY_QUEUE_STRICT allows one outcome only (the strict queue).  README
 * "Non-deterministic models".
 */
#include <stdlib.h>

#include "weft/weft.h"

typedef struct ring { _Atomic int64_t head, tail, lock, v[16]; } ring;

static int64_t enq(ring *r, int64_t x)
{
	while (weft_atomic_exchange(&r->lock, 1))
		weft_yield();
	int64_t t = weft_atomic_load(&r->tail);
	weft_atomic_store(&r->v[t % 16], x);
	weft_atomic_store(&r->tail, t + 1);
	weft_atomic_store(&r->lock, 0);
	return 0;
}

/* One attempt: a lost CAS is reported as none, like an empty queue. */
static int64_t try_deq(ring *r)
{
	int64_t h = weft_atomic_load(&r->head);
	if (h == weft_atomic_load(&r->tail))
		return WEFT_NONE;
	int64_t x = weft_atomic_load(&r->v[h % 16]);
	return weft_atomic_compare_exchange_strong(&r->head, &h, h + 1) ? x : WEFT_NONE;
}

static void *ring_new(void) { return calloc(1, sizeof(ring)); }

/* The specification: a deq on a non-empty queue has two outcomes, the oldest or none. */
static unsigned try_outcomes(const weft_model *m, const void *s, unsigned op, const int64_t *args)
{
	(void)m, (void)args;
#ifdef TRY_QUEUE_STRICT
	return 1u;      /* one outcome: weft_model_queue's */
#endif
	return op == WEFT_QUEUE_DEQ && ((const weft_impl_vec *)s)->len > 0 ? 2u : 1u;
}

static int64_t try_apply(const weft_model *m, void *s, unsigned op, const int64_t *args,
			 unsigned k)
{
	(void)m;
	return k == 1 ? WEFT_NONE : weft_model_queue.apply(s, op, args);
}

static const weft_model try_queue_model = {
	.name = "queue, deq may fail", .state_size = sizeof(weft_impl_vec),
	.init = weft_impl_vec_init, .copy = weft_impl_vec_copy, .destroy = weft_impl_vec_destroy,
	.equal = weft_impl_vec_equal, .hash = weft_impl_vec_hash,
	.outcomes = try_outcomes, .apply_outcome = try_apply,
};

WEFT_ADAPTER1(op_enq, enq)
WEFT_ADAPTER0(op_deq, try_deq)
static const weft_op ops[] = WEFT_QUEUE_OPS(op_enq, op_deq, 1, 3);
static const weft_target try_queue = { .name = "try_queue",
	WEFT_USE_MODEL(ops, try_queue_model), .setup = ring_new, .teardown = free };
WEFT_FUZZ_TARGET(try_queue)
