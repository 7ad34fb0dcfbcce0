/*
 * tests/test_systematic_corpus.c - systematic mode's claims cross-checked on a
 * corpus of small programs with planted bugs (issue 31): every bug a random walk
 * finds, systematic mode finds too, with and without partial-order reduction,
 * and where the program is small the three agree with brute force.
 *
 * The corpus (systematic_corpus.c): each program is one source with a buggy and
 * a fixed variant (as targets/ do with -D), of six kinds:
 *   first access  plain globals main never touches (the accesses are made the
 *                 way the pass makes them, weft_impl_access; WEFT_ACCESSES=all
 *                 until first accesses are switch points by default);
 *   sleep         the bug needs a sleeper or a timed wait to end before another
 *                 thread is done (a data choice: "ends early");
 *   lock order    deadlocks through mutexes and semaphores;
 *   spawn         preemptions of spawned threads and of main around a spawn;
 *   weak read     relaxed loads under C11 that read an older store;
 *   store buffer  stores left in a TSO/PSO buffer.
 * Checked per program:
 *   1. random walk (explore mode, seed 1, at most RANDOM_CAP runs) finds the
 *      buggy variant (a sanity check of the corpus) and never the fixed one;
 *      so do PCT (depth 3) and POS on the sleep programs (their "ends early"
 *      is a seeded coin);
 *   2. systematic mode (search_systematic_explore) fails on the buggy variant
 *      with reduction on and off, and says "fine" on the fixed one;
 *   3. brute force (every answer to every question, independent of search/)
 *      and the depth-first search without and with reduction see the same set
 *      of outcomes, and the search without reduction runs as many executions
 *      as brute force (when brute force takes at most BRUTE_CAP runs).
 * What must never happen: an outcome brute force reaches that a search misses.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "systematic_corpus.h"
#include "weft/run.h"
#include "../runner/runner_internal.h"
#include "../search/explore.h"
#include "../search/schedule_dfs.h"
#include "../search/systematic.h"

#define RANDOM_CAP 20000
#define BRUTE_CAP 20000
#define SYSTEMATIC_CAP 50000

/* ---- outcomes: verdict and message, as a set ---- */

#define MAX_OUTCOMES 32

typedef struct outcomes {
	unsigned n;
	char text[MAX_OUTCOMES][160];
} outcomes;

static void add_outcome(outcomes *o, weft_verdict v, const weft_result *res)
{
	char t[160];
	snprintf(t, sizeof t, "%s: %s", weft_verdict_name(v), res->message ? res->message : "");
	for (unsigned i = 0; i < o->n; i++)
		if (strcmp(o->text[i], t) == 0)
			return;
	if (o->n < MAX_OUTCOMES)
		memcpy(o->text[o->n++], t, sizeof t);
}

static bool contains(const outcomes *a, const outcomes *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		bool found = false;
		for (unsigned k = 0; k < a->n && !found; k++)
			found = strcmp(a->text[k], b->text[i]) == 0;
		if (!found)
			return false;
	}
	return true;
}

static bool has_failure(const outcomes *o)
{
	for (unsigned i = 0; i < o->n; i++)
		if (strncmp(o->text[i], "pass", 4) != 0)
			return true;
	return false;
}

/* ---- brute force: every answer to every question (test_systematic_programs.c's, with data) ---- */

#define MAX_DECISIONS 512

typedef struct brute {
	unsigned choice[MAX_DECISIONS], n_options[MAX_DECISIONS];
	unsigned len, cursor;
	uint64_t seen;         /* threads that passed a switch point this execution */
	bool overflow;
} brute;

static unsigned nth_bit(uint64_t mask, unsigned n)
{
	for (unsigned t = 0; t < 64; t++)
		if ((mask >> t) & 1 && n-- == 0)
			return t;
	return 0;
}

/* The next answer of `n` possible (a question asked for the first time: 0). */
static unsigned brute_answer(brute *b, unsigned n)
{
	if (b->cursor == MAX_DECISIONS) {
		b->overflow = true;
		return 0;
	}
	if (b->cursor == b->len) {
		b->n_options[b->len] = n;
		b->choice[b->len++] = 0;
	}
	return b->choice[b->cursor++];
}

static unsigned brute_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			   sched_mask runnable, bool forced)
{
	brute *b = self;
	(void)call;
	(void)step;
	if (!forced && thread != 0 && !((b->seen >> thread) & 1)) {
		b->seen |= 1ull << thread;
		return thread;   /* fresh: no question */
	}
	b->seen |= 1ull << thread;
	uint64_t options = (uint64_t)(forced ? runnable : runnable | sched_bit(thread));
	return nth_bit(options, brute_answer(b, (unsigned)__builtin_popcountll(options)));
}

