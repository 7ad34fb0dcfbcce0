/*
 * targets/pool_stack.c - a lock-free stack whose nodes come from a fixed pool
 * and go back to it: the three-thread ABA.
 *
 * Structure: POOL nodes; `top` is a node index (NIL = empty) and each node has
 * a value and a `next` index.  The stack starts holding 1 (top) and 2, in
 * nodes 0 and 1.  pop() reads top, its value and its next, then moves top to
 * next by compare-and-swap and gives the node back to the pool; push(v) takes
 * the lowest free node from the pool (a CAS on a bit mask), fills it and CASes
 * it onto top.  Each thread runs one operation (max_ops_per_thread = 1), so a
 * node popped and pushed again are two other threads' work.  Operations:
 * pop() -> v or WEFT_NONE; push(v), v in 3..9 -> 0; contents() (final
 * operation only) -> the values top first as decimal digits.
 *
 * Seeded bug (default build): top is a bare index, so a pop preempted between
 * reading top (node 0) and its CAS cannot tell node 0 popped by a second
 * thread and reused by a third thread's push (the lowest free node again) from
 * node 0 never having moved: its CAS succeeds with the stale next, returning
 * the value it read (1) a second time and dropping the pushed value.  Three
 * threads with the right operations, a preemption inside the pop's window,
 * and the other two threads' operations in the right order inside it (the
 * switch from the popping thread to the pushing one is a forced one, which the
 * lowest-numbered-thread rule gets wrong whenever the pusher is not next).
 * Fixed build (-DWEFT_POOL_STACK_FIXED): top carries a tag bumped by every
 * successful CAS (index in the low 8 bits), so the stale CAS fails and retries.
 *
 * Known minimal failing interleaving (3 threads, 3 operations, 1 preemption;
 * corpus/pool_stack/aba.linearizability.bin): t0 pop() reads top = node 0,
 * its value 1 and next = node 1 ~~preempted before its CAS~~> t1 pop() takes
 * node 0, returns 1 and frees it; t1 done, and the forced switch goes to t2
 * (a preemption planned one step past t1's end names it:
 * docs/input-format.md) -> t2 push(3) reuses node 0: top = node 0 -> t0's CAS
 * succeeds: top = node 1; pop() = 1 twice, 3 lost.  Minimal by systematic
 * mode (--threads=2..4 --ops=1): nothing at --preemptions=0.

 * Oracle: linearizability against a sequential stack that starts as {1, 2}
 * (the model below), with contents() as the final operation.
 */
#include <stdlib.h>

#include "weft/weft.h"

#define POOL 6
#define NIL 0xffu
#define INDEX_MASK 0xffu
#define TAG_ONE 0x100u
_Static_assert(POOL <= 8 && POOL < NIL, "node indices fit the low byte; free mask fits");

enum { OP_POP, OP_PUSH, OP_CONTENTS };

typedef struct pool_stack {
	_Atomic uint32_t top;              /* node index (low byte), tag above it (fixed build) */
	_Atomic uint32_t free_mask;        /* bit i: node i is in the pool */
	_Atomic int64_t value[POOL];
	_Atomic uint32_t next[POOL];
} pool_stack;

static uint32_t index_of(uint32_t top) { return top & INDEX_MASK; }

/* The word that makes `node` the top, replacing `old`. */
static uint32_t new_top(uint32_t old, uint32_t node)
{
#ifdef WEFT_POOL_STACK_FIXED
	return ((old & ~INDEX_MASK) + TAG_ONE) | node;   /* a new tag: old words never match */
#else
	(void)old;
	return node;                                     /* bug: the index alone */
#endif
}

/* Take the lowest free node, or NIL when the pool is empty. */
static uint32_t node_alloc(pool_stack *s)
{
	uint32_t mask = weft_atomic_load(&s->free_mask);
	while (mask) {
		uint32_t node = (uint32_t)__builtin_ctz(mask);
		if (weft_atomic_compare_exchange_strong(&s->free_mask, &mask, mask & ~(1u << node)))
			return node;
	}
	return NIL;
}

