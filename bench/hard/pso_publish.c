/*
 * bench/hard/pso_publish.c - message passing that breaks only when several
 * buffered stores stay behind at once: a record published behind a flag on a
 * machine with partial store order (hard benchmark, issue 33; a
 * data-structure target declared to run under WEFT_MEMORY=pso).
 *
 * Structure: FIELDS fields and a `ready` flag.  publish() (one thread:
 * weft_op.group) fills each field in VERSIONS steps (a value built up in
 * place: 1, 2, ...), then raises `ready`; check() (another thread) returns -1
 * when it sees `ready` up and every field still 0, else 0.  Operations:
 * publish() -> 0, check() -> 0 or -1; the model says 0 always.
 * Seeded bug (default build): `ready` is stored relaxed (the code was written
 * for x86, where TSO keeps stores in order).  Under PSO each location has its
 * own store buffer, so `ready` may reach memory before the fields do.  Fixed
 * build (-DHARD_PSO_PUBLISH_FIXED): a release store (on SPARC, a membar
 * #StoreStore before it: scheduler/memory_tso.c).
 *
 * Window: the reader's look at `ready` must see it committed, and each of its
 * FIELDS looks at a field must keep every one of that field's VERSIONS stores
 * buffered (memory.h: the data choice of how many stay, 0 = none; here the
 * largest); the publisher must be past its flag store but still inside
 * publish() (weft drains the buffers when an operation ends).  Why hard: FIELDS
 * choices that must each take the one extreme value out of VERSIONS + 1, and
 * the schedule samplers do not aim at store buffers.  Oracle: linearizability.
 */
#include <stdlib.h>

#include "weft/weft.h"

#ifndef FIELDS
#define FIELDS 4
#endif
#ifndef VERSIONS
#define VERSIONS 3
#endif

#ifdef HARD_PSO_PUBLISH_FIXED
#define READY_STORE memory_order_release   /* SPARC: membar #StoreStore first */
#else
#define READY_STORE memory_order_relaxed   /* bug: "a plain store is enough on x86" */
#endif

enum { OP_PUBLISH, OP_CHECK };

typedef struct record {
	_Atomic uint32_t field[FIELDS];
	_Atomic uint32_t ready;
	_Atomic uint32_t stamp;
} record;

static int64_t publish(record *r)
{
	for (uint32_t v = 1; v <= VERSIONS; v++)
		for (int f = 0; f < FIELDS; f++)
			weft_atomic_store_explicit(&r->field[f], v, memory_order_relaxed);
	weft_atomic_store_explicit(&r->ready, 1, READY_STORE);
	weft_atomic_store_explicit(&r->stamp, 1, memory_order_relaxed);   /* bookkeeping after */
	return 0;
}

static int64_t check(record *r)
{
	if (!weft_atomic_load_explicit(&r->ready, memory_order_acquire))
		return 0;
	int zeros = 0;
	for (int f = 0; f < FIELDS; f++)
		zeros += weft_atomic_load_explicit(&r->field[f], memory_order_acquire) == 0;
	return zeros == FIELDS ? -1 : 0;           /* "ready, but nothing there" */
}

static int64_t op_publish(void *self, const int64_t *args) { (void)args; return publish(self); }
static int64_t op_check(void *self, const int64_t *args) { (void)args; return check(self); }

static void *rec_setup(void) { return calloc(1, sizeof(record)); }
static void rec_teardown(void *self) { free(self); }

static void model_init(void *state) { (void)state; }
static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state, (void)op, (void)args;
	return 0;
}

static const weft_model rec_model = {
	.name = "record", .state_size = 1, .init = model_init, .apply = model_apply,
};

static const weft_op rec_ops[] = {
	[OP_PUBLISH] = { .name = "publish", .run = op_publish, .group = 1 },
	[OP_CHECK] = { .name = "check", .run = op_check, .group = 2 },
};

static const weft_target rec_target = {
#ifdef HARD_PSO_PUBLISH_FIXED
	.name = "hard_pso_publish_fixed",
#else
	.name = "hard_pso_publish_buggy",
#endif
	.ops = rec_ops, .n_ops = 2,
	.max_threads = 2, .max_ops_per_thread = 2,
	.setup = rec_setup, .teardown = rec_teardown,
	.model = &rec_model,
	.memory = "pso",       /* code written for a partial-store-order machine */
};
WEFT_FUZZ_TARGET(rec_target)
