/*
 * oracle/memo.c - Lowe's memo for the linearizability search (Lowe, "Testing
 * for linearizability", CCPE 2017): every (set of linearized operations, model
 * state) the search reaches is kept; reaching one again can only fail again,
 * so the search skips it.  This file owns the linearized set (bitsets, their
 * window, their Zobrist hash), the records, the arena holding them and the
 * open-addressing table finding them.  The search itself is oracle/linearize.c.
 *
 * The record: a sequential run of n operations memoizes n records, and n-bit
 * sets would cost n*n/8 bytes (1.25 GB at n = 100,000).  A linearized set is
 * closed under real-time precedence, so over the completed operations (in
 * invocation order) it is "everything below some word, a window, nothing
 * above": a record stores only the words from the first non-full one to the
 * last non-zero one (canonical, so comparison stays exact), plus the bitset of
 * the few pending operations.  Worked example, 200 completed operations, ops
 * 0..129 and 131 linearized: words 0 and 1 are full, the window is word 2
 * (bits 0..1 and 3), the record stores {wlo 2, 1 word}.
 *
 * Pending operations by inclusion (when a sub-history has at most 64 of them
 * and the model's states own no memory): a pending operation never has to be
 * linearized, so a configuration reached before with a *subset* of our pending
 * operations (same completed set, same state) can do all we can; we are pruned.
 * The key is then (completed set, state) alone; the pending sets it was reached
 * with are the first record's own word plus an array of masks kept free of
 * supersets, scanned as plain words.  On the 102 Jepsen etcd logs (19 of 77
 * operations pending in the hardest) this cuts the search 3.1x and the time 4x.
 *
 * The hash: Zobrist's for the set (an XOR of one fixed random word per
 * operation, updated in O(1) per add or remove), mixed with the state's hash
 * (model->hash, else FNV-style over the bytes).  Collisions cost a comparison,
 * never a wrong answer: a match compares window, pending bits and state.
 *
 * Memory: records live in an arena, a chain of blocks rewound, not freed,
 * between sub-histories; the table (load <= 1/2, linear probing) doubles into a
 * kept spare buffer.  So a stream of small histories allocates nothing after
 * warm-up.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memo.h"

#define ORACLE_ALIGN alignof(max_align_t)
#define ORACLE_REC_HDR ORACLE_ALIGN            /* {wlo, nw} then the state, aligned */
#define ORACLE_BLOCK_MIN ((size_t)64 * 1024)
#define ORACLE_TABLE_MIN 16u
#define ORACLE_TABLE_START 4096u

_Static_assert(ORACLE_REC_HDR >= 2 * sizeof(uint32_t) + sizeof(void *),
	       "record header holds wlo, nw and the key's pending sets");

/*
 * The pending sets a key (completed set, state) was reached with, when a
 * sub-history has at most 64 pending operations: the key's first record's own
 * word, then an array of masks in the arena hung off that record (regrown by
 * doubling into fresh arena room), kept free of supersets.  Scanned as words.
 */
typedef struct oracle_mask_set {
	uint32_t n, cap;
	uint64_t mask[];
} oracle_mask_set;

typedef struct oracle_memo_block {
	struct oracle_memo_block *next;
	size_t cap;                   /* bytes of data, which start at oracle_block_data() */
} oracle_memo_block;

typedef struct oracle_memo_slot {
	uint64_t hash;
	unsigned char *rec;           /* NULL: empty */
} oracle_memo_slot;

/* ---- hashing and model states ---- */

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* splitmix64's finalizer: a bijection, so distinct inputs stay distinct. */
static uint64_t oracle_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t oracle_hash_word(uint64_t h, const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	h = (h ^ w) * 0x100000001b3ULL;
	return h ^ (h >> 32);
}

/*
 * FNV-style over 8-byte words (a byte at a time is 8x slower), in four
 * independent lanes so the multiplies overlap: hashing the state is the
 * search's hottest step (a third of a sequential check with a 264-byte state).
 */
