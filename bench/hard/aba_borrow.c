/*
 * bench/hard/aba_borrow.c - ABA that needs three threads: a lock-free free
 * list whose users borrow a node and give it back (hard benchmark, issue 33;
 * a data-structure target).
 *
 * Structure: a Treiber stack of POOL buffers named by index; `top` swung by
 * compare-and-swap.  borrow() pops a buffer, marks it held (an exchange on its
 * `held` flag, which must have been 0), writes into it, clears the mark and
 * pushes it back: -> 0, or -1 when it found the buffer already held (two
 * owners), or WEFT_NONE when the list was empty.  peek() -> 0 (reads the top
 * buffer's data) and idle() -> 0 (does nothing): harmless operations that
 * random scenarios also draw, as a real workload's other calls.  count() (final operation)
 * -> the number of buffers on the list, -1 when the links do not end.
 *
 * Seeded bug (default build): `top` is a bare index (no version tag), so a pop
 * whose top was taken and given back meanwhile still succeeds with a stale
 * successor.  Fixed build (-DHARD_ABA_BORROW_FIXED): `top` packs a version.
 *
 * Why three threads: with two, the only way A comes back is its borrower
 * pushing it back with the same successor (it holds one buffer at a time), so
 * the stale successor is right.  The failing shape: t0's borrow reads top = A
 * and its successor B ~~preempted~~> t1's borrow pops A and ~~is preempted
 * while holding it~~> t2's borrow pops B and holds it -> t1 pushes A back onto
 * C -> t0's CAS installs B, a buffer t2 holds: the next borrow of B finds it
 * held, or t2's push links B to itself.  Three threads with one operation each
 * (a random scenario may also give a thread a harmless peek() or idle(),
 * or fewer threads), two preemptions at exact steps among ~12-step operations.  Oracle: linearizability (every
 * borrow returns 0, count() = POOL) plus validate(): no buffer held at the end.
 */
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

#define POOL 4
#define NIL 0xffffffffu

enum { OP_BORROW, OP_PEEK, OP_IDLE, OP_COUNT };

typedef struct buffer {
	_Atomic uint32_t next;
	_Atomic int64_t held;
	_Atomic int64_t data;
} buffer;

typedef struct freelist {
	_Atomic uint64_t top;      /* low 32 bits: index; high 32: version (fixed build) */
	buffer b[POOL];
} freelist;

static uint64_t top_with(uint64_t old, uint32_t i)
{
#ifdef HARD_ABA_BORROW_FIXED
	return ((old >> 32) + 1) << 32 | i;
#else
	(void)old;
	return i;                  /* bug: the index alone */
#endif
}

static uint32_t pop(freelist *f)
{
	uint64_t top = weft_atomic_load(&f->top);
	uint32_t t, next;
	do {
		t = (uint32_t)top;
		if (t == NIL)
			return NIL;
		next = weft_atomic_load(&f->b[t].next);
	} while (!weft_atomic_compare_exchange_strong(&f->top, &top, top_with(top, next)));
	return t;
}

static void push(freelist *f, uint32_t n)
{
	uint64_t top = weft_atomic_load(&f->top);
	do
		weft_atomic_store(&f->b[n].next, (uint32_t)top);
	while (!weft_atomic_compare_exchange_strong(&f->top, &top, top_with(top, n)));
}

static int64_t borrow(freelist *f, int64_t v)
{
	uint32_t n = pop(f);
	if (n == NIL)
		return WEFT_NONE;
	int64_t r = weft_atomic_exchange(&f->b[n].held, 1) ? -1 : 0;   /* two owners? */
	weft_atomic_store(&f->b[n].data, v);
	weft_atomic_store(&f->b[n].held, 0);
	push(f, n);
	return r;
}

/* The data of the buffer on top (racy by design: a hint, never a reference). */
static int64_t peek(freelist *f)
{
	uint32_t t = (uint32_t)weft_atomic_load(&f->top);
	return t == NIL ? WEFT_NONE : 0 * weft_atomic_load(&f->b[t].data);
}

static int64_t count(freelist *f)
{
	uint32_t i = (uint32_t)weft_atomic_load(&f->top);
	int64_t n = 0;
	for (; i != NIL; n++) {
		if (n == POOL || i >= POOL)
			return -1;
		i = weft_atomic_load(&f->b[i].next);
	}
	return n;
}

static int64_t op_borrow(void *self, const int64_t *args) { return borrow(self, args[0]); }
static int64_t op_peek(void *self, const int64_t *args) { (void)args; return peek(self); }
static int64_t op_idle(void *self, const int64_t *args) { (void)self, (void)args; return 0; }
static int64_t op_count(void *self, const int64_t *args) { (void)args; return count(self); }

static void *fl_setup(void)
{
	freelist *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < POOL; i++)
		atomic_init(&f->b[i].next, i + 1 < POOL ? i + 1 : NIL);
	atomic_init(&f->top, 0);
	return f;
}

static void fl_teardown(void *self) { free(self); }

static int fl_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)h;
	freelist *f = self;
	for (int i = 0; i < POOL; i++)
		if (atomic_load(&f->b[i].held)) {
			snprintf(msg, cap, "buffer %d still held at the end", i);
			return 1;
		}
	return 0;
}

/* The model: every borrow succeeds and gives its buffer back. */
static void model_init(void *state) { (void)state; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state, (void)args;
	return op == OP_COUNT ? POOL : 0;
}

static const weft_model fl_model = {
	.name = "free list", .state_size = 1, .init = model_init, .apply = model_apply,
};

static const weft_op fl_ops[] = {
	[OP_BORROW] = { .name = "borrow", .run = op_borrow, .n_args = 1, .args = { { 1, 3 } } },
	[OP_PEEK] = { .name = "peek", .run = op_peek },
	[OP_IDLE] = { .name = "idle", .run = op_idle },
	[OP_COUNT] = { .name = "count", .run = op_count, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target fl_target = {
#ifdef HARD_ABA_BORROW_FIXED
	.name = "hard_aba_borrow_fixed",
#else
	.name = "hard_aba_borrow_buggy",
#endif
	.ops = fl_ops, .n_ops = 4,
	.max_threads = 3, .max_ops_per_thread = 1,
	.setup = fl_setup, .teardown = fl_teardown,
	.model = &fl_model, .final_op = &fl_ops[OP_COUNT],
	.validate = fl_validate,
};
WEFT_FUZZ_TARGET(fl_target)
