/*
 * oracle/models.c - the built-in sequential models (weft/models.h for their
 * operations and results; models.h for weft-check's names of them).
 *
 * Register and counter keep one int64_t in the state block: the checker's
 * default memcpy/memcmp/byte-hash serve them.  Queue, stack, deque, set and
 * map share one state that owns memory, `vec`: a growable int64_t array with a
 * movable front, and one set of copy/destroy/equal/hash for all five (public
 * as weft_impl_vec_*, for the relaxed models' macros, oracle/model_relaxed.c):
 *   queue  elements v[head .. head+len), oldest first (pop at head, push at end);
 *   stack  the same, newest last (push and pop at the end);
 *   deque  the same, front first; a push at the front recentres when head is 0;
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
	case WEFT_REGISTER_WRITE:
		*value = args[0];
		return 0;
	case WEFT_REGISTER_CAS:
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
	uint64_t add = op == WEFT_COUNTER_INCREMENT ? 1u
		     : op == WEFT_COUNTER_ADD ? (uint64_t)args[0] : 0u;
	*value = (int64_t)((uint64_t)*value + add);
	return op == WEFT_COUNTER_GET ? *value : 0;
}

/* ---- vec: the state of queue, stack, set and map ---- */

/* weft_impl_vec (weft/models.h): live elements are v[head .. head+len). */
typedef weft_impl_vec vec;

void weft_impl_vec_init(void *s) { memset(s, 0, sizeof(vec)); }

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

/* A deque pushing at its front: when no room is left there, recentre in a
 * bigger array, so pushes at either end stay amortised O(1). */
static void vec_push_front(vec *s, int64_t x)
{
	if (s->head == 0) {
		size_t cap = 2 * s->len + 8, head = cap - s->len - (cap - s->len) / 2;
		int64_t *grown = malloc(cap * sizeof *grown);
		if (!grown)
			abort();     /* as vec_reserve */
		if (s->len)
			memcpy(grown + head, s->v, s->len * sizeof *grown);
		free(s->v);
		*s = (vec){ grown, head, s->len, cap };
	}
	s->v[--s->head] = x;
	s->len++;
}

/* The elements as decimal digits, v[head] first (forward) or last: contents().
 * Wraps like uint64_t past 18 digits, as a target's own would not overflow. */
static int64_t vec_digits(const vec *s, int forward)
{
	uint64_t r = 0;
	for (size_t i = 0; i < s->len; i++)
		r = r * 10u + (uint64_t)s->v[s->head + (forward ? i : s->len - 1 - i)];
	return (int64_t)r;
}

void weft_impl_vec_copy(void *dst, const void *src)
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

void weft_impl_vec_destroy(void *s)
{
	free(((vec *)s)->v);
}

int weft_impl_vec_equal(const void *a, const void *b)
{
	const vec *x = a, *y = b;
	return x->len == y->len &&
	       (x->len == 0 || memcmp(x->v + x->head, y->v + y->head, x->len * sizeof *x->v) == 0);
}

/* splitmix64's finaliser over each element: cheap, and order-sensitive. */
uint64_t weft_impl_vec_hash(const void *s)
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
	if (op == WEFT_QUEUE_ENQ) {
		vec_push_back(s, args[0]);
		return 0;
	}
	return op == WEFT_QUEUE_DEQ ? vec_pop_front(s) : vec_digits(s, 1);
}

/* The stack's top is the array's end: contents() reads it backwards. */
static int64_t stack_apply(void *s, unsigned op, const int64_t *args)
{
	if (op == WEFT_STACK_PUSH) {
		vec_push_back(s, args[0]);
		return 0;
	}
	return op == WEFT_STACK_POP ? vec_pop_back(s) : vec_digits(s, 0);
}

static int64_t deque_apply(void *s, unsigned op, const int64_t *args)
{
	switch (op) {
	case WEFT_DEQUE_PUSH_FRONT:
		vec_push_front(s, args[0]);
		return 0;
	case WEFT_DEQUE_PUSH_BACK:
		vec_push_back(s, args[0]);
		return 0;
	case WEFT_DEQUE_POP_FRONT:
		return vec_pop_front(s);
	case WEFT_DEQUE_POP_BACK:
		return vec_pop_back(s);
	default:
		return vec_digits(s, 1);
	}
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
	if (op == WEFT_SET_ADD && !present)
		pairs_insert(s, at, args[0], 1);
	else if (op == WEFT_SET_REMOVE && present)
		pairs_erase(s, at);
	return op == WEFT_SET_ADD ? !present : present;
}

