/*
 * bench/hard/seqlock_register.c - a two-word register behind a sequence lock
 * whose writers hand over too early (hard benchmark, issue 33; a
 * data-structure target).
 *
 * Structure: the value v (1 or 2) lives in two words, `hi` and `lo` (both v),
 * guarded by a sequence counter (odd = write in progress) and, among writers,
 * a lock word taken by compare-and-swap after waiting for an even sequence.
 * write(v) -> 0; read() -> 10 * hi + lo (11 or 22), from a snapshot retried until the
 * sequence was even and unchanged around it.
 * Seeded bug (default build): a writer releases the writers' lock before its
 * closing increment of the sequence.  A writer that saw an even sequence
 * before that and takes the lock in the gap brings the sequence back to even
 * while both are mid-write, and a reader can take a snapshot of hi from one
 * and lo from the other.  Fixed build (-DHARD_SEQLOCK_REGISTER_FIXED): the
 * closing increment, then the release.
 *
 * Window: writer X parked between its release and its closing increment;
 * writer Y's even-sequence check from before X's opening increment, its CAS in
 * the gap, its opening increment and one of its two stores; then the reader's
 * four loads, all before either writer moves on.  Three threads (up to four),
 * three preemptions at exact steps and a run of the reader's.  Oracle:
 * linearizability against a register (a torn value, 12 or 21, is nobody's
 * write).
 */
#include <stdlib.h>

#include "weft/weft.h"

enum { OP_WRITE, OP_READ };

typedef struct seqreg {
	_Atomic uint32_t seq;
	_Atomic uint32_t lock;
	_Atomic int64_t hi, lo;
} seqreg;

static int64_t reg_write(seqreg *r, int64_t v)
{
	uint32_t free_ = 0;
	while ((weft_atomic_load(&r->seq) & 1) ||
	       !weft_atomic_compare_exchange_strong(&r->lock, &free_, 1)) {
		free_ = 0;
		weft_yield();
	}
	weft_atomic_fetch_add(&r->seq, 1);                 /* odd: writing */
	weft_atomic_store(&r->hi, v);
	weft_atomic_store(&r->lo, v);
#ifdef HARD_SEQLOCK_REGISTER_FIXED
	weft_atomic_fetch_add(&r->seq, 1);
	weft_atomic_store(&r->lock, 0);
#else
	weft_atomic_store(&r->lock, 0);                    /* bug: released ... */
	weft_atomic_fetch_add(&r->seq, 1);                 /* ... before even again */
#endif
	return 0;
}

static int64_t reg_read(seqreg *r)
{
	for (;;) {
		uint32_t s = weft_atomic_load(&r->seq);
		if (s & 1) {
			weft_yield();
			continue;
		}
		int64_t hi = weft_atomic_load(&r->hi), lo = weft_atomic_load(&r->lo);
		if (weft_atomic_load(&r->seq) == s)
			return hi * 10 + lo;
	}
}

static int64_t op_write(void *self, const int64_t *args) { return reg_write(self, args[0]); }
static int64_t op_read(void *self, const int64_t *args) { (void)args; return reg_read(self); }

static void *reg_setup(void) { return calloc(1, sizeof(seqreg)); }
static void reg_teardown(void *self) { free(self); }

/* The model: a register, 0 at first; a read returns 11 * v. */
static void model_init(void *state) { *(int64_t *)state = 0; }
static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	int64_t *v = state;
	if (op == OP_WRITE)
		*v = args[0];
	return op == OP_WRITE ? 0 : 11 * *v;
}

static const weft_model reg_model = {
	.name = "register", .state_size = sizeof(int64_t), .init = model_init, .apply = model_apply,
};

static const weft_op reg_ops[] = {
	[OP_WRITE] = { .name = "write", .run = op_write, .n_args = 1, .args = { { 1, 2 } } },
	[OP_READ] = { .name = "read", .run = op_read },
};

static const weft_target reg_target = {
#ifdef HARD_SEQLOCK_REGISTER_FIXED
	.name = "hard_seqlock_register_fixed",
#else
	.name = "hard_seqlock_register_buggy",
#endif
	.ops = reg_ops, .n_ops = 2,
	.max_threads = 4, .max_ops_per_thread = 2,
	.setup = reg_setup, .teardown = reg_teardown,
	.model = &reg_model,
};
WEFT_FUZZ_TARGET(reg_target)
