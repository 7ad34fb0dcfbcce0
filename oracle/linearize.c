/*
 * oracle/linearize.c - the linearizability checker (weft/check.h): is there an
 * order of a history's operations, each placed between its invocation and its
 * response, that the sequential model explains?  (Herlihy & Wing,
 * "Linearizability: a correctness condition for concurrent objects", TOPLAS 1990.)
 *
 * This file owns the search and the entry points.  The search: Wing & Gong
 * ("Testing and verifying concurrent objects", JPDC 1993) with Lowe's
 * memoization ("Testing for linearizability", CCPE 2017) - the algorithm of
 * the porcupine checker.
 *   - The history is one doubly-linked list of call and return entries in
 *     logical-time order.  a precedes b iff a.returned_at < b.invoked_at, so at
 *     equal times the call goes first: the two overlap.
 *   - Any call before the first return may be linearized next: apply it to a
 *     copy of the model state; if the model gives the observed result, lift
 *     its call and return out of the list (dancing links: unlifting relinks
 *     them in O(1)) and push it on an explicit stack.  Never recursion: a
 *     history may have 100,000 operations.
 *   - Lowe: every (set of linearized operations, model state) reached is
 *     memoized; reaching one again can only fail again, so it is skipped.
 *     The memo and the linearized set that keys it are oracle/memo.c.
 *   - When no candidate is left, backtrack: pop, unlift, try the next call.
 *   - A forced step - the call is the only candidate, nothing else may go
 *     next - is applied in place to one working state, neither copied nor
 *     memoized: backtracking never returns to a level with no alternative, so
 *     its state is never read again.  So a sequential history costs one state
 *     and O(1) per operation instead of a memoized copy of the state per
 *     operation (quadratic for a queue that grows: 20,000 operations took
 *     1.6 GB).  The working state is frozen into the memo (and checked
 *     against it, Lowe's test delayed to there) when a level with a choice is
 *     reached.  Skipping the memo on forced steps is sound (the memo only
 *     prunes); a configuration reached again through a forced chain is
 *     re-walked up to the next choice, whose children are memoized.
 *   - Success when no return entry is left.  A pending operation has a call
 *     but no return: it may be linearized anywhere after its invocation or
 *     never, and its result is not compared.
 * P-compositionality (Horn & Kroening, FORTE 2015; oracle/partition.c): when
 * the model keys every operation, each key's sub-history is checked alone,
 * from init, in ascending key order; the first that fails or runs out of
 * budget decides.
 *
 * Cost = model apply calls of the search (the explanation's replay is free).
 * Buffers live in the checker and grow to the biggest history checked so far,
 * so a stream of small histories allocates nothing after warm-up.
 *
 * Sections: model states, buffers, the list, the linearized set, the search, one sub-history and
 * its explanation, the public interface.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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
	const unsigned char *state;   /* the model state after it, inside its memo record */
} oracle_frame;

struct weft_checker {
	const weft_model *model;

	/* Per-history arrays, grown to the biggest history so far (cap operations). */
	size_t cap;
	oracle_op *ops;
	oracle_entry *entries;        /* 2 cap + 2 */
	oracle_frame *stack;
	uint32_t *best;               /* longest partial linearization, local indices */
	uint32_t *map;                /* local index -> history index */
	oracle_pair *pairs;           /* 2 cap: calls, then returns */
	oracle_pair *keys;            /* partition keys */
	size_t *longest;              /* the result's explanation, history indices */
	unsigned char *init, *scratch; /* memo.state_pad bytes each */
	unsigned char *work;          /* the state of forced steps, changed in place */
	int work_live;                /* work holds a state (to destroy) */

	/* The memoized (linearized set, state) pairs, and the current linearized set. */
	oracle_memo memo;

	/* The search over one sub-history of m operations. */
	size_t m;
	size_t depth, best_len, low;  /* low: shallowest depth since `best` was taken */
	size_t returns_left;
	uint64_t cost, max_cost;
	uint64_t max_memory;          /* memo bytes; 0 = no cap */
	int memory_capped;            /* the search stopped at max_memory */
};

/* ---- model states ---- */

static void state_copy(const weft_checker *c, void *dst, const void *src)
{
	if (c->model->copy)
		c->model->copy(dst, src);
	else
		memcpy(dst, src, c->model->state_size);
}

