/*
 * targets/treiber_stack.c - Treiber's lock-free stack over a node pool that
 * recycles nodes at once: the textbook ABA problem.
 *
 * Structure: a singly linked stack of pool nodes named by index (never by
 * pointer); `top` is swung by compare-and-swap (R. K. Treiber, "Systems
 * Programming: Coping with Parallelism", IBM RJ 5118, 1986).  Nodes come from
 * a lock-free bitmap allocator that hands out the lowest free node, so a popped
 * node is the next one pushed.  The stack starts with two values, 2 on node 0
 * above 1 on node 1: with lowest-first allocation, a stack built by pushes
 * alone keeps every node on the same successor forever, and ABA would do no harm.
 * Operations: push(v) -> 0; pop() -> v or WEFT_NONE when empty; contents()
 * (final operation only) -> the values as decimal digits, top first (21 = 2
 * above 1, 0 = empty, -1 = the links do not end).
 *
 * Seeded bug (default build): `top` is a bare node index, so a pop's CAS also
 * succeeds when its top was popped, freed and pushed back onto another
 * successor meanwhile, and installs the stale successor (ABA).  Fixed build
 * (-DWEFT_TREIBER_STACK_FIXED): `top` packs (index, version) in one 64-bit
 * word and every successful CAS bumps the version.
 *
 * Known minimal failing interleaving (2 threads, 4 operations, 1 preemption;
 * corpus/treiber_stack/aba-minimal.bin):
 *   t0 pop() reads top = node 0 and its successor node 1 ~~preempted~~>
 *   t1 pop() = 2 (frees node 0), pop() = 1 (frees node 1), push(1) (takes
 *   node 0, successor none) -> t0's CAS finds node 0 on top and installs node 1,
 *   a free node: t0 pop() = 1, then contents() = 1 although every value is gone.
 * The other shape (5 operations, corpus/treiber_stack/aba-lost-push-minimal.bin):
 * t0's second pop reads top = node 1, successor none, and t1's pop, push(2),
 * push(1) put node 1 back above node 0: t0's CAS drops node 0, the value 2.
 *
 * Oracle: linearizability against a sequential stack (the model below), with
 * contents() as the final operation; validate() then checks the pool: the
 * allocated nodes are exactly the nodes on the stack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

#define STACK_POOL 64             /* nodes; one bit each in `used` */
#define STACK_NIL 0xffffffffu     /* no node */
#define STACK_MAX_THREADS 3
#define STACK_MAX_OPS 3
#define STACK_PREPUSHED 2
#define STACK_CAP (STACK_PREPUSHED + STACK_MAX_THREADS * STACK_MAX_OPS)
_Static_assert(STACK_CAP <= STACK_POOL, "every push finds a free node");
_Static_assert(STACK_CAP <= 18, "contents() fits in an int64_t as decimal digits");

enum { OP_PUSH, OP_POP, OP_CONTENTS };

typedef struct stack_node {
	_Atomic uint32_t next;     /* node below, STACK_NIL at the bottom */
	_Atomic int64_t value;
} stack_node;

typedef struct stack {
	_Atomic uint64_t top;      /* low 32 bits: node index; high 32: version (fixed build) */
	_Atomic uint64_t used;     /* allocation bitmap of node[] */
	stack_node node[STACK_POOL];
} stack;

/* ---- the node pool: lowest free node first, lock-free ---- */

static uint32_t pool_alloc(stack *s)
{
	uint64_t used = weft_atomic_load(&s->used);
	for (;;) {           /* the CAS fails only when another thread allocated or freed */
		if (~used == 0)
			return STACK_NIL;
		uint32_t i = (uint32_t)__builtin_ctzll(~used);
		if (weft_atomic_compare_exchange_strong(&s->used, &used, used | 1ull << i))
			return i;
	}
}

static void pool_free(stack *s, uint32_t i)
{
	weft_atomic_fetch_and(&s->used, ~(1ull << i));
}

/* ---- the stack ---- */

static uint32_t top_index(uint64_t top) { return (uint32_t)top; }

/* The word that replaces `old` on top to put node `i` there. */
static uint64_t top_with(uint64_t old, uint32_t i)
{
#ifdef WEFT_TREIBER_STACK_FIXED
	return ((old >> 32) + 1) << 32 | i;     /* a new version: a recycled top never matches */
#else
	(void)old;
	return i;                               /* bug: the index alone - ABA */
#endif
}

static int64_t stack_push(stack *s, int64_t v)
{
	uint32_t n = pool_alloc(s);
	if (n == STACK_NIL)
		return -1;
	weft_atomic_store(&s->node[n].value, v);
	uint64_t top = weft_atomic_load(&s->top);
	do
		weft_atomic_store(&s->node[n].next, top_index(top));
	while (!weft_atomic_compare_exchange_strong(&s->top, &top, top_with(top, n)));
	return 0;
}