static int64_t map_apply(void *state, unsigned op, const int64_t *args)
{
	vec *s = state;
	size_t at, found = pairs_find(s, args[0], &at);
	int64_t previous = found != SIZE_MAX ? s->v[2 * at + 1] : WEFT_NONE;
	if (op == WEFT_MAP_PUT && found != SIZE_MAX)
		s->v[2 * at + 1] = args[1];
	else if (op == WEFT_MAP_PUT)
		pairs_insert(s, at, args[0], args[1]);
	else if (op == WEFT_MAP_REMOVE && found != SIZE_MAX)
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

#define VEC_MODEL(model_name, apply_fn)                                                     \
	.name = model_name, .state_size = sizeof(vec), .init = weft_impl_vec_init,          \
	.apply = apply_fn, .copy = weft_impl_vec_copy, .destroy = weft_impl_vec_destroy,     \
	.equal = weft_impl_vec_equal, .hash = weft_impl_vec_hash

const weft_model weft_model_register = { .name = "register", .state_size = sizeof(int64_t),
					   .init = register_init, .apply = register_apply };
const weft_model weft_model_counter = { .name = "counter", .state_size = sizeof(int64_t),
					  .init = counter_init, .apply = counter_apply };
const weft_model weft_model_queue = { VEC_MODEL("queue", queue_apply) };
const weft_model weft_model_stack = { VEC_MODEL("stack", stack_apply) };
const weft_model weft_model_set = { VEC_MODEL("set", set_apply), .partition = by_key };
const weft_model weft_model_map = { VEC_MODEL("map", map_apply), .partition = by_key };
const weft_model weft_model_deque = { VEC_MODEL("deque", deque_apply) };

static const weft_op register_ops[] = {
	[WEFT_REGISTER_READ] = { .name = "read" },
	[WEFT_REGISTER_WRITE] = { .name = "write", .n_args = 1 },
	[WEFT_REGISTER_CAS] = { .name = "cas", .n_args = 2 },
};
static const weft_op counter_ops[] = {
	[WEFT_COUNTER_INCREMENT] = { .name = "increment" },
	[WEFT_COUNTER_ADD] = { .name = "add", .n_args = 1 },
	[WEFT_COUNTER_GET] = { .name = "get" },
};
static const weft_op queue_ops[] = {
	[WEFT_QUEUE_ENQ] = { .name = "enq", .n_args = 1 },
	[WEFT_QUEUE_DEQ] = { .name = "deq" },
};   /* contents() (digits, for a target's final op) is not a history file's */
static const weft_op stack_ops[] = {
	[WEFT_STACK_PUSH] = { .name = "push", .n_args = 1 },
	[WEFT_STACK_POP] = { .name = "pop" },
};
static const weft_op deque_ops[] = {
	[WEFT_DEQUE_PUSH_FRONT] = { .name = "push_front", .n_args = 1 },
	[WEFT_DEQUE_PUSH_BACK] = { .name = "push_back", .n_args = 1 },
	[WEFT_DEQUE_POP_FRONT] = { .name = "pop_front" },
	[WEFT_DEQUE_POP_BACK] = { .name = "pop_back" },
};
static const weft_op set_ops[] = {
	[WEFT_SET_ADD] = { .name = "add", .n_args = 1 },
	[WEFT_SET_REMOVE] = { .name = "remove", .n_args = 1 },
	[WEFT_SET_CONTAINS] = { .name = "contains", .n_args = 1 },
};
static const weft_op kv_ops[] = {
	[ORACLE_KV_GET] = { .name = "get", .n_args = 1 },
	[ORACLE_KV_PUT] = { .name = "put", .n_args = 2 },
	[ORACLE_KV_APPEND] = { .name = "append", .n_args = 2 },
};
static const weft_op map_ops[] = {
	[WEFT_MAP_PUT] = { .name = "put", .n_args = 2 },
	[WEFT_MAP_GET] = { .name = "get", .n_args = 1 },
	[WEFT_MAP_REMOVE] = { .name = "remove", .n_args = 1 },
};

#define OPS(table) table, sizeof table / sizeof table[0]

const oracle_builtin oracle_builtins[ORACLE_N_BUILTINS] = {
	{ &weft_model_register, OPS(register_ops),
	  "read -> value|none, write v -> 0, cas old new -> 1|0; starts none", 0 },
	{ &weft_model_counter, OPS(counter_ops),
	  "increment -> 0, add n -> 0, get -> value; starts 0", 0 },
	{ &weft_model_queue, OPS(queue_ops), "FIFO: enq v -> 0, deq -> value|none", 0 },
	{ &weft_model_stack, OPS(stack_ops), "LIFO: push v -> 0, pop -> value|none", 0 },
	{ &weft_model_set, OPS(set_ops),
	  "add k -> 1|0 (new?), remove k -> 1|0, contains k -> 1|0; by key", 0 },
	{ &weft_model_map, OPS(map_ops),
	  "put k v, get k, remove k -> previous value|none; by key", 0 },
	{ &weft_model_deque, OPS(deque_ops),
	  "push_front v, push_back v -> 0, pop_front, pop_back -> value|none", 0 },
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