static uint64_t oracle_hash_bytes(const unsigned char *p, size_t n)
{
	uint64_t h[4] = { 0xcbf29ce484222325ULL ^ n, 1, 2, 3 }, w = 0;
	for (; n >= 32; p += 32, n -= 32)
		for (int k = 0; k < 4; k++)
			h[k] = oracle_hash_word(h[k], p + 8 * k);
	for (; n >= 8; p += 8, n -= 8)
		h[0] = oracle_hash_word(h[0], p);
	memcpy(&w, p, n);
	return oracle_mix(h[0] ^ w) ^ oracle_mix(h[1] + 3 * oracle_mix(h[2] ^ oracle_mix(h[3])));
}

static int state_equal(const oracle_memo *mm, const void *a, const void *b)
{
	if (mm->model->equal)
		return mm->model->equal(a, b) != 0;
	return memcmp(a, b, mm->model->state_size) == 0;
}

static uint64_t state_hash(const oracle_memo *mm, const void *s)
{
	if (mm->model->hash)
		return mm->model->hash(s);
	return oracle_hash_bytes(s, mm->model->state_size);
}

/* ---- buffers ---- */

static void *oracle_resize(void *p, size_t count, size_t size, int *failed)
{
	size_t bytes = count * size;
	void *q = realloc(p, bytes ? bytes : 1);
	if (!q)
		*failed = 1;
	return q ? q : p;
}

void oracle_memo_init(oracle_memo *mm, const weft_model *model)
{
	*mm = (oracle_memo){ .model = model, .state_pad = round_up(model->state_size, 8) };
}

/* Two spare words: clearing touches cw + 1 of them. */
int oracle_memo_reserve(oracle_memo *mm, size_t n)
{
	size_t words = n / 64 + 2;
	int failed = 0;
	if (words <= mm->bit_words)
		return 0;
	mm->cbits = oracle_resize(mm->cbits, words, sizeof *mm->cbits, &failed);
	mm->pbits = oracle_resize(mm->pbits, words, sizeof *mm->pbits, &failed);
	if (!failed)
		mm->bit_words = words;
	return failed ? -1 : 0;
}

void oracle_memo_free(oracle_memo *mm)
{
	while (mm->blocks) {
		oracle_memo_block *next = mm->blocks->next;
		free(mm->blocks);
		mm->blocks = next;
	}
	free(mm->cbits), free(mm->pbits), free(mm->slots), free(mm->spare);
	mm->spent = 0;
	*mm = (oracle_memo){ .model = mm->model, .state_pad = mm->state_pad };
}

/* ---- the linearized set: bitsets, their window, their hash ---- */

void oracle_memo_add(oracle_memo *mm, uint32_t id, uint32_t bit, int pending)
{
	size_t w = bit / 64;
	uint64_t mask = (uint64_t)1 << (bit % 64);
	if (pending && mm->dominance) {   /* not hashed: see oracle_memo_insert */
		mm->pbits[w] |= mask;
		return;
	}
	mm->zobrist ^= oracle_mix((uint64_t)id + 1);
	if (pending) {
		mm->pbits[w] |= mask;
		return;
	}
	mm->cbits[w] |= mask;
	mm->whi = w + 1 > mm->whi ? w + 1 : mm->whi;
	while (mm->wlo < mm->cw && mm->cbits[mm->wlo] == ~(uint64_t)0)
		mm->wlo++;
}

void oracle_memo_remove(oracle_memo *mm, uint32_t id, uint32_t bit, int pending)
{
	size_t w = bit / 64;
	uint64_t mask = (uint64_t)1 << (bit % 64);
	if (pending && mm->dominance) {
		mm->pbits[w] &= ~mask;
		return;
	}
	mm->zobrist ^= oracle_mix((uint64_t)id + 1);
	if (pending) {
		mm->pbits[w] &= ~mask;
		return;
	}
	mm->cbits[w] &= ~mask;
	mm->wlo = w < mm->wlo ? w : mm->wlo;
	while (mm->whi > 0 && mm->cbits[mm->whi - 1] == 0)
		mm->whi--;
}

int oracle_memo_has(const oracle_memo *mm, uint32_t bit, int pending)
{
	const uint64_t *bits = pending ? mm->pbits : mm->cbits;
	return (bits[bit / 64] >> (bit % 64)) & 1;
}

static size_t oracle_window(const oracle_memo *mm)
{
	return mm->whi > mm->wlo ? mm->whi - mm->wlo : 0;
}

/* ---- the arena ---- */

