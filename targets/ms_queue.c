/*
 * targets/ms_queue.c - the Michael-Scott lock-free queue over a recycling node pool.
 *
 * Structure: a singly linked list of pool nodes named by index, from a dummy
 * node (head) to the last node (tail, which may lag one node behind); enqueue
 * links a node after the last one by CAS, then swings tail; dequeue swings
 * head to the dummy's successor and frees the old dummy (M. M. Michael and
 * M. L. Scott, "Simple, Fast, and Practical Non-Blocking and Blocking
 * Concurrent Queue Algorithms", PODC 1996).  As in the paper's counted
 * pointers, head, tail and every next link pack (index, version) in one
 * 64-bit word and every write bumps the version, so the lowest-free-node
 * allocator may recycle a dequeued node at once.  Operations: enq(v) -> 0;
 * deq() -> v, or WEFT_NONE when empty; contents() (final operation only) -> the
 * elements as decimal digits, oldest first (0 = empty, -1 = the links do not end).
 *
 * Seeded bug (default build): enq links its node with a plain store to the
 * last node's next instead of a CAS, so two enqueuers that both saw the same
 * last node overwrite each other's link and one element is lost.  Fixed build
 * (-DWEFT_MS_QUEUE_FIXED): the paper's CAS.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/ms_queue/lost-enqueue-minimal.bin): t0 enq(1) reads tail = the
 * dummy and its next = none ~~preempted~~> t1 enq(1) links its node after the
 * dummy and swings tail -> t0 stores its node over that link: both enq
 * returned, contents() = 1.
 *
 * Oracle: linearizability against weft_model_queue (weft/models.h), with
 * contents() as the final operation; validate() then checks the pool: the
 * allocated nodes are exactly the dummy and the queued nodes, tail is the last.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

#define QUEUE_POOL 64             /* nodes; one bit each in `used` */
#define QUEUE_NIL 0xffffffffu     /* no node */
#define QUEUE_MAX_THREADS 3
#define QUEUE_MAX_OPS 3
#define QUEUE_CAP (QUEUE_MAX_THREADS * QUEUE_MAX_OPS)
_Static_assert(QUEUE_CAP + 1 <= QUEUE_POOL, "every enq finds a free node");
_Static_assert(QUEUE_CAP <= 18, "contents() fits in an int64_t as decimal digits");

/* Operations: weft_model_queue's (weft/models.h): enq, deq, contents. */

typedef struct queue_node {
	_Atomic uint64_t next;     /* link to the node behind; index QUEUE_NIL at the end */
	_Atomic int64_t value;
} queue_node;

typedef struct queue {
	_Atomic uint64_t head;     /* link to the dummy */
	_Atomic uint64_t tail;     /* link to the last node or the one before */
	_Atomic uint64_t used;     /* allocation bitmap of node[] */
	queue_node node[QUEUE_POOL];
} queue;

/* A link: low 32 bits the node index, high 32 bits a version bumped by every write. */
static uint32_t idx(uint64_t link) { return (uint32_t)link; }
static uint64_t relink(uint64_t old, uint32_t i) { return ((old >> 32) + 1) << 32 | i; }

/* ---- the node pool: lowest free node first, lock-free ---- */

static uint32_t pool_alloc(queue *q)
{
	uint64_t used = weft_atomic_load(&q->used);
	for (;;) {           /* the CAS fails only when another thread allocated or freed */
		if (~used == 0)
			return QUEUE_NIL;
		uint32_t i = (uint32_t)__builtin_ctzll(~used);
		if (weft_atomic_compare_exchange_strong(&q->used, &used, used | 1ull << i))
			return i;
	}
}

static void pool_free(queue *q, uint32_t i)
{
	weft_atomic_fetch_and(&q->used, ~(1ull << i));
}

/* ---- the queue ---- */

/* Link node n after `last`, whose next was `next` (QUEUE_NIL); 1 when linked. */
static int queue_link(queue *q, uint32_t last, uint64_t next, uint32_t n)
{
#ifdef WEFT_MS_QUEUE_FIXED
	return weft_atomic_compare_exchange_strong(&q->node[last].next, &next, relink(next, n));
#else
	weft_atomic_store(&q->node[last].next, relink(next, n));   /* bug: a store, not a CAS */
	return 1;
#endif
}

