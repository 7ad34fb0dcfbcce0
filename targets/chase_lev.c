/*
 * targets/chase_lev.c - a Chase-Lev work-stealing deque: one owner pushes and
 * takes at the bottom, any thread steals at the top.
 *
 * Structure: an array of slots indexed by two counters, `top` (the next slot to
 * steal; only ever increased, by compare-and-swap) and `bottom` (one past the
 * owner's last slot; written by the owner alone).  D. Chase and Y. Lev,
 * "Dynamic circular work-stealing deque", SPAA 2005, without growing (the
 * array is larger than any scenario's pushes).  The owner's take announces
 * itself by lowering `bottom` first, then reads `top`: if more than one
 * element is left the thieves cannot reach the bottom one; for the last one
 * owner and thieves race for it on `top`, and whoever moves `top` past it wins.
 * Operations: push(v) -> 0 and take() -> v or WEFT_NONE, the owner's (group 1:
 * one thread); steal() -> v or WEFT_NONE when empty (a failed CAS retries);
 * contents() (final operation only) -> the values as decimal digits, top first.
 *
 * Seeded bug (default build): for the last element the owner's take moves
 * `top` with a plain store (it checked `top` a moment ago) instead of the CAS,
 * so a thief that read the element before the owner lowered `bottom` and
 * moves `top` between the owner's read and its store takes the same element.
 * Fixed build (-DWEFT_CHASE_LEV_FIXED): the CAS; a take that loses it returns
 * WEFT_NONE.
 *
 * Known minimal failing interleaving (2 threads, 3 operations, 3 preemptions;
 * corpus/chase_lev/double-take.linearizability.bin, minimal by systematic mode
 * with --preemptions=2 finding nothing):
 *   t0 push(1) ~~preempted at take's start~~> t1 steal() reads top = 0 and
 *   bottom = 1 ~~preempted before its CAS~~> t0 take() lowers bottom, reads
 *   top = 0: the last element ~~preempted before moving top~~> t1's CAS moves
 *   top, steal() = 1 -> t0 stores top, take() = 1: one element taken twice.
 * Every window is needed: a steal that reads bottom after the owner lowered
 * it sees an empty deque, one that moves top before the owner reads it makes
 * the take return none, and one that moves it after the owner's store fails.
 *
 * Oracle: linearizability against a sequential deque (the model below), with
 * contents() as the final operation.
 */
#include <stdlib.h>

#include "weft/weft.h"

#define DEQUE_SLOTS 16
#define DEQUE_MAX_THREADS 3
#define DEQUE_MAX_OPS 4
#define DEQUE_CAP (DEQUE_MAX_THREADS * DEQUE_MAX_OPS)
_Static_assert(DEQUE_CAP <= DEQUE_SLOTS, "pushes never run out of slots");
_Static_assert(DEQUE_CAP <= 18, "contents() fits in an int64_t as decimal digits");

enum { OP_PUSH, OP_TAKE, OP_STEAL, OP_CONTENTS };

typedef struct deque {
	_Atomic int64_t top, bottom;
	_Atomic int64_t slot[DEQUE_SLOTS];
} deque;

static int64_t deque_push(deque *d, int64_t v)
{
	int64_t b = weft_atomic_load(&d->bottom);
	if (b < 0 || b >= DEQUE_SLOTS)   /* b < 0: the buggy take ran bottom below top */
		return -1;
	weft_atomic_store(&d->slot[b], v);
	weft_atomic_store(&d->bottom, b + 1);   /* publishes the slot to thieves */
	return 0;
}

/* Move top from t past the last element: 1 if this take won it. */
static int claim_last(deque *d, int64_t t)
{
#ifdef WEFT_CHASE_LEV_FIXED
	return weft_atomic_compare_exchange_strong(&d->top, &t, t + 1);
#else
	weft_atomic_store(&d->top, t + 1);     /* bug: top was t when read, so just move it */
	return 1;
#endif
}