static unsigned char *oracle_block_data(oracle_memo_block *b)
{
	return (unsigned char *)b + round_up(sizeof *b, ORACLE_ALIGN);
}

/* A block of at least `size` bytes, spliced in after the current one. */
static oracle_memo_block *oracle_block_add(oracle_memo *mm, size_t size)
{
	size_t cap = mm->block && 2 * mm->block->cap > ORACLE_BLOCK_MIN ? 2 * mm->block->cap
									 : ORACLE_BLOCK_MIN;
	cap = cap > size ? cap : size;
	oracle_memo_block *b = malloc(round_up(sizeof *b, ORACLE_ALIGN) + cap);
	if (!b)
		return NULL;
	b->cap = cap;
	b->next = mm->block ? mm->block->next : mm->blocks;
	*(mm->block ? &mm->block->next : &mm->blocks) = b;
	return b;
}

/*
 * The current block is full: move the cursor to the start of the next block
 * (kept from an earlier sub-history) if it holds `size` bytes, else of a new one.
 * Out of line, so the fast path in oracle_arena_room saves no registers.
 */
static __attribute__((noinline)) unsigned char *oracle_arena_next(oracle_memo *mm, size_t size)
{
	oracle_memo_block *b = mm->block ? mm->block->next : mm->blocks;
	if (!b || b->cap < size)
		b = oracle_block_add(mm, size);
	if (!b)
		return NULL;
	mm->spent += mm->block ? mm->block->cap : 0;   /* the rest of a full block counts too */
	mm->block = b;
	mm->used = 0;
	return oracle_block_data(b);
}

/* `size` free bytes at the arena's cursor (not yet used): the next record goes there. */
static unsigned char *oracle_arena_room(oracle_memo *mm, size_t size)
{
	oracle_memo_block *b = mm->block;
	if (b && b->cap - mm->used >= size)
		return oracle_block_data(b) + mm->used;
	return oracle_arena_next(mm, size);
}

/* ---- the table ---- */

/*
 * An empty table of at least 2m slots (load <= 1/2), at most ORACLE_TABLE_START
 * to begin with: a sequential history memoizes nothing (linearize.c's forced
 * steps), so sizing by the history would only cost memory.  0 on success.
 */
static int oracle_table_reset(oracle_memo *mm, size_t m)
{
	size_t size = ORACLE_TABLE_MIN;
	while (size < 2 * m && size < ORACLE_TABLE_START)
		size *= 2;
	if (mm->slots_cap < size) {
		int failed = 0;
		mm->slots = oracle_resize(mm->slots, size, sizeof *mm->slots, &failed);
		if (failed)
			return -1;
		mm->slots_cap = size;
	}
	memset(mm->slots, 0, size * sizeof *mm->slots);
	mm->mask = size - 1;
	mm->count = 0;
	return 0;
}

static size_t oracle_table_free_slot(const oracle_memo_slot *slots, size_t mask, uint64_t hash)
{
	size_t i = hash & mask;
	while (slots[i].rec)
		i = (i + 1) & mask;
	return i;
}

/* Double the table into the spare buffer (kept, so growth stops allocating). */
static int oracle_table_grow(oracle_memo *mm)
{
	size_t size = 2 * (mm->mask + 1);
	if (mm->limit && mm->spare_cap < size &&
	    oracle_memo_bytes(mm) + (size - mm->spare_cap) * sizeof *mm->spare > mm->limit) {
		mm->over = 1;   /* the doubled table alone would pass the cap: stop before it */
		return -1;
	}
	if (mm->spare_cap < size) {
		int failed = 0;
		mm->spare = oracle_resize(mm->spare, size, sizeof *mm->spare, &failed);
		if (failed)
			return -1;
		mm->spare_cap = size;
	}
	memset(mm->spare, 0, size * sizeof *mm->spare);
	for (size_t i = 0; i <= mm->mask; i++)
		if (mm->slots[i].rec)
			mm->spare[oracle_table_free_slot(mm->spare, size - 1, mm->slots[i].hash)] =
				mm->slots[i];
	oracle_memo_slot *t = mm->slots;
	size_t tcap = mm->slots_cap;
	mm->slots = mm->spare, mm->slots_cap = mm->spare_cap;
	mm->spare = t, mm->spare_cap = tcap;
	mm->mask = size - 1;
	return 0;
}

