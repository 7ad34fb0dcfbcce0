/*
 * oracle/models.c - the built-in sequential models (see models.h for their
 * operations and results).
 *
 * Register and counter keep one int64_t in the state block: the checker's
 * default memcpy/memcmp/byte-hash serve them.  Queue, stack, set and map share
 * one state that owns memory, `vec`: a growable int64_t array with a movable
 * front, and one set of copy/destroy/equal/hash for all four:
 *   queue  elements v[head .. head+len), oldest first (pop at head, push at end);
 *   stack  the same with head = 0, newest last (push and pop at the end);
 *   set    sorted pairs (key, 1): v = k0 1 k1 1 ...; key order makes equal sets
 *          equal arrays, so equal() and hash() compare contents, not history;
 *   map    sorted pairs (key, value), likewise.
 * Equality and hashing read only the live elements v[head .. head+len), so two
 * queues that got to the same contents by different routes are one state for
 * the checker's memo.  A copy is compacted (head 0, capacity = length): the
 * checker keeps many copies, so they should be small.
 */
#include <stdlib.h>
#include <string.h>

#include "model_kv.h"
#include "models.h"

/* ---- register and counter: one int64_t ---- */

static void register_init(void *s) { *(int64_t *)s = WEFT_NONE; }

static int64_t register_apply(void *s, unsigned op, const int64_t *args)
{
	int64_t *value = s;
	switch (op) {
	case ORACLE_REGISTER_WRITE:
		*value = args[0];
		return 0;
	case ORACLE_REGISTER_CAS:
		if (*value != args[0])
			return 0;
		*value = args[1];
		return 1;
	default:
		return *value;
	}
}

static void counter_init(void *s) { *(int64_t *)s = 0; }

/* Wraps like uint64_t: a history may add anything, and signed overflow is UB. */
static int64_t counter_apply(void *s, unsigned op, const int64_t *args)
{
	int64_t *value = s;
	uint64_t add = op == ORACLE_COUNTER_INCREMENT ? 1u
		     : op == ORACLE_COUNTER_ADD ? (uint64_t)args[0] : 0u;
	*value = (int64_t)((uint64_t)*value + add);
	return op == ORACLE_COUNTER_GET ? *value : 0;
}

/* ---- vec: the state of queue, stack, set and map ---- */

typedef struct vec {
	int64_t *v;          /* live elements are v[head .. head+len) */
	size_t head, len, cap;
} vec;

static void vec_init(void *s) { memset(s, 0, sizeof(vec)); }

/* Room for `extra` more elements at the end: slide to the front when half the
 * array is dead space left by pops (amortised O(1) for a queue), else double. */
static void vec_reserve(vec *s, size_t extra)
{
	if (s->head + s->len + extra <= s->cap)
		return;
	if (s->head > 0 && s->len + extra <= s->cap && s->head >= s->len) {
		memmove(s->v, s->v + s->head, s->len * sizeof *s->v);
		s->head = 0;
		return;
	}
	size_t cap = s->cap ? s->cap : 4;
	while (cap < s->head + s->len + extra)
		cap *= 2;
	int64_t *grown = realloc(s->v, cap * sizeof *grown);
	if (!grown)
		abort();     /* a model cannot report errors; losing an element would lie */
	s->v = grown;
	s->cap = cap;
}

static void vec_push_back(vec *s, int64_t x)
{
	vec_reserve(s, 1);
	s->v[s->head + s->len++] = x;
}

static int64_t vec_pop_front(vec *s)
{
	if (s->len == 0)
		return WEFT_NONE;
	s->len--;
	return s->v[s->head++];
}

static int64_t vec_pop_back(vec *s)
{
	return s->len ? s->v[s->head + --s->len] : WEFT_NONE;
}

static void vec_copy(void *dst, const void *src)
{
	const vec *from = src;
	vec *to = dst;
	*to = (vec){ .len = from->len, .cap = from->len };
	if (from->len == 0)
		return;
	to->v = malloc(from->len * sizeof *to->v);
	if (!to->v)
		abort();
	memcpy(to->v, from->v + from->head, from->len * sizeof *to->v);
}

static void vec_destroy(void *s)
{
	free(((vec *)s)->v);
}

