/*
 * targets/peterson.c - Peterson's mutual exclusion for two threads.
 *
 * Structure: flag[0], flag[1] ("I want in") and turn (who yields); thread i
 * enters with flag[i] = 1; turn = other; then waits while flag[other] && turn
 * == other (G. L. Peterson, "Myths about the mutual exclusion problem", IPL
 * 12(3), 1981).  The critical section increments a counter with a separate
 * read and write, as `value++` compiles to, and counts the threads inside it:
 * entering with another thread already inside is weft_fail().  Every shared
 * access is a weft atomic (sequentially consistent), so this is Peterson under
 * the memory model it was proved for.
 *
 * Operations: increment0() and increment1() -> 0, the same increment run as
 * Peterson's thread 0 or 1.  The identity comes from weft_op.group: each has
 * its own group, so increment0 only ever runs on one managed thread and
 * increment1 on the other, and there are exactly two threads.  get() (final
 * operation only) -> the counter.
 *
 * Seeded bug (default build): the entry protocol writes turn = other before
 * flag[me] = 1, the well-known wrong order.  A thread that has given way but
 * not yet raised its flag lets the other enter; it then raises its flag, sees
 * turn pointing at itself (the other thread set it meanwhile) and enters too.
 * Fixed build (-DWEFT_PETERSON_FIXED): flag first, then turn.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 2 preemptions;
 * corpus/peterson/both-inside.assertion.bin):
 *   t0 writes turn = 1 ~~preempted before raising its flag~~> t1 writes turn = 0,
 *   raises flag[1], sees flag[0] down, enters ~~preempted inside~~> t0 raises
 *   flag[0], sees turn == 0 (not "the other's turn") and enters too: the
 *   check fails.  One preemption is not enough: both threads must be inside
 *   at once, so the first one in must be stopped there.
 *
 * The fixed variant also tests spin descheduling: a thread waiting in the
 * entry loop while the other is preempted inside must be taken off the run
 * queue (scheduler/progress.c), never run into "livelock" or "step-budget".
 *
 * Oracle: the occupancy check (verdict "assertion", at the moment the second
 * thread enters); then linearizability against a counter model, with get() as
 * the final operation (two threads inside would also lose an increment).
 *
 * Weak-memory variant (issue 18), -DWEFT_PETERSON_RA: the right order, but the
 * flags and turn stored with release and loaded with acquire, as a programmer
 * might think enough for a lock (peterson_ra_buggy).  The entry is store
 * buffering: each thread stores its flag, then loads the other's, and
 * release/acquire orders nothing between a store and a later load of another
 * location, so both may read the other's flag down and enter (one weak read,
 * 2 preemptions: corpus/peterson_ra/both-inside.assertion.bin; systematic mode
 * finds none with 1 at one operation per thread, see corpus/README.md).  Under
 * WEFT_MEMORY=sc it is correct.  -DWEFT_PETERSON_RA_FIXED as well: seq_cst, the
 * order Peterson's proof assumes (peterson_ra_fixed).
 *
 * x86 variant (issue 18), -DWEFT_PETERSON_TSO: the same release/acquire code
 * as written for x86, where those are plain movs, declared to run under
 * WEFT_MEMORY=tso (weft_target.memory) (peterson_tso_buggy).  Store buffering
 * again: each flag waits in its thread's store buffer while the other thread
 * reads it down (one delayed commit, two preemptions;
 * corpus/peterson_tso/both-inside.assertion.bin).  -DWEFT_PETERSON_TSO_FIXED
 * as well: an mfence (a seq_cst fence) between the stores and the loads,
 * the textbook fix, which drains the buffer (peterson_tso_fixed: x86 only; under
 * c11 it fails, rightly: C11's R shape, see KNOWN in tests/correct_corpus.sh).
 */
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

enum { OP_INCREMENT0, OP_INCREMENT1, OP_GET };

typedef struct peterson {
	_Atomic uint32_t flag[2];
	_Atomic uint32_t turn;
	_Atomic uint32_t inside;  /* threads in the critical section: the check */
	_Atomic uint32_t value;   /* guarded by the lock */
} peterson;

