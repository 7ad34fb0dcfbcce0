/*
 * tests/test_systematic.c - systematic mode counts what it claims to count.
 *
 *   1. The fixed counter (a copy of targets/counter.c's fixed build: one
 *      fetch_add per increment), two threads running a and b increments,
 *      a, b = 1..5 with a + b <= 6 (--full: every a, b <= 5, the gcc suite
 *      runs it as test_systematic_full): the search without reduction runs exactly the number of
 *      interleavings of the threads' steps (each increment is 2 steps: its
 *      start and its fetch_add), counted here by brute force over merge
 *      sequences, in total and per number of preemptions (bounds 0..3), and
 *      equal to C(2a + 2b, 2a).
 *   2. With reduction it runs exactly one execution per class of equivalent
 *      interleavings (classes counted here by brute force: merges with the
 *      same order of dependent steps), which is fewer.
 *   3. Partial-order reduction loses nothing: on a target with two locations,
 *      reads, writes, exchanges and CAS, on 2 and 3 threads, the set of
 *      observable outcomes (every result and the real-time order of every
 *      pair of operations) is the same with and without it.
 *   4. The explorer over scenarios: counts add up, a failure stops it, the
 *      failure's plan replays to the same trace through the input format.
 */
#include <string.h>

#include "check.h"
#include "weft/weft.h"
#include "weft/run.h"
#include "../runner/runner_internal.h"
#include "../search/schedule_dfs.h"
#include "../search/systematic.h"

#define MAX_INCREMENTS 5
#define QUICK_TOTAL 6     /* without --full: a + b <= 6 (at most 924 interleavings each) */
#define MAX_PRE 32        /* 5 + 5 increments: at most 20 preemptions */

static int full;          /* --full: every a, b <= 5 (311,884 executions, ~30 s) */

/* ---- the fixed counter ---- */

typedef struct counter { _Atomic uint32_t value; } counter;

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	weft_atomic_fetch_add(&((counter *)self)->value, 1);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((counter *)self)->value);
}

static void *counter_setup(void) { return calloc(1, sizeof(counter)); }
static void counter_teardown(void *self) { free(self); }
static void counter_init(void *state) { *(int64_t *)state = 0; }
static int64_t counter_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *v = state;
	return op == 0 ? (++*v, 0) : *v;
}

