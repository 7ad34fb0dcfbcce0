/*
 * tests/test_explore.c - explore mode's baseline strategies do what they claim
 * (search/explore.h, strategy_baselines.h, stress.h).
 *
 *   1. Each strategy (random, pct d=2 and d=3, uniform, bytes) finds the
 *      counter's lost update within 2,000 executions, for seeds 1, 2, 3.
 *   2. The same seed repeats itself: same number of executions, same failing
 *      trace hash, same digest of every execution, in a fresh runner too; a
 *      fixed target's capped run repeats its digest.
 *   3. PCT with d = 1 on 2 threads never preempts: no preemption event except
 *      possibly the very first (weft starts thread 0; a higher-priority
 *      thread 1 takes over there), both starts happen, and the lost update is
 *      never found in 2,000 executions.  d = 2 does preempt mid-run (and finds
 *      it).
 *   4. The random walk's first failure comes after different numbers of
 *      executions for different seeds (and the digests differ).
 *   5. The uniform strategy is uniform: on the fixed counter with 2 threads x 1
 *      increment (each thread 2 switch points: 6 interleavings), 6,000
 *      executions of the same scenario give each interleaving 1,000 +- 150
 *      times (5 standard deviations), and no other trace; the random walk on
 *      the same scenario does not (its most frequent trace is over 1,150; it
 *      also makes traces that differ only by a switch to a thread that has
 *      not started and straight back).
 *   6. The stress runner: on the fixed counter, 2,000 parallel runs with
 *      histories of every operation plus the final one, each returned, in
 *      invocation order with distinct times, and no false alarm; the same
 *      oracle rejects a history whose final get() is off by one; on a
 *      counter whose increment sleeps 1 ms between its load and its store
 *      (the window is wide on any number of CPUs) it finds the lost update
 *      within 50 runs.  On the ordinary buggy counter stress finding the bug
 *      depends on the machine (two threads must overlap within nanoseconds):
 *      the count is printed, not asserted.
 *   7. Targets whose operations wait for each other are n/a for stress.
 */
#include <string.h>
#include <time.h>

#include "check.h"
#include "weft/sync.h"
#include "weft/weft.h"
#include "weft/run.h"
#include "../search/explore.h"
#include "../runner/runner_internal.h"
#include "../search/stress.h"

/* ---- counters: buggy (load, store), fixed (fetch_add), slow (load, sleep, store) ---- */

typedef struct counter { _Atomic uint32_t value; } counter;

static int64_t op_buggy(void *self, const int64_t *args)
{
	(void)args;
	counter *c = self;
	uint32_t v = weft_atomic_load(&c->value);
	weft_atomic_store(&c->value, v + 1);
	return 0;
}

static int64_t op_fixed(void *self, const int64_t *args)
{
	(void)args;
	weft_atomic_fetch_add(&((counter *)self)->value, 1);
	return 0;
}

static int64_t op_slow(void *self, const int64_t *args)
{
	(void)args;
	counter *c = self;
	uint32_t v = weft_atomic_load(&c->value);
	struct timespec ms = { 0, 1000000 };
	nanosleep(&ms, NULL);   /* plain code: a wide window for real parallel threads */
	weft_atomic_store(&c->value, v + 1);
	return 0;
}

static int64_t op_get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((counter *)self)->value);
}

static void *counter_setup(void) { return calloc(1, sizeof(counter)); }
static void counter_teardown(void *self) { free(self); }
static void model_init(void *state) { *(int64_t *)state = 0; }
static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *v = state;
	if (op == 0)
		return ++*v, 0;
	return *v;
}
static const weft_model counter_model = {
	.name = "counter", .state_size = sizeof(int64_t), .init = model_init, .apply = model_apply,
};

