/* examples/short_queue/short_queue.c - a whole queue target against the built-in queue model
 * (weft/models.h), in 30 lines of code: a ring, enq under a spinlock, deq lock-free.
 * Seeded bug (default build): deq moves head with a store, not a CAS, so two consumers
 * can take one element.  Fixed build (-DSHORT_QUEUE_FIXED): the CAS.  README "Short targets". */
#include <stdlib.h>
#include "weft/weft.h"
typedef struct ring { _Atomic int64_t head, tail, lock, v[16]; } ring;

static int64_t enq(ring *r, int64_t x) {
	while (weft_atomic_exchange(&r->lock, 1)) weft_yield();
	int64_t t = weft_atomic_load(&r->tail);
	weft_atomic_store(&r->v[t % 16], x);
	weft_atomic_store(&r->tail, t + 1);
	weft_atomic_store(&r->lock, 0);
	return 0;
}
static int64_t deq(ring *r) {
	for (int64_t h = weft_atomic_load(&r->head);; h = weft_atomic_load(&r->head)) {
		if (h == weft_atomic_load(&r->tail)) return WEFT_NONE;
		int64_t x = weft_atomic_load(&r->v[h % 16]);
#ifdef SHORT_QUEUE_FIXED
		if (weft_atomic_compare_exchange_strong(&r->head, &h, h + 1)) return x;
#else
		weft_atomic_store(&r->head, h + 1); return x;
#endif
	}
}
static void *ring_new(void) { return calloc(1, sizeof(ring)); }
WEFT_ADAPTER1(op_enq, enq)
WEFT_ADAPTER0(op_deq, deq)
static const weft_op ops[] = WEFT_QUEUE_OPS(op_enq, op_deq, 1, 3);
static const weft_target short_queue = { .name = "short_queue",
	WEFT_USE_MODEL(ops, weft_model_queue), .setup = ring_new, .teardown = free };
WEFT_FUZZ_TARGET(short_queue)