static uint64_t brute_next(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	brute *b = self;
	(void)call;
	if (step > 0)
		b->seen |= 1ull << thread;
	return step + 1;
}

static uint64_t brute_choose(void *self, uint64_t bound)
{
	return bound < 2 ? 0 : brute_answer(self, bound > 32 ? 32 : (unsigned)bound);
}

/* Executions run; UINT64_MAX when more than BRUTE_CAP (outcomes then partial). */
static uint64_t run_brute(weft_runner *r, const input_scenario *s, outcomes *out)
{
	brute *b = calloc(1, sizeof *b);
	REQUIRE(b, "calloc");
	sched_strategy st = { .self = b, .next_preemption = brute_next, .pick = brute_pick,
			      .choose = brute_choose };
	uint64_t n = 0;
	for (;;) {
		weft_result res;
		b->cursor = 0;
		b->seen = 0;
		weft_verdict v = runner_run_scenario(r, s, st, &res);
		add_outcome(out, v, &res);
		if (++n > BRUTE_CAP) {
			n = UINT64_MAX;
			break;
		}
		b->len = b->cursor;
		while (b->len > 0 && b->choice[b->len - 1] + 1 == b->n_options[b->len - 1])
			b->len--;
		if (b->len == 0)
			break;
		b->choice[b->len - 1]++;
	}
	CHECK(!b->overflow, "brute force: more than %d decisions", MAX_DECISIONS);
	free(b);
	return n;
}

/* ---- the depth-first search, run to its end (not stopping at a failure) ---- */

static uint64_t run_search(weft_runner *r, const input_scenario *s, bool reduce, outcomes *out)
{
	search_dfs *d = search_dfs_new(runner_trace(r));
	REQUIRE(d, "search_dfs_new");
	search_dfs_weak(d, strcmp(weft_runner_memory(r), "sc") != 0);
	search_dfs_start(d, SEARCH_DFS_UNBOUNDED, reduce);
	uint64_t n = 0;
	for (int more = 1; more && n <= BRUTE_CAP;) {
		weft_result res;
		weft_verdict v = runner_run_scenario(r, s, search_dfs_strategy(d), &res);
		add_outcome(out, v, &res);
		more = search_dfs_next(d);
		const search_dfs_execution *e = search_dfs_last(d);
		CHECK(!e->diverged && !e->out_of_memory, "execution %llu diverged",
		      (unsigned long long)n);
		n += !e->redundant;
	}
	search_dfs_free(d);
	return n;
}

/* ---- systematic mode and random walk, as the command lines run them ---- */

static search_systematic_outcome systematic(weft_runner *r, bool reduce, uint64_t *executions)
{
	search_systematic_options o = { .min_threads = 1, .max_threads = 1, .max_ops = 1,
					.preemptions = SEARCH_DFS_UNBOUNDED, .deepen = 3,
					.reduce = reduce, .max_executions = SYSTEMATIC_CAP };
	search_systematic_stats st;
	search_systematic_failure *f = malloc(sizeof *f);
	REQUIRE(f, "malloc");
	char message[256];
	search_systematic_outcome out = search_systematic_explore(r, &o, &st, f, message,
								  sizeof message);
	CHECK(out != SEARCH_SYSTEMATIC_ERROR, "systematic mode: %s", message);
	free(f);
	*executions = st.executions;
	return out;
}

static const char *outcome_name(search_systematic_outcome o)
{
	return o == SEARCH_SYSTEMATIC_FAILED ? "fails" : o == SEARCH_SYSTEMATIC_FINE ? "fine" :
	       o == SEARCH_SYSTEMATIC_LIMIT ? "incomplete" : "error";
}

/* Runs until the strategy's first failure; 0 when none within RANDOM_CAP. */
static uint64_t baseline(weft_runner *r, search_explore_kind kind, unsigned depth)
{
	search_explorer *x = search_explorer_new(r);
	REQUIRE(x, "search_explorer_new");
	search_explore_options o = { .kind = kind, .seed = 1, .depth = depth,
				     .max_executions = RANDOM_CAP, .min_threads = 1,
				     .max_threads = 1, .max_ops = 1, .schedules = 1 };
	search_explore_stats st;
	char message[256];
	search_explore_outcome out = search_explore(x, &o, &st, message, sizeof message);
	CHECK(out == SEARCH_EXPLORE_NONE || out == SEARCH_EXPLORE_FAILED, "explore: %s", message);
	search_explorer_free(x);
	return out == SEARCH_EXPLORE_FAILED ? st.executions : 0;
}

/* ---- one program, one variant ---- */