static void state_drop(const weft_checker *c, void *s)
{
	if (c->model->destroy)
		c->model->destroy(s);
}

/* init() starts from zeroed memory (weft/model.h), so padding bytes are defined. */
static void state_init(const weft_checker *c, void *s)
{
	memset(s, 0, c->model->state_size);
	c->model->init(s);
}

/* ---- buffers ---- */

static void *oracle_resize(void *p, size_t count, size_t size, int *failed)
{
	size_t bytes = count * size;
	void *q = realloc(p, bytes ? bytes : 1);
	if (!q)
		*failed = 1;
	return q ? q : p;
}

/* Room for a history of n operations; 0 on success. */
static int oracle_reserve(weft_checker *c, size_t n)
{
	if (n <= c->cap)
		return 0;
	if (n > ORACLE_MAX_OPS)
		return -1;
	size_t cap = 2 * c->cap < ORACLE_MAX_OPS ? 2 * c->cap : ORACLE_MAX_OPS;
	cap = cap > n ? cap : n;
	int failed = 0;
	c->ops = oracle_resize(c->ops, cap, sizeof *c->ops, &failed);
	c->entries = oracle_resize(c->entries, 2 * cap + 2, sizeof *c->entries, &failed);
	c->stack = oracle_resize(c->stack, cap, sizeof *c->stack, &failed);
	c->best = oracle_resize(c->best, cap, sizeof *c->best, &failed);
	c->map = oracle_resize(c->map, cap, sizeof *c->map, &failed);
	c->pairs = oracle_resize(c->pairs, 2 * cap, sizeof *c->pairs, &failed);
	c->keys = oracle_resize(c->keys, cap, sizeof *c->keys, &failed);
	c->longest = oracle_resize(c->longest, cap, sizeof *c->longest, &failed);
	if (oracle_memo_reserve(&c->memo, cap) != 0)
		failed = 1;
	if (!failed)
		c->cap = cap;
	return failed ? -1 : 0;
}

/* ---- the list of call and return entries ---- */

/* A return never precedes its own call, even in a malformed history. */
static uint64_t oracle_return_time(const weft_op_record *r)
{
	return r->returned_at > r->invoked_at ? r->returned_at : r->invoked_at;
}

static void oracle_build_ops(weft_checker *c, const weft_history *h, size_t m)
{
	uint32_t nc = 0, np = 0;
	for (size_t i = 0; i < m; i++) {
		const weft_op_record *r = &h->ops[c->map[i]];
		c->ops[i] = (oracle_op){ r, r->pending ? np++ : nc++, r->pending != 0 };
	}
	c->m = m;
	c->returns_left = nc;
}

static void oracle_link(oracle_entry *e, uint32_t *prev, uint32_t cur)
{
	e[*prev].next = cur;
	e[cur].prev = *prev;
	*prev = cur;
}

/* Calls and returns merged by time; at equal times the call first (they overlap). */
static void oracle_build_list(weft_checker *c)
{
	uint32_t m = (uint32_t)c->m, nr = 0, ci = 0, ri = 0, prev = ORACLE_HEAD;
	oracle_pair *calls = c->pairs, *rets = c->pairs + m;
	for (uint32_t i = 0; i < m; i++) {
		const oracle_op *op = &c->ops[i];
		calls[i] = (oracle_pair){ op->rec->invoked_at, i };
		if (!op->pending)
			rets[nr++] = (oracle_pair){ oracle_return_time(op->rec), i };
		c->entries[1 + i] = (oracle_entry){ 0, 0, i, op->pending ? ORACLE_NIL : 1 + m + i, 1 };
		c->entries[1 + m + i] = (oracle_entry){ 0, 0, i, ORACLE_NIL, 0 };
	}
	oracle_sort(calls, m);
	oracle_sort(rets, nr);
	c->entries[ORACLE_HEAD] = c->entries[2 * m + 1] = (oracle_entry){ 0, 0, 0, ORACLE_NIL, 0 };
	while (ci < m || ri < nr) {
		if (ri < nr && (ci == m || rets[ri].key < calls[ci].key))
			oracle_link(c->entries, &prev, 1 + m + rets[ri++].idx);
		else
			oracle_link(c->entries, &prev, 1 + calls[ci++].idx);
	}
	oracle_link(c->entries, &prev, 2 * m + 1);
}

