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
 * Non-deterministic models (weft/model.h: outcomes, apply_outcome; porcupine's
 * and Lincheck's): a call is tried with each of the model's outcomes in turn,
 * each a (result, next state) pair memoized like any other, and the stack
 * frame remembers which, so backtracking resumes at the same call with the
 * next outcome.  Lowe's memo stays sound: what can follow depends only on
 * (linearized set, state), however it was reached.  A forced step is applied
 * in place only when its call has one outcome there.
 *
 * Sections: buffers, the list, the search, one sub-history, the public
 * interface; the checker's state and helpers are oracle/checker.h, the
 * explanation of a failed search oracle/explain_search.c.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weft/check.h"
#include "weft/models.h"
#include "checker.h"
#include "partition.h"

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
	c->best_outcome = oracle_resize(c->best_outcome, cap, sizeof *c->best_outcome, &failed);
	c->map = oracle_resize(c->map, cap, sizeof *c->map, &failed);
	c->pairs = oracle_resize(c->pairs, 2 * cap, sizeof *c->pairs, &failed);
	c->keys = oracle_resize(c->keys, cap, sizeof *c->keys, &failed);
	c->longest = oracle_resize(c->longest, cap, sizeof *c->longest, &failed);
	if (oracle_memo_reserve(&c->memo, cap) != 0)
		failed = 1;
	if (!failed)
		c->cap = cap;
	c->buffer_bytes = c->cap * (sizeof *c->ops + 2 * sizeof *c->entries + sizeof *c->stack +
				    sizeof *c->best + sizeof *c->best_outcome + sizeof *c->map +
				    2 * sizeof *c->pairs + sizeof *c->keys + sizeof *c->longest +
				    1);   /* + the memo's two bitsets, 2 bits an op */
	return failed ? -1 : 0;
}

/* ---- the list of call and return entries ---- */


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
	for (size_t k = c->low; k < c->depth; k++) {
		c->best[k] = c->entries[c->stack[k].call].op;
		c->best_outcome[k] = c->stack[k].outcome;
	}
	c->best_len = c->low = c->depth;
}

static void oracle_push(weft_checker *c, uint32_t call, unsigned k, unsigned n,
			const unsigned char *state)
{
	oracle_lift(c, call);
	c->stack[c->depth++] = (oracle_frame){ call, k, k + 1 < n, state };
	if (c->depth > c->best_len)
		oracle_note_best(c);
}

/*
 * Undo the top linearization; returns where the scan resumes: the same call
 * with its next outcome (*k) when the model left some, else the entry after it.
 */
static uint32_t oracle_backtrack(weft_checker *c, unsigned *k)
{
	oracle_frame f = c->stack[--c->depth];
	c->low = c->depth < c->low ? c->depth : c->low;
	oracle_unlift(c, f.call);
	oracle_unmark(c, c->entries[f.call].op);
	*k = f.more ? f.outcome + 1 : 0;
	return f.more ? f.call : c->entries[f.call].next;
}

/* `e` is the only call before the first return: nothing else may be linearized next. */
static int oracle_forced(const weft_checker *c, uint32_t e)
{
	return c->entries[e].prev == ORACLE_HEAD && !c->entries[c->entries[e].next].is_call;
}

/*
 * The memo and the buffers are over the cap, or the memo refused to grow past
 * it (memo.c): stop with UNKNOWN, like the cost cap.
 */
static int oracle_over_memory(weft_checker *c)
{
	if (!c->max_memory || (!c->memo.over &&
			       oracle_memo_bytes(&c->memo) + c->buffer_bytes <= c->max_memory))
		return 0;
	c->memory_capped = 1;
	return 1;
}

/* A result the model gave that the history accepts: anything for a pending call. */
static int oracle_matches(const weft_checker *c, uint32_t i, int64_t got)
{
	return c->ops[i].pending || got == c->ops[i].rec->result;
}

/*
 * A forced step: apply to the working state in place; 1 done, 0 the model
 * disagrees.  Only for a call with one outcome: another would need the state
 * before it, which this step overwrites.
 */
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
	if (!oracle_matches(c, i, state_apply(c, c->work, r, 0)))
		return 0;     /* the level has no other candidate: the scan backtracks */
	oracle_mark(c, i);
	oracle_push(c, e, 0, 1, c->work);
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

/* Outcome k of call e from the current state, memoized: 1 pushed, 0 not, -1 no memory. */
static int oracle_try_outcome(weft_checker *c, uint32_t e, unsigned k, unsigned n)
{
	uint32_t i = c->entries[e].op;
	unsigned char *state = oracle_memo_room(&c->memo);
	if (!state)
		return -1;
	state_copy(c, state, oracle_current(c));
	c->cost++;
	int added = 0;
	if (oracle_matches(c, i, state_apply(c, state, c->ops[i].rec, k)))
		added = oracle_memo_extend(&c->memo, i, c->ops[i].bit, (int)c->ops[i].pending, state);
	if (added <= 0)
		state_drop(c, state);
	else
		oracle_push(c, e, k, n, state);
	return added;
}

