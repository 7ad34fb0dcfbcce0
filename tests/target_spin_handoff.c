/*
 * tests/target_spin_handoff.c - a correct turn hand-off by spin-waiting, as a
 * data-structure target (issue 30; its whole-program twin is
 * tests/program_spin_handoff.c, both run by tests/spin_handoff.sh).
 *
 * Structure: a turn (0 or 1) and a payload, the count of turns taken.  play()
 * takes a seat (fetch_add), then for ROUNDS turns waits for its turn with an
 * acquire load and a yield between looks, checks the payload is the number of
 * turns taken so far, adds one and passes the turn on with a release store:
 * the core of a single-producer queue.  Exactly two threads, one play() each;
 * play() returns 0, or 1 if the payload was not what the turns say (two
 * players inside at once).  The payload is plain memory, as the program's
 * counter: weft's PSO compiles orders as x86 does, where a release store does
 * not wait for an earlier relaxed atomic store (scheduler/memory_tso.c), so an
 * atomic relaxed payload would fail there by design.
 *
 * No seeded bug: every execution passes under every memory model.  The false
 * failure it guards against: a spinner under C11 parked while a newer turn
 * existed that it had not seen, the other thread then spinning alone and
 * called a livelock (scheduler/progress.c, memory_c11.c: fair visibility).
 *
 * Oracle: linearizability against "every play() returns 0", and the
 * progress check (no livelock).
 */
#include <stdlib.h>

#include "weft/weft.h"

enum { ROUNDS = 3, PLAYERS = 2 };

/*
 * Progress limits lower than the defaults (64, 1000), as spin_barrier's: a
 * turn's wait is two switch points, so 8 quiet points mean spinning, and the
 * false livelock showed within tens of libFuzzer runs instead of ~40,000.
 */
#define HANDOFF_SPIN_LIMIT 8
#define HANDOFF_LIVELOCK_LIMIT 40

typedef struct handoff {
	_Atomic int64_t seats, turn;
	int64_t payload;   /* only the player whose turn it is touches it */
} handoff;

static int64_t handoff_play(handoff *h)
{
	int64_t mine = weft_atomic_fetch_add(&h->seats, 1);
	int64_t stale = 0;
	for (int64_t round = 0; round < ROUNDS; round++) {
		while (weft_atomic_load_explicit(&h->turn, memory_order_acquire) != mine)
			weft_yield();
		stale |= h->payload != PLAYERS * round + mine;
		h->payload++;
		/* publishes the payload to the other player's acquire load */
		weft_atomic_store_explicit(&h->turn, 1 - mine, memory_order_release);
	}
	return stale;
}

static int64_t op_play(void *self, const int64_t *args)
{
	(void)args;
	return handoff_play(self);
}

static void *handoff_setup(void) { return calloc(1, sizeof(handoff)); }
static void handoff_teardown(void *self) { free(self); }

/* The model: play() never reads a stale payload. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state;
	(void)op;
	(void)args;
	return 0;
}

static const weft_model handoff_model = {
	.name = "no stale payload", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op handoff_ops[] = {
	{ .name = "play", .run = op_play },
};
static const weft_target spin_handoff_target = {
	.name = "spin_handoff",
	.ops = handoff_ops, .n_ops = 1,
	.min_threads = PLAYERS, .max_threads = PLAYERS, .max_ops_per_thread = 1,
	.setup = handoff_setup, .teardown = handoff_teardown,
	.model = &handoff_model,
	.spin_limit = HANDOFF_SPIN_LIMIT, .livelock_limit = HANDOFF_LIVELOCK_LIMIT,
};
WEFT_FUZZ_TARGET(spin_handoff_target)
