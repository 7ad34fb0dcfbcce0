/*
 * targets/blocking_queue.c - a bounded blocking queue: one mutex, two
 * condition variables (not empty, not full), put() and take() that wait.
 *
 * Seeded bug (default build): the lost wake-up of the "signal only on the
 * transition" optimization.  put() signals `not_empty` only when the queue
 * goes from empty to one item.  Two takers wait on an empty queue; one put
 * signals and wakes the first; a second put, before the woken taker runs, finds
 * one item already there and signals nobody.  The first taker takes one item;
 * the second sleeps forever next to an item it could take.
 * Fixed build (-DWEFT_BLOCKING_QUEUE_FIXED): put() always signals.
 *
 * Known minimal failing interleaving: 3 threads, no preemption at all:
 *   t0 take() blocks, t1 take() blocks, t2 put(1) wakes t0, put(1) signals
 *   nobody; t0 takes 1; t1 waits forever with one item queued.
 * Oracle: when no thread can run, each blocked operation must be one the
 * model says would block (take() on an empty queue, put() on a full one);
 * here take() would return 1, so the verdict is "deadlock".
 */
#include <pthread.h>
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

#define CAPACITY 2

typedef struct blocking_queue {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	int64_t items[CAPACITY];
	unsigned head, count;   /* guarded by lock */
} blocking_queue;

static void queue_put(blocking_queue *q, int64_t v)
{
	weft_pthread_mutex_lock(&q->lock);
	while (q->count == CAPACITY)
		weft_pthread_cond_wait(&q->not_full, &q->lock);
	q->items[(q->head + q->count) % CAPACITY] = v;
	q->count++;
#ifdef WEFT_BLOCKING_QUEUE_FIXED
	weft_pthread_cond_signal(&q->not_empty);
#else
	if (q->count == 1)   /* bug: a second put before the woken taker runs wakes nobody */
		weft_pthread_cond_signal(&q->not_empty);
#endif
	weft_pthread_mutex_unlock(&q->lock);
}

static int64_t queue_take(blocking_queue *q)
{
	weft_pthread_mutex_lock(&q->lock);
	while (q->count == 0)
		weft_pthread_cond_wait(&q->not_empty, &q->lock);
	int64_t v = q->items[q->head];
	q->head = (q->head + 1) % CAPACITY;
	q->count--;
	weft_pthread_cond_signal(&q->not_full);
	weft_pthread_mutex_unlock(&q->lock);
	return v;
}

static int64_t op_put(void *self, const int64_t *args)
{
	queue_put(self, args[0]);
	return 0;
}

static int64_t op_take(void *self, const int64_t *args)
{
	(void)args;
	return queue_take(self);
}

static void *queue_setup(void)
{
	blocking_queue *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->not_empty, NULL);
	pthread_cond_init(&q->not_full, NULL);
	return q;
}

static void queue_teardown(void *self)
{
	blocking_queue *q = self;
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->not_empty);
	pthread_cond_destroy(&q->not_full);
	free(q);
}

/* The model: a bounded FIFO whose take() on empty and put() on full block. */
enum { OP_TAKE, OP_PUT };

typedef struct model_state { int64_t items[CAPACITY]; unsigned count; } model_state;

static void model_init(void *state)
{
	model_state *m = state;
	m->count = 0;
	for (unsigned i = 0; i < CAPACITY; i++)
		m->items[i] = 0;
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	model_state *m = state;
	if (op == OP_PUT) {
		if (m->count == CAPACITY)
			return WEFT_BLOCKED;
		m->items[m->count++] = args[0];
		return 0;
	}
	if (m->count == 0)
		return WEFT_BLOCKED;
	int64_t v = m->items[0];
	for (unsigned i = 1; i < m->count; i++)
		m->items[i - 1] = m->items[i];
	m->items[--m->count] = 0;   /* equal states compare equal in the memo */
	return v;
}

static const weft_model queue_model = {
	.name = "bounded blocking queue", .state_size = sizeof(model_state),
	.init = model_init, .apply = model_apply,
};

static const weft_op queue_ops[] = {
	[OP_TAKE] = { .name = "take", .run = op_take },
	[OP_PUT] = { .name = "put", .run = op_put, .n_args = 1, .args = { { 1, 2 } } },
};
static const weft_target queue_target = {
#ifdef WEFT_BLOCKING_QUEUE_FIXED
	.name = "blocking_queue_fixed",
#else
	.name = "blocking_queue_buggy",
#endif
	.ops = queue_ops, .n_ops = 2,
	.setup = queue_setup, .teardown = queue_teardown,
	.model = &queue_model,
};
WEFT_FUZZ_TARGET(queue_target)