static int vec_equal(const void *a, const void *b)
{
	const vec *x = a, *y = b;
	return x->len == y->len &&
	       (x->len == 0 || memcmp(x->v + x->head, y->v + y->head, x->len * sizeof *x->v) == 0);
}

/* splitmix64's finaliser over each element: cheap, and order-sensitive. */
static uint64_t vec_hash(const void *s)
{
	const vec *x = s;
	uint64_t h = 0x9E3779B97F4A7C15u ^ x->len;
	for (size_t i = 0; i < x->len; i++) {
		h ^= (uint64_t)x->v[x->head + i];
		h *= 0xBF58476D1CE4E5B9u;
		h ^= h >> 31;
	}
	return h;
}

/* ---- queue and stack ---- */

static int64_t queue_apply(void *s, unsigned op, const int64_t *args)
{
	if (op == ORACLE_QUEUE_ENQ) {
		vec_push_back(s, args[0]);
		return 0;
	}
	return vec_pop_front(s);
}

static int64_t stack_apply(void *s, unsigned op, const int64_t *args)
{
	if (op == ORACLE_STACK_PUSH) {
		vec_push_back(s, args[0]);
		return 0;
	}
	return vec_pop_back(s);
}

/* ---- set and map: sorted (key, value) pairs, head always 0 ---- */

