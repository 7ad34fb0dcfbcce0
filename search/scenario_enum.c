/*
 * search/scenario_enum.c - scenarios within bounds, smallest first (order and
 * argument clipping in scenario_enum.h).  Three odometers nested: the thread
 * count inside the total, the spread of operations over threads, the menu
 * entry of each call; the outermost is the total number of operations.
 */
#include "scenario_enum.h"

#include <string.h>

/* An argument's values: the range clipped as the header says. */
static weft_range clipped(weft_range r, bool clip, int64_t lo, int64_t hi)
{
	if (!clip) {
		if (r.max > r.min)
			r.max = r.min + 1;
		return r;
	}
	weft_range c = { r.min > lo ? r.min : lo, r.max < hi ? r.max : hi };
	if (c.min > c.max)
		c.min = c.max = r.min;
	return c;
}

/* Every argument tuple of `op`, lowest first; -1 when the menu is full. */
static int add_op(search_scenario_enum *e, unsigned op, bool clip, int64_t lo, int64_t hi)
{
	const weft_op *o = &e->target->ops[op];
	weft_range r[WEFT_MAX_ARGS] = { { 0, 0 } };
	for (int a = 0; a < o->n_args && a < WEFT_MAX_ARGS; a++)
		r[a] = clipped(o->args[a], clip, lo, hi);
	search_call_kind k = { .op = op };
	for (int a = 0; a < WEFT_MAX_ARGS; a++)
		k.args[a] = r[a].min;
	for (;;) {
		if (e->n_menu == SEARCH_ENUM_MAX_MENU)
			return -1;
		e->menu[e->n_menu++] = k;
		int a = WEFT_MAX_ARGS - 1;   /* the last argument varies fastest */
		while (a >= 0 && k.args[a] == r[a].max)
			k.args[a] = r[a].min, a--;
		if (a < 0)
			return 0;
		k.args[a]++;
	}
}

int search_enum_init(search_scenario_enum *e, const weft_target *t, const input_bounds *b,
		      unsigned min_threads, unsigned max_threads, unsigned max_ops,
		      bool clip, int64_t lo, int64_t hi)
{
	memset(e, 0, sizeof *e);
	e->target = t;
	e->min_threads = min_threads;
	e->max_threads = max_threads;
	e->max_ops = max_ops;
	for (unsigned k = 0; k < b->n_thread_ops; k++)
		if (add_op(e, b->thread_ops[k], clip, lo, hi) != 0)
			return -1;
	return 0;
}

/* counts[from..n) = the lexicographically smallest spread of `rest` operations. */
static bool fill(unsigned *c, unsigned from, unsigned n, unsigned rest, unsigned max)
{
	for (unsigned m = from; m < n; m++) {
		unsigned after = n - 1 - m;
		if (rest < after + 1 || rest > (after + 1) * max)
			return false;
		unsigned v = rest > after * max ? rest - after * max : 1;
		c[m] = v;
		rest -= v;
	}
	return rest == 0;
}

static bool next_spread(unsigned *c, unsigned n, unsigned total, unsigned max)
{
	for (unsigned i = n - 1; i-- > 0;) {
		unsigned prefix = 0;
		for (unsigned m = 0; m <= i; m++)
			prefix += c[m];
		if (c[i] < max && fill(c, i + 1, n, total - prefix - 1, max)) {
			c[i]++;
			return true;
		}
	}
	return false;
}

/* The next (total, threads) pair with a spread, and its first spread. */
static bool next_shape(search_scenario_enum *e)
{
	for (;;) {
		if (e->n_threads < e->max_threads) {
			e->n_threads++;
		} else {
			e->total++;
			e->n_threads = e->min_threads;
		}
		if (e->total > e->max_threads * e->max_ops)
			return false;
		if (fill(e->count, 0, e->n_threads, e->total, e->max_ops))
			return true;
	}
}

static bool next_picks(search_scenario_enum *e)
{
	for (unsigned c = e->total; c-- > 0;) {
		if (++e->pick[c] < e->n_menu)
			return true;
		e->pick[c] = 0;
	}
	return false;
}

/* Advance to the next candidate (not checked for groups); false at the end. */
static bool advance(search_scenario_enum *e)
{
	if (!e->started) {
		e->started = true;
		e->total = e->min_threads;
		e->n_threads = e->min_threads - 1;
		memset(e->pick, 0, sizeof e->pick);
		return e->n_menu > 0 && next_shape(e);
	}
	if (next_picks(e))
		return true;
	if (next_spread(e->count, e->n_threads, e->total, e->max_ops))
		return true;
	return next_shape(e);
}

/* No two threads run operations of the same non-parallel group. */
static bool groups_ok(const search_scenario_enum *e)
{
	unsigned owner[WEFT_MAX_GROUPS + 1], group[WEFT_MAX_GROUPS + 1], n = 0;
	unsigned call = 0;
	for (unsigned t = 0; t < e->n_threads; t++)
		for (unsigned i = 0; i < e->count[t]; i++, call++) {
			unsigned g = e->target->ops[e->menu[e->pick[call]].op].group;
			if (g == 0)
				continue;
			unsigned k = 0;
			while (k < n && group[k] != g)
				k++;
			if (k == n) {
				if (n == WEFT_MAX_GROUPS + 1)
					return false;
				group[n] = g;
				owner[n++] = t;
			} else if (owner[k] != t) {
				return false;
			}
		}
	return true;
}

static void build(const search_scenario_enum *e, input_scenario *s)
{
	s->n_threads = e->n_threads;
	s->n_calls = 0;
	s->n_init = s->n_post = 0;   /* systematic mode explores the parallel part only */
	for (unsigned t = 0; t < e->n_threads; t++) {
		s->first_call[t] = s->n_calls;
		for (unsigned i = 0; i < e->count[t]; i++) {
			weft_op_record *rec = &s->calls[s->n_calls];
			const search_call_kind *k = &e->menu[e->pick[s->n_calls]];
			memset(rec, 0, sizeof *rec);
			rec->thread = t;
			rec->op = k->op;
			memcpy(rec->args, k->args, sizeof rec->args);
			rec->pending = 1;
			s->n_calls++;
		}
	}
	s->first_call[e->n_threads] = s->n_calls;
	s->n_plan = 0;
	for (unsigned c = 0; c <= s->n_calls; c++)
		s->first_plan[c] = 0;
}

int search_enum_next(search_scenario_enum *e, input_scenario *s)
{
	while (advance(e))
		if (groups_ok(e)) {
			build(e, s);
			return 1;
		}
	return 0;
}
