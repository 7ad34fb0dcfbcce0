/*
 * targets/mailbox.c - a one-slot mailbox synchronised by two semaphores.
 *
 * Structure: one slot and the classic pair of counting semaphores (E. W.
 * Dijkstra, "Cooperating sequential processes", EWD 123, 1965): `empty`
 * (starts at 1) counts free slots, `full` (starts at 0) counts letters.
 * put(v) waits for `empty`, writes the slot, posts `full`; take() waits for
 * `full`, reads the slot, posts `empty`.  Operations: put(v), v in 1..2, -> 0;
 * take() -> the letter.  A put into a full mailbox or a take from an empty one
 * blocks (a managed sem_wait: another thread runs).
 *
 * Seeded bug (default build): put() posts `full` before it writes the slot, so
 * a take() can get in between and read the slot before the letter is in it.
 * Fixed build (-DWEFT_MAILBOX_FIXED): write, then post.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/mailbox/early-post.linearizability.bin):
 *   t0 put(1) waits for `empty`, posts `full` ~~preempted before writing the
 *   slot~~> t1 take() gets `full`, reads the empty slot: 0, a letter nobody put.
 *
 * Oracle: linearizability against a one-slot model that says when an
 * operation blocks: when no thread can run, the operations still waiting are
 * checked as returning WEFT_BLOCKED (a take() with nothing put is correct, not
 * a deadlock), and the verdict is "deadlock" only if the model disagrees.
 */
#include <semaphore.h>
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

enum { OP_PUT, OP_TAKE };

typedef struct mailbox {
	sem_t empty, full;
	_Atomic int64_t slot;    /* a weft atomic so the schedule can switch around it */
} mailbox;

static void mailbox_put(mailbox *m, int64_t v)
{
	weft_sem_wait(&m->empty);
#ifdef WEFT_MAILBOX_FIXED
	weft_atomic_store(&m->slot, v);
	weft_sem_post(&m->full);
#else
	weft_sem_post(&m->full);                  /* bug: announced before it is there */
	weft_atomic_store(&m->slot, v);
#endif
}

static int64_t mailbox_take(mailbox *m)
{
	weft_sem_wait(&m->full);
	int64_t v = weft_atomic_exchange(&m->slot, 0);
	weft_sem_post(&m->empty);
	return v;
}

static int64_t op_put(void *self, const int64_t *args)
{
	mailbox_put(self, args[0]);
	return 0;
}

static int64_t op_take(void *self, const int64_t *args)
{
	(void)args;
	return mailbox_take(self);
}

static void *mailbox_setup(void)
{
	mailbox *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	weft_sem_init(&m->empty, 0, 1);
	weft_sem_init(&m->full, 0, 0);
	return m;
}

static void mailbox_teardown(void *self)
{
	mailbox *m = self;
	weft_sem_destroy(&m->empty);
	weft_sem_destroy(&m->full);
	free(m);
}

/* The model: the letter in the slot, or 0; blocking where the semaphores block. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *slot = state;
	if (op == OP_PUT) {
		if (*slot)
			return WEFT_BLOCKED;
		*slot = args[0];
		return 0;
	}
	if (!*slot)
		return WEFT_BLOCKED;
	int64_t v = *slot;
	*slot = 0;
	return v;
}

static const weft_model mailbox_model = {
	.name = "one-slot mailbox", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op mailbox_ops[] = {
	[OP_PUT] = { .name = "put", .run = op_put, .n_args = 1, .args = { { 1, 2 } } },
	[OP_TAKE] = { .name = "take", .run = op_take },
};
static const weft_target mailbox_target = {
#ifdef WEFT_MAILBOX_FIXED
	.name = "mailbox_fixed",
#else
	.name = "mailbox_buggy",
#endif
	.ops = mailbox_ops, .n_ops = 2,
	.setup = mailbox_setup, .teardown = mailbox_teardown,
	.model = &mailbox_model,
};
WEFT_FUZZ_TARGET(mailbox_target)
