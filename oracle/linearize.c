/*
 * oracle/linearize.c - the linearizability checker (weft/check.h): is there an
 * order of a history's operations, each placed between its invocation and its
 * response, that the sequential model explains?  (Herlihy & Wing,
 * "Linearizability: a correctness condition for concurrent objects", TOPLAS 1990.)
 *
 * The search: Wing & Gong ("Testing and verifying concurrent objects", JPDC
 * 1993) with Lowe's memoization ("Testing for linearizability", CCPE 2017) -
 * the algorithm of the porcupine checker.
 *   - The history is one doubly-linked list of call and return entries in
 *     logical-time order.  a precedes b iff a.returned_at < b.invoked_at, so at
 *     equal times the call goes first: the two overlap.
 *   - Any call before the first return may be linearized next: apply it to a
 *     copy of the model state; if the model gives the observed result, lift
 *     its call and return out of the list (dancing links: unlifting relinks
 *     them in O(1)) and push it on an explicit stack.  Never recursion: a
 *     history may have 100,000 operations.
 *   - Lowe: every (set of linearized operations, model state) reached is
 *     memoized; reaching one again can only fail again, so it is skipped.
 *   - When no candidate is left, backtrack: pop, unlift, try the next call.
 *   - Success when no return entry is left.  A pending operation has a call
 *     but no return: it may be linearized anywhere after its invocation or
 *     never, and its result is not compared.
 * P-compositionality (Horn & Kroening, "Faster linearizability checking via
 * P-compositionality", FORTE 2015): when the model keys every operation, each
 * key's sub-history is checked alone, from init, in ascending key order.
 *
 * The memo entry: a sequential run of n operations memoizes n entries, and
 * n-bit sets would cost n*n/8 bytes (1.25 GB at n = 100,000).  A linearized
 * set is closed under real-time precedence, so over the completed operations
 * (in invocation order) it is "everything below some word, a window, nothing
 * above": an entry stores only the words from the first non-full one to the
 * last non-zero one (canonical, so comparison stays exact), plus the bitset of
 * the few pending operations.  Worked example, 200 completed operations, ops
 * 0..129 and 131 linearized: words 0 and 1 are full, the window is word 2
 * (bits 0..1 and 3), the entry stores {wlo 2, 1 word}.  The hash is Zobrist's
 * (an XOR of one fixed random word per operation), updated in O(1) per lift.
 *
 * Cost = model apply calls of the search (the explanation's replay is free).
 * Buffers live in the checker and grow to the biggest history checked so far;
 * the memo's arena is a chain of blocks rewound, not freed, between checks, so
 * a stream of small histories allocates nothing after warm-up (only a search
 * that memoizes more than any before grows the table or the arena).
 *
 * Size: ~800 lines, one concept (the search), in sections: hashing, buffers,
 * the list, the linearized set, the memo, the search, the explanation's data,
 * partitions.  The memo (arena and table, ~200 lines) is the part to move out,
 * to oracle/memo.c behind an internal header, if this file grows further.
 */
#include <assert.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weft/check.h"

#define ORACLE_NIL UINT32_MAX
#define ORACLE_HEAD 0u
#define ORACLE_ALIGN alignof(max_align_t)
#define ORACLE_REC_HDR ORACLE_ALIGN            /* {wlo, nw} then the state, aligned */
#define ORACLE_BLOCK_MIN ((size_t)64 * 1024)
#define ORACLE_TABLE_MIN 16u
#define ORACLE_MAX_OPS ((size_t)UINT32_MAX / 4) /* entries are uint32_t indices */

_Static_assert(ORACLE_REC_HDR >= 2 * sizeof(uint32_t), "record header holds wlo and nw");

typedef struct oracle_op {
	const weft_op_record *rec;
	uint32_t bit;       /* index in the completed or in the pending bitset */
	uint32_t pending;
} oracle_op;

/* Entry 0 is the head, 1 + i the call of local op i, 1 + m + i its return, 2m + 1 the tail. */
typedef struct oracle_entry {
	uint32_t prev, next;
	uint32_t op;        /* local operation index */
	uint32_t ret;       /* a call's return entry; ORACLE_NIL when pending or not a call */
	uint32_t is_call;
} oracle_entry;

typedef struct oracle_frame {
	uint32_t call;                /* the lifted call entry */
	const unsigned char *state;   /* the model state after it, inside its memo record */
} oracle_frame;