/* ---- records ---- */

/* Record: {wlo, nw} | state (state_pad bytes) | nw window words | pw pending words. */
static size_t oracle_rec_size(const oracle_memo *mm, size_t nw)
{
	return round_up(ORACLE_REC_HDR + mm->state_pad + (nw + mm->pw) * 8, ORACLE_ALIGN);
}

static oracle_mask_set *rec_masks(const unsigned char *rec)
{
	oracle_mask_set *m;
	memcpy(&m, rec + 2 * sizeof(uint32_t), sizeof m);
	return m;
}

static void rec_set_masks(unsigned char *rec, oracle_mask_set *m)
{
	memcpy(rec + 2 * sizeof(uint32_t), &m, sizeof m);
}

/* Some pending set the key was reached with is a subset of ours. */
static int oracle_dominated(const oracle_memo *mm, const unsigned char *head, uint64_t ours)
{
	uint32_t hdr[2];
	uint64_t first;
	memcpy(hdr, head, sizeof hdr);
	memcpy(&first, head + ORACLE_REC_HDR + mm->state_pad + (size_t)hdr[1] * 8, 8);
	if (!(first & ~ours))
		return 1;
	const oracle_mask_set *m = rec_masks(head);
	for (uint32_t i = 0; m && i < m->n; i++)
		if (!(m->mask[i] & ~ours))
			return 1;
	return 0;
}

/*
 * One more pending set for the key of `head` (not dominated): the sets that
 * contain it go (it prunes whatever they would), then it is appended; -1 out
 * of memory.
 */
static int oracle_add_mask(oracle_memo *mm, unsigned char *head, uint64_t ours)
{
	oracle_mask_set *m = rec_masks(head);
	for (uint32_t i = 0; m && i < m->n;)
		if (ours & ~m->mask[i])
			i++;
		else
			m->mask[i] = m->mask[--m->n];
	if (!m || m->n == m->cap) {
		uint32_t cap = m ? 2 * m->cap : 8;
		size_t bytes = round_up(sizeof *m + cap * sizeof m->mask[0], ORACLE_ALIGN);
		oracle_mask_set *grown = (oracle_mask_set *)oracle_arena_room(mm, bytes);
		if (!grown)
			return -1;
		mm->used += bytes;
		grown->n = m ? m->n : 0;
		grown->cap = cap;
		if (m)
			memcpy(grown->mask, m->mask, m->n * sizeof m->mask[0]);
		rec_set_masks(head, grown);
		m = grown;
	}
	m->mask[m->n++] = ours;
	return 0;
}

static int oracle_rec_matches(const oracle_memo *mm, const unsigned char *rec,
			      const unsigned char *state)
{
	uint32_t hdr[2];
	size_t nw = oracle_window(mm);
	const unsigned char *words = rec + ORACLE_REC_HDR + mm->state_pad;
	memcpy(hdr, rec, sizeof hdr);
	if (hdr[0] != mm->wlo || hdr[1] != nw)
		return 0;
	if (memcmp(words, mm->cbits + mm->wlo, nw * 8) != 0 ||
	    (!mm->dominance && memcmp(words + nw * 8, mm->pbits, mm->pw * 8) != 0))
		return 0;
	return state_equal(mm, rec + ORACLE_REC_HDR, state);
}

/* Completes the record at the arena's cursor (its state already there) and keeps it. */
static void oracle_rec_commit(oracle_memo *mm, unsigned char *rec, uint64_t hash, size_t slot)
{
	size_t nw = oracle_window(mm);
	uint32_t hdr[2] = { (uint32_t)mm->wlo, (uint32_t)nw };
	unsigned char *words = rec + ORACLE_REC_HDR + mm->state_pad;
	memcpy(rec, hdr, sizeof hdr);
	memcpy(words, mm->cbits + mm->wlo, nw * 8);
	memcpy(words + nw * 8, mm->pbits, mm->pw * 8);
	rec_set_masks(rec, NULL);
	mm->used += oracle_rec_size(mm, nw);
	mm->slots[slot] = (oracle_memo_slot){ hash, rec };
	mm->count++;
}

