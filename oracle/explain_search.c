/*
 * oracle/explain_search.c - what a failed linearizability search (oracle/linearize.c)
 * leaves for the explanation (weft/check.h, printed by oracle/explain.c): the
 * longest partial linearization it found, the operation that cannot follow
 * it, and every result the model allows that operation there.
 *
 * The prefix is replayed from init with the model outcome each step took in
 * the search (a non-deterministic model, weft/model.h), then each outcome of
 * the stuck operation is applied to its own copy.  The replay is not counted
 * in the search's cost.
 */
#include <assert.h>
#include <stdlib.h>

#include "checker.h"

/* Room for n results the model allows the stuck op; 0 on success. */
static int oracle_reserve_stuck(weft_checker *c, size_t n)
{
	if (n <= c->stuck_cap)
		return 0;
	int64_t *grown = realloc(c->stuck_outcomes, n * sizeof *grown);
	if (!grown)
		return -1;
	c->stuck_outcomes = grown;
	c->stuck_cap = n;
	return 0;
}

/*
 * The results the model allows op `stuck` after the longest prefix, replayed
 * from init with the outcomes the search took; each outcome from a copy.
 */
static void oracle_replay(weft_checker *c, uint32_t stuck)
{
	state_init(c, c->scratch);
	for (size_t k = 0; k < c->best_len; k++)
		state_apply(c, c->scratch, c->ops[c->best[k]].rec, c->best_outcome[k]);
	const weft_op_record *s = c->ops[stuck].rec;
	unsigned n = state_outcomes(c, c->scratch, s);
	c->n_stuck_outcomes = oracle_reserve_stuck(c, n) == 0 ? n : 0;
	for (unsigned k = 0; k < c->n_stuck_outcomes; k++) {
		state_copy(c, c->scratch2, c->scratch);
		c->stuck_outcomes[k] = state_apply(c, c->scratch2, s, k);
		state_drop(c, c->scratch2);
	}
	state_drop(c, c->scratch);
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

void oracle_explain_search(weft_checker *c, weft_check_result *res)
{
	uint32_t stuck = oracle_find_stuck(c);
	for (size_t k = 0; k < c->best_len; k++)
		c->longest[k] = c->map[c->best[k]];
	res->n_longest = c->best_len;
	if (stuck == ORACLE_NIL)
		return;
	res->stuck = c->map[stuck];
	oracle_replay(c, stuck);
	res->stuck_outcomes = c->stuck_outcomes;
	res->n_stuck_outcomes = c->n_stuck_outcomes;
	res->stuck_model_result = c->n_stuck_outcomes ? c->stuck_outcomes[0] : WEFT_NONE;
}
