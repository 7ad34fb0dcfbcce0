/*
 * targets/key_lock_set.c - an open-addressing hash set that serializes the
 * operations on one key with a lock per key, and not the operations on
 * different keys that share slots.
 *
 * Structure: SET_SLOTS slots, keys 1..KEY_SET_MAX_KEY, probed linearly from
 * home(k) = k mod 13, so exactly two pairs of keys share a home slot: 1 and
 * 14, 2 and 15 (and a key pushed on by a collision may meet the next home).
 * A slot holds a key (0 = empty) and never changes once claimed; there is no
 * remove.  add(k) takes k's mutex, probes for k or the first empty slot
 * and claims it; contains(k) probes without a lock.  Operations: add(k) -> 1
 * added / 0 already present; contains(k) -> 1 / 0; contents() (final
 * operation only) -> the keys in the slots as a bit mask (bit k).
 *
 * Seeded bug (default build): add claims the empty slot with a plain store -
 * the key's lock makes that safe against another add of the same key, which is
 * what the author had in mind, but not against an add of a colliding key,
 * which overwrites it.  So the failure needs two particular arguments (a
 * colliding pair out of 15 x 15) together with a preemption in the window.
 * Fixed build (-DWEFT_KEY_LOCK_SET_FIXED): the claim is a CAS from empty; when
 * it fails the probe looks at the same slot again.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/key_lock_set/collision.linearizability.bin, minimal by systematic
 * mode): t0 add(14) finds slot 1 (its home, 14 mod 13) empty ~~preempted~~>
 * t1 add(1) finds slot 1 empty, stores 1, returns 1 -> t0 stores 14 over it
 * and returns 1: contents() = {14}, though both were added.  The keys' locks
 * differ, so neither add waits; keys that do not collide land in their homes.
 * (add(2) against add(15) is as simple; the simplifier, which lowers one
 * argument at a time, keeps whichever colliding pair it starts from.)
 *
 * Oracle: linearizability against a set of keys (a bit mask, the model in
 * key_set_model.h), with contents() as the final operation.
 */
#include <pthread.h>
#include <stdlib.h>

#include "weft/sync.h"
#include "weft/weft.h"

#define SET_SLOTS 16
#define KEY_SET_MAX_KEY 15
#define SET_HOME_MOD 13
_Static_assert(KEY_SET_MAX_KEY < SET_SLOTS, "a probe always reaches the key or an empty slot");

#include "key_set_model.h"

typedef struct set {
	_Atomic uint32_t slot[SET_SLOTS];
	pthread_mutex_t lock[KEY_SET_MAX_KEY + 1];    /* per key: held while an add of it runs */
} set;

static unsigned probe(int64_t k, unsigned i) { return (unsigned)(k % SET_HOME_MOD + i) % SET_SLOTS; }

/* Managed mutexes (weft/sync.h): a blocked add waits, it does not spin. */
static void key_lock(set *s, int64_t k) { weft_pthread_mutex_lock(&s->lock[k]); }
static void key_unlock(set *s, int64_t k) { weft_pthread_mutex_unlock(&s->lock[k]); }

/* Claim empty slot j for k: 1 if k is there now. */
static int claim(set *s, unsigned j, int64_t k)
{
#ifdef WEFT_KEY_LOCK_SET_FIXED
	uint32_t empty = 0;
	return weft_atomic_compare_exchange_strong(&s->slot[j], &empty, (uint32_t)k);
#else
	weft_atomic_store(&s->slot[j], (uint32_t)k);   /* bug: only k's own adds are locked out */
	return 1;
#endif
}

static int64_t set_add(set *s, int64_t k)
{
	key_lock(s, k);
	int64_t added = 0;
	for (unsigned i = 0; i < SET_SLOTS; i++) {
		unsigned j = probe(k, i);
		uint32_t word = weft_atomic_load(&s->slot[j]);
		if (word == (uint32_t)k)
			break;
		if (word == 0 && claim(s, j, k)) {
			added = 1;
			break;
		}
		if (word == 0)
			i--;   /* lost the claim (fixed build): look at slot j again */
	}
	key_unlock(s, k);
	return added;
}

static int64_t set_contains(set *s, int64_t k)
{
	for (unsigned i = 0; i < SET_SLOTS; i++) {
		uint32_t word = weft_atomic_load(&s->slot[probe(k, i)]);
		if (word == (uint32_t)k)
			return 1;
		if (word == 0)
			return 0;
	}
	return 0;
}

static int64_t set_contents(set *s)
{
	int64_t mask = 0;
	for (unsigned j = 0; j < SET_SLOTS; j++)
		mask |= (int64_t)1 << weft_atomic_load(&s->slot[j]);
	return mask & ~(int64_t)1;   /* bit 0: empty slots */
}

/* ---- adapters ---- */

static int64_t op_add(void *self, const int64_t *args) { return set_add(self, args[0]); }
static int64_t op_contains(void *self, const int64_t *args) { return set_contains(self, args[0]); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return set_contents(self); }

static void *set_setup(void)
{
	set *s = calloc(1, sizeof *s);
	for (unsigned k = 0; s && k <= KEY_SET_MAX_KEY; k++)
		weft_mutex_init(&s->lock[k], NULL);
	return s;
}

static void set_teardown(void *self)
{
	set *s = self;
	for (unsigned k = 0; k <= KEY_SET_MAX_KEY; k++)
		weft_mutex_destroy(&s->lock[k]);
	free(s);
}

static const weft_target set_target = {
#ifdef WEFT_KEY_LOCK_SET_FIXED
	.name = "key_lock_set_fixed",
#else
	.name = "key_lock_set_buggy",
#endif
	.ops = key_set_ops, .n_ops = 3,
	.setup = set_setup, .teardown = set_teardown,
	.model = &key_set_model, .final_op = &key_set_ops[OP_CONTENTS],
};
WEFT_FUZZ_TARGET(set_target)