/* A sort key: times, or partition keys with the sign bit flipped (order-preserving). */
typedef struct oracle_pair {
	uint64_t key;
	uint32_t idx;
} oracle_pair;

typedef struct oracle_block {
	struct oracle_block *next;
	size_t cap;                   /* bytes of data, which start at oracle_block_data() */
} oracle_block;

typedef struct oracle_slot {
	uint64_t hash;
	unsigned char *rec;           /* NULL: empty */
} oracle_slot;

struct weft_checker {
	const weft_model *model;
	size_t state_pad;             /* state_size rounded up to 8: the bitset words follow */

	/* Per-history arrays, grown to the biggest history so far (cap operations). */
	size_t cap;
	oracle_op *ops;
	oracle_entry *entries;        /* 2 cap + 2 */
	oracle_frame *stack;
	uint32_t *best;               /* longest partial linearization, local indices */
	uint32_t *map;                /* local index -> history index */
	oracle_pair *pairs;           /* 2 cap: calls, then returns */
	oracle_pair *keys;            /* partition keys */
	size_t *longest;              /* the result's explanation, history indices */
	uint64_t *cbits, *pbits;      /* linearized completed / pending ops; cap/64 + 2 words */
	unsigned char *init, *scratch;

	/* The memo: records in the arena, found through an open-addressing table. */
	oracle_block *blocks, *block; /* the chain; the block being filled */
	size_t used;                  /* bytes used in `block` */
	oracle_slot *slots, *spare;   /* the table; the buffer it grows into */
	size_t slots_cap, spare_cap, mask, count;

	/* The search over one sub-history of m operations. */
	size_t m, cw, pw;             /* ops; words of the completed / pending bitsets */
	size_t wlo, whi;              /* cbits' first non-full word, last non-zero word + 1 */
	uint64_t zobrist;             /* hash of the linearized set */
	size_t depth, best_len, low;  /* low: shallowest depth since `best` was taken */
	size_t returns_left;
	uint64_t cost, max_cost;
};

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

static void state_copy(const weft_checker *c, void *dst, const void *src)
{
	if (c->model->copy)
		c->model->copy(dst, src);
	else
		memcpy(dst, src, c->model->state_size);
}

static void state_drop(const weft_checker *c, void *s)
{
	if (c->model->destroy)
		c->model->destroy(s);
}

static int state_equal(const weft_checker *c, const void *a, const void *b)
{
	if (c->model->equal)
		return c->model->equal(a, b) != 0;
	return memcmp(a, b, c->model->state_size) == 0;
}

static uint64_t state_hash(const weft_checker *c, const void *s)
{
	if (c->model->hash)
		return c->model->hash(s);
	return oracle_hash_bytes(s, c->model->state_size);
}

