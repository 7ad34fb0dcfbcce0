/*
 * oracle/model_kv.c - the key-value model and the per-history table of its
 * strings (model_kv.h explains the trie of read texts and why it is exact).
 *
 * The table: one byte arena for every key and piece, two interners (keys,
 * pieces: open addressing over (offset, length) entries, FNV-1a of the bytes)
 * and the trie of read texts (nodes keep parent and byte, so a node's text can
 * be printed; children are found through one open-addressing map keyed by
 * (parent, byte)).  Everything grows by doubling and is bounded by the input's
 * size: a history file of n bytes interns fewer than n bytes and n nodes.
 *
 * The model's state is one int64_t: the key's trie node (0 = "", the start).
 * Partitioned by key, each sub-history is one key, so the state is that key's
 * text.  The checker's default memcpy / memcmp / byte hash serve it.
 */
#include <stdlib.h>
#include <string.h>

#include "model_kv.h"

#define KV_EMPTY UINT32_MAX   /* a free slot of an open-addressing table */

typedef struct kv_span {
	size_t off, len;
} kv_span;

/* Interned strings: entries in arena order, and a table of entry ids for lookup. */
typedef struct kv_interner {
	kv_span *items;
	size_t n, cap;
	uint32_t *slots;          /* entry id or KV_EMPTY; size a power of two, load <= 1/2 */
	size_t n_slots;
} kv_interner;

typedef struct kv_node {
	uint32_t parent;
	unsigned char byte;
} kv_node;

struct oracle_kv_table {
	char *bytes;
	size_t n_bytes, cap_bytes;
	kv_interner keys, pieces;
	kv_node *nodes;           /* node 0 is the root: "" */
	size_t n_nodes, cap_nodes;
	uint64_t *child_keys;     /* (parent << 8 | byte) + 1; 0 = free */
	uint32_t *child_ids;
	size_t n_child_slots;
};

static const oracle_kv_table *kv_bound;

/* ---- buffers ---- */

/* Doubles *buf (elements of `size` bytes) until it holds `need`; 0 or -1. */
static int kv_grow(void **buf, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *more = realloc(*buf, n * size);
	if (!more)
		return -1;
	*buf = more;
	*cap = n;
	return 0;
}

static uint64_t kv_hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static uint64_t kv_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* ---- interners ---- */

static int kv_same(const oracle_kv_table *t, kv_span a, const char *s, size_t n)
{
	return a.len == n && (n == 0 || memcmp(t->bytes + a.off, s, n) == 0);
}

/* Rebuilds the slot table at twice the size (or 64). */
static int kv_rehash(const oracle_kv_table *t, kv_interner *in)
{
	size_t size = in->n_slots ? 2 * in->n_slots : 64;
	uint32_t *slots = malloc(size * sizeof *slots);
	if (!slots)
		return -1;
	memset(slots, 0xff, size * sizeof *slots);
	for (size_t id = 0; id < in->n; id++) {
		kv_span s = in->items[id];
		size_t i = kv_hash_bytes(t->bytes + s.off, s.len) & (size - 1);
		while (slots[i] != KV_EMPTY)
			i = (i + 1) & (size - 1);
		slots[i] = (uint32_t)id;
	}
	free(in->slots);
	in->slots = slots;
	in->n_slots = size;
	return 0;
}

static int64_t kv_intern(oracle_kv_table *t, kv_interner *in, const char *s, size_t n)
{
	if ((2 * (in->n + 1) > in->n_slots && kv_rehash(t, in) != 0) || in->n >= KV_EMPTY - 1)
		return -1;
	size_t mask = in->n_slots - 1, i = kv_hash_bytes(s, n) & mask;
	for (; in->slots[i] != KV_EMPTY; i = (i + 1) & mask)
		if (kv_same(t, in->items[in->slots[i]], s, n))
			return in->slots[i];
	if (kv_grow((void **)&t->bytes, &t->cap_bytes, t->n_bytes + n + 1, 1) ||
	    kv_grow((void **)&in->items, &in->cap, in->n + 1, sizeof *in->items))
		return -1;
	if (n)
		memcpy(t->bytes + t->n_bytes, s, n);
	in->items[in->n] = (kv_span){ t->n_bytes, n };
	t->n_bytes += n;
	in->slots[i] = (uint32_t)in->n;
	return (int64_t)in->n++;
}

/* ---- the trie of read texts ---- */