static int64_t stack_pop(stack *s)
{
	uint64_t top = weft_atomic_load(&s->top);
	uint32_t t, next;
	do {
		t = top_index(top);
		if (t == STACK_NIL)
			return WEFT_NONE;
		next = weft_atomic_load(&s->node[t].next);
	} while (!weft_atomic_compare_exchange_strong(&s->top, &top, top_with(top, next)));
	int64_t v = weft_atomic_load(&s->node[t].value);   /* node t is ours until freed */
	pool_free(s, t);
	return v;
}

/* Calls f(node) from top to bottom; -1 when the links do not end within the pool. */
static int stack_walk(stack *s, void (*f)(stack *, uint32_t, int64_t *), int64_t *acc)
{
	uint32_t i = top_index(weft_atomic_load(&s->top));
	for (unsigned steps = 0; i != STACK_NIL; steps++) {
		if (steps == STACK_POOL || i >= STACK_POOL)
			return -1;
		f(s, i, acc);
		i = weft_atomic_load(&s->node[i].next);
	}
	return 0;
}

static void add_digit(stack *s, uint32_t i, int64_t *acc)   /* saturates: a corrupt list can be long */
{
	*acc = *acc < INT64_MAX / 100 ? *acc * 10 + weft_atomic_load(&s->node[i].value) : *acc;
}

static void mark_node(stack *s, uint32_t i, int64_t *acc)
{
	(void)s;
	*acc |= (int64_t)(1ull << i);
}

static int64_t stack_contents(stack *s)
{
	int64_t digits = 0;
	return stack_walk(s, add_digit, &digits) ? -1 : digits;
}

/* ---- adapters ---- */

static int64_t op_push(void *self, const int64_t *args) { return stack_push(self, args[0]); }
static int64_t op_pop(void *self, const int64_t *args) { (void)args; return stack_pop(self); }
static int64_t op_contents(void *self, const int64_t *args) { (void)args; return stack_contents(self); }

/* 2 on node 0 above 1 on node 1 (see the header comment for why not by pushes). */
static void *stack_setup(void)
{
	stack *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	atomic_init(&s->node[1].value, 1);
	atomic_init(&s->node[1].next, STACK_NIL);
	atomic_init(&s->node[0].value, 2);
	atomic_init(&s->node[0].next, 1);
	atomic_init(&s->top, 0);
	atomic_init(&s->used, 3);
	return s;
}

static void stack_teardown(void *self) { free(self); }

/* After a linearizable run: no node leaked, none on the stack while free. */
static int stack_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)h;
	stack *s = self;
	int64_t on_stack = 0;
	uint64_t used = atomic_load(&s->used);
	if (stack_walk(s, mark_node, &on_stack) == 0 && (uint64_t)on_stack == used)
		return 0;
	snprintf(msg, cap, "node pool corrupt: allocated %#llx, on the stack %#llx",
		 (unsigned long long)used, (unsigned long long)on_stack);
	return 1;
}

/* ---- the sequential model: an array, bottom first ---- */

typedef struct stack_model {
	int64_t n;
	int64_t v[STACK_CAP];
} stack_model;

static void model_init(void *state)
{
	stack_model *m = state;
	m->v[0] = 1;
	m->v[1] = 2;
	m->n = STACK_PREPUSHED;
}

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	stack_model *m = state;
	int64_t r = 0;
	switch (op) {
	case OP_PUSH:
		if (m->n == STACK_CAP)
			return -1;
		m->v[m->n++] = args[0];
		return 0;
	case OP_POP:
		if (m->n == 0)
			return WEFT_NONE;
		r = m->v[--m->n];
		m->v[m->n] = 0;    /* memcmp-equal states */
		return r;
	default:               /* OP_CONTENTS */
		for (int64_t i = m->n - 1; i >= 0; i--)
			r = r * 10 + m->v[i];
		return r;
	}
}

static const weft_model stack_model_def = {
	.name = "stack", .state_size = sizeof(stack_model),
	.init = model_init, .apply = model_apply,
};

static const weft_op stack_ops[] = {
	[OP_PUSH] = { .name = "push", .run = op_push, .n_args = 1, .args = { { 1, 3 } } },
	[OP_POP] = { .name = "pop", .run = op_pop },
	[OP_CONTENTS] = { .name = "contents", .run = op_contents, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target stack_target = {
#ifdef WEFT_TREIBER_STACK_FIXED
	.name = "treiber_stack_fixed",
#else
	.name = "treiber_stack_buggy",
#endif
	.ops = stack_ops, .n_ops = 3,
	.max_threads = STACK_MAX_THREADS, .max_ops_per_thread = STACK_MAX_OPS,
	.setup = stack_setup, .teardown = stack_teardown,
	.model = &stack_model_def, .final_op = &stack_ops[OP_CONTENTS],
	.validate = stack_validate,
};
WEFT_FUZZ_TARGET(stack_target)