/* Index of the first pair whose key is >= k (binary search). */
static size_t pairs_lower_bound(const vec *s, int64_t k)
{
	size_t lo = 0, hi = s->len / 2;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[2 * mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Pair index of key k, or -1 (as size_t: SIZE_MAX) when absent; *at = where it belongs. */
static size_t pairs_find(const vec *s, int64_t k, size_t *at)
{
	*at = pairs_lower_bound(s, k);
	return *at < s->len / 2 && s->v[2 * *at] == k ? *at : SIZE_MAX;
}

static void pairs_insert(vec *s, size_t at, int64_t k, int64_t value)
{
	vec_reserve(s, 2);
	memmove(s->v + 2 * at + 2, s->v + 2 * at, (s->len - 2 * at) * sizeof *s->v);
	s->v[2 * at] = k;
	s->v[2 * at + 1] = value;
	s->len += 2;
}

static void pairs_erase(vec *s, size_t at)
{
	s->len -= 2;
	memmove(s->v + 2 * at, s->v + 2 * at + 2, (s->len - 2 * at) * sizeof *s->v);
}

static int64_t set_apply(void *state, unsigned op, const int64_t *args)
{
	vec *s = state;
	size_t at, found = pairs_find(s, args[0], &at);
	int present = found != SIZE_MAX;
	if (op == ORACLE_SET_ADD && !present)
		pairs_insert(s, at, args[0], 1);
	else if (op == ORACLE_SET_REMOVE && present)
		pairs_erase(s, at);
	return op == ORACLE_SET_ADD ? !present : present;
}

static int64_t map_apply(void *state, unsigned op, const int64_t *args)
{
	vec *s = state;
	size_t at, found = pairs_find(s, args[0], &at);
	int64_t previous = found != SIZE_MAX ? s->v[2 * at + 1] : WEFT_NONE;
	if (op == ORACLE_MAP_PUT && found != SIZE_MAX)
		s->v[2 * at + 1] = args[1];
	else if (op == ORACLE_MAP_PUT)
		pairs_insert(s, at, args[0], args[1]);
	else if (op == ORACLE_MAP_REMOVE && found != SIZE_MAX)
		pairs_erase(s, at);
	return previous;
}

/* Every set and map operation touches exactly the key in args[0]. */
static int64_t by_key(unsigned op, const int64_t *args)
{
	(void)op;
	return args[0];
}

/* ---- the models and their op tables ---- */

#define VEC_MODEL(model_name, apply_fn)                                              \
	.name = model_name, .state_size = sizeof(vec), .init = vec_init, .apply = apply_fn, \
	.copy = vec_copy, .destroy = vec_destroy, .equal = vec_equal, .hash = vec_hash

const weft_model oracle_register_model = { .name = "register", .state_size = sizeof(int64_t),
					   .init = register_init, .apply = register_apply };
const weft_model oracle_counter_model = { .name = "counter", .state_size = sizeof(int64_t),
					  .init = counter_init, .apply = counter_apply };
const weft_model oracle_queue_model = { VEC_MODEL("queue", queue_apply) };
const weft_model oracle_stack_model = { VEC_MODEL("stack", stack_apply) };
const weft_model oracle_set_model = { VEC_MODEL("set", set_apply), .partition = by_key };
const weft_model oracle_map_model = { VEC_MODEL("map", map_apply), .partition = by_key };

static const weft_op register_ops[] = {
	[ORACLE_REGISTER_READ] = { .name = "read" },
	[ORACLE_REGISTER_WRITE] = { .name = "write", .n_args = 1 },
	[ORACLE_REGISTER_CAS] = { .name = "cas", .n_args = 2 },
};
static const weft_op counter_ops[] = {
	[ORACLE_COUNTER_INCREMENT] = { .name = "increment" },
	[ORACLE_COUNTER_ADD] = { .name = "add", .n_args = 1 },
	[ORACLE_COUNTER_GET] = { .name = "get" },
};
static const weft_op queue_ops[] = {
	[ORACLE_QUEUE_ENQ] = { .name = "enq", .n_args = 1 },
	[ORACLE_QUEUE_DEQ] = { .name = "deq" },
};
static const weft_op stack_ops[] = {
	[ORACLE_STACK_PUSH] = { .name = "push", .n_args = 1 },
	[ORACLE_STACK_POP] = { .name = "pop" },
};
static const weft_op set_ops[] = {
	[ORACLE_SET_ADD] = { .name = "add", .n_args = 1 },
	[ORACLE_SET_REMOVE] = { .name = "remove", .n_args = 1 },
	[ORACLE_SET_CONTAINS] = { .name = "contains", .n_args = 1 },
};
static const weft_op kv_ops[] = {
	[ORACLE_KV_GET] = { .name = "get", .n_args = 1 },
	[ORACLE_KV_PUT] = { .name = "put", .n_args = 2 },
	[ORACLE_KV_APPEND] = { .name = "append", .n_args = 2 },
};
static const weft_op map_ops[] = {
	[ORACLE_MAP_PUT] = { .name = "put", .n_args = 2 },
	[ORACLE_MAP_GET] = { .name = "get", .n_args = 1 },
	[ORACLE_MAP_REMOVE] = { .name = "remove", .n_args = 1 },
};

#define OPS(table) table, sizeof table / sizeof table[0]

const oracle_builtin oracle_builtins[ORACLE_N_BUILTINS] = {
	{ &oracle_register_model, OPS(register_ops),
	  "read -> value|none, write v -> 0, cas old new -> 1|0; starts none", 0 },
	{ &oracle_counter_model, OPS(counter_ops),
	  "increment -> 0, add n -> 0, get -> value; starts 0", 0 },
	{ &oracle_queue_model, OPS(queue_ops), "FIFO: enq v -> 0, deq -> value|none", 0 },
	{ &oracle_stack_model, OPS(stack_ops), "LIFO: push v -> 0, pop -> value|none", 0 },
	{ &oracle_set_model, OPS(set_ops),
	  "add k -> 1|0 (new?), remove k -> 1|0, contains k -> 1|0; by key", 0 },
	{ &oracle_map_model, OPS(map_ops),
	  "put k v, get k, remove k -> previous value|none; by key", 0 },
	{ &oracle_kv_model, OPS(kv_ops),
	  "strings (EDN files): get k -> text, put k v, append k v; starts \"\"; by key", 1 },
};
_Static_assert(sizeof oracle_builtins / sizeof oracle_builtins[0] == ORACLE_N_BUILTINS,
	       "ORACLE_N_BUILTINS counts the table");

const oracle_builtin *oracle_builtin_find(const char *name)
{
	for (size_t i = 0; i < ORACLE_N_BUILTINS; i++)
		if (strcmp(oracle_builtins[i].model->name, name) == 0)
			return &oracle_builtins[i];
	return NULL;
}

int oracle_builtin_op(const oracle_builtin *b, const char *name)
{
	for (unsigned i = 0; i < b->n_ops; i++)
		if (strcmp(b->ops[i].name, name) == 0)
			return (int)i;
	return -1;
}
