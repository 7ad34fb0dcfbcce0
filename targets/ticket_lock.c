/*
 * targets/ticket_lock.c - a ticket lock whose tickets are narrower than the
 * number of threads that take them, guarding a counter.
 *
 * Structure: `next` hands out tickets (fetch-add), `serving` names the ticket
 * allowed in; acquire() takes a ticket and waits until it is served, release()
 * serves the next one.  Waiters enter in the order they arrived (Mellor-Crummey
 * and Scott, TOCS 1991).  Tickets are compared in TICKET_BITS bits, as a lock
 * packed into a small word does (an 8-bit ticket field is correct "for fewer
 * than 256 CPUs"): the lock is correct only while fewer than 2^TICKET_BITS
 * threads hold or wait for it at once.  A thread whose ticket wraps onto the
 * holder's walks in beside it.  The counter is read and written by separate
 * accesses, as `value++` compiles to: the lock is what makes that safe.
 * Operations: increment() -> 0; get() (final operation only) -> the counter.
 *
 * Seeded bug (default build): 3-bit tickets, 8 values, while the target runs up
 * to 12 threads.  It takes 9 threads at once: the holder stopped inside its
 * critical section while 7 others wait and a ninth draws the holder's ticket
 * again.  With 8 threads or fewer the tickets never wrap onto the holder's
 * (random, POS and uniform sampling find nothing in 20,000 scenarios each,
 * tests/ticket_lock_threads.sh), so before scenarios had 16 threads this bug was
 * out of every strategy's reach.  Minimal reproducer (2 preemptions, 9 threads):
 * corpus/ticket_lock/, explained in corpus/README.md.  Fixed build (-DWEFT_TICKET_LOCK_FIXED):
 * 4-bit tickets, 16 values, more than the 12 threads.
 *
 * Oracle: linearizability against a counter model, with get() as the final
 * operation: the walk-in's lost update shows as get() returning too little.
 */
#include <stdlib.h>

#include "weft/weft.h"

#ifdef WEFT_TICKET_LOCK_FIXED
#define TICKET_BITS 4
#else
#define TICKET_BITS 3
#endif
#define TICKET_MASK ((1u << TICKET_BITS) - 1)

typedef struct ticket_counter {
	_Atomic uint32_t next;      /* the next ticket to hand out */
	_Atomic uint32_t serving;   /* the ticket allowed in */
	_Atomic uint32_t value;     /* guarded by the lock */
} ticket_counter;

static uint32_t ticket_acquire(ticket_counter *c)
{
	uint32_t mine = weft_atomic_fetch_add(&c->next, 1) & TICKET_MASK;
	while ((weft_atomic_load(&c->serving) & TICKET_MASK) != mine)
		weft_yield();
	return mine;
}

static void ticket_release(ticket_counter *c)
{
	/* only the holder writes `serving` */
	weft_atomic_store(&c->serving, weft_atomic_load(&c->serving) + 1);
}

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	ticket_counter *c = self;
	ticket_acquire(c);
	uint32_t v = weft_atomic_load_explicit(&c->value, memory_order_relaxed);
	weft_atomic_store_explicit(&c->value, v + 1, memory_order_relaxed);
	ticket_release(c);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((ticket_counter *)self)->value);
}

static void *ticket_setup(void) { return calloc(1, sizeof(ticket_counter)); }
static void ticket_teardown(void *self) { free(self); }

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

static const weft_op ticket_ops[] = {
	[OP_INCREMENT] = { .name = "increment", .run = op_increment },
	[OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target ticket_target = {
#ifdef WEFT_TICKET_LOCK_FIXED
	.name = "ticket_lock_fixed",
#else
	.name = "ticket_lock_buggy",
#endif
	.ops = ticket_ops, .n_ops = 2,
	.min_threads = 2, .max_threads = 12, .max_ops_per_thread = 1,
	.setup = ticket_setup, .teardown = ticket_teardown,
	.model = &counter_model, .final_op = &ticket_ops[OP_GET],
};
WEFT_FUZZ_TARGET(ticket_target)