static int64_t queue_enq(queue *q, int64_t v)
{
	uint32_t n = pool_alloc(q);
	if (n == QUEUE_NIL)
		return -1;
	weft_atomic_store(&q->node[n].value, v);
	uint64_t old = weft_atomic_load(&q->node[n].next);
	weft_atomic_store(&q->node[n].next, relink(old, QUEUE_NIL));
	for (;;) {           /* every retry follows another thread's progress */
		uint64_t tail = weft_atomic_load(&q->tail);
		uint64_t next = weft_atomic_load(&q->node[idx(tail)].next);
		if (tail != weft_atomic_load(&q->tail))
			continue;
		if (idx(next) != QUEUE_NIL) {          /* tail lags: help it on */
			weft_atomic_compare_exchange_strong(&q->tail, &tail, relink(tail, idx(next)));
			continue;
		}
		if (queue_link(q, idx(tail), next, n)) {
			weft_atomic_compare_exchange_strong(&q->tail, &tail, relink(tail, n));
			return 0;
		}
	}
}

static int64_t queue_deq(queue *q)
{
	for (;;) {           /* every retry follows another thread's progress */
		uint64_t head = weft_atomic_load(&q->head);
		uint64_t tail = weft_atomic_load(&q->tail);
		uint64_t next = weft_atomic_load(&q->node[idx(head)].next);
		if (head != weft_atomic_load(&q->head))
			continue;
		if (idx(next) == QUEUE_NIL)
			return WEFT_NONE;
		if (idx(head) == idx(tail)) {          /* tail lags: help it on first */
			weft_atomic_compare_exchange_strong(&q->tail, &tail, relink(tail, idx(next)));
			continue;
		}
		int64_t v = weft_atomic_load(&q->node[idx(next)].value);  /* before head moves on */
		if (weft_atomic_compare_exchange_strong(&q->head, &head, relink(head, idx(next)))) {
			pool_free(q, idx(head));
			return v;
		}
	}
}

/* Calls f(node) for each queued node, oldest first; -1 when the links do not end. */
static int queue_walk(queue *q, void (*f)(queue *, uint32_t, int64_t *), int64_t *acc)
{
	uint32_t i = idx(weft_atomic_load(&q->head));
	for (unsigned steps = 0;; steps++) {
		if (steps == QUEUE_POOL || i >= QUEUE_POOL)
			return -1;
		i = idx(weft_atomic_load(&q->node[i].next));
		if (i == QUEUE_NIL)
			return 0;
		f(q, i, acc);
	}
}

static void add_digit(queue *q, uint32_t i, int64_t *acc)
{
	*acc = *acc < INT64_MAX / 100 ? *acc * 10 + weft_atomic_load(&q->node[i].value) : *acc;
}

static void mark_node(queue *q, uint32_t i, int64_t *acc)
{
	(void)q;
	*acc |= (int64_t)(1ull << i);
}

static int64_t queue_contents(queue *q)
{
	int64_t digits = 0;
	return queue_walk(q, add_digit, &digits) ? -1 : digits;
}

/* Empty: node 0 is the dummy. */
static void *queue_setup(void)
{
	queue *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	atomic_init(&q->node[0].next, QUEUE_NIL);
	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
	atomic_init(&q->used, 1);
	return q;
}

static void queue_teardown(void *self) { free(self); }

/* After a linearizable run: no node leaked, none queued while free, tail last. */
static int queue_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)h;
	queue *q = self;
	uint32_t dummy = idx(atomic_load(&q->head)), tail = idx(atomic_load(&q->tail));
	int64_t queued = 0;
	uint64_t used = atomic_load(&q->used);
	if (queue_walk(q, mark_node, &queued) == 0 && ((uint64_t)queued | 1ull << dummy) == used &&
	    idx(atomic_load(&q->node[tail].next)) == QUEUE_NIL)
		return 0;
	snprintf(msg, cap, "node pool corrupt: allocated %#llx, queued %#llx, dummy %u, tail %u",
		 (unsigned long long)used, (unsigned long long)queued, dummy, tail);
	return 1;
}

/* ---- the declaration: against the built-in FIFO queue (weft/models.h) ---- */

WEFT_ADAPTER1(op_enq, queue_enq)
WEFT_ADAPTER0(op_deq, queue_deq)
WEFT_ADAPTER0(op_contents, queue_contents)
static const weft_op queue_ops[] = WEFT_QUEUE_OPS_FINAL(op_enq, op_deq, op_contents, 1, 3);

static const weft_target queue_target = {
#ifdef WEFT_MS_QUEUE_FIXED
	.name = "ms_queue_fixed",
#else
	.name = "ms_queue_buggy",
#endif
	WEFT_USE_MODEL_FINAL(queue_ops, weft_model_queue),
	.max_threads = QUEUE_MAX_THREADS, .max_ops_per_thread = QUEUE_MAX_OPS,
	.setup = queue_setup, .teardown = queue_teardown, .validate = queue_validate,
};
WEFT_FUZZ_TARGET(queue_target)