/* The child slot of (parent, byte): where it is, or the free slot where it goes. */
static size_t kv_child_slot(const oracle_kv_table *t, uint32_t parent, unsigned char byte)
{
	uint64_t key = ((uint64_t)parent << 8 | byte) + 1;
	size_t mask = t->n_child_slots - 1, i = kv_mix(key) & mask;
	while (t->child_keys[i] && t->child_keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static int kv_child_rehash(oracle_kv_table *t)
{
	size_t old = t->n_child_slots, size = old ? 2 * old : 64;
	uint64_t *keys = calloc(size, sizeof *keys), *old_keys = t->child_keys;
	uint32_t *ids = malloc(size * sizeof *ids), *old_ids = t->child_ids;
	if (!keys || !ids) {
		free(keys), free(ids);
		return -1;
	}
	t->child_keys = keys, t->child_ids = ids, t->n_child_slots = size;
	for (size_t i = 0; i < old; i++) {
		if (!old_keys[i])
			continue;
		uint64_t k = old_keys[i] - 1;
		size_t j = kv_child_slot(t, (uint32_t)(k >> 8), (unsigned char)k);
		keys[j] = old_keys[i];
		ids[j] = old_ids[i];
	}
	free(old_keys), free(old_ids);
	return 0;
}

/* The child of `parent` by `byte`, or KV_EMPTY. */
static uint32_t kv_child(const oracle_kv_table *t, uint32_t parent, unsigned char byte)
{
	if (!t->n_child_slots)
		return KV_EMPTY;
	size_t i = kv_child_slot(t, parent, byte);
	return t->child_keys[i] ? t->child_ids[i] : KV_EMPTY;
}

static int64_t kv_add_child(oracle_kv_table *t, uint32_t parent, unsigned char byte)
{
	if (t->n_nodes >= KV_EMPTY - 1 ||
	    (2 * t->n_nodes + 2 > t->n_child_slots && kv_child_rehash(t) != 0) ||
	    kv_grow((void **)&t->nodes, &t->cap_nodes, t->n_nodes + 1, sizeof *t->nodes))
		return -1;
	size_t i = kv_child_slot(t, parent, byte);
	t->child_keys[i] = ((uint64_t)parent << 8 | byte) + 1;
	t->child_ids[i] = (uint32_t)t->n_nodes;
	t->nodes[t->n_nodes] = (kv_node){ parent, byte };
	return (int64_t)t->n_nodes++;
}

/* From `node`, along s[0..n): the node reached, or ORACLE_KV_DEAD. */
static int64_t kv_walk(const oracle_kv_table *t, int64_t node, const char *s, size_t n)
{
	for (size_t i = 0; i < n && node != ORACLE_KV_DEAD; i++) {
		uint32_t child = kv_child(t, (uint32_t)node, (unsigned char)s[i]);
		node = child == KV_EMPTY ? ORACLE_KV_DEAD : child;
	}
	return node;
}

/* ---- the table ---- */

oracle_kv_table *oracle_kv_new(void)
{
	oracle_kv_table *t = calloc(1, sizeof *t);
	if (t && kv_grow((void **)&t->nodes, &t->cap_nodes, 1, sizeof *t->nodes) == 0) {
		t->nodes[0] = (kv_node){ KV_EMPTY, 0 };
		t->n_nodes = 1;
		return t;
	}
	oracle_kv_free(t);
	return NULL;
}

static void kv_interner_free(kv_interner *in)
{
	free(in->items);
	free(in->slots);
}

void oracle_kv_free(oracle_kv_table *t)
{
	if (!t)
		return;
	if (kv_bound == t)
		kv_bound = NULL;
	kv_interner_free(&t->keys);
	kv_interner_free(&t->pieces);
	free(t->bytes), free(t->nodes), free(t->child_keys), free(t->child_ids);
	free(t);
}

int64_t oracle_kv_key(oracle_kv_table *t, const char *s, size_t n)
{
	return kv_intern(t, &t->keys, s, n);
}

int64_t oracle_kv_piece(oracle_kv_table *t, const char *s, size_t n)
{
	return kv_intern(t, &t->pieces, s, n);
}

int64_t oracle_kv_read(oracle_kv_table *t, const char *s, size_t n)
{
	int64_t node = 0;
	for (size_t i = 0; i < n && node >= 0; i++) {
		uint32_t child = kv_child(t, (uint32_t)node, (unsigned char)s[i]);
		node = child != KV_EMPTY ? child : kv_add_child(t, (uint32_t)node, (unsigned char)s[i]);
	}
	return node;
}

static const char *kv_span_text(const oracle_kv_table *t, const kv_interner *in, int64_t id,
				size_t *n)
{
	if (id < 0 || (size_t)id >= in->n) {
		*n = 0;
		return "";
	}
	*n = in->items[id].len;
	return t->bytes + in->items[id].off;
}

const char *oracle_kv_key_name(const oracle_kv_table *t, int64_t key, size_t *n)
{
	return kv_span_text(t, &t->keys, key, n);
}

const char *oracle_kv_piece_text(const oracle_kv_table *t, int64_t piece, size_t *n)
{
	return kv_span_text(t, &t->pieces, piece, n);
}

/* The text from the root to `node`, cut to cap - 1 bytes and NUL-terminated; its full length. */
size_t oracle_kv_node_text(const oracle_kv_table *t, int64_t node, char *buf, size_t cap)
{
	size_t len = 0;
	if (node < 0 || (size_t)node >= t->n_nodes) {
		if (cap)
			buf[0] = 0;
		return 0;
	}
	for (uint32_t k = (uint32_t)node; k != 0; k = t->nodes[k].parent)
		len++;
	size_t i = len;
	for (uint32_t k = (uint32_t)node; k != 0; k = t->nodes[k].parent)
		if (--i < cap - (cap > 0))
			buf[i] = (char)t->nodes[k].byte;
	if (cap)
		buf[len < cap - 1 ? len : cap - 1] = 0;
	return len;
}

void oracle_kv_bind(const oracle_kv_table *t)
{
	kv_bound = t;
}

/* ---- the model ---- */

static void kv_init(void *s) { *(int64_t *)s = 0; }

/* args[0] = key (the partition), args[1] = piece for put and append. */
static int64_t kv_apply(void *s, unsigned op, const int64_t *args)
{
	int64_t *node = s;
	size_t n;
	if (op == ORACLE_KV_GET)
		return *node;
	if (!kv_bound) {
		*node = ORACLE_KV_DEAD;
		return 0;
	}
	const char *text = oracle_kv_piece_text(kv_bound, args[1], &n);
	*node = kv_walk(kv_bound, op == ORACLE_KV_PUT ? 0 : *node, text, n);
	return 0;
}

static int64_t kv_partition(unsigned op, const int64_t *args)
{
	(void)op;
	return args[0];
}

const weft_model oracle_kv_model = { .name = "kv", .state_size = sizeof(int64_t),
				     .init = kv_init, .apply = kv_apply,
				     .partition = kv_partition };