/* ---- the memo ---- */

static void oracle_rec_commit(oracle_memo *mm, unsigned char *rec, uint64_t hash, size_t slot);

/* A record of a key already in the table, with another pending set: kept, not hashed. */
static int oracle_keep_more(oracle_memo *mm, unsigned char *rec, unsigned char *head)
{
	size_t nw = oracle_window(mm);
	uint32_t hdr[2] = { (uint32_t)mm->wlo, (uint32_t)nw };
	memcpy(rec, hdr, sizeof hdr);
	rec_set_masks(rec, NULL);
	mm->used += oracle_rec_size(mm, nw);
	return oracle_add_mask(mm, head, mm->pbits[0]) == 0 ? 1 : -1;
}

int oracle_memo_reset(oracle_memo *mm, size_t n_completed, size_t n_pending)
{
	mm->cw = (n_completed + 63u) / 64u;
	mm->pw = (n_pending + 63u) / 64u;
	/* pending sets by inclusion: one word of them, and kept states need no destroy */
	mm->dominance = mm->pw == 1 && !mm->model->destroy;
	if (oracle_table_reset(mm, n_completed + n_pending) != 0)
		return -1;
	memset(mm->cbits, 0, (mm->cw + 1) * sizeof *mm->cbits);
	memset(mm->pbits, 0, (mm->pw + 1) * sizeof *mm->pbits);
	mm->wlo = mm->whi = 0;
	mm->zobrist = 0;
	mm->rec_max = oracle_rec_size(mm, mm->cw);
	mm->block = mm->blocks;
	mm->used = mm->spent = 0;
	return 0;
}

/* Room for the widest record (a window of all cw words); its state starts after the header. */
unsigned char *oracle_memo_room(oracle_memo *mm)
{
	unsigned char *rec = oracle_arena_room(mm, mm->rec_max);
	return rec ? rec + ORACLE_REC_HDR : NULL;
}

/* The current set with `state`: 1 newly memoized, 0 seen before, -1 no memory. */
int oracle_memo_insert(oracle_memo *mm, unsigned char *state)
{
	unsigned char *rec = state - ORACLE_REC_HDR;
	uint64_t hash = oracle_mix(mm->zobrist ^ state_hash(mm, state));
	size_t i = hash & mm->mask;
	for (; mm->slots[i].rec; i = (i + 1) & mm->mask) {
		unsigned char *head = mm->slots[i].rec;
		if (mm->slots[i].hash != hash || !oracle_rec_matches(mm, head, state))
			continue;
		if (!mm->dominance)
			return 0;
		/*
		 * Same completed set and state, pending sets compared by inclusion
		 * (at most 64 pending operations): reached before with a subset of our
		 * pending operations, it dominates us - a pending operation never has
		 * to be linearized, so whatever completes the search from here
		 * completes it from there, whose search covers ours.  Otherwise we are
		 * new: our state is kept (the search points at it) and our set joins
		 * the key's.
		 */
		if (oracle_dominated(mm, head, mm->pbits[0]))
			return 0;
		return oracle_keep_more(mm, rec, head);
	}
	if (2 * (mm->count + 1) > mm->mask + 1) {
		if (oracle_table_grow(mm) != 0)
			return -1;
		i = oracle_table_free_slot(mm->slots, mm->mask, hash);
	}
	oracle_rec_commit(mm, rec, hash, i);
	return 1;
}

int oracle_memo_extend(oracle_memo *mm, uint32_t id, uint32_t bit, int pending,
		       unsigned char *state)
{
	oracle_memo_add(mm, id, bit, pending);
	int added = oracle_memo_insert(mm, state);
	if (added <= 0)
		oracle_memo_remove(mm, id, bit, pending);
	return added;
}

size_t oracle_memo_bytes(const oracle_memo *mm)
{
	return mm->spent + mm->used + (mm->slots_cap + mm->spare_cap) * sizeof(oracle_memo_slot);
}

void oracle_memo_drop_states(oracle_memo *mm)
{
	if (!mm->model->destroy || !mm->slots)
		return;
	for (size_t i = 0; i <= mm->mask; i++)
		if (mm->slots[i].rec)
			mm->model->destroy(mm->slots[i].rec + ORACLE_REC_HDR);
}