static int64_t deque_take(deque *d)
{
	int64_t b = weft_atomic_load(&d->bottom) - 1;
	weft_atomic_store(&d->bottom, b);      /* thieves stop short of slot b from now on */
	int64_t t = weft_atomic_load(&d->top);
	if (t > b) {                           /* empty */
		weft_atomic_store(&d->bottom, b + 1);
		return WEFT_NONE;
	}
	int64_t v = weft_atomic_load(&d->slot[b]);
	if (t < b)                             /* more than one left: slot b is ours */
		return v;
	int won = claim_last(d, t);            /* the last one: race the thieves on top */
	weft_atomic_store(&d->bottom, b + 1);
	return won ? v : WEFT_NONE;
}

static int64_t deque_steal(deque *d)
{
	for (;;) {   /* the CAS fails only when another thread took the top element */
		int64_t t = weft_atomic_load(&d->top);
		int64_t b = weft_atomic_load(&d->bottom);
		if (t >= b)
			return WEFT_NONE;
		int64_t v = weft_atomic_load(&d->slot[t]);
		if (weft_atomic_compare_exchange_strong(&d->top, &t, t + 1))
			return v;
	}
}

static int64_t deque_contents(deque *d)
{
	int64_t digits = 0;
	for (int64_t i = weft_atomic_load(&d->top); i < weft_atomic_load(&d->bottom); i++)
		digits = digits * 10 + weft_atomic_load(&d->slot[i]);
	return digits;
}

/* ---- adapters ---- */

static int64_t op_push(void *self, const int64_t *args) { return deque_push(self, args[0]); }
static int64_t op_take(void *self, const int64_t *args) { (void)args; return deque_take(self); }
static int64_t op_steal(void *self, const int64_t *args) { (void)args; return deque_steal(self); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return deque_contents(self); }

static void *deque_setup(void) { return calloc(1, sizeof(deque)); }
static void deque_teardown(void *self) { free(self); }

/* ---- the sequential model: an array, top first ---- */

typedef struct deque_model {
	int64_t n;
	int64_t v[DEQUE_CAP];
} deque_model;

static void model_init(void *state)
{
	deque_model *m = state;
	m->n = 0;
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	deque_model *m = state;
	int64_t r = 0;
	switch (op) {
	case OP_PUSH:
		if (m->n == DEQUE_CAP)
			return -1;
		m->v[m->n++] = args[0];
		return 0;
	case OP_TAKE:
		if (m->n == 0)
			return WEFT_NONE;
		r = m->v[--m->n];
		m->v[m->n] = 0;    /* memcmp-equal states */
		return r;
	case OP_STEAL:
		if (m->n == 0)
			return WEFT_NONE;
		r = m->v[0];
		for (int64_t i = 1; i < m->n; i++)
			m->v[i - 1] = m->v[i];
		m->v[--m->n] = 0;
		return r;
	default:               /* OP_CONTENTS */
		for (int64_t i = 0; i < m->n; i++)
			r = r * 10 + m->v[i];
		return r;
	}
}

static const weft_model deque_model_def = {
	.name = "work-stealing deque", .state_size = sizeof(deque_model),
	.init = model_init, .apply = model_apply,
};

static const weft_op deque_ops[] = {
	[OP_PUSH] = { .name = "push", .run = op_push, .n_args = 1, .args = { { 1, 2 } }, .group = 1 },
	[OP_TAKE] = { .name = "take", .run = op_take, .group = 1 },
	[OP_STEAL] = { .name = "steal", .run = op_steal },
	[OP_CONTENTS] = { .name = "contents", .run = op_contents, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target deque_target = {
#ifdef WEFT_CHASE_LEV_FIXED
	.name = "chase_lev_fixed",
#else
	.name = "chase_lev_buggy",
#endif
	.ops = deque_ops, .n_ops = 4,
	.max_threads = DEQUE_MAX_THREADS, .max_ops_per_thread = DEQUE_MAX_OPS,
	.setup = deque_setup, .teardown = deque_teardown,
	.model = &deque_model_def, .final_op = &deque_ops[OP_CONTENTS],
};
WEFT_FUZZ_TARGET(deque_target)
