/*
 * targets/key_set_model.h - the sequential model the set targets share: a
 * set of small keys held as a bit mask (bit k), and the three operations
 * both sets expose.
 *
 * Why a header of static definitions: each target is one translation unit
 * (its fuzz, replay and program binaries link exactly one), so the model
 * is included, not linked.  The includer defines its key bound
 * KEY_SET_MAX_KEY (below 63) before including, defines the adapters op_add,
 * op_contains and op_contents (declared here), and names key_set_ops and
 * key_set_model in its weft_target.
 */
#ifndef WEFT_TARGETS_KEY_SET_MODEL_H
#define WEFT_TARGETS_KEY_SET_MODEL_H

#include <stdint.h>

#include "weft/weft.h"

#if !defined(KEY_SET_MAX_KEY) || KEY_SET_MAX_KEY >= 63
#error "define KEY_SET_MAX_KEY (below 63) before including key_set_model.h"
#endif

enum { OP_ADD, OP_CONTAINS, OP_CONTENTS };

static int64_t op_add(void *self, const int64_t *args);
static int64_t op_contains(void *self, const int64_t *args);
static int64_t op_contents(void *self, const int64_t *args);

static void key_set_model_init(void *state) { *(int64_t *)state = 0; }

/* add(k) -> 1 added / 0 present; contains(k) -> 1 / 0; contents() -> mask. */
static int64_t key_set_model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *keys = state;
	int64_t bit = op == OP_CONTENTS ? 0 : (int64_t)1 << args[0];
	switch (op) {
	case OP_ADD:
		if (*keys & bit)
			return 0;
		*keys |= bit;
		return 1;
	case OP_CONTAINS:
		return (*keys & bit) != 0;
	default:   /* OP_CONTENTS */
		return *keys;
	}
}

static const weft_model key_set_model = {
	.name = "key set", .state_size = sizeof(int64_t),
	.init = key_set_model_init, .apply = key_set_model_apply,
};

static const weft_op key_set_ops[] = {
	[OP_ADD] = { .name = "add", .run = op_add, .n_args = 1,
		     .args = { { 1, KEY_SET_MAX_KEY } } },
	[OP_CONTAINS] = { .name = "contains", .run = op_contains, .n_args = 1,
			  .args = { { 1, KEY_SET_MAX_KEY } } },
	[OP_CONTENTS] = { .name = "contents", .run = op_contents,
			  .flags = WEFT_OP_FINAL_ONLY },
};

#endif