static void node_free(pool_stack *s, uint32_t node)
{
	weft_atomic_fetch_or(&s->free_mask, 1u << node);
}

static int64_t stack_push(pool_stack *s, int64_t v)
{
	uint32_t node = node_alloc(s);
	if (node == NIL)
		return WEFT_NONE;   /* never with these bounds: 3 threads, 2 + 1 nodes used */
	weft_atomic_store(&s->value[node], v);
	uint32_t old = weft_atomic_load(&s->top);
	do
		weft_atomic_store(&s->next[node], index_of(old));
	while (!weft_atomic_compare_exchange_strong(&s->top, &old, new_top(old, node)));
	return 0;
}

static int64_t stack_pop(pool_stack *s)
{
	uint32_t old = weft_atomic_load(&s->top);
	for (;;) {
		uint32_t node = index_of(old);
		if (node == NIL)
			return WEFT_NONE;
		int64_t v = weft_atomic_load(&s->value[node]);
		uint32_t next = weft_atomic_load(&s->next[node]);
		if (weft_atomic_compare_exchange_strong(&s->top, &old, new_top(old, next))) {
			node_free(s, node);
			return v;
		}
	}
}

static int64_t stack_contents(pool_stack *s)
{
	int64_t digits = 0;
	unsigned n = 0;
	for (uint32_t i = index_of(weft_atomic_load(&s->top)); i != NIL && n < POOL; n++) {
		digits = digits * 10 + weft_atomic_load(&s->value[i]);
		i = weft_atomic_load(&s->next[i]);
	}
	return digits;
}

/* ---- adapters ---- */

static int64_t op_pop(void *self, const int64_t *args) { (void)args; return stack_pop(self); }
static int64_t op_push(void *self, const int64_t *args) { return stack_push(self, args[0]); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return stack_contents(self); }

/* {1, 2}: node 0 (top) holds 1, node 1 holds 2; nodes 2.. are free. */
static void *stack_setup(void)
{
	pool_stack *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->value[0] = 1;
	s->next[0] = 1;
	s->value[1] = 2;
	s->next[1] = NIL;
	s->top = 0;
	s->free_mask = ((1u << POOL) - 1) & ~3u;
	return s;
}

static void stack_teardown(void *self) { free(self); }

/* ---- the sequential model: an array, top last ---- */

typedef struct stack_model {
	int64_t v[POOL + 4];
	unsigned n;
} stack_model;

static void model_init(void *state)
{
	stack_model *m = state;
	*m = (stack_model){ .v = { 2, 1 }, .n = 2 };
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	stack_model *m = state;
	switch (op) {
	case OP_POP:
		return m->n ? m->v[--m->n] : WEFT_NONE;
	case OP_PUSH:
		if (m->n >= POOL)
			return WEFT_NONE;
		m->v[m->n++] = args[0];
		return 0;
	default: {   /* OP_CONTENTS */
		int64_t digits = 0;
		for (unsigned i = m->n; i-- > 0;)
			digits = digits * 10 + m->v[i];
		return digits;
	}
	}
}

static const weft_model stack_model_def = {
	.name = "stack from {1, 2}", .state_size = sizeof(stack_model),
	.init = model_init, .apply = model_apply,
};

static const weft_op stack_ops[] = {
	[OP_POP] = { .name = "pop", .run = op_pop },
	[OP_PUSH] = { .name = "push", .run = op_push, .n_args = 1, .args = { { 3, 9 } } },
	[OP_CONTENTS] = { .name = "contents", .run = op_contents, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target stack_target = {
#ifdef WEFT_POOL_STACK_FIXED
	.name = "pool_stack_fixed",
#else
	.name = "pool_stack_buggy",
#endif
	.ops = stack_ops, .n_ops = 3,
	.min_threads = 2, .max_threads = 4, .max_ops_per_thread = 1,
	.setup = stack_setup, .teardown = stack_teardown,
	.model = &stack_model_def, .final_op = &stack_ops[OP_CONTENTS],
};
WEFT_FUZZ_TARGET(stack_target)
