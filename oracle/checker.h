/*
 * oracle/checker.h - the linearizability checker's state (struct weft_checker),
 * shared by the search (oracle/linearize.c) and the explanation of a failed
 * search (oracle/explain_search.c).  Internal to the oracle.
 *
 * Also the few one-line helpers both need: calling the model (its outcomes,
 * weft/model.h), a return's time, the linearized set.
 */
#ifndef WEFT_ORACLE_CHECKER_H
#define WEFT_ORACLE_CHECKER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "weft/check.h"
#include "memo.h"
#include "partition.h"

#define ORACLE_NIL UINT32_MAX
#define ORACLE_HEAD 0u
#define ORACLE_MAX_OPS ((size_t)UINT32_MAX / 4) /* entries are uint32_t indices */

typedef struct oracle_op {
	const weft_op_record *rec;
	uint32_t bit;       /* index in the completed or in the pending bitset */
	uint32_t pending;
} oracle_op;

/* Entry 0 is the head, 1 + i the call of local op i, 1 + m + i its return, 2m + 1 the tail. */
typedef struct oracle_entry {
	uint32_t prev, next;
	uint32_t op;        /* local operation index */
	uint32_t ret;       /* a call's return entry; ORACLE_NIL when pending or not a call */
	uint32_t is_call;
} oracle_entry;

typedef struct oracle_frame {
	uint32_t call;                /* the lifted call entry */
	uint32_t outcome;             /* which of the model's outcomes for it (0: deterministic) */
	uint32_t more;                /* 1: outcomes after `outcome` are left to try on backtrack */
	const unsigned char *state;   /* the model state after it, inside its memo record */
} oracle_frame;

struct weft_checker {
	const weft_model *model;

	/* Per-history arrays, grown to the biggest history so far (cap operations). */
	size_t cap;
	size_t buffer_bytes;          /* of the per-operation buffers above cap sizes (max_memory) */
	oracle_op *ops;
	oracle_entry *entries;        /* 2 cap + 2 */
	oracle_frame *stack;
	uint32_t *best;               /* longest partial linearization, local indices */
	uint32_t *best_outcome;       /* the model outcome each step of `best` took */
	uint32_t *map;                /* local index -> history index */
	oracle_pair *pairs;           /* 2 cap: calls, then returns */
	oracle_pair *keys;            /* partition keys */
	size_t *longest;              /* the result's explanation, history indices */
	unsigned char *init, *scratch, *scratch2; /* memo.state_pad bytes each */
	int64_t *stuck_outcomes;      /* the explanation: results the model allows the stuck op */
	size_t n_stuck_outcomes, stuck_cap;
	unsigned char *work;          /* the state of forced steps, changed in place */
	int work_live;                /* work holds a state (to destroy) */

	/* The memoized (linearized set, state) pairs, and the current linearized set. */
	oracle_memo memo;

	/* The search over one sub-history of m operations. */
	size_t m;
	size_t depth, best_len, low;  /* low: shallowest depth since `best` was taken */
	size_t returns_left;
	uint64_t cost, max_cost;
	uint64_t max_memory;          /* bytes of memo and buffer_bytes together; 0 = no cap */
	int memory_capped;            /* the search stopped at max_memory */
	char violation[256];          /* a refutation's proof (refute_queue.c) */
};

/*
 * A strict FIFO queue history (weft_model_queue's ops) proved non-linearizable
 * by a violation pattern, without a search: the proof in words in buf, or
 * NULL when no pattern applies (which proves nothing).  O(n log n).
 */
const char *oracle_refute_queue(const weft_history *h, char *buf, size_t cap);

/* ---- model states ---- */

static inline void state_copy(const weft_checker *c, void *dst, const void *src)
{
	if (c->model->copy)
		c->model->copy(dst, src);
	else
		memcpy(dst, src, c->model->state_size);
}

static inline void state_drop(const weft_checker *c, void *s)
{
	if (c->model->destroy)
		c->model->destroy(s);
}

/* init() starts from zeroed memory (weft/model.h), so padding bytes are defined. */
static inline void state_init(const weft_checker *c, void *s)
{
	memset(s, 0, c->model->state_size);
	c->model->init(s);
}

/*
 * Outcomes (weft/model.h): a deterministic model has one, `apply`; a
 * non-deterministic one says how many and applies the k-th.
 */
static inline unsigned state_outcomes(const weft_checker *c, const void *s, const weft_op_record *r)
{
	const weft_model *m = c->model;
	return m->outcomes ? m->outcomes(m, s, r->op, r->args) : 1u;
}

static inline int64_t state_apply(const weft_checker *c, void *s, const weft_op_record *r, unsigned k)
{
	const weft_model *m = c->model;
	return m->apply_outcome ? m->apply_outcome(m, s, r->op, r->args, k)
				: m->apply(s, r->op, r->args);
}

/* A return never precedes its own call, even in a malformed history. */
static inline uint64_t oracle_return_time(const weft_op_record *r)
{
	return r->returned_at > r->invoked_at ? r->returned_at : r->invoked_at;
}

/* ---- the linearized set (kept by the memo) ---- */

static inline void oracle_mark(weft_checker *c, uint32_t i)
{
	oracle_memo_add(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending);
}

static inline void oracle_unmark(weft_checker *c, uint32_t i)
{
	oracle_memo_remove(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending);
}

static inline int oracle_marked(const weft_checker *c, uint32_t i)
{
	return oracle_memo_has(&c->memo, c->ops[i].bit, (int)c->ops[i].pending);
}

/* After a failed search: the longest prefix, the stuck op and what the model allows it. */
void oracle_explain_search(weft_checker *c, weft_check_result *res);

#endif /* WEFT_ORACLE_CHECKER_H */
