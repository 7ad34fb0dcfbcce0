/*
 * targets/spinlock.c - a test-and-test-and-set spinlock guarding a counter.
 *
 * Structure: `locked` (0 free, 1 held) and a counter that only the holder
 * touches.  acquire() waits, reading only, until the lock looks free (the
 * "test" loop keeps the cache line shared; L. Rudolph and Z. Segall, ISCA
 * 1984), then tries to take it; release() stores 0.  The counter is read and
 * written by separate accesses, as `value++` compiles to: the lock is what
 * makes that safe.  They are weft atomics only so the schedule can switch
 * between the read and the write.  Operations: increment() -> 0; get() (final
 * operation only) -> the counter.
 *
 * Seeded bug (default build): the "set" is a plain store after the test loop's
 * load, so two threads that both see the lock free both take it.  Fixed build
 * (-DWEFT_SPINLOCK_FIXED): one atomic exchange takes it.
 *
 * Known minimal failing interleaving (2 threads, 2 increments, 2 preemptions;
 * corpus/spinlock/double-acquire.linearizability.bin):
 *   t0 sees the lock free ~~preempted before its store~~> t1 sees it free,
 *   takes it, reads the counter (0) ~~preempted before writing~~> t0 takes the
 *   lock too, increments to 1, releases, finishes -> t1 writes 1: one lost.
 * One preemption is not enough: the first thread to take the lock must be
 * stopped inside its critical section while the other one runs its own.
 *
 * The fixed variant is also a test of weft's spin descheduling: a thread
 * spinning while the holder is preempted is taken off the run queue after
 * spin_limit quiet switch points (scheduler/progress.c) instead of running
 * into the step budget, so no execution may end in "livelock" or "step-budget".
 *
 * Oracle: linearizability against a counter model, with get() as the final
 * operation: a lost update shows as get() returning too little.
 */
#include <stdlib.h>

#include "weft/weft.h"

typedef struct spin_counter {
	_Atomic uint32_t locked;
	_Atomic uint32_t value;   /* guarded by locked */
} spin_counter;

static void spin_acquire(spin_counter *c)
{
	for (;;) {
		while (weft_atomic_load(&c->locked))
			weft_yield();
#ifdef WEFT_SPINLOCK_FIXED
		if (weft_atomic_exchange(&c->locked, 1) == 0)
			return;
#else
		weft_atomic_store(&c->locked, 1);   /* bug: the test above and this set are two steps */
		return;
#endif
	}
}

static void spin_release(spin_counter *c)
{
	weft_atomic_store(&c->locked, 0);
}

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	spin_counter *c = self;
	spin_acquire(c);
	uint32_t v = weft_atomic_load_explicit(&c->value, memory_order_relaxed);
	weft_atomic_store_explicit(&c->value, v + 1, memory_order_relaxed);
	spin_release(c);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((spin_counter *)self)->value);
}

static void *spin_setup(void) { return calloc(1, sizeof(spin_counter)); }
static void spin_teardown(void *self) { free(self); }

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

static const weft_op spinlock_ops[] = {
	[OP_INCREMENT] = { .name = "increment", .run = op_increment },
	[OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target spinlock_target = {
#ifdef WEFT_SPINLOCK_FIXED
	.name = "spinlock_fixed",
#else
	.name = "spinlock_buggy",
#endif
	.ops = spinlock_ops, .n_ops = 2,
	.setup = spin_setup, .teardown = spin_teardown,
	.model = &counter_model, .final_op = &spinlock_ops[OP_GET],
};
WEFT_FUZZ_TARGET(spinlock_target)