static void check_variant(const corpus_program *p, int variant)
{
	weft_target t = { .name = p->name, .ops = corpus_ops, .n_ops = 2,
			  .flags = WEFT_TARGET_PROGRAM, .memory = p->memory };
	corpus_select(p, variant);
	if (p->all_accesses)   /* CORPUS_ACCESSES=shared: the default mode, to see what it misses */
		setenv("WEFT_ACCESSES", getenv("CORPUS_ACCESSES") ? getenv("CORPUS_ACCESSES") : "all", 1);
	weft_runner *r = weft_runner_new(&t);
	unsetenv("WEFT_ACCESSES");
	REQUIRE(r, "runner for %s", p->name);
	input_scenario s;
	memset(&s, 0, sizeof s);
	s.n_threads = 1;
	s.n_calls = 1;
	s.first_call[1] = 1;
	s.calls[0].pending = 1;
	const char *what = variant ? "fixed" : "buggy";
	uint64_t found = baseline(r, SEARCH_EXPLORE_RANDOM, 0);
	if (strncmp(p->name, "sl_", 3) == 0) {   /* PCT and POS take the sleeps' choices too */
		uint64_t pct = baseline(r, SEARCH_EXPLORE_PCT, 3), pos = baseline(r, SEARCH_EXPLORE_POS, 0);
		printf("%-14s %s: pct3 %llu, pos %llu\n", p->name, variant ? "fixed" : "buggy",
		       (unsigned long long)pct, (unsigned long long)pos);
		CHECK(!pct == !!variant && !pos == !!variant, "%s %s: pct3 at %llu, pos at %llu",
		      p->name, variant ? "fixed" : "buggy", (unsigned long long)pct,
		      (unsigned long long)pos);
	}
	outcomes brute_o = { 0 }, full_o = { 0 }, reduced_o = { 0 };
	uint64_t nb = run_brute(r, &s, &brute_o);
	uint64_t nf = run_search(r, &s, false, &full_o);
	uint64_t nr = run_search(r, &s, true, &reduced_o);
	uint64_t sys_full, sys_reduced;
	search_systematic_outcome of = systematic(r, false, &sys_full);
	search_systematic_outcome orr = systematic(r, true, &sys_reduced);
	printf("%-14s %s: random %5llu, brute force %5llu, search %5llu, reduced %5llu, "
	       "systematic %s at %llu / %s at %llu; %u outcomes\n", p->name, what,
	       (unsigned long long)found, (unsigned long long)nb, (unsigned long long)nf,
	       (unsigned long long)nr, outcome_name(of), (unsigned long long)sys_full,
	       outcome_name(orr), (unsigned long long)sys_reduced, brute_o.n);
	if (variant) {
		CHECK(!found, "%s fixed: random walk failed at %llu", p->name, (unsigned long long)found);
		CHECK(!has_failure(&brute_o), "%s fixed: brute force fails", p->name);
		CHECK(of != SEARCH_SYSTEMATIC_FAILED && orr != SEARCH_SYSTEMATIC_FAILED,
		      "%s fixed: systematic mode fails", p->name);
		CHECK(orr == SEARCH_SYSTEMATIC_FINE || !p->small, "%s fixed: systematic mode with "
		      "reduction did not finish", p->name);
	} else {
		CHECK(found, "%s buggy: random walk does not find the planted bug", p->name);
		CHECK(of == SEARCH_SYSTEMATIC_FAILED, "%s buggy: systematic mode without reduction "
		      "misses what random walk found", p->name);
		CHECK(orr == SEARCH_SYSTEMATIC_FAILED, "%s buggy: systematic mode with reduction "
		      "misses what random walk found", p->name);
	}
	if (nb != UINT64_MAX) {
		CHECK(nf == nb, "%s %s: the search ran %llu executions, brute force %llu", p->name,
		      what, (unsigned long long)nf, (unsigned long long)nb);
		CHECK(contains(&full_o, &brute_o), "%s %s: the search misses outcomes of brute force",
		      p->name, what);
		CHECK(nr <= nf, "%s %s: reduction ran more", p->name, what);
		CHECK(contains(&reduced_o, &brute_o), "%s %s: the reduction misses outcomes of brute "
		      "force", p->name, what);
	}
	CHECK(contains(&brute_o, &full_o) || nb == UINT64_MAX, "%s %s: the search saw outcomes "
	      "brute force did not", p->name, what);
	weft_runner_free(r);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	unsigned buggy = 0;
	for (size_t i = 0; i < corpus_n_programs; i++) {
		if (only && strcmp(only, corpus_programs[i].name) != 0)
			continue;
		check_variant(&corpus_programs[i], 0);
		check_variant(&corpus_programs[i], 1);
		buggy++;
	}
	CHECK(only || buggy >= 30, "the corpus has %u programs", buggy);
	return check_summary("test_systematic_corpus");
}
