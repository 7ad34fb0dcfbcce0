/*
 * targets/resize_set.c - a lock-free set of small keys that moves to a larger
 * table when it reaches RESIZE_AT keys: a bug that needs a particular state
 * (enough distinct keys added) together with a particular schedule.
 *
 * Structure: a small table (SMALL slots) and a big one (BIG slots), `cur`
 * naming the one in use.  add(k) probes `cur`'s table from slot 0 for k or an
 * empty slot and claims it by CAS; the add whose claim brings the count to
 * RESIZE_AT copies the small table's keys into the big one and then sets
 * `cur` to the big table.  An add that finds the small table full or frozen
 * waits for `cur` to change and starts again there.  contains(k) probes
 * `cur`'s table without claiming.  Keys 1..9.  Operations: add(k) -> 1 added
 * / 0 present; contains(k) -> 1 / 0; contents() (final operation only) -> the
 * keys of the table in use as a bit mask (bit k).
 *
 * Seeded bug (default build): the copy reads each small slot once and moves
 * on, so an add that read `cur` before it changed and claims a small slot the
 * copy has already passed puts its key where nobody will look again: add(k)
 * returned 1, contents() lacks k.  The failure needs five distinct keys added
 * (four to start the copy, a fifth that read `cur` before it moved) and the
 * fifth add's claim after the copy passed that slot.  Fixed build
 * (-DWEFT_RESIZE_SET_FIXED): the copy freezes every empty small slot (CAS 0 ->
 * FROZEN) before moving on, so a late claim fails, sees FROZEN and retries in
 * the big table.
 *
 * Known minimal failing interleaving (1 preemption, 5 operations, 2 threads;
 * corpus/resize_set/lost-key.linearizability.bin): t0 add(2), then add(3)
 * reads `cur` = small ~~preempted~~> t1 add(4) add(5) add(1): the fourth
 * key, so t1 copies the small table and moves `cur` to the big one -> t0
 * claims the small slot after the four and returns 1; contents() lacks 3.
 * One preemption is the least (without one no add reads `cur` before a copy
 * and claims after it) and five distinct adds; systematic mode confirms
 * nothing fails without a preemption for 2 threads x 1..3 operations, keys
 * clipped to 1..5 (--args=1..5; the full key range is too large to cover).

 * Oracle: linearizability against a set of keys (a bit mask, the model in
 * key_set_model.h), with contents() as the final operation.
 */
#include <stdlib.h>

#include "weft/weft.h"

#define SMALL 6
#define BIG 10
#define RESIZE_AT 4
#define KEY_SET_MAX_KEY 9
#define FROZEN 0xffu
_Static_assert(KEY_SET_MAX_KEY < BIG && RESIZE_AT < SMALL, "the big table holds every key");

#include "key_set_model.h"

typedef struct resize_set {
	_Atomic uint32_t small[SMALL], big[BIG];
	_Atomic uint32_t cur;     /* 0: small, 1: big */
	_Atomic uint32_t count;   /* claims made in the small table */
} resize_set;

static _Atomic uint32_t *table(resize_set *s, uint32_t which, unsigned *n)
{
	*n = which ? BIG : SMALL;
	return which ? s->big : s->small;
}

/* Put k into the big table (the copy; only the resizing add writes there before cur moves). */
static void big_insert(resize_set *s, uint32_t k)
{
	for (unsigned j = 0; j < BIG; j++) {
		uint32_t empty = 0;
		if (weft_atomic_load(&s->big[j]) == k ||
		    weft_atomic_compare_exchange_strong(&s->big[j], &empty, k))
			return;
	}
}

static void resize(resize_set *s)
{
	for (unsigned j = 0; j < SMALL; j++) {
		uint32_t word = weft_atomic_load(&s->small[j]);
#ifdef WEFT_RESIZE_SET_FIXED
		while (word == 0 && !weft_atomic_compare_exchange_strong(&s->small[j], &word, FROZEN))
			;   /* a claim got there first: copy its key */
#endif
		if (word != 0 && word != FROZEN)
			big_insert(s, word);   /* bug (default build): an empty slot may be claimed later */
	}
	weft_atomic_store(&s->cur, 1);
}

/* 1 added, 0 present, -1 the table cannot take it now (full or frozen): wait and retry. */
static int try_add(resize_set *s, uint32_t which, uint32_t k)
{
	unsigned n;
	_Atomic uint32_t *t = table(s, which, &n);
	for (unsigned j = 0; j < n; j++) {
		uint32_t word = weft_atomic_load(&t[j]);
		if (word == k)
			return 0;
		if (word == FROZEN)
			return -1;
		if (word == 0) {
			if (!weft_atomic_compare_exchange_strong(&t[j], &word, k)) {
				j--;   /* someone claimed it: look at slot j again */
				continue;
			}
			if (!which && weft_atomic_fetch_add(&s->count, 1) + 1 == RESIZE_AT)
				resize(s);
			return 1;
		}
	}
	return -1;
}

static int64_t set_add(resize_set *s, int64_t k)
{
	for (;;) {
		uint32_t which = weft_atomic_load(&s->cur);
		int r = try_add(s, which, (uint32_t)k);
		if (r >= 0)
			return r;
		while (weft_atomic_load(&s->cur) == which)
			;   /* the resize is under way: a spin the scheduler sees */
	}
}

static int64_t set_contains(resize_set *s, int64_t k)
{
	unsigned n;
	_Atomic uint32_t *t = table(s, weft_atomic_load(&s->cur), &n);
	for (unsigned j = 0; j < n; j++)
		if (weft_atomic_load(&t[j]) == (uint32_t)k)
			return 1;
	return 0;
}

static int64_t set_contents(resize_set *s)
{
	unsigned n;
	_Atomic uint32_t *t = table(s, weft_atomic_load(&s->cur), &n);
	int64_t mask = 0;
	for (unsigned j = 0; j < n; j++) {
		uint32_t word = weft_atomic_load(&t[j]);
		if (word != 0 && word != FROZEN)
			mask |= (int64_t)1 << word;
	}
	return mask;
}

/* ---- adapters ---- */

static int64_t op_add(void *self, const int64_t *args) { return set_add(self, args[0]); }
static int64_t op_contains(void *self, const int64_t *args) { return set_contains(self, args[0]); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return set_contents(self); }

static void *set_setup(void) { return calloc(1, sizeof(resize_set)); }
static void set_teardown(void *self) { free(self); }

static const weft_target set_target = {
#ifdef WEFT_RESIZE_SET_FIXED
	.name = "resize_set_fixed",
#else
	.name = "resize_set_buggy",
#endif
	.ops = key_set_ops, .n_ops = 3,
	.setup = set_setup, .teardown = set_teardown,
	.model = &key_set_model, .final_op = &key_set_ops[OP_CONTENTS],
};
WEFT_FUZZ_TARGET(set_target)