/*
 * Linearize the call `e` next, with the model's outcome k or a later one, if
 * the model agrees: 1 done, 0 not, -1 out of budget or memory, -2 the current
 * configuration was seen before (backtrack).
 */
static int oracle_try(weft_checker *c, uint32_t e, unsigned k)
{
	const weft_op_record *r = c->ops[c->entries[e].op].rec;
	if (c->cost >= c->max_cost || oracle_over_memory(c))
		return -1;
	unsigned n = state_outcomes(c, oracle_current(c), r);
	if (k >= n)
		return 0;
	if (n == 1 && oracle_forced(c, e))
		return oracle_try_forced(c, e);
	if (oracle_current(c) == c->work) {
		int seen = oracle_freeze(c);
		if (seen)
			return seen < 0 ? -1 : -2;
	}
	for (int added = 0; k < n; k++) {
		if (k > 0 && (c->cost >= c->max_cost || oracle_over_memory(c)))
			return -1;
		added = oracle_try_outcome(c, e, k, n);
		if (added != 0)
			return added;
	}
	return 0;
}

static weft_check_verdict oracle_dfs(weft_checker *c)
{
	uint32_t e = c->entries[ORACLE_HEAD].next;
	unsigned k = 0;      /* the first outcome of e still to try */
	while (c->returns_left > 0) {
		if (!c->entries[e].is_call) {
			if (c->depth == 0)
				return WEFT_CHECK_NOT_LINEARIZABLE;
			e = oracle_backtrack(c, &k);
			continue;
		}
		int r = oracle_try(c, e, k);
		if (r == -1)
			return WEFT_CHECK_UNKNOWN;
		if (r == -2) {
			e = oracle_backtrack(c, &k);
			continue;
		}
		e = r ? c->entries[ORACLE_HEAD].next : c->entries[e].next;
		k = 0;
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


/* Checks the ops map[0..m) of h, from init. */
static weft_check_verdict oracle_check_sub(weft_checker *c, const weft_history *h, size_t m,
					   weft_check_result *res)
{
	if (oracle_setup(c, h, m) != 0)
		return WEFT_CHECK_UNKNOWN;
	weft_check_verdict v = oracle_dfs(c);
	if (v == WEFT_CHECK_NOT_LINEARIZABLE)
		oracle_explain_search(c, res);
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
		if (v == WEFT_CHECK_NOT_LINEARIZABLE) {
			res->partition_key = oracle_partition_key(c->keys, s);
			res->n_partition_ops = e - s;
		}
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
	if (!model || !model->init || !(model->apply || (model->outcomes && model->apply_outcome)))
		return NULL;
	weft_checker *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->model = model;
	oracle_memo_init(&c->memo, model);
	size_t pad = c->memo.state_pad;
	c->init = malloc(pad ? pad : 1);
	c->scratch = malloc(pad ? pad : 1);
	c->scratch2 = malloc(pad ? pad : 1);
	c->work = malloc(pad ? pad : 1);
	if (!c->init || !c->scratch || !c->scratch2 || !c->work || oracle_reserve(c, 16) != 0) {
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
	free(c->scratch2), free(c->work), free(c->best_outcome), free(c->stuck_outcomes);
	free(c);
}

/*
 * Histories longer than this are tried against the model's violation patterns
 * before the search (a refutation costs O(n log n); the search can be
 * exponential); shorter ones only when the search gave up, because the
 * search's explanation (the longest prefix and the call that cannot follow)
 * says more than a pattern.
 */
#define ORACLE_REFUTE_FIRST 256

static int refute(weft_checker *c, const weft_history *h, weft_check_result *res, size_t above)
{
	if (c->model != &weft_model_queue || h->n_ops <= above)
		return 0;
	res->violation = oracle_refute_queue(h, c->violation, sizeof c->violation);
	if (!res->violation)
		return 0;
	res->longest = NULL, res->n_longest = 0, res->stuck = SIZE_MAX;
	return 1;
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
	c->memo.over = 0;
	if (refute(c, h, res, ORACLE_REFUTE_FIRST))
		v = WEFT_CHECK_NOT_LINEARIZABLE;
	else if (oracle_reserve(c, h->n_ops) == 0) {
		c->memo.limit = !c->max_memory ? 0 : c->max_memory > c->buffer_bytes ?
				c->max_memory - c->buffer_bytes : 1;
		res->longest = c->longest;
		v = oracle_partition(c->model, h, opts, c->keys) ? oracle_check_partitions(c, h, res)
								  : oracle_check_whole(c, h, res);
		if (v == WEFT_CHECK_UNKNOWN && refute(c, h, res, 0))
			v = WEFT_CHECK_NOT_LINEARIZABLE;
	}
	res->verdict = v;
	res->cost = c->cost;
	res->memory_capped = v == WEFT_CHECK_UNKNOWN && (c->memory_capped || c->memo.over);
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
