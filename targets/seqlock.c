/*
 * targets/seqlock.c - a sequence lock over a pair of values (issue 18: weak
 * memory).
 *
 * Structure: a sequence number and two data words.  write(v) makes the
 * sequence odd (a compare-exchange: writers exclude each other), stores v in
 * both words, and makes it even again; read() reads the sequence, the two
 * words and the sequence again, and retries while it was odd or changed.  The
 * data words are relaxed atomics, as in H.-J. Boehm, "Can seqlocks get along
 * with programming language memory models?" (MSPC 2012): the writer's release
 * fence after it makes the sequence odd, and its release store that makes it
 * even, pair with the reader's acquire load of the sequence and its acquire
 * fence before the second load.  Operations: write(v), v in 1..2, -> 0;
 * read() -> 10 * first word + second word.
 *
 * Seeded bug (default build): the reader's first load of the sequence is
 * relaxed and it has no acquire fence.  It may then see the sequence a
 * completed write left (even, unchanged on the second load) and still read
 * one data word from before that write: a torn pair such as 10 or 01.  Fixed
 * build (-DWEFT_SEQLOCK_FIXED): an acquire load and an acquire fence.
 *
 * Known minimal failing interleaving (2 threads, 2 operations, 1 preemption,
 * 1 weak read; corpus/seqlock/torn-pair.linearizability.bin):
 *   t0 read() loads seq 0 and word 0 ~~preempted~~> t1 write(1) runs to its
 *   end -> t0's second load of seq gives 2: retry; seq 2 (relaxed: no
 *   happens-before from t1's stores), word 0 from before t1's store (0), word
 *   1 = 1, seq 2 again: read() returns the torn pair 01.
 * Systematic mode runs into the step budget here (writers and readers spin
 * on each other, as in Peterson's target): the fuzzer finds it.
 *
 * Oracle: linearizability against a pair register (write sets both words).
 */
#include <stdlib.h>

#include "weft/weft.h"

enum { OP_WRITE, OP_READ };

#define ACQ memory_order_acquire
#define RLX memory_order_relaxed

typedef struct seqlock {
	_Atomic uint64_t seq;   /* odd while a write is in progress */
	_Atomic int64_t word[2];
} seqlock;

static void seqlock_write(seqlock *l, int64_t v)
{
	uint64_t s;
	for (;;) {
		s = weft_atomic_load_explicit(&l->seq, memory_order_relaxed);
		/* acquire: this writer's stores come after the previous writer's (one
		   line: gcc and clang give a call over several lines different __LINE__s) */
		if (!(s & 1) && weft_atomic_compare_exchange_strong_explicit(&l->seq, &s, s + 1, ACQ, RLX))
			break;
		weft_yield();
	}
	/* release fence: a reader that sees a word stored below also sees seq odd */
	weft_atomic_thread_fence(memory_order_release);
	weft_atomic_store_explicit(&l->word[0], v, memory_order_relaxed);
	weft_atomic_store_explicit(&l->word[1], v, memory_order_relaxed);
	/* release: a reader that acquires the even value sees both words */
	weft_atomic_store_explicit(&l->seq, s + 2, memory_order_release);
}

static int64_t seqlock_read(seqlock *l)
{
	for (;;) {
#ifdef WEFT_SEQLOCK_FIXED
		uint64_t s1 = weft_atomic_load_explicit(&l->seq, memory_order_acquire);
#else
		uint64_t s1 = weft_atomic_load_explicit(&l->seq, memory_order_relaxed);  /* bug */
#endif
		if (s1 & 1) {
			weft_yield();
			continue;
		}
		int64_t a = weft_atomic_load_explicit(&l->word[0], memory_order_relaxed);
		int64_t b = weft_atomic_load_explicit(&l->word[1], memory_order_relaxed);
#ifdef WEFT_SEQLOCK_FIXED
		/* orders the word loads before the second sequence load */
		weft_atomic_thread_fence(memory_order_acquire);
#endif
		uint64_t s2 = weft_atomic_load_explicit(&l->seq, memory_order_relaxed);
		if (s1 == s2)
			return 10 * a + b;
	}
}

static int64_t op_write(void *self, const int64_t *args)
{
	seqlock_write(self, args[0]);
	return 0;
}
static int64_t op_read(void *self, const int64_t *args) { (void)args; return seqlock_read(self); }

static void *seqlock_setup(void) { return calloc(1, sizeof(seqlock)); }
static void seqlock_teardown(void *self) { free(self); }

/* The model: the value both words hold. */
static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *v = state;
	if (op == OP_WRITE) {
		*v = args[0];
		return 0;
	}
	return 10 * *v + *v;
}

static const weft_model pair_model = {
	.name = "pair register", .state_size = sizeof(int64_t),
	.init = model_init, .apply = model_apply,
};

static const weft_op seqlock_ops[] = {
	[OP_WRITE] = { .name = "write", .run = op_write, .n_args = 1, .args = { { 1, 2 } } },
	[OP_READ] = { .name = "read", .run = op_read },
};
static const weft_target seqlock_target = {
#ifdef WEFT_SEQLOCK_FIXED
	.name = "seqlock_fixed",
#else
	.name = "seqlock_buggy",
#endif
	.ops = seqlock_ops, .n_ops = 2,
	.setup = seqlock_setup, .teardown = seqlock_teardown,
	.model = &pair_model,
};
WEFT_FUZZ_TARGET(seqlock_target)
