/*
 * examples/id_allocator/id_allocator.c - a fuzz target built against an installed weft.
 *
 * The structure: an allocator of unique ids (0, 1, 2, ...) shared by threads, one
 * atomic word holding the next id.
 * The seeded bug (built by default; -DID_ALLOCATOR_FIXED builds the fix): allocate
 * reads the next id and then stores id + 1 in a second step, so two threads that both
 * read before either stores get the same id.
 * Its minimal failing interleaving: two threads, one allocate each, thread 0 preempted
 * between its load and its store: both return 0, and no sequential order gives one id
 * twice.  The oracle: linearizability against the model below (a counter handing out
 * its value), so no final operation or postcondition is needed.
 */
#include <stdlib.h>

#include "weft/weft.h"

typedef struct id_allocator { _Atomic uint64_t next; } id_allocator;

static uint64_t id_allocate(id_allocator *a)
{
#ifdef ID_ALLOCATOR_FIXED
	return weft_atomic_fetch_add(&a->next, 1);
#else
	uint64_t id = weft_atomic_load(&a->next);      /* bug: not one atomic step */
	weft_atomic_store(&a->next, id + 1);
	return id;
#endif
}

static int64_t op_allocate(void *self, const int64_t *args)
{
	(void)args;
	return (int64_t)id_allocate(self);
}

static void *allocator_setup(void) { return calloc(1, sizeof(id_allocator)); }
static void allocator_teardown(void *self) { free(self); }

/* The model: the next id, handed out and incremented in one step. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)op;
	(void)args;
	return (*(int64_t *)state)++;
}

static const weft_model allocator_model = {
	.name = "id_allocator", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op allocator_ops[] = {
	{ .name = "allocate", .run = op_allocate },
};
static const weft_target allocator_target = {
#ifdef ID_ALLOCATOR_FIXED
	.name = "id_allocator_fixed",
#else
	.name = "id_allocator_buggy",
#endif
	.ops = allocator_ops, .n_ops = 1,
	.setup = allocator_setup, .teardown = allocator_teardown,
	.model = &allocator_model,
};
WEFT_FUZZ_TARGET(allocator_target)