static void oracle_unlink(oracle_entry *e, uint32_t i)
{
	e[e[i].prev].next = e[i].next;
	e[e[i].next].prev = e[i].prev;
}

static void oracle_relink(oracle_entry *e, uint32_t i)
{
	e[e[i].prev].next = i;
	e[e[i].next].prev = i;
}

/* Dancing links: unlift restores in the reverse order of lift. */
static void oracle_lift(weft_checker *c, uint32_t call)
{
	oracle_unlink(c->entries, call);
	if (c->entries[call].ret != ORACLE_NIL) {
		oracle_unlink(c->entries, c->entries[call].ret);
		c->returns_left--;
	}
}

static void oracle_unlift(weft_checker *c, uint32_t call)
{
	if (c->entries[call].ret != ORACLE_NIL) {
		oracle_relink(c->entries, c->entries[call].ret);
		c->returns_left++;
	}
	oracle_relink(c->entries, call);
}

/* ---- the linearized set (kept by the memo) ---- */

static void oracle_mark(weft_checker *c, uint32_t i)
{
	oracle_memo_add(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending);
}

static void oracle_unmark(weft_checker *c, uint32_t i)
{
	oracle_memo_remove(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending);
}

static int oracle_marked(const weft_checker *c, uint32_t i)
{
	return oracle_memo_has(&c->memo, c->ops[i].bit, (int)c->ops[i].pending);
}

/* ---- the search ---- */

static const unsigned char *oracle_current(const weft_checker *c)
{
	return c->depth ? c->stack[c->depth - 1].state : c->init;
}

/*
 * The deepest stack, taken the first time it is reached (deterministic).  Only
 * the part above `low` changed since the last time, so the copying stays
 * linear in the number of pushes.
 */
static void oracle_note_best(weft_checker *c)
{
	for (size_t k = c->low; k < c->depth; k++)
		c->best[k] = c->entries[c->stack[k].call].op;
	c->best_len = c->low = c->depth;
}

static void oracle_push(weft_checker *c, uint32_t call, const unsigned char *state)
{
	oracle_lift(c, call);
	c->stack[c->depth++] = (oracle_frame){ call, state };
	if (c->depth > c->best_len)
		oracle_note_best(c);
}

/* Undo the top linearization; returns the entry after its call, where the scan resumes. */
static uint32_t oracle_backtrack(weft_checker *c)
{
	uint32_t call = c->stack[--c->depth].call;
	c->low = c->depth < c->low ? c->depth : c->low;
	oracle_unlift(c, call);
	oracle_unmark(c, c->entries[call].op);
	return c->entries[call].next;
}

/* `e` is the only call before the first return: nothing else may be linearized next. */
static int oracle_forced(const weft_checker *c, uint32_t e)
{
	return c->entries[e].prev == ORACLE_HEAD && !c->entries[c->entries[e].next].is_call;
}

/* The memo is over its cap: stop with UNKNOWN, like the cost cap. */
static int oracle_over_memory(weft_checker *c)
{
	if (!c->max_memory || oracle_memo_bytes(&c->memo) <= c->max_memory)
		return 0;
	c->memory_capped = 1;
	return 1;
}

/* A forced step: apply to the working state in place; 1 done, 0 the model disagrees. */
static int oracle_try_forced(weft_checker *c, uint32_t e)
{
	uint32_t i = c->entries[e].op;
	const weft_op_record *r = c->ops[i].rec;
	const unsigned char *base = oracle_current(c);
	if (base != c->work) {
		if (c->work_live)
			state_drop(c, c->work);
		state_copy(c, c->work, base);
		c->work_live = 1;
	}
	c->cost++;
	int64_t got = c->model->apply(c->work, r->op, r->args);
	if (!c->ops[i].pending && got != r->result)
		return 0;     /* the level has no other candidate: the scan backtracks */
	oracle_mark(c, i);
	oracle_push(c, e, c->work);
	return 1;
}

/*
 * Before a choice from the working state: keep it in the memo, so every
 * alternative starts from it.  0 kept, 1 seen before (backtrack), -1 no memory.
 */
static int oracle_freeze(weft_checker *c)
{
	unsigned char *state = oracle_memo_room(&c->memo);
	if (!state)
		return -1;
	state_copy(c, state, c->work);
	int added = oracle_memo_insert(&c->memo, state);
	if (added <= 0) {
		state_drop(c, state);
		return added < 0 ? -1 : 1;
	}
	c->stack[c->depth - 1].state = state;
	return 0;
}

