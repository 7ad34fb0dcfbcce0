/*
 * oracle/memo.h - Lowe's memo for the linearizability search (oracle/linearize.c):
 * the set of (linearized operations, model state) pairs already reached, and
 * the current linearized set that keys it.  Internal to the oracle.
 *
 * One sub-history at a time: oracle_memo_reset starts an empty set and an empty
 * memo for it.  To linearize an operation the search asks oracle_memo_room
 * where the candidate state goes, applies the operation there, and
 * oracle_memo_extend adds the operation to the set if (set, state) is new;
 * backtracking takes it out with oracle_memo_remove.  Kept states stay put (the
 * search's stack points at them) until the next reset.
 *
 * Costs: add/remove O(1) amortized; extend hashes the state (model->hash or the
 * bytes) and compares against equal hashes only.  Buffers are kept between
 * sub-histories and checks; only a search that memoizes more than any before
 * allocates.  For one thread at a time.
 */
#ifndef WEFT_ORACLE_MEMO_H
#define WEFT_ORACLE_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "weft/model.h"

struct oracle_memo_block;
struct oracle_memo_slot;

/* Embedded in the checker; its fields belong to memo.c (the search reads only state_pad). */
typedef struct oracle_memo {
	const weft_model *model;
	size_t state_pad;             /* state_size rounded up to 8: the bitset words follow */

	/* The linearized set: completed ops (in invocation order) and pending ops, one bit each. */
	uint64_t *cbits, *pbits;      /* bit_words words each */
	size_t bit_words;
	size_t cw, pw;                /* words in use: completed / pending */
	int dominance;                /* match pending sets by inclusion (memo.c, insert) */
	size_t wlo, whi;              /* cbits' first non-full word, last non-zero word + 1 */
	uint64_t zobrist;             /* hash of the set */
	size_t rec_max;               /* bytes of a record with the widest window (cw words) */

	/* The records, in an arena found through an open-addressing table. */
	struct oracle_memo_block *blocks, *block; /* the chain; the block being filled */
	size_t used;                  /* bytes used in `block` */
	struct oracle_memo_slot *slots, *spare;   /* the table; the buffer it grows into */
	size_t slots_cap, spare_cap, mask, count;
	size_t spent;                 /* bytes of the blocks filled before `block` since the reset */
	uint64_t limit;               /* bytes oracle_memo_bytes may reach (0: any); set by the search */
	int over;                     /* a table growth was refused at `limit`: the search stops */
} oracle_memo;

/* An empty memo for `model` (which must outlive it); allocates nothing. */
void oracle_memo_init(oracle_memo *mm, const weft_model *model);

/*
 * Bytes the memo holds: records and both tables (the one in use and the spare
 * it grows into), what a --max-memory cap must count to bound the process.
 */
size_t oracle_memo_bytes(const oracle_memo *mm);

/* Room in the set for sub-histories of up to n operations; 0 on success, -1 out of memory. */
int oracle_memo_reserve(oracle_memo *mm, size_t n);

/*
 * Start a sub-history of n_completed + n_pending operations (at most the
 * reserved n): empty set, empty memo, arena rewound.  0 on success, -1 out of
 * memory.  Call oracle_memo_drop_states first if the model's states own memory.
 */
int oracle_memo_reset(oracle_memo *mm, size_t n_completed, size_t n_pending);

/*
 * The linearized set.  An operation is bit `bit` of the completed or (pending
 * != 0) the pending bitset; `id`, its index in the sub-history, picks its
 * Zobrist word.  Any order; each op in at most once.
 */
void oracle_memo_add(oracle_memo *mm, uint32_t id, uint32_t bit, int pending);
void oracle_memo_remove(oracle_memo *mm, uint32_t id, uint32_t bit, int pending);
int oracle_memo_has(const oracle_memo *mm, uint32_t bit, int pending);

/*
 * Where the next candidate state goes: state_pad bytes aligned for any type at
 * the arena's cursor, not yet kept.  NULL when out of memory.
 */
unsigned char *oracle_memo_room(oracle_memo *mm);

/*
 * The current set plus operation (id, bit, pending), reaching *state (what
 * oracle_memo_room returned): 1 never seen, so it is memoized (the state is
 * kept until the next reset) and the operation stays in the set; 0 seen
 * before, -1 out of memory: the set is left as it was and the room stays free.
 */
int oracle_memo_extend(oracle_memo *mm, uint32_t id, uint32_t bit, int pending,
		       unsigned char *state);

/*
 * The current set (unchanged) reaching *state (from oracle_memo_room): 1 never
 * seen, so it is memoized; 0 seen before; -1 out of memory.
 */
int oracle_memo_insert(oracle_memo *mm, unsigned char *state);

/* model->destroy on every kept state (nothing if the model has no destroy). */
void oracle_memo_drop_states(oracle_memo *mm);

/* Frees every buffer; the memo may be initialized again. */
void oracle_memo_free(oracle_memo *mm);

#endif /* WEFT_ORACLE_MEMO_H */
