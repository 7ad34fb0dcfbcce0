/*
 * bench/hard/tso_room.c - a weak-memory bug that needs several delayed
 * commits at once: a three-way flag protocol written for x86 (hard benchmark,
 * issue 33; a data-structure target declared to run under WEFT_MEMORY=tso).
 *
 * Structure: a room that admits at most two of three visitors (a generalised
 * Dekker entry: a visitor raises its flag, then looks at the other two; it
 * enters only when it saw at most one of them up, and otherwise gives up).
 * A visitor also writes a log entry (LOG stores to its own slot) between
 * raising its flag and looking, as the code it came from did.  Operations:
 * visit0, visit1, visit2 (each on one thread only: weft_op.group) -> 0, or -1
 * when it entered a room that already held two; occupancy() (final) -> 0.
 *
 * Seeded bug (default build): the flags are stored with release and loaded
 * with acquire, plain movs on x86, so a visitor's flag may still sit in its
 * store buffer while the others look: each of the three reads the other two
 * flags down.  Fixed build (-DHARD_TSO_ROOM_FIXED): a seq_cst fence between
 * the log stores and the looks (an mfence), which drains the buffer.
 *
 * Window: all three flags buffered while all 6 x LOOKS looks happen: each look at
 * another thread's location is a data choice of how many of that thread's
 * buffered stores stay buffered (memory.h), and the flag is the oldest of
 * LOG + 1, so every choice must keep the whole buffer; plus the three threads
 * interleaved so that every look comes before every flag's commit.  Why hard:
 * 6 x LOOKS choices that must all take their largest value, none of which the
 * schedule samplers aim at.  Oracle: linearizability (every visit returns 0);
 * an SC or correctly fenced execution never fails.
 */
#include <stdlib.h>

#include "weft/weft.h"

#ifndef LOG
#define LOG 3
#endif
#ifndef LOOKS
#define LOOKS 3
#endif

enum { OP_VISIT0, OP_VISIT1, OP_VISIT2, OP_OCCUPANCY };

typedef struct room {
	_Atomic uint32_t flag[3];
	_Atomic uint32_t log[3];
	_Atomic uint32_t inside;
} room;

static int64_t visit(room *r, int me)
{
	weft_atomic_store_explicit(&r->flag[me], 1, memory_order_release);
	for (uint32_t i = 1; i <= LOG; i++)
		weft_atomic_store_explicit(&r->log[me], i, memory_order_release);
#ifdef HARD_TSO_ROOM_FIXED
	weft_atomic_thread_fence(memory_order_seq_cst);   /* mfence: drain the buffer */
#endif
	int up = 0;
	for (int look = 0; look < LOOKS; look++)  /* LOOKS times, "to be sure" */
		for (int k = 1; k <= 2; k++)
			up += (int)weft_atomic_load_explicit(&r->flag[(me + k) % 3],
							     memory_order_acquire);
	int64_t r_ = 0;
	if (up <= LOOKS) {                          /* one other up per look, at most */
		if (weft_atomic_fetch_add(&r->inside, 1) >= 2)
			r_ = -1;                          /* a third visitor inside */
		weft_atomic_fetch_sub(&r->inside, 1);
	}
	weft_atomic_store_explicit(&r->flag[me], 0, memory_order_release);
	return r_;
}

static int64_t op_visit0(void *self, const int64_t *args) { (void)args; return visit(self, 0); }
static int64_t op_visit1(void *self, const int64_t *args) { (void)args; return visit(self, 1); }
static int64_t op_visit2(void *self, const int64_t *args) { (void)args; return visit(self, 2); }
static int64_t op_occupancy(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((room *)self)->inside);
}

static void *room_setup(void) { return calloc(1, sizeof(room)); }
static void room_teardown(void *self) { free(self); }

/* The model: visits never overcrowd the room, and it ends empty. */
static void model_init(void *state) { (void)state; }
static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state, (void)op, (void)args;
	return 0;
}

static const weft_model room_model = {
	.name = "room", .state_size = 1, .init = model_init, .apply = model_apply,
};

static const weft_op room_ops[] = {
	[OP_VISIT0] = { .name = "visit0", .run = op_visit0, .group = 1 },
	[OP_VISIT1] = { .name = "visit1", .run = op_visit1, .group = 2 },
	[OP_VISIT2] = { .name = "visit2", .run = op_visit2, .group = 3 },
	[OP_OCCUPANCY] = { .name = "occupancy", .run = op_occupancy, .flags = WEFT_OP_FINAL_ONLY },
};

static const weft_target room_target = {
#ifdef HARD_TSO_ROOM_FIXED
	.name = "hard_tso_room_fixed",
#else
	.name = "hard_tso_room_buggy",
#endif
	.ops = room_ops, .n_ops = 4,
	.max_threads = 3, .max_ops_per_thread = 1,
	.setup = room_setup, .teardown = room_teardown,
	.model = &room_model, .final_op = &room_ops[OP_OCCUPANCY],
	.memory = "tso",       /* code written for x86 */
};
WEFT_FUZZ_TARGET(room_target)