/*
 * Linearize the call `e` next if the model agrees: 1 done, 0 not, -1 out of
 * budget or memory, -2 the current configuration was seen before (backtrack).
 */
static int oracle_try(weft_checker *c, uint32_t e)
{
	uint32_t i = c->entries[e].op;
	const weft_op_record *r = c->ops[i].rec;
	if (c->cost >= c->max_cost || oracle_over_memory(c))
		return -1;
	if (oracle_forced(c, e))
		return oracle_try_forced(c, e);
	if (oracle_current(c) == c->work) {
		int seen = oracle_freeze(c);
		if (seen)
			return seen < 0 ? -1 : -2;
	}
	unsigned char *state = oracle_memo_room(&c->memo);
	if (!state)
		return -1;
	state_copy(c, state, oracle_current(c));
	c->cost++;
	int64_t got = c->model->apply(state, r->op, r->args);
	int added = 0;
	if (c->ops[i].pending || got == r->result)
		added = oracle_memo_extend(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending, state);
	if (added <= 0)
		state_drop(c, state);
	else
		oracle_push(c, e, state);
	return added;
}

static weft_check_verdict oracle_dfs(weft_checker *c)
{
	uint32_t e = c->entries[ORACLE_HEAD].next;
	while (c->returns_left > 0) {
		if (!c->entries[e].is_call) {
			if (c->depth == 0)
				return WEFT_CHECK_NOT_LINEARIZABLE;
			e = oracle_backtrack(c);
			continue;
		}
		int r = oracle_try(c, e);
		if (r == -1)
			return WEFT_CHECK_UNKNOWN;
		if (r == -2)
			e = oracle_backtrack(c);
		else
			e = r ? c->entries[ORACLE_HEAD].next : c->entries[e].next;
	}
	return WEFT_CHECK_LINEARIZABLE;
}

/* ---- one sub-history: setup, explanation, cleanup ---- */

static int oracle_setup(weft_checker *c, const weft_history *h, size_t m)
{
	oracle_build_ops(c, h, m);   /* returns_left = the completed ops */
	if (oracle_memo_reset(&c->memo, c->returns_left, m - c->returns_left) != 0)
		return -1;
	oracle_build_list(c);
	c->depth = c->best_len = c->low = 0;
	state_init(c, c->init);
	return 0;
}

/* States that own memory: every memoized one (the stack's are among them), and init. */
static void oracle_cleanup(weft_checker *c)
{
	oracle_memo_drop_states(&c->memo);
	state_drop(c, c->init);
	if (c->work_live)
		state_drop(c, c->work);
	c->work_live = 0;
}

/* The model's answer for op `stuck` after the longest prefix, replayed from init. */
static int64_t oracle_replay(weft_checker *c, uint32_t stuck)
{
	state_init(c, c->scratch);
	for (size_t k = 0; k < c->best_len; k++) {
		const weft_op_record *r = c->ops[c->best[k]].rec;
		c->model->apply(c->scratch, r->op, r->args);
	}
	const weft_op_record *s = c->ops[stuck].rec;
	int64_t got = c->model->apply(c->scratch, s->op, s->args);
	state_drop(c, c->scratch);
	return got;
}

/*
 * After a failed search (stack empty, every bit clear): the earliest-returning
 * completed op outside the longest prefix, with the list's own tie-break (the
 * search tried it right after that prefix, and the model disagreed).
 */
static uint32_t oracle_find_stuck(weft_checker *c)
{
	uint32_t stuck = ORACLE_NIL;
	for (size_t k = 0; k < c->best_len; k++)
		oracle_mark(c, c->best[k]);
	for (uint32_t i = 0; i < c->m; i++) {
		if (c->ops[i].pending || oracle_marked(c, i))
			continue;
		if (stuck == ORACLE_NIL ||
		    oracle_return_time(c->ops[i].rec) < oracle_return_time(c->ops[stuck].rec))
			stuck = i;
	}
	assert(stuck != ORACLE_NIL);   /* else the prefix would be a linearization */
	return stuck;
}