/* init() starts from zeroed memory (weft/model.h), so padding bytes are defined. */
static void state_init(const weft_checker *c, void *s)
{
	memset(s, 0, c->model->state_size);
	c->model->init(s);
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

/* Room for a history of n operations; 0 on success. */
static int oracle_reserve(weft_checker *c, size_t n)
{
	if (n <= c->cap)
		return 0;
	if (n > ORACLE_MAX_OPS)
		return -1;
	size_t cap = 2 * c->cap < ORACLE_MAX_OPS ? 2 * c->cap : ORACLE_MAX_OPS;
	cap = cap > n ? cap : n;
	size_t words = cap / 64 + 2;
	int failed = 0;
	c->ops = oracle_resize(c->ops, cap, sizeof *c->ops, &failed);
	c->entries = oracle_resize(c->entries, 2 * cap + 2, sizeof *c->entries, &failed);
	c->stack = oracle_resize(c->stack, cap, sizeof *c->stack, &failed);
	c->best = oracle_resize(c->best, cap, sizeof *c->best, &failed);
	c->map = oracle_resize(c->map, cap, sizeof *c->map, &failed);
	c->pairs = oracle_resize(c->pairs, 2 * cap, sizeof *c->pairs, &failed);
	c->keys = oracle_resize(c->keys, cap, sizeof *c->keys, &failed);
	c->longest = oracle_resize(c->longest, cap, sizeof *c->longest, &failed);
	c->cbits = oracle_resize(c->cbits, words, sizeof *c->cbits, &failed);
	c->pbits = oracle_resize(c->pbits, words, sizeof *c->pbits, &failed);
	if (!failed)
		c->cap = cap;
	return failed ? -1 : 0;
}

static unsigned char *oracle_block_data(oracle_block *b)
{
	return (unsigned char *)b + round_up(sizeof *b, ORACLE_ALIGN);
}

/* A block of at least `size` bytes, spliced in after the current one. */
static oracle_block *oracle_block_add(weft_checker *c, size_t size)
{
	size_t cap = c->block && 2 * c->block->cap > ORACLE_BLOCK_MIN ? 2 * c->block->cap
								   : ORACLE_BLOCK_MIN;
	cap = cap > size ? cap : size;
	oracle_block *b = malloc(round_up(sizeof *b, ORACLE_ALIGN) + cap);
	if (!b)
		return NULL;
	b->cap = cap;
	b->next = c->block ? c->block->next : c->blocks;
	*(c->block ? &c->block->next : &c->blocks) = b;
	return b;
}

/* `size` free bytes at the arena's cursor (not yet used): the next record goes there. */
static unsigned char *oracle_arena_room(weft_checker *c, size_t size)
{
	oracle_block *b = c->block;
	if (b && b->cap - c->used >= size)
		return oracle_block_data(b) + c->used;
	b = b ? b->next : c->blocks;
	if (!b || b->cap < size)
		b = oracle_block_add(c, size);
	if (!b)
		return NULL;
	c->block = b;
	c->used = 0;
	return oracle_block_data(b);
}

/* An empty table of at least 2m slots (load <= 1/2); 0 on success. */
static int oracle_table_reset(weft_checker *c, size_t m)
{
	size_t size = ORACLE_TABLE_MIN;
	while (size < 2 * m)
		size *= 2;
	if (c->slots_cap < size) {
		int failed = 0;
		c->slots = oracle_resize(c->slots, size, sizeof *c->slots, &failed);
		if (failed)
			return -1;
		c->slots_cap = size;
	}
	memset(c->slots, 0, size * sizeof *c->slots);
	c->mask = size - 1;
	c->count = 0;
	return 0;
}

static size_t oracle_table_free_slot(const oracle_slot *slots, size_t mask, uint64_t hash)
{
	size_t i = hash & mask;
	while (slots[i].rec)
		i = (i + 1) & mask;
	return i;
}

/* Double the table into the spare buffer (kept, so growth stops allocating). */
static int oracle_table_grow(weft_checker *c)
{
	size_t size = 2 * (c->mask + 1);
	if (c->spare_cap < size) {
		int failed = 0;
		c->spare = oracle_resize(c->spare, size, sizeof *c->spare, &failed);
		if (failed)
			return -1;
		c->spare_cap = size;
	}
	memset(c->spare, 0, size * sizeof *c->spare);
	for (size_t i = 0; i <= c->mask; i++)
		if (c->slots[i].rec)
			c->spare[oracle_table_free_slot(c->spare, size - 1, c->slots[i].hash)] =
				c->slots[i];
	oracle_slot *t = c->slots;
	size_t tcap = c->slots_cap;
	c->slots = c->spare, c->slots_cap = c->spare_cap;
	c->spare = t, c->spare_cap = tcap;
	c->mask = size - 1;
	return 0;
}

/* ---- the list of call and return entries ---- */

static int oracle_pair_cmp(const void *a, const void *b)
{
	const oracle_pair *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sorts by (key, idx); histories usually come sorted, so look first. */
static void oracle_sort(oracle_pair *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (oracle_pair_cmp(&p[i - 1], &p[i]) > 0) {
			qsort(p, n, sizeof *p, oracle_pair_cmp);
			return;
		}
}

/* A return never precedes its own call, even in a malformed history. */
static uint64_t oracle_return_time(const weft_op_record *r)
{
	return r->returned_at > r->invoked_at ? r->returned_at : r->invoked_at;
}

static void oracle_build_ops(weft_checker *c, const weft_history *h, size_t m)
{
	uint32_t nc = 0, np = 0;
	for (size_t i = 0; i < m; i++) {
		const weft_op_record *r = &h->ops[c->map[i]];
		c->ops[i] = (oracle_op){ r, r->pending ? np++ : nc++, r->pending != 0 };
	}
	c->m = m;
	c->cw = (nc + 63u) / 64u;
	c->pw = (np + 63u) / 64u;
	c->returns_left = nc;
}

static void oracle_link(oracle_entry *e, uint32_t *prev, uint32_t cur)
{
	e[*prev].next = cur;
	e[cur].prev = *prev;
	*prev = cur;
}

/* Calls and returns merged by time; at equal times the call first (they overlap). */
static void oracle_build_list(weft_checker *c)
{
	uint32_t m = (uint32_t)c->m, nr = 0, ci = 0, ri = 0, prev = ORACLE_HEAD;
	oracle_pair *calls = c->pairs, *rets = c->pairs + m;
	for (uint32_t i = 0; i < m; i++) {
		const oracle_op *op = &c->ops[i];
		calls[i] = (oracle_pair){ op->rec->invoked_at, i };
		if (!op->pending)
			rets[nr++] = (oracle_pair){ oracle_return_time(op->rec), i };
		c->entries[1 + i] = (oracle_entry){ 0, 0, i, op->pending ? ORACLE_NIL : 1 + m + i, 1 };
		c->entries[1 + m + i] = (oracle_entry){ 0, 0, i, ORACLE_NIL, 0 };
	}
	oracle_sort(calls, m);
	oracle_sort(rets, nr);
	c->entries[ORACLE_HEAD] = c->entries[2 * m + 1] = (oracle_entry){ 0, 0, 0, ORACLE_NIL, 0 };
	while (ci < m || ri < nr) {
		if (ri < nr && (ci == m || rets[ri].key < calls[ci].key))
			oracle_link(c->entries, &prev, 1 + m + rets[ri++].idx);
		else
			oracle_link(c->entries, &prev, 1 + calls[ci++].idx);
	}
	oracle_link(c->entries, &prev, 2 * m + 1);
}

static void oracle_unlink(oracle_entry *e, uint32_t i)
{
	e[e[i].prev].next = e[i].next;
	e[e[i].next].prev = e[i].prev;
}

static void oracle_relink(oracle_entry *e, uint32_t i)
{
	e[e[i].prev].next = i;
	e[e[i].next].prev = i;
}

/* Dancing links: unlift restores in the reverse order of lift. */
static void oracle_lift(weft_checker *c, uint32_t call)
{
	oracle_unlink(c->entries, call);
	if (c->entries[call].ret != ORACLE_NIL) {
		oracle_unlink(c->entries, c->entries[call].ret);
		c->returns_left--;
	}
}

static void oracle_unlift(weft_checker *c, uint32_t call)
{
	if (c->entries[call].ret != ORACLE_NIL) {
		oracle_relink(c->entries, c->entries[call].ret);
		c->returns_left++;
	}
	oracle_relink(c->entries, call);
}

/* ---- the linearized set: bitsets, their window, their hash ---- */

static void oracle_bit_set(weft_checker *c, uint32_t i)
{
	const oracle_op *op = &c->ops[i];
	size_t w = op->bit / 64;
	uint64_t bit = (uint64_t)1 << (op->bit % 64);
	c->zobrist ^= oracle_mix((uint64_t)i + 1);
	if (op->pending) {
		c->pbits[w] |= bit;
		return;
	}
	c->cbits[w] |= bit;
	c->whi = w + 1 > c->whi ? w + 1 : c->whi;
	while (c->wlo < c->cw && c->cbits[c->wlo] == ~(uint64_t)0)
		c->wlo++;
}

static void oracle_bit_clear(weft_checker *c, uint32_t i)
{
	const oracle_op *op = &c->ops[i];
	size_t w = op->bit / 64;
	uint64_t bit = (uint64_t)1 << (op->bit % 64);
	c->zobrist ^= oracle_mix((uint64_t)i + 1);
	if (op->pending) {
		c->pbits[w] &= ~bit;
		return;
	}
	c->cbits[w] &= ~bit;
	c->wlo = w < c->wlo ? w : c->wlo;
	while (c->whi > 0 && c->cbits[c->whi - 1] == 0)
		c->whi--;
}

static int oracle_bit_test(const weft_checker *c, uint32_t i)
{
	const oracle_op *op = &c->ops[i];
	const uint64_t *bits = op->pending ? c->pbits : c->cbits;
	return (bits[op->bit / 64] >> (op->bit % 64)) & 1;
}

static size_t oracle_window(const weft_checker *c)
{
	return c->whi > c->wlo ? c->whi - c->wlo : 0;
}

/* ---- the memo ---- */

/* Record: {wlo, nw} | state (state_pad bytes) | nw window words | pw pending words. */
static size_t oracle_rec_size(const weft_checker *c, size_t nw)
{
	return round_up(ORACLE_REC_HDR + c->state_pad + (nw + c->pw) * 8, ORACLE_ALIGN);
}

static int oracle_rec_matches(const weft_checker *c, const unsigned char *rec,
			      const unsigned char *state)
{
	uint32_t hdr[2];
	size_t nw = oracle_window(c);
	const unsigned char *words = rec + ORACLE_REC_HDR + c->state_pad;
	memcpy(hdr, rec, sizeof hdr);
	if (hdr[0] != c->wlo || hdr[1] != nw)
		return 0;
	if (memcmp(words, c->cbits + c->wlo, nw * 8) != 0 ||
	    memcmp(words + nw * 8, c->pbits, c->pw * 8) != 0)
		return 0;
	return state_equal(c, rec + ORACLE_REC_HDR, state);
}

/* Completes the record at the arena's cursor (its state already there) and keeps it. */
static void oracle_rec_commit(weft_checker *c, unsigned char *rec, uint64_t hash, size_t slot)
{
	size_t nw = oracle_window(c);
	uint32_t hdr[2] = { (uint32_t)c->wlo, (uint32_t)nw };
	unsigned char *words = rec + ORACLE_REC_HDR + c->state_pad;
	memcpy(rec, hdr, sizeof hdr);
	memcpy(words, c->cbits + c->wlo, nw * 8);
	memcpy(words + nw * 8, c->pbits, c->pw * 8);
	c->used += oracle_rec_size(c, nw);
	c->slots[slot] = (oracle_slot){ hash, rec };
	c->count++;
}

/* The current set with the state in `rec`: 1 newly memoized, 0 seen before, -1 no memory. */
static int oracle_memo_insert(weft_checker *c, unsigned char *rec)
{
	const unsigned char *state = rec + ORACLE_REC_HDR;
	uint64_t hash = oracle_mix(c->zobrist ^ state_hash(c, state));
	size_t i = hash & c->mask;
	for (; c->slots[i].rec; i = (i + 1) & c->mask)
		if (c->slots[i].hash == hash && oracle_rec_matches(c, c->slots[i].rec, state))
			return 0;
	if (2 * (c->count + 1) > c->mask + 1) {
		if (oracle_table_grow(c) != 0)
			return -1;
		i = oracle_table_free_slot(c->slots, c->mask, hash);
	}
	oracle_rec_commit(c, rec, hash, i);
	return 1;
}

/* ---- the search ---- */

static const unsigned char *oracle_current(const weft_checker *c)
{
	return c->depth ? c->stack[c->depth - 1].state : c->init;
}

/*
 * The deepest stack, taken the first time it is reached (deterministic).  Only
 * the part above `low` changed since the last time, so the copying stays
 * linear in the number of pushes.
 */
static void oracle_note_best(weft_checker *c)
{
	for (size_t k = c->low; k < c->depth; k++)
		c->best[k] = c->entries[c->stack[k].call].op;
	c->best_len = c->low = c->depth;
}

static void oracle_push(weft_checker *c, uint32_t call, const unsigned char *state)
{
	oracle_lift(c, call);
	c->stack[c->depth++] = (oracle_frame){ call, state };
	if (c->depth > c->best_len)
		oracle_note_best(c);
}

/* Undo the top linearization; returns the entry after its call, where the scan resumes. */
static uint32_t oracle_backtrack(weft_checker *c)
{
	uint32_t call = c->stack[--c->depth].call;
	c->low = c->depth < c->low ? c->depth : c->low;
	oracle_unlift(c, call);
	oracle_bit_clear(c, c->entries[call].op);
	return c->entries[call].next;
}

/* Linearize the call `e` next if the model agrees: 1 done, 0 not, -1 out of budget or memory. */
static int oracle_try(weft_checker *c, uint32_t e)
{
	uint32_t i = c->entries[e].op;
	const weft_op_record *r = c->ops[i].rec;
	if (c->cost >= c->max_cost)
		return -1;
	unsigned char *rec = oracle_arena_room(c, oracle_rec_size(c, c->cw));
	if (!rec)
		return -1;
	unsigned char *state = rec + ORACLE_REC_HDR;
	state_copy(c, state, oracle_current(c));
	c->cost++;
	int64_t got = c->model->apply(state, r->op, r->args);
	int added = 0;
	if (c->ops[i].pending || got == r->result) {
		oracle_bit_set(c, i);
		added = oracle_memo_insert(c, rec);
		if (added <= 0)
			oracle_bit_clear(c, i);
	}
	if (added <= 0)
		state_drop(c, state);
	else
		oracle_push(c, e, state);
	return added;
}

static weft_check_verdict oracle_dfs(weft_checker *c)
{
	uint32_t e = c->entries[ORACLE_HEAD].next;
	while (c->returns_left > 0) {
		if (!c->entries[e].is_call) {
			if (c->depth == 0)
				return WEFT_CHECK_NOT_LINEARIZABLE;
			e = oracle_backtrack(c);
			continue;
		}
		int r = oracle_try(c, e);
		if (r < 0)
			return WEFT_CHECK_UNKNOWN;
		e = r ? c->entries[ORACLE_HEAD].next : c->entries[e].next;
	}
	return WEFT_CHECK_LINEARIZABLE;
}

/* ---- one sub-history: setup, explanation, cleanup ---- */

static int oracle_setup(weft_checker *c, const weft_history *h, size_t m)
{
	oracle_build_ops(c, h, m);
	if (oracle_table_reset(c, m) != 0)
		return -1;
	oracle_build_list(c);
	memset(c->cbits, 0, (c->cw + 1) * sizeof *c->cbits);
	memset(c->pbits, 0, (c->pw + 1) * sizeof *c->pbits);
	c->wlo = c->whi = 0;
	c->zobrist = 0;
	c->depth = c->best_len = c->low = 0;
	c->block = c->blocks;
	c->used = 0;
	state_init(c, c->init);
	return 0;
}

/* States that own memory: every memoized one (the stack's are among them), and init. */
static void oracle_cleanup(weft_checker *c)
{
	if (!c->model->destroy)
		return;
	for (size_t i = 0; i <= c->mask; i++)
		if (c->slots[i].rec)
			c->model->destroy(c->slots[i].rec + ORACLE_REC_HDR);
	c->model->destroy(c->init);
}

/* The model's answer for op `stuck` after the longest prefix, replayed from init. */
static int64_t oracle_replay(weft_checker *c, uint32_t stuck)
{
	state_init(c, c->scratch);
	for (size_t k = 0; k < c->best_len; k++) {
		const weft_op_record *r = c->ops[c->best[k]].rec;
		c->model->apply(c->scratch, r->op, r->args);
	}
	const weft_op_record *s = c->ops[stuck].rec;
	int64_t got = c->model->apply(c->scratch, s->op, s->args);
	state_drop(c, c->scratch);
	return got;
}

/*
 * After a failed search (stack empty, every bit clear): the earliest-returning
 * completed op outside the longest prefix, with the list's own tie-break (the
 * search tried it right after that prefix, and the model disagreed).
 */
static uint32_t oracle_find_stuck(weft_checker *c)
{
	uint32_t stuck = ORACLE_NIL;
	for (size_t k = 0; k < c->best_len; k++)
		oracle_bit_set(c, c->best[k]);
	for (uint32_t i = 0; i < c->m; i++) {
		if (c->ops[i].pending || oracle_bit_test(c, i))
			continue;
		if (stuck == ORACLE_NIL ||
		    oracle_return_time(c->ops[i].rec) < oracle_return_time(c->ops[stuck].rec))
			stuck = i;
	}
	assert(stuck != ORACLE_NIL);   /* else the prefix would be a linearization */
	return stuck;
}

static void oracle_explain(weft_checker *c, weft_check_result *res)
{
	uint32_t stuck = oracle_find_stuck(c);
	for (size_t k = 0; k < c->best_len; k++)
		c->longest[k] = c->map[c->best[k]];
	res->n_longest = c->best_len;
	if (stuck == ORACLE_NIL)
		return;
	res->stuck = c->map[stuck];
	res->stuck_model_result = oracle_replay(c, stuck);
}

/* Checks the ops map[0..m) of h, from init. */
static weft_check_verdict oracle_check_sub(weft_checker *c, const weft_history *h, size_t m,
					   weft_check_result *res)
{
	if (oracle_setup(c, h, m) != 0)
		return WEFT_CHECK_UNKNOWN;
	weft_check_verdict v = oracle_dfs(c);
	if (v == WEFT_CHECK_NOT_LINEARIZABLE)
		oracle_explain(c, res);
	oracle_cleanup(c);
	return v;
}

/* ---- partitions and the public interface ---- */

#define ORACLE_SIGN ((uint64_t)1 << 63)

/* 1 when every op has a key: keys[] then holds (key, index) in ascending order. */
static int oracle_partition(weft_checker *c, const weft_history *h,
			    const weft_check_options *opts)
{
	if (!c->model->partition || (opts && opts->no_partition) || h->n_ops == 0)
		return 0;
	for (size_t i = 0; i < h->n_ops; i++) {
		int64_t key = c->model->partition(h->ops[i].op, h->ops[i].args);
		if (key == WEFT_PARTITION_ALL)
			return 0;
		c->keys[i] = (oracle_pair){ (uint64_t)key ^ ORACLE_SIGN, (uint32_t)i };
	}
	oracle_sort(c->keys, h->n_ops);
	return 1;
}

/* Each key's sub-history in turn; the first that is not linearizable decides. */
static weft_check_verdict oracle_check_partitions(weft_checker *c, const weft_history *h,
						  weft_check_result *res)
{
	weft_check_verdict v = WEFT_CHECK_LINEARIZABLE;
	res->partitioned = 1;
	res->n_partitions = 0;
	for (size_t s = 0, e; s < h->n_ops; s = e) {
		for (e = s; e < h->n_ops && c->keys[e].key == c->keys[s].key; e++)
			c->map[e - s] = c->keys[e].idx;
		res->n_partitions++;
		if (v != WEFT_CHECK_LINEARIZABLE)
			continue;   /* still counting partitions */
		v = oracle_check_sub(c, h, e - s, res);
		if (v == WEFT_CHECK_NOT_LINEARIZABLE)
			res->partition_key = (int64_t)(c->keys[s].key ^ ORACLE_SIGN);
	}
	return v;
}

static weft_check_verdict oracle_check_whole(weft_checker *c, const weft_history *h,
					     weft_check_result *res)
{
	for (size_t i = 0; i < h->n_ops; i++)
		c->map[i] = (uint32_t)i;
	return oracle_check_sub(c, h, h->n_ops, res);
}

weft_checker *weft_checker_new(const weft_model *model)
{
	if (!model || !model->init || !model->apply)
		return NULL;
	weft_checker *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->model = model;
	c->state_pad = round_up(model->state_size, 8);
	c->init = malloc(c->state_pad ? c->state_pad : 1);
	c->scratch = malloc(c->state_pad ? c->state_pad : 1);
	if (!c->init || !c->scratch || oracle_reserve(c, 16) != 0) {
		weft_checker_free(c);
		return NULL;
	}
	return c;
}

void weft_checker_free(weft_checker *c)
{
	if (!c)
		return;
	while (c->blocks) {
		oracle_block *next = c->blocks->next;
		free(c->blocks);
		c->blocks = next;
	}
	free(c->ops), free(c->entries), free(c->stack), free(c->best), free(c->map);
	free(c->pairs), free(c->keys), free(c->longest), free(c->cbits), free(c->pbits);
	free(c->slots), free(c->spare), free(c->init), free(c->scratch);
	free(c);
}

weft_check_verdict weft_check(weft_checker *c, const weft_history *h,
			      const weft_check_options *opts, weft_check_result *result)
{
	weft_check_result local;
	weft_check_result *res = result ? result : &local;
	weft_check_verdict v = WEFT_CHECK_UNKNOWN;
	*res = (weft_check_result){ .n_partitions = 1, .stuck = SIZE_MAX,
				    .stuck_model_result = WEFT_NONE };
	c->cost = 0;
	c->max_cost = opts && opts->max_cost ? opts->max_cost : WEFT_CHECK_DEFAULT_MAX_COST;
	if (oracle_reserve(c, h->n_ops) == 0) {
		res->longest = c->longest;
		v = oracle_partition(c, h, opts) ? oracle_check_partitions(c, h, res)
						 : oracle_check_whole(c, h, res);
	}
	res->verdict = v;
	res->cost = c->cost;
	return v;
}

const char *weft_check_verdict_name(weft_check_verdict v)
{
	switch (v) {
	case WEFT_CHECK_LINEARIZABLE:
		return "linearizable";
	case WEFT_CHECK_NOT_LINEARIZABLE:
		return "not-linearizable";
	case WEFT_CHECK_UNKNOWN:
		return "unknown";
	}
	return "invalid";
}
