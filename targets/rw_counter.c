/*
 * targets/rw_counter.c - a read-mostly counter behind a read-write lock.
 *
 * Structure: a counter (plain memory) guarded by a pthread_rwlock_t taken
 * through <weft/sync.h>: read() under the read lock, increment() under the
 * write lock.  Operations: increment() -> 0; read() -> the counter (also the
 * final operation, so the final value joins the history).
 *
 * Seeded bug (default build): increment() "upgrades" its lock the way POSIX
 * forces a naive program to: it reads the counter under the read lock,
 * releases it, takes the write lock and writes what it read plus one.  Between
 * the release and the write lock another increment can run whole, and its
 * update is lost.  Fixed build (-DWEFT_RW_COUNTER_FIXED): the read and the
 * write both happen under the write lock.
 *
 * Known minimal failing interleaving (2 threads, 2 increments, 1 preemption;
 * corpus/rw_counter/lost-upgrade.linearizability.bin):
 *   t0 reads 0 under the read lock and releases it ~~preempted before taking
 *   the write lock~~> t1 increments to 1 and finishes -> t0 writes 1.
 *
 * Oracle: linearizability against a counter model, with read() as the final
 * operation: the lost update shows as the final read returning too little.
 */
#include <pthread.h>
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

enum { OP_INCREMENT, OP_READ };

typedef struct rw_counter {
	pthread_rwlock_t lock;
	int64_t value;           /* guarded by lock */
} rw_counter;

static void counter_increment(rw_counter *c)
{
#ifdef WEFT_RW_COUNTER_FIXED
	weft_pthread_rwlock_wrlock(&c->lock);
	c->value++;
	weft_pthread_rwlock_unlock(&c->lock);
#else
	weft_pthread_rwlock_rdlock(&c->lock);
	int64_t v = c->value;
	weft_pthread_rwlock_unlock(&c->lock);    /* bug: the "upgrade" lets go in between */
	weft_pthread_rwlock_wrlock(&c->lock);
	c->value = v + 1;
	weft_pthread_rwlock_unlock(&c->lock);
#endif
}

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	counter_increment(self);
	return 0;
}

static int64_t op_read(void *self, const int64_t *args)
{
	(void)args;
	rw_counter *c = self;
	weft_pthread_rwlock_rdlock(&c->lock);
	int64_t v = c->value;
	weft_pthread_rwlock_unlock(&c->lock);
	return v;
}

static void *rw_setup(void)
{
	rw_counter *c = calloc(1, sizeof *c);
	if (c)
		weft_rwlock_init(&c->lock, NULL);
	return c;
}

static void rw_teardown(void *self)
{
	rw_counter *c = self;
	weft_rwlock_destroy(&c->lock);
	free(c);
}

/* The model: a number that increments. */
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

static const weft_op rw_counter_ops[] = {
	[OP_INCREMENT] = { .name = "increment", .run = op_increment },
	[OP_READ] = { .name = "read", .run = op_read },
};
static const weft_target rw_counter_target = {
#ifdef WEFT_RW_COUNTER_FIXED
	.name = "rw_counter_fixed",
#else
	.name = "rw_counter_buggy",
#endif
	.ops = rw_counter_ops, .n_ops = 2,
	.setup = rw_setup, .teardown = rw_teardown,
	.model = &counter_model, .final_op = &rw_counter_ops[OP_READ],
};
WEFT_FUZZ_TARGET(rw_counter_target)
