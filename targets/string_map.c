/*
 * targets/string_map.c - a map from string keys to numbers with a three-
 * argument compare-and-set: string arguments (weft/value.h) and more than two
 * arguments, printed in the report as cas("bb", 0, 2).
 *
 * Structure: a fixed hash table of atomic cells, the key's bucket found by
 * hashing its bytes (keys "a", "bb", "ccc" land in distinct buckets).
 * Operations: put(key, v), get(key) -> v or none, cas(key, expected, new) ->
 * 1 swapped / 0 not; a never-written key holds 0.
 * Seeded bug (default build): cas() loads, compares, then stores: two cas()
 * on one key that both see the expected value both succeed.  Fixed build
 * (-DWEFT_STRING_MAP_FIXED): one compare_exchange.
 * Known minimal failing interleaving: 2 threads, each cas("a", 0, 1),
 * one preemption: t0 loads 0 ~~preempted~~> t1 swaps, returns 1 -> t0
 * stores, returns 1; one of them should have failed.
 * Input bytes: 02 00 00 00 05 00 00 02 (corpus/string_map/double-cas.linearizability.bin).
 * Oracle: linearizability against a map keyed by the string's contents.
 */
#include <stdlib.h>
#include <string.h>

#include "weft/weft.h"

#define BUCKETS 7

static const char *const keys[] = { "a", "bb", "ccc" };

/* The key argument: the input draws 0..2, the operation gets the string. */
static int64_t make_key(int64_t drawn) { return weft_value_string(keys[drawn]); }
static const weft_value_type key_type = { "key", make_key, weft_value_format_string };

typedef struct string_map {
	_Atomic int64_t cell[BUCKETS];
} string_map;

static unsigned bucket_of(int64_t key)
{
	size_t len;
	const unsigned char *b = weft_value_data(key, &len);
	unsigned h = 5381;
	for (size_t i = 0; i < len; i++)
		h = h * 33 + b[i];
	return h % BUCKETS;
}

static int64_t op_put(void *self, const int64_t *args)
{
	weft_atomic_store(&((string_map *)self)->cell[bucket_of(args[0])], args[1]);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	return weft_atomic_load(&((string_map *)self)->cell[bucket_of(args[0])]);
}

static int64_t op_cas(void *self, const int64_t *args)
{
	_Atomic int64_t *cell = &((string_map *)self)->cell[bucket_of(args[0])];
#ifdef WEFT_STRING_MAP_FIXED
	int64_t expected = args[1];
	return weft_atomic_compare_exchange_strong(cell, &expected, args[2]);
#else
	if (weft_atomic_load(cell) != args[1])   /* bug: check and set are two steps */
		return 0;
	weft_atomic_store(cell, args[2]);
	return 1;
#endif
}

static void *map_setup(void) { return calloc(1, sizeof(string_map)); }
static void map_teardown(void *self) { free(self); }

/* The model: one value per key, found by the key's contents. */
enum { OP_PUT, OP_GET, OP_CAS };

static void model_init(void *state) { (void)state; /* zeroed: every key holds 0 */ }

static int64_t *model_cell(void *state, int64_t key)
{
	size_t len;
	const char *b = weft_value_data(key, &len);
	for (int i = 0; i < 2; i++)
		if (strlen(keys[i]) == len && memcmp(keys[i], b, len) == 0)
			return (int64_t *)state + i;
	return (int64_t *)state + 2;
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *cell = model_cell(state, args[0]);
	if (op == OP_PUT)
		*cell = args[1];
	if (op != OP_CAS)
		return op == OP_PUT ? 0 : *cell;
	if (*cell != args[1])
		return 0;
	*cell = args[2];
	return 1;
}

static const weft_model map_model = {
	.name = "string-map", .state_size = 3 * sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op map_ops[] = {
	[OP_PUT] = { .name = "put", .run = op_put, .n_args = 2, .args = { { 0, 2 }, { 1, 2 } },
		     .arg_types = { &key_type } },
	[OP_GET] = { .name = "get", .run = op_get, .n_args = 1, .args = { { 0, 2 } },
		     .arg_types = { &key_type } },
	[OP_CAS] = { .name = "cas", .run = op_cas, .n_args = 3,
		     .args = { { 0, 2 }, { 0, 1 }, { 1, 2 } },
		     .arg_types = { &key_type } },
};
static const weft_target map_target = {
#ifdef WEFT_STRING_MAP_FIXED
	.name = "string_map_fixed",
#else
	.name = "string_map_buggy",
#endif
	.ops = map_ops, .n_ops = 3, .setup = map_setup, .teardown = map_teardown,
	.model = &map_model,
};
WEFT_FUZZ_TARGET(map_target)
