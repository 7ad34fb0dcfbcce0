/*
 * targets/hash_set.c - a lock-free open-addressing hash set of small keys.
 *
 * Structure: SET_SLOTS slots probed linearly from hash(k) = 2k mod 4, so keys
 * 1 and 3 share a home slot, and 2 and 4.  A slot is one atomic word: the key
 * (0 = never used) and a PRESENT bit.  A slot's key is claimed once, by CAS
 * from 0, and never changes; remove clears PRESENT and add sets it again by
 * CAS, so a key owns at most one slot - the first empty slot of its probe
 * sequence when it was first added - and a probe that meets an empty slot
 * knows the key is absent (the design of Purcell and Harris, "Non-blocking
 * hashtables with open addressing", DISC 2005, without resizing).
 * Operations: add(k) -> 1 added / 0 already present; remove(k) -> 1 removed /
 * 0 absent; contains(k) -> 1 / 0; keys 1..4.
 *
 * Seeded bug (default build): add checks, then acts - it finds the first empty
 * slot of its probe sequence and plain-stores its key there instead of
 * claiming the slot by CAS, so two adds that both saw the slot empty both
 * "add" (or one overwrites the other's key).  Fixed build
 * (-DWEFT_HASH_SET_FIXED): the claiming CAS, re-examining the slot when it fails.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption;
 * corpus/hash_set/double-add-minimal.bin): t0 add(1) finds its home slot
 * empty ~~preempted~~> t1 add(1) finds it empty too and stores 1 -> t0 stores
 * 1: both add(1) = 1.
 *
 * Oracle: linearizability against a set of keys (the model below), checked key
 * by key (the model partitions operations by their key: P-compositionality);
 * validate() then checks that no key owns two slots.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

#define SET_SLOTS 4
#define SET_MAX_KEY 4
#define SET_PRESENT 0x100u       /* slot word: key | SET_PRESENT while the key is in the set */
_Static_assert(SET_MAX_KEY <= SET_SLOTS, "a probe sequence always reaches the key or an empty slot");

enum { OP_ADD, OP_REMOVE, OP_CONTAINS };

typedef struct set {
	_Atomic uint32_t slot[SET_SLOTS];
} set;

static uint32_t key_of(uint32_t word) { return word & ~SET_PRESENT; }
static unsigned probe(int64_t k, unsigned i) { return (unsigned)(2 * k + i) % SET_SLOTS; }

/*
 * The slot of key k, or else the first empty slot of its probe sequence, with
 * its word in *word: every slot before it holds another key, for good.
 * SET_SLOTS when every slot holds another key (the buggy add's overwrites only).
 */
static unsigned set_find(set *s, int64_t k, uint32_t *word)
{
	for (unsigned i = 0; i < SET_SLOTS; i++) {
		unsigned j = probe(k, i);
		*word = weft_atomic_load(&s->slot[j]);
		if (key_of(*word) == 0 || key_of(*word) == k)
			return j;
	}
	return SET_SLOTS;
}

/* Claims empty slot j for k, present; 1 when claimed, else *word is the slot's new word. */
static int set_claim(set *s, unsigned j, int64_t k, uint32_t *word)
{
#ifdef WEFT_HASH_SET_FIXED
	return weft_atomic_compare_exchange_strong(&s->slot[j], word, (uint32_t)k | SET_PRESENT);
#else
	(void)word;
	weft_atomic_store(&s->slot[j], (uint32_t)k | SET_PRESENT);   /* bug: checked empty, then stored */
	return 1;
#endif
}

/*
 * Sets (present = 1) or clears the PRESENT bit of key k in slot j, whose word
 * was `word`; 1 when this call changed it.  The CAS fails only when another
 * thread flipped the bit (or, in the buggy build, stored another key there).
 */
static int set_mark(set *s, unsigned j, int64_t k, uint32_t word, int present)
{
	uint32_t want = present ? SET_PRESENT : 0;
	while (key_of(word) == k && (word & SET_PRESENT) != want) {
		if (weft_atomic_compare_exchange_strong(&s->slot[j], &word, (uint32_t)k | want))
			return 1;
	}
	return 0;
}

static int64_t set_add(set *s, int64_t k)
{
	for (;;) {           /* a failed claim means another thread took the slot */
		uint32_t word;
		unsigned j = set_find(s, k, &word);
		if (j == SET_SLOTS)
			return -1;   /* no room: not a result a set can give */
		if (key_of(word) == k)
			return set_mark(s, j, k, word, 1);
		if (set_claim(s, j, k, &word))
			return 1;
		if (key_of(word) == k)
			return set_mark(s, j, k, word, 1);
	}
}

static int64_t set_remove(set *s, int64_t k)
{
	uint32_t word;
	unsigned j = set_find(s, k, &word);
	return j < SET_SLOTS && key_of(word) == k ? set_mark(s, j, k, word, 0) : 0;
}

static int64_t set_contains(set *s, int64_t k)
{
	uint32_t word;
	unsigned j = set_find(s, k, &word);
	return j < SET_SLOTS && key_of(word) == k && (word & SET_PRESENT);
}

/* ---- adapters ---- */

static int64_t op_add(void *self, const int64_t *args) { return set_add(self, args[0]); }
static int64_t op_remove(void *self, const int64_t *args) { return set_remove(self, args[0]); }
static int64_t op_contains(void *self, const int64_t *args) { return set_contains(self, args[0]); }

static void *set_setup(void) { return calloc(1, sizeof(set)); }
static void set_teardown(void *self) { free(self); }

/* After a linearizable run: every key owns at most one slot. */
static int set_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)h;
	set *s = self;
	unsigned seen = 0;
	for (unsigned j = 0; j < SET_SLOTS; j++) {
		uint32_t k = key_of(atomic_load(&s->slot[j]));
		if (k && (seen & 1u << k)) {
			snprintf(msg, cap, "key %u owns two slots", k);
			return 1;
		}
		seen |= k ? 1u << k : 0;
	}
	return 0;
}

/* ---- the sequential model: one bit per key ---- */

static void model_init(void *state) { (void)state; /* zeroed memory: empty */ }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	uint8_t *bits = state, bit = (uint8_t)(1u << args[0]);
	int64_t was = (*bits & bit) != 0;
	switch (op) {
	case OP_ADD:
		*bits |= bit;
		return !was;
	case OP_REMOVE:
		*bits &= (uint8_t)~bit;
		return was;
	default:              /* OP_CONTAINS */
		return was;
	}
}

/* Operations on different keys never affect each other. */
static int64_t model_partition(unsigned op, const int64_t *args)
{
	(void)op;
	return args[0];
}

static const weft_model set_model_def = {
	.name = "set", .state_size = sizeof(uint8_t),
	.init = model_init, .apply = model_apply, .partition = model_partition,
};

static const weft_op set_ops[] = {
	[OP_ADD] = { .name = "add", .run = op_add, .n_args = 1, .args = { { 1, SET_MAX_KEY } } },
	[OP_REMOVE] = { .name = "remove", .run = op_remove, .n_args = 1, .args = { { 1, SET_MAX_KEY } } },
	[OP_CONTAINS] = { .name = "contains", .run = op_contains, .n_args = 1, .args = { { 1, SET_MAX_KEY } } },
};

static const weft_target set_target = {
#ifdef WEFT_HASH_SET_FIXED
	.name = "hash_set_fixed",
#else
	.name = "hash_set_buggy",
#endif
	.ops = set_ops, .n_ops = 3,
	.setup = set_setup, .teardown = set_teardown,
	.model = &set_model_def, .validate = set_validate,
};
WEFT_FUZZ_TARGET(set_target)