static const weft_model counter_model = {
	.name = "counter", .state_size = sizeof(int64_t),
	.init = counter_init, .apply = counter_apply,
};
static const weft_op counter_ops[] = {
	{ .name = "increment", .run = op_increment },
	{ .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target counter_fixed = {
	.name = "counter_fixed", .ops = counter_ops, .n_ops = 2,
	.max_ops_per_thread = 5, .max_threads = 2,
	.setup = counter_setup, .teardown = counter_teardown,
	.model = &counter_model, .final_op = &counter_ops[1],
};

/* The same with the seeded lost update: load, then store. */
static int64_t op_increment_buggy(void *self, const int64_t *args)
{
	(void)args;
	counter *c = self;
	uint32_t v = weft_atomic_load(&c->value);
	weft_atomic_store(&c->value, v + 1);
	return 0;
}
static const weft_op buggy_ops[] = {
	{ .name = "increment", .run = op_increment_buggy },
	{ .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target counter_buggy = {
	.name = "counter_buggy", .ops = buggy_ops, .n_ops = 2,
	.max_ops_per_thread = 5, .max_threads = 2,
	.setup = counter_setup, .teardown = counter_teardown,
	.model = &counter_model, .final_op = &buggy_ops[1],
};

/* ---- scenarios by hand ---- */

static void scenario_of(input_scenario *s, const unsigned *ops_per_thread, unsigned n_threads,
			const unsigned *op, const int64_t *arg)
{
	memset(s, 0, sizeof *s);
	s->n_threads = n_threads;
	for (unsigned t = 0; t < n_threads; t++) {
		s->first_call[t] = s->n_calls;
		for (unsigned i = 0; i < ops_per_thread[t]; i++, s->n_calls++) {
			weft_op_record *c = &s->calls[s->n_calls];
			c->thread = t;
			c->op = op ? op[s->n_calls] : 0;
			c->args[0] = arg ? arg[s->n_calls] : 0;
			c->pending = 1;
		}
	}
	s->first_call[n_threads] = s->n_calls;
}

/* Every execution of `s` under the search; by_pre[p] counts those with p preemptions. */
typedef void (*visit_fn)(void *ctx, weft_runner *r, const weft_result *res);

static uint64_t explore(weft_runner *r, const input_scenario *s, unsigned bound, bool reduce,
			uint64_t *by_pre, visit_fn visit, void *ctx)
{
	search_dfs *d = search_dfs_new(runner_trace(r));
	REQUIRE(d, "search_dfs_new");
	search_dfs_start(d, bound, reduce);
	uint64_t n = 0;
	for (int more = 1; more;) {
		weft_result res;
		runner_run_scenario(r, s, search_dfs_strategy(d), &res);
		if (visit)
			visit(ctx, r, &res);
		more = search_dfs_next(d);
		const search_dfs_execution *e = search_dfs_last(d);
		CHECK(!e->diverged && !e->out_of_memory, "execution %llu diverged", (unsigned long long)n);
		if (e->redundant)
			continue;
		n++;
		if (by_pre)
			by_pre[res.preemptions < MAX_PRE ? res.preemptions : MAX_PRE - 1]++;
	}
	search_dfs_free(d);
	return n;
}

/* ---- brute force: merges of two step sequences ---- */

/* Every merge of left0 and left1 steps; a switch away from a thread with steps left is a preemption. */
static void merges(unsigned left0, unsigned left1, unsigned current, unsigned pre, uint64_t *by_pre)
{
	if (!left0 && !left1) {
		by_pre[pre]++;
		return;
	}
	unsigned left[2] = { left0, left1 };
	for (unsigned t = 0; t < 2; t++) {
		if (!left[t])
			continue;
		unsigned p = pre + (t != current && left[current] > 0);
		merges(left0 - (t == 0), left1 - (t == 1), t, p, by_pre);
	}
}

static uint64_t binomial(unsigned n, unsigned k)
{
	uint64_t r = 1;
	for (unsigned i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/*
 * Classes of equivalent merges of the counter's steps: step 2i of a thread
 * begins an increment (no access), step 2i+1 is its fetch_add and its end.
 * Dependent across threads: two fetch_adds (same object, writes) and a begin
 * with an end (real-time order).  A class is the order of its dependent pairs.
 */
static bool counter_dependent(unsigned i, unsigned j)
{
	return (i & 1) || (j & 1);   /* any pair but begin/begin */
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t count_distinct(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	uint64_t d = 0;
	for (size_t i = 0; i < n; i++)
		d += i == 0 || v[i] != v[i - 1];
	return d;
}

static uint64_t counter_classes(unsigned s0, unsigned s1)
{
	unsigned n = s0 + s1;
	uint64_t *sig = malloc(sizeof *sig * binomial(n, s0));
	size_t k = 0;
	for (uint64_t m = 0; m < (1ull << n); m++) {   /* bit p set: step p is thread 0's */
		if ((unsigned)__builtin_popcountll(m) != s0)
			continue;
		unsigned pos0[16], pos1[16], a = 0, b = 0;
		for (unsigned p = 0; p < n; p++)
			if (m >> p & 1)
				pos0[a++] = p;
			else
				pos1[b++] = p;
		uint64_t s = 0;
		for (unsigned i = 0; i < s0; i++)
			for (unsigned j = 0; j < s1; j++)
				if (counter_dependent(i, j) && pos0[i] < pos1[j])
					s |= 1ull << (i * s1 + j);
		sig[k++] = s;
	}
	uint64_t d = count_distinct(sig, k);
	free(sig);
	return d;
}

static void test_counter_counts(void)
{
	weft_runner *r = weft_runner_new(&counter_fixed);
	REQUIRE(r, "runner");
	uint64_t total = 0, total_reduced = 0;
	for (unsigned a = 1; a <= MAX_INCREMENTS; a++)
		for (unsigned b = 1; b <= MAX_INCREMENTS; b++) {
			if (!full && a + b > QUICK_TOTAL)
				continue;
			unsigned per[2] = { a, b };
			input_scenario s;
			scenario_of(&s, per, 2, NULL, NULL);
			uint64_t want[MAX_PRE] = { 0 }, got[MAX_PRE] = { 0 };
			merges(2 * a, 2 * b, 0, 0, want);
			uint64_t n = explore(r, &s, SEARCH_DFS_UNBOUNDED, false, got, NULL, NULL);
			uint64_t brute = 0;
			for (unsigned p = 0; p < MAX_PRE; p++) {
				brute += want[p];
				CHECK(got[p] == want[p], "%u+%u increments, %u preemptions: %llu, brute "
				      "force %llu", a, b, p, (unsigned long long)got[p],
				      (unsigned long long)want[p]);
			}
			CHECK(n == brute && n == binomial(2 * a + 2 * b, 2 * a),
			      "%u+%u increments: %llu executions, brute force %llu", a, b,
			      (unsigned long long)n, (unsigned long long)brute);
			uint64_t reduced = explore(r, &s, SEARCH_DFS_UNBOUNDED, true, NULL, NULL, NULL);
			CHECK(reduced < n, "%u+%u: reduced %llu not below %llu", a, b,
			      (unsigned long long)reduced, (unsigned long long)n);
			if (a <= 3 && b <= 3)
				CHECK(reduced == counter_classes(2 * a, 2 * b), "%u+%u: reduced %llu, "
				      "classes %llu", a, b, (unsigned long long)reduced,
				      (unsigned long long)counter_classes(2 * a, 2 * b));
			total += n;
			total_reduced += reduced;
		}
	fprintf(stderr, "counter_fixed, 1..%d increments on each of 2 threads%s: %llu interleavings, "
		"%llu with reduction\n", MAX_INCREMENTS, full ? "" : " (a + b <= 6)",
		(unsigned long long)total,
		(unsigned long long)total_reduced);
	weft_runner_free(r);
}

/* Bounded searches count exactly the merges with at most c preemptions. */
static void test_counter_bounds(void)
{
	weft_runner *r = weft_runner_new(&counter_fixed);
	REQUIRE(r, "runner");
	for (unsigned a = 1; a <= 3; a++)
		for (unsigned b = 1; b <= 3; b++)
			for (unsigned c = 0; c <= 3; c++) {
				unsigned per[2] = { a, b };
				input_scenario s;
				scenario_of(&s, per, 2, NULL, NULL);
				uint64_t want[MAX_PRE] = { 0 }, got[MAX_PRE] = { 0 };
				merges(2 * a, 2 * b, 0, 0, want);
				uint64_t n = explore(r, &s, c, false, got, NULL, NULL), w = 0;
				for (unsigned p = 0; p <= c; p++)
					w += want[p];
				CHECK(n == w, "%u+%u, at most %u preemptions: %llu, brute force %llu",
				      a, b, c, (unsigned long long)n, (unsigned long long)w);
			}
	weft_runner_free(r);
}

/* ---- reduction loses no outcome ---- */

typedef struct cells { _Atomic int64_t x, y; } cells;

static int64_t op_inc_x(void *self, const int64_t *args)
{
	(void)args;
	cells *c = self;
	int64_t v = weft_atomic_load(&c->x);
	weft_atomic_store(&c->x, v + 1);
	return v;
}
static int64_t op_swap_y(void *self, const int64_t *args)
{
	return weft_atomic_exchange(&((cells *)self)->y, args[0]);
}
static int64_t op_read(void *self, const int64_t *args)
{
	(void)args;
	cells *c = self;
	return weft_atomic_load(&c->x) * 10 + weft_atomic_load(&c->y);
}
static int64_t op_cas_x(void *self, const int64_t *args)
{
	int64_t expected = 0;
	return weft_atomic_compare_exchange_strong(&((cells *)self)->x, &expected, args[0])
		? 100 : expected;
}
static void *cells_setup(void) { return calloc(1, sizeof(cells)); }
static const weft_op cells_ops[] = {
	{ .name = "inc_x", .run = op_inc_x },
	{ .name = "swap_y", .run = op_swap_y, .n_args = 1, .args = { { 1, 2 } } },
	{ .name = "read", .run = op_read },
	{ .name = "cas_x", .run = op_cas_x, .n_args = 1, .args = { { 5, 6 } } },
};
static const weft_target cells_target = {
	.name = "cells", .ops = cells_ops, .n_ops = 4, .max_threads = 3,
	.setup = cells_setup, .teardown = counter_teardown,
};

typedef struct outcomes { uint64_t *sig; size_t n, cap; } outcomes;

/* An execution's outcome: every result, and for each pair of operations whether one returned before the other began. */
static void record_outcome(void *ctx, weft_runner *r, const weft_result *res)
{
	(void)res;
	outcomes *o = ctx;
	const sched_trace *t = runner_trace(r);
	int64_t result[INPUT_MAX_CALLS] = { 0 };
	size_t begin[INPUT_MAX_CALLS] = { 0 }, end[INPUT_MAX_CALLS] = { 0 };
	unsigned n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		if (e->kind == SCHED_EV_OP_BEGIN)
			begin[e->site_id] = i;
		if (e->kind == SCHED_EV_OP_END) {
			end[e->site_id] = i;
			result[e->site_id] = (int64_t)e->value;
			n = e->site_id + 1 > n ? e->site_id + 1 : n;
		}
	}
	uint64_t h = 1469598103934665603ull;   /* FNV-1a over results and the precedence bits */
	for (unsigned a = 0; a < n; a++) {
		h = (h ^ (uint64_t)result[a]) * 1099511628211ull;
		for (unsigned b = 0; b < n; b++)
			h = (h ^ (uint64_t)(a != b && end[a] < begin[b])) * 1099511628211ull;
	}
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 1024;
		o->sig = realloc(o->sig, o->cap * sizeof *o->sig);
		REQUIRE(o->sig, "memory");
	}
	o->sig[o->n++] = h;
}

static int same_sets(outcomes *a, outcomes *b)
{
	uint64_t na = count_distinct(a->sig, a->n), nb = count_distinct(b->sig, b->n);
	size_t i = 0, j = 0, ka = 0, kb = 0;
	uint64_t *ua = malloc(na * sizeof *ua), *ub = malloc(nb * sizeof *ub);
	for (; i < a->n; i++)
		if (i == 0 || a->sig[i] != a->sig[i - 1])
			ua[ka++] = a->sig[i];
	for (; j < b->n; j++)
		if (j == 0 || b->sig[j] != b->sig[j - 1])
			ub[kb++] = b->sig[j];
	int same = ka == kb && memcmp(ua, ub, ka * sizeof *ua) == 0;
	free(ua);
	free(ub);
	return same;
}

static void check_outcomes(weft_runner *r, const unsigned *per, unsigned n_threads,
			   const unsigned *op, const int64_t *arg)
{
	input_scenario s;
	scenario_of(&s, per, n_threads, op, arg);
	outcomes full = { 0 }, reduced = { 0 };
	uint64_t nf = explore(r, &s, SEARCH_DFS_UNBOUNDED, false, NULL, record_outcome, &full);
	uint64_t nr = explore(r, &s, SEARCH_DFS_UNBOUNDED, true, NULL, record_outcome, &reduced);
	uint64_t distinct = count_distinct(full.sig, full.n);
	CHECK(same_sets(&full, &reduced), "%u threads, %u calls: the reduced search misses an outcome "
	      "(%llu distinct outcomes in %llu executions, %llu distinct in %llu reduced)",
	      n_threads, s.n_calls, (unsigned long long)distinct, (unsigned long long)nf,
	      (unsigned long long)count_distinct(reduced.sig, reduced.n), (unsigned long long)nr);
	CHECK(nr < nf, "reduction reduced nothing (%llu)", (unsigned long long)nf);
	fprintf(stderr, "%u threads, %u calls: %llu executions, %llu reduced, %llu outcomes\n",
		n_threads, s.n_calls, (unsigned long long)nf, (unsigned long long)nr,
		(unsigned long long)distinct);
	free(full.sig);
	free(reduced.sig);
}

static void test_reduction_keeps_outcomes(void)
{
	weft_runner *r = weft_runner_new(&cells_target);
	REQUIRE(r, "runner");
	/* inc_x | cas_x(5) | swap_y(1), read */
	check_outcomes(r, (unsigned[]){ 1, 1, 2 }, 3, (unsigned[]){ 0, 3, 1, 2 },
		       (int64_t[]){ 0, 5, 1, 0 });
	/* inc_x, swap_y(2) | read, inc_x */
	check_outcomes(r, (unsigned[]){ 2, 2 }, 2, (unsigned[]){ 0, 1, 2, 0 },
		       (int64_t[]){ 0, 2, 0, 0 });
	/* swap_y(1) | swap_y(2) | read, cas_x(6) */
	check_outcomes(r, (unsigned[]){ 1, 1, 2 }, 3, (unsigned[]){ 1, 1, 2, 3 },
		       (int64_t[]){ 1, 2, 0, 6 });
	/* inc_x | inc_x | inc_x: three threads, one object */
	check_outcomes(r, (unsigned[]){ 1, 1, 1 }, 3, NULL, NULL);
	weft_runner_free(r);
}

/* ---- the explorer over scenarios ---- */

static void test_explorer(void)
{
	weft_runner *r = weft_runner_new(&counter_fixed);
	REQUIRE(r, "runner");
	search_systematic_options o = {
		.min_threads = 2, .max_threads = 2, .max_ops = 3,
		.preemptions = SEARCH_DFS_UNBOUNDED, .reduce = false,
	};
	search_systematic_stats st;
	search_systematic_failure *f = malloc(sizeof *f);
	char msg[256];
	CHECK(search_systematic_explore(r, &o, &st, f, msg, sizeof msg) == SEARCH_SYSTEMATIC_FINE,
	      "fixed counter fails");
	CHECK(st.interleavings == 1506 && st.executions == 1506 && st.scenarios == 9,
	      "1..3 increments on 2 threads: %llu interleavings in %llu scenarios, want 1506 in 9",
	      (unsigned long long)st.interleavings, (unsigned long long)st.scenarios);
	o.preemptions = 2;   /* each interleaving counted once, under the bound where it appears */
	CHECK(search_systematic_explore(r, &o, &st, f, msg, sizeof msg) == SEARCH_SYSTEMATIC_FINE,
	      "fixed counter fails under a bound");
	uint64_t want = 0;
	for (unsigned a = 1; a <= 3; a++)
		for (unsigned b = 1; b <= 3; b++) {
			uint64_t by[MAX_PRE] = { 0 };
			merges(2 * a, 2 * b, 0, 0, by);
			want += by[0] + by[1] + by[2];
		}
	CHECK(st.interleavings == want, "bounded: %llu interleavings, want %llu",
	      (unsigned long long)st.interleavings, (unsigned long long)want);
	weft_runner_free(r);

	r = weft_runner_new(&counter_buggy);
	REQUIRE(r, "runner");
	o.preemptions = 3;
	o.reduce = true;
	CHECK(search_systematic_explore(r, &o, &st, f, msg, sizeof msg) == SEARCH_SYSTEMATIC_FAILED,
	      "the lost update is not found");
	CHECK(f->verdict == WEFT_FAIL_LINEARIZABILITY && f->result.preemptions == 1 &&
	      f->scenario.n_calls == 2, "first failure: %s, %u preemptions, %u calls",
	      weft_verdict_name(f->verdict), f->result.preemptions, f->scenario.n_calls);
	uint8_t bytes[256];
	size_t n = input_scenario_encode(&f->scenario, &counter_buggy, runner_bounds(r),
					   bytes, sizeof bytes);
	REQUIRE(n != INPUT_ENCODE_FAILED, "the failure cannot be encoded");
	weft_result res;
	CHECK(weft_runner_run(r, bytes, n, &res) == WEFT_FAIL_LINEARIZABILITY &&
	      res.trace_hash == f->result.trace_hash, "the written failure replays differently");
	o.max_executions = 1;
	o.preemptions = SEARCH_DFS_UNBOUNDED;
	r = (weft_runner_free(r), weft_runner_new(&counter_fixed));
	CHECK(search_systematic_explore(r, &o, &st, f, msg, sizeof msg) == SEARCH_SYSTEMATIC_LIMIT &&
	      st.executions == 1, "--max-executions=1 ran %llu", (unsigned long long)st.executions);
	free(f);
	weft_runner_free(r);
}

int main(int argc, char **argv)
{
	full = argc > 1 && strcmp(argv[1], "--full") == 0;
	test_counter_counts();
	if (full)
		return check_summary("test_systematic --full");
	test_counter_bounds();
	test_reduction_keeps_outcomes();
	test_explorer();
	return check_summary("test_systematic");
}
