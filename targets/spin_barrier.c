/*
 * targets/spin_barrier.c - a one-shot spinning barrier for two threads.
 *
 * Structure: an arrival count.  arrive() counts itself in, then spins (reading
 * only, yielding) until both threads have arrived, and returns its arrival
 * order (0 first, 1 second).  Exactly two threads, one arrive() each.
 *
 * Seeded bug (default build): counting in is a load followed by a store, so two
 * arrivals that interleave between them count as one: the count stays at 1 and
 * both threads spin forever.  Fixed build (-DWEFT_SPIN_BARRIER_FIXED): one
 * fetch_add.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/spin_barrier/lost-arrival.livelock.bin):
 *   t0 reads count 0 ~~preempted before its store~~> t1 reads 0, stores 1,
 *   spins; t1 is descheduled as a spinner, t0 stores 1 and spins too: nothing
 *   either thread can do changes memory any more.
 *
 * Oracle: weft's progress check (scheduler/progress.c).  A spinner is first
 * descheduled while another thread can run; once every thread spins and the
 * last one has gone livelock_limit switch points alone without a change to
 * shared memory, the verdict is "livelock".  A finished execution is checked
 * for linearizability against the arrival order (one arrive() returns 0, the
 * other 1).
 */
#include <stdlib.h>

#include "weft/weft.h"

#define BARRIER_THREADS 2
/*
 * Progress limits lower than the defaults (64, 1000): the spin loop is two
 * switch points per turn and nothing else happens in it, so 8 quiet points
 * already mean "spinning"; a livelock is reported after 40, which keeps its
 * report (every step of the spin is printed) a screen long.
 */
#define BARRIER_SPIN_LIMIT 8
#define BARRIER_LIVELOCK_LIMIT 40

typedef struct spin_barrier {
	_Atomic uint32_t arrived;
} spin_barrier;

static uint32_t barrier_arrive(spin_barrier *b)
{
#ifdef WEFT_SPIN_BARRIER_FIXED
	uint32_t order = weft_atomic_fetch_add(&b->arrived, 1);
#else
	uint32_t order = weft_atomic_load(&b->arrived);   /* bug: not one atomic step */
	weft_atomic_store(&b->arrived, order + 1);
#endif
	while (weft_atomic_load(&b->arrived) < BARRIER_THREADS)
		weft_yield();
	return order;
}

static int64_t op_arrive(void *self, const int64_t *args)
{
	(void)args;
	return barrier_arrive(self);
}

static void *barrier_setup(void) { return calloc(1, sizeof(spin_barrier)); }
static void barrier_teardown(void *self) { free(self); }

/* The model: arrivals numbered in order. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)op;
	(void)args;
	int64_t *arrived = state;
	return (*arrived)++;
}

static const weft_model arrival_model = {
	.name = "arrival order", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op barrier_ops[] = {
	{ .name = "arrive", .run = op_arrive },
};
static const weft_target spin_barrier_target = {
#ifdef WEFT_SPIN_BARRIER_FIXED
	.name = "spin_barrier_fixed",
#else
	.name = "spin_barrier_buggy",
#endif
	.ops = barrier_ops, .n_ops = 1,
	.min_threads = BARRIER_THREADS, .max_threads = BARRIER_THREADS, .max_ops_per_thread = 1,
	.setup = barrier_setup, .teardown = barrier_teardown,
	.model = &arrival_model,
	.spin_limit = BARRIER_SPIN_LIMIT, .livelock_limit = BARRIER_LIVELOCK_LIMIT,
};
WEFT_FUZZ_TARGET(spin_barrier_target)