static void oracle_explain(weft_checker *c, weft_check_result *res)
{
	uint32_t stuck = oracle_find_stuck(c);
	for (size_t k = 0; k < c->best_len; k++)
		c->longest[k] = c->map[c->best[k]];
	res->n_longest = c->best_len;
	if (stuck == ORACLE_NIL)
		return;
	res->stuck = c->map[stuck];
	res->stuck_model_result = oracle_replay(c, stuck);
}

/* Checks the ops map[0..m) of h, from init. */
static weft_check_verdict oracle_check_sub(weft_checker *c, const weft_history *h, size_t m,
					   weft_check_result *res)
{
	if (oracle_setup(c, h, m) != 0)
		return WEFT_CHECK_UNKNOWN;
	weft_check_verdict v = oracle_dfs(c);
	if (v == WEFT_CHECK_NOT_LINEARIZABLE)
		oracle_explain(c, res);
	oracle_cleanup(c);
	return v;
}

/* ---- the public interface ---- */

/* Each key's sub-history in turn; the first that is not linearizable decides. */
static weft_check_verdict oracle_check_partitions(weft_checker *c, const weft_history *h,
						  weft_check_result *res)
{
	weft_check_verdict v = WEFT_CHECK_LINEARIZABLE;
	res->partitioned = 1;
	res->n_partitions = 0;
	for (size_t s = 0, e; s < h->n_ops; s = e) {
		e = oracle_partition_next(c->keys, h->n_ops, s, c->map);
		res->n_partitions++;
		if (v != WEFT_CHECK_LINEARIZABLE)
			continue;   /* still counting partitions */
		v = oracle_check_sub(c, h, e - s, res);
		if (v == WEFT_CHECK_NOT_LINEARIZABLE)
			res->partition_key = oracle_partition_key(c->keys, s);
	}
	return v;
}

static weft_check_verdict oracle_check_whole(weft_checker *c, const weft_history *h,
					     weft_check_result *res)
{
	for (size_t i = 0; i < h->n_ops; i++)
		c->map[i] = (uint32_t)i;
	return oracle_check_sub(c, h, h->n_ops, res);
}

weft_checker *weft_checker_new(const weft_model *model)
{
	if (!model || !model->init || !model->apply)
		return NULL;
	weft_checker *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->model = model;
	oracle_memo_init(&c->memo, model);
	size_t pad = c->memo.state_pad;
	c->init = malloc(pad ? pad : 1);
	c->scratch = malloc(pad ? pad : 1);
	c->work = malloc(pad ? pad : 1);
	if (!c->init || !c->scratch || !c->work || oracle_reserve(c, 16) != 0) {
		weft_checker_free(c);
		return NULL;
	}
	return c;
}

void weft_checker_free(weft_checker *c)
{
	if (!c)
		return;
	oracle_memo_free(&c->memo);
	free(c->ops), free(c->entries), free(c->stack), free(c->best), free(c->map);
	free(c->pairs), free(c->keys), free(c->longest), free(c->init), free(c->scratch);
	free(c->work);
	free(c);
}

weft_check_verdict weft_check(weft_checker *c, const weft_history *h,
			      const weft_check_options *opts, weft_check_result *result)
{
	weft_check_result local;
	weft_check_result *res = result ? result : &local;
	weft_check_verdict v = WEFT_CHECK_UNKNOWN;
	*res = (weft_check_result){ .n_partitions = 1, .stuck = SIZE_MAX,
				    .stuck_model_result = WEFT_NONE };
	c->cost = 0;
	c->max_cost = opts && opts->max_cost ? opts->max_cost : WEFT_CHECK_DEFAULT_MAX_COST;
	c->max_memory = opts ? opts->max_memory : 0;
	c->memory_capped = 0;
	if (oracle_reserve(c, h->n_ops) == 0) {
		res->longest = c->longest;
		v = oracle_partition(c->model, h, opts, c->keys) ? oracle_check_partitions(c, h, res)
								  : oracle_check_whole(c, h, res);
	}
	res->verdict = v;
	res->cost = c->cost;
	res->memory_capped = v == WEFT_CHECK_UNKNOWN && c->memory_capped;
	return v;
}

const char *weft_check_verdict_name(weft_check_verdict v)
{
	switch (v) {
	case WEFT_CHECK_LINEARIZABLE:
		return "linearizable";
	case WEFT_CHECK_NOT_LINEARIZABLE:
		return "not-linearizable";
	case WEFT_CHECK_UNKNOWN:
		return "unknown";
	}
	return "invalid";
}