static const weft_op buggy_ops[] = {
	{ .name = "increment", .run = op_buggy },
	{ .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_op fixed_ops[] = {
	{ .name = "increment", .run = op_fixed },
	{ .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_op slow_ops[] = {
	{ .name = "increment", .run = op_slow },
	{ .name = "get", .run = op_get, .flags = WEFT_OP_FINAL_ONLY },
};
#define COUNTER(name_, ops_) { .name = name_, .ops = ops_, .n_ops = 2,                    \
		.setup = counter_setup, .teardown = counter_teardown, .model = &counter_model, \
		.final_op = &ops_[1] }
static const weft_target buggy = COUNTER("counter_buggy", buggy_ops);
static const weft_target fixed = COUNTER("counter_fixed", fixed_ops);
static const weft_target slow = COUNTER("counter_slow", slow_ops);

/* ---- a mutex-protected counter: stress must say n/a ---- */
typedef struct locked { pthread_mutex_t m; int64_t v; } locked;
static int64_t op_locked_inc(void *self, const int64_t *args)
{
	(void)args;
	locked *l = self;
	weft_pthread_mutex_lock(&l->m);
	l->v++;
	weft_pthread_mutex_unlock(&l->m);
	return 0;
}
static void *locked_setup(void)
{
	locked *l = calloc(1, sizeof *l);
	pthread_mutex_init(&l->m, NULL);
	return l;
}
static void locked_teardown(void *self) { free(self); }
static const weft_op locked_ops[] = { { .name = "increment", .run = op_locked_inc } };
static const weft_target locked_target = { .name = "locked", .ops = locked_ops, .n_ops = 1,
	.setup = locked_setup, .teardown = locked_teardown };

/* ---- helpers ---- */

static search_explore_options options(search_explore_kind kind, uint64_t seed, unsigned depth,
				       uint64_t cap)
{
	search_explore_options o = {
		.kind = kind, .seed = seed, .depth = depth, .max_executions = cap,
		.min_threads = 1, .max_threads = WEFT_MAX_THREADS, .max_ops = WEFT_MAX_OPS,
		.schedules = 1, .max_bytes = 64,
	};
	return o;
}

static search_explore_outcome explore(const weft_target *t, const search_explore_options *o,
				       search_explore_stats *st)
{
	weft_runner *r = weft_runner_new(t);
	REQUIRE(r, "weft_runner_new");
	search_explorer *x = search_explorer_new(r);
	REQUIRE(x, "search_explorer_new");
	char message[512];
	search_explore_outcome out = search_explore(x, o, st, message, sizeof message);
	CHECK(out != SEARCH_EXPLORE_ERROR, "explore error: %s", message);
	search_explorer_free(x);
	weft_runner_free(r);
	return out;
}

static const char *kind_name(const search_explore_options *o)
{
	static char buf[32];
	search_explore_name(buf, sizeof buf, o);
	return buf;
}

/* ---- 1, 2: every strategy finds the bug; seeds repeat ---- */

static const struct { search_explore_kind kind; unsigned depth; } managed[] = {
	{ SEARCH_EXPLORE_RANDOM, 0 }, { SEARCH_EXPLORE_PCT, 2 }, { SEARCH_EXPLORE_PCT, 3 },
	{ SEARCH_EXPLORE_UNIFORM, 0 }, { SEARCH_EXPLORE_BYTES, 0 }, { SEARCH_EXPLORE_POS, 0 },
};

static void test_finds_and_repeats(void)
{
	for (size_t k = 0; k < sizeof managed / sizeof *managed; k++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			search_explore_options o = options(managed[k].kind, seed, managed[k].depth, 2000);
			search_explore_stats a, b;
			CHECK(explore(&buggy, &o, &a) == SEARCH_EXPLORE_FAILED,
			      "%s seed %llu: no failure in 2000 executions", kind_name(&o),
			      (unsigned long long)seed);
			CHECK(a.verdict == WEFT_FAIL_LINEARIZABILITY, "%s: verdict %s", kind_name(&o),
			      weft_verdict_name(a.verdict));
			explore(&buggy, &o, &b);
			CHECK(a.executions == b.executions && a.result.trace_hash == b.result.trace_hash &&
			      a.digest == b.digest && a.scenarios == b.scenarios,
			      "%s seed %llu does not repeat: %llu vs %llu executions", kind_name(&o),
			      (unsigned long long)seed, (unsigned long long)a.executions,
			      (unsigned long long)b.executions);
			fprintf(stderr, "  %-8s seed %llu: failure after %llu executions\n", kind_name(&o),
				(unsigned long long)seed, (unsigned long long)a.executions);
		}
	/* a capped run on the fixed counter repeats its digest, and seeds differ */
	for (size_t k = 0; k < sizeof managed / sizeof *managed; k++) {
		search_explore_options o = options(managed[k].kind, 7, managed[k].depth, 300);
		search_explore_stats a, b, c;
		CHECK(explore(&fixed, &o, &a) == SEARCH_EXPLORE_NONE, "%s: false alarm on the fixed "
		      "counter: %s", kind_name(&o), weft_verdict_name(a.verdict));
		explore(&fixed, &o, &b);
		o.seed = 8;
		explore(&fixed, &o, &c);
		CHECK(a.executions == 300 && a.digest == b.digest, "%s: capped run does not repeat",
		      kind_name(&o));
		CHECK(a.digest != c.digest, "%s: seeds 7 and 8 ran the same executions", kind_name(&o));
	}
}

/* ---- 3: PCT depth 1 never preempts, depth 2 does ---- */

typedef struct pct_watch {
	uint64_t executions, mid_run_preemptions, started_by_1, started_by_0;
} pct_watch;

static void watch_pct(void *ctx, const search_explore_execution *e)
{
	pct_watch *w = ctx;
	w->executions++;
	const sched_trace *tr = e->trace;
	for (size_t i = 0; i < tr->n; i++)
		if (tr->events[i].kind == SCHED_EV_PREEMPT) {
			if (i == 0)
				w->started_by_1++;
			else
				w->mid_run_preemptions++;
		}
	if (tr->n && tr->events[0].kind != SCHED_EV_PREEMPT)
		w->started_by_0++;
}

static void test_pct_depth(void)
{
	pct_watch w = { 0 };
	search_explore_options o = options(SEARCH_EXPLORE_PCT, 11, 1, 2000);
	o.min_threads = o.max_threads = 2;
	o.on_execution = watch_pct;
	o.ctx = &w;
	search_explore_stats st;
	CHECK(explore(&buggy, &o, &st) == SEARCH_EXPLORE_NONE,
	      "pct d=1 found a bug that needs a preemption (%s after %llu)",
	      weft_verdict_name(st.verdict), (unsigned long long)st.executions);
	CHECK(w.executions == 2000, "pct d=1 ran %llu executions", (unsigned long long)w.executions);
	CHECK(w.mid_run_preemptions == 0, "pct d=1 preempted %llu times after the first step",
	      (unsigned long long)w.mid_run_preemptions);
	CHECK(w.started_by_0 > 0 && w.started_by_1 > 0,
	      "pct d=1: thread 0 first %llu times, thread 1 first %llu times (priorities not random?)",
	      (unsigned long long)w.started_by_0, (unsigned long long)w.started_by_1);
	memset(&w, 0, sizeof w);
	o.depth = 2;
	o.max_executions = 300;
	explore(&fixed, &o, &st);
	CHECK(w.mid_run_preemptions > 0, "pct d=2 never preempted after the first step");
	o.on_execution = NULL;
	CHECK(explore(&buggy, &o, &st) == SEARCH_EXPLORE_FAILED, "pct d=2 did not find the bug");
}

/* ---- 4: random walk, seeds differ ---- */

static void test_random_seeds_differ(void)
{
	uint64_t counts[8], digests[8];
	int distinct = 0, distinct_digests = 0;
	for (unsigned i = 0; i < 8; i++) {
		search_explore_options o = options(SEARCH_EXPLORE_RANDOM, 100 + i, 0, 5000);
		o.min_threads = o.max_threads = 2;
		o.max_ops = 1;
		search_explore_stats st;
		CHECK(explore(&buggy, &o, &st) == SEARCH_EXPLORE_FAILED, "random seed %u: not found",
		      100 + i);
		counts[i] = st.executions;
		digests[i] = st.digest;
		int new_count = 1, new_digest = 1;
		for (unsigned j = 0; j < i; j++) {
			new_count &= counts[j] != counts[i];
			new_digest &= digests[j] != digests[i];
		}
		distinct += new_count;
		distinct_digests += new_digest;
	}
	fprintf(stderr, "  random walk, 2 x 1 increments, seeds 100-107: first failures after "
		"%llu %llu %llu %llu %llu %llu %llu %llu executions\n",
		(unsigned long long)counts[0], (unsigned long long)counts[1],
		(unsigned long long)counts[2], (unsigned long long)counts[3],
		(unsigned long long)counts[4], (unsigned long long)counts[5],
		(unsigned long long)counts[6], (unsigned long long)counts[7]);
	CHECK(distinct >= 2, "every seed found the bug after the same number of executions");
	CHECK(distinct_digests == 8, "only %d distinct digests over 8 seeds", distinct_digests);
}

/* ---- 5: uniform over interleavings ---- */

#define UNIFORM_RUNS 6000
#define DISTINCT_MAX 16

typedef struct histogram {
	uint64_t hash[DISTINCT_MAX], count[DISTINCT_MAX];
	unsigned n, overflow;
	uint64_t seen;
} histogram;

static void count_interleaving(void *ctx, const search_explore_execution *e)
{
	histogram *h = ctx;
	if (h->seen++ == 0)
		return;   /* the first execution's estimates are the per-operation defaults */
	for (unsigned i = 0; i < h->n; i++)
		if (h->hash[i] == e->result->trace_hash) {
			h->count[i]++;
			return;
		}
	if (h->n == DISTINCT_MAX) {
		h->overflow++;
		return;
	}
	h->hash[h->n] = e->result->trace_hash;
	h->count[h->n++] = 1;
}

static histogram interleavings(search_explore_kind kind)
{
	histogram h = { .n = 0 };
	search_explore_options o = options(kind, 5, 0, UNIFORM_RUNS + 1);
	o.min_threads = o.max_threads = 2;
	o.max_ops = 1;
	o.schedules = UNIFORM_RUNS + 1;   /* one scenario: thread 0 and 1, one increment each */
	o.on_execution = count_interleaving;
	o.ctx = &h;
	search_explore_stats st;
	explore(&fixed, &o, &st);
	return h;
}

static void test_uniform(void)
{
	histogram h = interleavings(SEARCH_EXPLORE_UNIFORM);
	CHECK(h.n == 6 && h.overflow == 0, "uniform: %u distinct interleavings, want 6", h.n);
	for (unsigned i = 0; i < h.n; i++) {
		fprintf(stderr, "  uniform: interleaving %u: %llu of %d\n", i,
			(unsigned long long)h.count[i], UNIFORM_RUNS);
		CHECK(h.count[i] >= 850 && h.count[i] <= 1150,
		      "uniform: interleaving %u ran %llu times of %d, want 1000 +- 150", i,
		      (unsigned long long)h.count[i], UNIFORM_RUNS);
	}
	histogram w = interleavings(SEARCH_EXPLORE_RANDOM);
	uint64_t most = 0;
	for (unsigned i = 0; i < w.n; i++)
		most = w.count[i] > most ? w.count[i] : most;
	fprintf(stderr, "  random walk: %u interleavings, the most frequent %llu of %d\n", w.n,
		(unsigned long long)most, UNIFORM_RUNS);
	CHECK(most > 1150, "the random walk looks uniform too (%u traces, most frequent %llu): "
	      "the uniformity check cannot tell", w.n, (unsigned long long)most);
	/* POS samples partial orders, not interleavings: the two increments' fetch_adds race,
	 * so exactly their two orders, each about half (where the increments' starts fall
	 * between them is no event of POS's: the uniform strategy's 6 are 2 orders here) */
	histogram p = interleavings(SEARCH_EXPLORE_POS);
	uint64_t least = UINT64_MAX;
	for (unsigned i = 0; i < p.n; i++)
		least = p.count[i] < least ? p.count[i] : least;
	fprintf(stderr, "  pos: %u interleavings, the rarest %llu of %d\n", p.n,
		(unsigned long long)least, UNIFORM_RUNS);
	CHECK(p.n == 2 && least >= 2700, "pos: %u interleavings, rarest %llu of %d: want the "
	      "two orders of the racing accesses, each about half", p.n,
	      (unsigned long long)least, UNIFORM_RUNS);
}

/* ---- 6, 7: stress ---- */

typedef struct stress_watch {
	uint64_t executions, bad_history;
	weft_op_record last[INPUT_MAX_CALLS + 1];
	size_t n_last;
} stress_watch;

static void watch_stress(void *ctx, const search_explore_execution *e)
{
	stress_watch *w = ctx;
	w->executions++;
	int ok = e->trace == NULL && e->history && e->n_history == e->result->n_ops + 1;
	for (size_t i = 0; ok && i < e->n_history; i++) {
		const weft_op_record *op = &e->history[i];
		ok = !op->pending && op->invoked_at < op->returned_at &&
		     (i == 0 || e->history[i - 1].invoked_at < op->invoked_at);
	}
	ok = ok && e->history[e->n_history - 1].thread == e->result->n_threads &&
	     e->history[e->n_history - 1].result == (int64_t)e->result->n_ops;
	w->bad_history += !ok;
	if (e->n_history <= INPUT_MAX_CALLS + 1) {
		memcpy(w->last, e->history, e->n_history * sizeof *e->history);
		w->n_last = e->n_history;
	}
}

static void test_stress(void)
{
	stress_watch w = { 0 };
	search_explore_options o = options(SEARCH_EXPLORE_STRESS, 3, 0, 2000);
	o.on_execution = watch_stress;
	o.ctx = &w;
	search_explore_stats st;
	CHECK(explore(&fixed, &o, &st) == SEARCH_EXPLORE_NONE, "stress: false alarm on the fixed "
	      "counter: %s", weft_verdict_name(st.verdict));
	CHECK(w.executions == 2000 && w.bad_history == 0,
	      "stress: %llu executions, %llu histories malformed", (unsigned long long)w.executions,
	      (unsigned long long)w.bad_history);

	/* the same oracle on the last history, once as it was, once with get() off by one */
	weft_runner *r = weft_runner_new(&fixed);
	REQUIRE(r && w.n_last > 1, "runner, history");
	void *instance = fixed.setup();
	const char *message;
	const weft_check_result *check;
	CHECK(runner_check_history(r, instance, w.last, w.n_last, &message, &check) ==
	      WEFT_PASS, "the recorded history fails the oracle: %s", message);
	w.last[w.n_last - 1].result--;
	CHECK(runner_check_history(r, instance, w.last, w.n_last, &message, &check) ==
	      WEFT_FAIL_LINEARIZABILITY && check->verdict == WEFT_CHECK_NOT_LINEARIZABLE,
	      "a lost increment passes the oracle");
	fixed.teardown(instance);
	weft_runner_free(r);

	/* a window nobody can miss: the lost update, for real */
	o = options(SEARCH_EXPLORE_STRESS, 3, 0, 50);
	o.min_threads = o.max_threads = 2;
	o.max_ops = 1;
	CHECK(explore(&slow, &o, &st) == SEARCH_EXPLORE_FAILED &&
	      st.verdict == WEFT_FAIL_LINEARIZABILITY,
	      "stress did not find the slow counter's lost update in 50 parallel runs (%s)",
	      weft_verdict_name(st.verdict));

	/* the ordinary buggy counter: depends on the machine, printed only */
	o = options(SEARCH_EXPLORE_STRESS, 1, 0, 20000);
	search_explore_outcome out = explore(&buggy, &o, &st);
	fprintf(stderr, "  stress on the buggy counter (not asserted: real threads must overlap "
		"within nanoseconds): %s after %llu executions\n",
		out == SEARCH_EXPLORE_FAILED ? "found" : "not found",
		(unsigned long long)st.executions);

	o = options(SEARCH_EXPLORE_STRESS, 1, 0, 10);
	CHECK(explore(&locked_target, &o, &st) == SEARCH_EXPLORE_UNSUPPORTED && st.executions == 0,
	      "stress ran a target whose operations take a lock");
}

int main(void)
{
	test_finds_and_repeats();
	test_pct_depth();
	test_random_seeds_differ();
	test_uniform();
	test_stress();
	return check_summary("test_explore");
}