#if defined WEFT_PETERSON_TSO
#define WEFT_PETERSON_RA   /* the release/acquire code, under TSO */
#endif

#if defined WEFT_PETERSON_RA && !defined WEFT_PETERSON_RA_FIXED
#define STORE memory_order_release   /* bug: orders nothing before the next load */
#define LOAD memory_order_acquire
#else
#define STORE memory_order_seq_cst   /* a store before a later load of another flag */
#define LOAD memory_order_seq_cst
#endif

static void peterson_lock(peterson *p, unsigned me)
{
	unsigned other = 1 - me;
#if defined WEFT_PETERSON_FIXED || defined WEFT_PETERSON_RA
	weft_atomic_store_explicit(&p->flag[me], 1, STORE);
	weft_atomic_store_explicit(&p->turn, other, STORE);
#if defined WEFT_PETERSON_TSO_FIXED
	weft_atomic_thread_fence(memory_order_seq_cst);   /* mfence: the stores before the loads */
#endif
#else
	weft_atomic_store_explicit(&p->turn, other, STORE);     /* bug: gives way before asking */
	weft_atomic_store_explicit(&p->flag[me], 1, STORE);
#endif
	while (weft_atomic_load_explicit(&p->flag[other], LOAD) &&   /* two lines: two sites */
	       weft_atomic_load_explicit(&p->turn, LOAD) == other)
		weft_yield();
}

static void peterson_unlock(peterson *p, unsigned me)
{
	weft_atomic_store_explicit(&p->flag[me], 0, STORE);
}

static int64_t peterson_increment(peterson *p, unsigned me)
{
	peterson_lock(p, me);
	if (weft_atomic_fetch_add(&p->inside, 1) != 0)
		weft_fail("two threads in the critical section");
	uint32_t v = weft_atomic_load_explicit(&p->value, memory_order_relaxed);
	weft_atomic_store_explicit(&p->value, v + 1, memory_order_relaxed);
	weft_atomic_fetch_sub(&p->inside, 1);
	peterson_unlock(p, me);
	return 0;
}

static int64_t op_increment0(void *self, const int64_t *args)
{
	(void)args;
	return peterson_increment(self, 0);
}

static int64_t op_increment1(void *self, const int64_t *args)
{
	(void)args;
	return peterson_increment(self, 1);
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((peterson *)self)->value);
}

static void *peterson_setup(void) { return calloc(1, sizeof(peterson)); }
static void peterson_teardown(void *self) { free(self); }

/* The model: a number that increments, whoever increments it. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *value = state;
	if (op == OP_GET)
		return *value;
	++*value;
	return 0;
}

static const weft_model counter_model = {
	.name = "counter", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op peterson_ops[] = {
	[OP_INCREMENT0] = { .name = "increment0", .run = op_increment0, .group = 1 },
	[OP_INCREMENT1] = { .name = "increment1", .run = op_increment1, .group = 2 },
	[OP_GET] = { .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target peterson_target = {
#if defined WEFT_PETERSON_TSO_FIXED
	.name = "peterson_tso_fixed",
#elif defined WEFT_PETERSON_TSO
	.name = "peterson_tso_buggy",
#elif defined WEFT_PETERSON_RA_FIXED
	.name = "peterson_ra_fixed",
#elif defined WEFT_PETERSON_RA
	.name = "peterson_ra_buggy",
#elif defined WEFT_PETERSON_FIXED
	.name = "peterson_fixed",
#else
	.name = "peterson_buggy",
#endif
	.ops = peterson_ops, .n_ops = 3,
	.min_threads = 2, .max_threads = 2,
	.setup = peterson_setup, .teardown = peterson_teardown,
	.model = &counter_model, .final_op = &peterson_ops[OP_GET],
#if defined WEFT_PETERSON_TSO
	.memory = "tso",   /* code written for x86 */
#endif
};
WEFT_FUZZ_TARGET(peterson_target)
