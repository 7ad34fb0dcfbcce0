/*
 * tests/test_feedback.c - interleaving feedback (runner/feedback.h, the
 * weft_runner_features API): exact features for hand-checked counter inputs,
 * the whole feature set against a naive implementation of the definitions
 * over random inputs, determinism (one runner, two runners, objects at other
 * addresses), each kind switchable, off by default, WEFT_FEEDBACK parsing,
 * hand-built traces for the order and the table limits, and a golden hash of the features of 300 fixed inputs that every compiler and
 * build (gcc, clang, ASan) must reproduce.
 *
 * Built twice: on the buggy counter (default) and, with FEEDBACK_TREIBER, on
 * the buggy Treiber stack (several objects, CAS, two operation kinds).
 *
 * The golden hashes are the same in every suite (gcc, clang, plain, ASan): ids
 * come from basenames, lines and operation kinds only.  Editing a target's
 * source lines changes them, like the trace hashes in tests/golden.
 */
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "../input/choice.h"
#include "../runner/feedback.h"
#include "../runner/runner_internal.h"

#ifdef FEEDBACK_TREIBER
#include "../targets/treiber_stack.c"
#define GOLDEN_HASH 0x5a94b4c22df108fdULL   /* since values exact below 128 (issue 33, ninth session) */
#else
#include "../targets/counter.c"
/* changed with issue 19's sequential parts, issue 17's forced switches, issue 33's values */
#define GOLDEN_HASH 0x5473cb8b014ae64cULL
#endif

#define MAXF 4096

typedef struct feature_set {
	size_t n;
	weft_feature f[MAXF];
} feature_set;

static void features_of(weft_runner *r, feature_set *out)
{
	out->n = weft_runner_features(r, out->f, MAXF);
	REQUIRE(out->n <= MAXF, "%zu features", out->n);
}

static weft_verdict run(weft_runner *r, const uint8_t *data, size_t n, feature_set *out)
{
	weft_result res;
	weft_verdict v = weft_runner_run(r, data, n, &res);
	features_of(r, out);
	return v;
}

static int same_set(const feature_set *a, const feature_set *b)
{
	return a->n == b->n && memcmp(a->f, b->f, a->n * sizeof a->f[0]) == 0;
}

/* The features of one kind, in order. */
static void only_kind(const feature_set *all, weft_feedback_kind kind, feature_set *out)
{
	out->n = 0;
	for (size_t i = 0; i < all->n; i++)
		if (all->f[i].kind == kind)
			out->f[out->n++] = all->f[i];
}

static size_t count_kind(const feature_set *s, weft_feedback_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->f[i].kind == kind;
	return n;
}

/* The feature (kind, id), or NULL. */
static const weft_feature *find(const feature_set *s, weft_feedback_kind kind, uint32_t id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].kind == kind && s->f[i].id == id)
			return &s->f[i];
	return NULL;
}

static uint64_t hash_set(uint64_t h, const feature_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		uint32_t words[3] = { s->f[i].id, s->f[i].count, (uint32_t)s->f[i].kind };
		for (int w = 0; w < 3; w++)
			for (int b = 0; b < 4; b++) {
				h ^= (words[w] >> (8 * b)) & 0xff;
				h *= 0x100000001b3ULL;
			}
	}
	h ^= 0xff;   /* end of one set */
	return h * 0x100000001b3ULL;
}

static size_t random_input(uint64_t *seed, uint8_t *buf, size_t cap)
{
	size_t n = test_rand(seed) % cap;
	for (size_t i = 0; i < n; i++) {   /* small values reach the targets' few steps */
		uint64_t x = test_rand(seed);
		buf[i] = (uint8_t)((x & 1) ? (x >> 56) : (x >> 56) % 10);
	}
	return n;
}

/* ---- a naive implementation of the definitions in feedback.h ---- */

static int is_access(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT;
}

static uint32_t point_of(const sched_event *e, const input_scenario *s)
{
	if (is_access(e))
		return e->site_id;
	if (e->kind == SCHED_EV_OP_BEGIN || e->kind == SCHED_EV_OP_END)
		return runner_feedback_op_site(s->calls[e->site_id].op, e->kind == SCHED_EV_OP_END);
	return 0;
}

/* The site of thread t's first program point after event i, 0 if none. */
static uint32_t next_point(const sched_trace *tr, size_t i, unsigned t, const input_scenario *s)
{
	for (size_t j = i + 1; j < tr->n; j++)
		if (tr->events[j].thread == t && point_of(&tr->events[j], s))
			return point_of(&tr->events[j], s);
	return 0;
}

static int reads(const sched_event *e)
{
	return e->kind == WEFT_ACCESS_LOAD || e->kind == WEFT_ACCESS_EXCHANGE ||
	       e->kind == WEFT_ACCESS_CAS || (e->kind >= WEFT_ACCESS_FETCH_ADD &&
					      e->kind <= WEFT_ACCESS_FETCH_XOR) ||
	       e->kind == WEFT_ACCESS_LOCK || e->kind == WEFT_ACCESS_TRYLOCK ||
	       e->kind == WEFT_ACCESS_RDLOCK || e->kind == WEFT_ACCESS_WAIT ||
	       e->kind == WEFT_ACCESS_SEM_WAIT;
}

static int writes(const sched_event *e)
{
	if (e->kind == WEFT_ACCESS_LOAD)
		return 0;
	if (e->kind == WEFT_ACCESS_CAS)
		return sched_cas_wrote(e);
	return is_access(e) && e->kind != WEFT_ACCESS_YIELD && e->kind != WEFT_ACCESS_SPAWN &&
	       e->kind != WEFT_ACCESS_JOIN;
}

static void ref_add(feature_set *s, weft_feedback_kind kind, uint32_t id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].kind == kind && s->f[i].id == id) {
			s->f[i].count++;
			return;
		}
	REQUIRE(s->n < MAXF, "reference set full");
	s->f[s->n++] = (weft_feature){ .id = id, .count = 1, .kind = kind };
}

static int by_kind_id(const void *pa, const void *pb)
{
	const weft_feature *a = pa, *b = pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Pairs and reads-from of the runner's last execution of `data`, the slow way. */
static void reference(weft_runner *r, const uint8_t *data, size_t n, feature_set *out)
{
	static input_scenario s;
	input_choices c;
	input_choices_init(&c, data, n);
	input_bounds b = input_bounds_of(weft_fuzz_target());
	input_scenario_decode(&s, weft_fuzz_target(), &b, &c);
	const sched_trace *tr = runner_trace(r);
	out->n = 0;
	for (size_t i = 0; i < tr->n; i++) {
		const sched_event *e = &tr->events[i];
		if (e->kind == SCHED_EV_PREEMPT || e->kind == SCHED_EV_SWITCH) {
			unsigned how = e->kind == SCHED_EV_PREEMPT ? RUNNER_SWITCH_PREEMPT
				     : e->value == 0 ? RUNNER_SWITCH_FINISHED
				     : e->value == 1 ? RUNNER_SWITCH_BLOCKED : RUNNER_SWITCH_SPINNING;
			ref_add(out, WEFT_FEEDBACK_PAIRS,
				runner_feedback_pair_id(how, next_point(tr, i, e->thread, &s),
							 next_point(tr, i, e->other, &s)));
		}
		if (!is_access(e) || !e->addr || !reads(e))
			continue;
		for (size_t k = i; k-- > 0;) {
			const sched_event *w = &tr->events[k];
			if (w->addr != e->addr || !writes(w))
				continue;
			if (w->thread != e->thread) {
				ref_add(out, WEFT_FEEDBACK_READS_FROM,
					runner_feedback_rf_id(w->site_id, e->site_id));
				ref_add(out, WEFT_FEEDBACK_VALUES,
					runner_feedback_value_id(e->site_id, e->value));
			}
			break;
		}
	}
	qsort(out->f, out->n, sizeof out->f[0], by_kind_id);
}

/* ---- the checks ---- */

static void check_parse(void)
{
	static const struct { const char *spec; int rc; unsigned kinds; } cases[] = {
		{ NULL, 0, 15 }, { "", 0, 15 }, { "all", 0, 15 }, { "none", 0, 0 }, { "values", 0, 8 },
		{ "rf,values", 0, 10 }, { "value", -1, 0 },
		{ "pairs", 0, 1 }, { "rf", 0, 2 }, { "reads-from", 0, 2 }, { "outcome", 0, 4 },
		{ "pairs,rf,outcome", 0, 7 }, { "outcome,pairs", 0, 5 }, { "rf,rf", 0, 2 },
		{ "bogus", -1, 0 }, { "pairs,", -1, 0 }, { ",pairs", -1, 0 }, { "pairs,,rf", -1, 0 },
		{ "PAIRS", -1, 0 }, { "pair", -1, 0 }, { "pairs ", -1, 0 }, { "rf;outcome", -1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned k = 99;
		int rc = weft_feedback_parse(cases[i].spec, &k);
		CHECK(rc == cases[i].rc, "parse(%s) = %d", cases[i].spec ? cases[i].spec : "NULL", rc);
		CHECK(k == (rc == 0 ? cases[i].kinds : 99u), "parse(%s) gave kinds %u",
		      cases[i].spec ? cases[i].spec : "NULL", k);
	}
}

/* Off by default, each kind alone, none. */
static void check_kinds(const uint8_t *data, size_t n)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	feature_set all, one, want;
	run(r, data, n, &all);
	CHECK(all.n == 0, "a runner computes %zu features without being asked", all.n);
	REQUIRE(weft_runner_set_feedback(r, WEFT_FEEDBACK_ALL) == 0, "set_feedback");
	run(r, data, n, &all);
	CHECK(count_kind(&all, WEFT_FEEDBACK_OUTCOME) == 1, "one outcome feature");
	CHECK(count_kind(&all, WEFT_FEEDBACK_PAIRS) > 0, "pair features");
	CHECK(count_kind(&all, WEFT_FEEDBACK_READS_FROM) > 0, "reads-from features");
	CHECK(count_kind(&all, WEFT_FEEDBACK_VALUES) > 0, "value features");
	const weft_feedback_kind kinds[] = { WEFT_FEEDBACK_PAIRS, WEFT_FEEDBACK_READS_FROM,
					     WEFT_FEEDBACK_OUTCOME, WEFT_FEEDBACK_VALUES };
	for (int k = 0; k < 4; k++) {
		weft_runner_set_feedback(r, kinds[k]);
		run(r, data, n, &one);
		only_kind(&all, kinds[k], &want);
		CHECK(same_set(&one, &want), "kinds=%d: %zu features, want the %zu of that kind",
		      kinds[k], one.n, want.n);
	}
	weft_runner_set_feedback(r, WEFT_FEEDBACK_PAIRS | WEFT_FEEDBACK_OUTCOME);
	run(r, data, n, &one);
	CHECK(one.n == count_kind(&all, WEFT_FEEDBACK_PAIRS) + 1 &&
	      count_kind(&one, WEFT_FEEDBACK_READS_FROM) == 0, "pairs+outcome: %zu", one.n);
	weft_runner_set_feedback(r, 0);
	CHECK(weft_runner_features(r, NULL, 0) == 0, "features left after switching off");
	run(r, data, n, &one);
	CHECK(one.n == 0, "kinds=0 gives %zu features", one.n);
	weft_runner_free(r);
}

/* The object of the last execution's first access. */
static const void *first_addr(weft_runner *r)
{
	const sched_trace *t = runner_trace(r);
	for (size_t i = 0; i < t->n; i++)
		if (t->events[i].addr)
			return t->events[i].addr;
	return NULL;
}

/* Random inputs: the library's pairs and reads-from equal the naive reference;
 * one runner, a second runner and a third made after allocating garbage (its
 * instances at other addresses) agree; the golden hash. */
static void check_random(void)
{
	weft_runner *a = weft_runner_new(weft_fuzz_target());
	weft_runner *b = weft_runner_new(weft_fuzz_target());
	REQUIRE(a && b, "runners");
	weft_runner_set_feedback(a, WEFT_FEEDBACK_ALL);
	weft_runner_set_feedback(b, WEFT_FEEDBACK_ALL);
	void *garbage[64];
	for (int i = 0; i < 64; i++)
		garbage[i] = malloc(24 + 40 * (size_t)i);
	weft_runner *c = weft_runner_new(weft_fuzz_target());
	REQUIRE(c && weft_runner_set_feedback(c, WEFT_FEEDBACK_ALL) == 0, "third runner");
	static feature_set fa, fa2, fb, fc, pr, ref;
	uint64_t seed = 0xfeedb4c4, golden = 0xcbf29ce484222325ULL;
	unsigned mismatch_ref = 0, mismatch_runs = 0, with_rf = 0, without_rf = 0, moved = 0;
	size_t max_features = 0;
	uint8_t buf[40];
	for (int i = 0; i < 300; i++) {
		size_t n = random_input(&seed, buf, sizeof buf);
		run(a, buf, n, &fa);
		const void *addr_a = first_addr(a);
		reference(a, buf, n, &ref);
		run(a, buf, n, &fa2);
		run(b, buf, n, &fb);
		void *hold[96];   /* the chunks a's and b's instances had: c's must go elsewhere */
		for (int h = 0; h < 96; h++)
			hold[h] = calloc(1, h < 24 ? 4 : 16 * (size_t)(h - 23));
		run(c, buf, n, &fc);
		for (int h = 0; h < 96; h++)
			free(hold[h]);
		moved += addr_a && first_addr(c) && first_addr(c) != addr_a;
		pr.n = 0;   /* all but the outcome, still sorted */
		for (size_t k = 0; k < fa.n; k++)
			if (fa.f[k].kind != WEFT_FEEDBACK_OUTCOME)
				pr.f[pr.n++] = fa.f[k];
		if (!same_set(&pr, &ref)) {
			if (mismatch_ref++ < 3)
				fprintf(stderr, "input %d: %zu pair/rf features, the reference %zu\n",
					i, pr.n, ref.n);
		}
		mismatch_runs += !same_set(&fa, &fa2) || !same_set(&fa, &fb) || !same_set(&fa, &fc);
		CHECK(count_kind(&fa, WEFT_FEEDBACK_OUTCOME) == 1, "input %d: one outcome", i);
		if (count_kind(&fa, WEFT_FEEDBACK_READS_FROM))
			with_rf++;
		else
			without_rf++;
		max_features = fa.n > max_features ? fa.n : max_features;
		golden = hash_set(golden, &fa);
	}
	CHECK(mismatch_ref == 0, "%u of 300 inputs differ from the reference", mismatch_ref);
	CHECK(mismatch_runs == 0, "%u of 300 inputs gave other features on a re-run or another "
	      "runner", mismatch_runs);
#ifndef FEEDBACK_TREIBER
	CHECK(with_rf > 0 && without_rf > 0, "cross-thread reads in %u inputs, none in %u: want both",
	      with_rf, without_rf);
#else   /* a stack op always writes `top` (pop of the two pre-pushed values, push): the
	   other thread always reads it */
	CHECK(with_rf == 300, "cross-thread reads in only %u of 300 inputs", with_rf);
#endif
	CHECK(moved > 250, "the third runner's objects moved in only %u of 300 inputs", moved);
	CHECK(golden == GOLDEN_HASH, "golden hash of the features of 300 inputs: 0x%016llx, "
	      "expected 0x%016llx", (unsigned long long)golden, (unsigned long long)GOLDEN_HASH);
	fprintf(stderr, "feedback: 300 inputs, %u with cross-thread reads, at most %zu features, "
		"objects moved in %u, golden 0x%016llx\n", with_rf, max_features, moved,
		(unsigned long long)golden);
	for (int i = 0; i < 64; i++)
		free(garbage[i]);
	weft_runner_free(a);
	weft_runner_free(b);
	weft_runner_free(c);
}

#ifndef FEEDBACK_TREIBER
/* The id of the set's outcome feature (0: none). */
static uint32_t outcome_of(const feature_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].kind == WEFT_FEEDBACK_OUTCOME)
			return s->f[i].id;
	return 0;
}

/* The site id of the last execution's first event of `kind`, 0 if none. */
static uint32_t site_of_kind(weft_runner *r, unsigned kind)
{
	const sched_trace *t = runner_trace(r);
	for (size_t i = 0; i < t->n; i++)
		if (t->events[i].kind == kind)
			return t->events[i].site_id;
	return 0;
}

/*
 * The counter, by hand (docs/input-format.md): increment = begin, load, store,
 * end; the load is step 2, the store step 3.
 */
static void check_counter_exact(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	weft_runner_set_feedback(r, WEFT_FEEDBACK_ALL);
	static feature_set f, g;
	uint32_t begin = runner_feedback_op_site(OP_INCREMENT, 0);

	/* empty: t0 increments, finishes; t1 starts and loads t0's store */
	REQUIRE(run(r, NULL, 0, &f) == WEFT_PASS, "empty input passes");
	uint32_t load = site_of_kind(r, WEFT_ACCESS_LOAD), store = site_of_kind(r, WEFT_ACCESS_STORE);
	REQUIRE(load && store && load != store, "load and store sites");
	const weft_feature *x = find(&f, WEFT_FEEDBACK_PAIRS,
				     runner_feedback_pair_id(RUNNER_SWITCH_FINISHED, 0, begin));
	CHECK(x && x->count == 1, "empty: the switch t0 finished -> t1 at its begin");
	x = find(&f, WEFT_FEEDBACK_READS_FROM, runner_feedback_rf_id(store, load));
	CHECK(x && x->count == 1, "empty: t1's load reads t0's store");
	x = find(&f, WEFT_FEEDBACK_VALUES, runner_feedback_value_id(load, 1));
	CHECK(x && x->count == 1, "empty: t1's load reads the value 1 from t0");
	CHECK(f.n == 4, "empty: %zu features, want switch, reads-from, value, outcome", f.n);
	uint32_t outcome_2 = outcome_of(&f);

	/* 05: t0 loads, is preempted before its store; t1 runs; t0 stores */
	REQUIRE(run(r, (const uint8_t *)"\x05", 1, &f) == WEFT_FAIL_LINEARIZABILITY, "05 fails");
	x = find(&f, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_PREEMPT, store, begin));
	CHECK(x && x->count == 1, "05: preempted at the store, t1 resumed at its begin");
	x = find(&f, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_FINISHED, 0, store));
	CHECK(x && x->count == 1, "05: t1 finished, t0 resumed at its store");
	CHECK(count_kind(&f, WEFT_FEEDBACK_READS_FROM) == 0,
	      "05: both loads read the initial value, yet %zu reads-from features",
	      count_kind(&f, WEFT_FEEDBACK_READS_FROM));
	CHECK(f.n == 3, "05: %zu features", f.n);
	CHECK(outcome_of(&f) != outcome_2, "05's get() = 1 has the outcome of get() = 2");

	/* 04: preempted before the load instead: t1's store is read by t0 */
	run(r, (const uint8_t *)"\x04", 1, &g);
	x = find(&g, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_PREEMPT, load, begin));
	CHECK(x && x->count == 1, "04: preempted at the load");
	CHECK(!find(&g, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_PREEMPT, store, begin)),
	      "04: no preemption at the store");
	feature_set pf, pg;
	only_kind(&f, WEFT_FEEDBACK_PAIRS, &pf);
	only_kind(&g, WEFT_FEEDBACK_PAIRS, &pg);
	CHECK(!same_set(&pf, &pg), "04 and 05 interleave differently, same pair features");
	CHECK(find(&g, WEFT_FEEDBACK_READS_FROM, runner_feedback_rf_id(store, load)),
	      "04: t0's load reads t1's store");
	CHECK(outcome_of(&g) == outcome_2, "04 ends with get() = 2: the outcome of the empty input");

	/* 03: preempted before its first step; other pairs, the same outcome */
	run(r, (const uint8_t *)"\x03", 1, &g);
	x = find(&g, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_PREEMPT, begin, begin));
	CHECK(x && x->count == 1, "03: preempted at its begin, t1 resumed at its begin");
	CHECK(outcome_of(&g) == outcome_2, "03: the same outcome as the empty input");

	/* 01: t0 increments twice (its second load reads its own store), then t1 */
	run(r, (const uint8_t *)"\x01", 1, &g);
	x = find(&g, WEFT_FEEDBACK_READS_FROM, runner_feedback_rf_id(store, load));
	CHECK(x && x->count == 1, "01: one cross-thread read (t1's), not t0's read of its own store");

	/* 00 02: three threads, each reads the previous one's store */
	run(r, (const uint8_t *)"\x00\x02", 2, &g);
	x = find(&g, WEFT_FEEDBACK_READS_FROM, runner_feedback_rf_id(store, load));
	CHECK(x && x->count == 2, "00 02: two cross-thread reads (count %u)", x ? x->count : 0);
	CHECK(find(&g, WEFT_FEEDBACK_VALUES, runner_feedback_value_id(load, 1)) &&
	      find(&g, WEFT_FEEDBACK_VALUES, runner_feedback_value_id(load, 2)),
	      "00 02: the loads read 1 and 2: two value features");
	x = find(&g, WEFT_FEEDBACK_PAIRS, runner_feedback_pair_id(RUNNER_SWITCH_FINISHED, 0, begin));
	CHECK(x && x->count == 2, "00 02: two switches at a finish (count %u)", x ? x->count : 0);

	/* nothing of 00 02 survives into a shorter execution */
	run(r, (const uint8_t *)"\x05", 1, &g);
	CHECK(same_set(&f, &g), "05 after 00 02: other features than before");
	weft_runner_free(r);
}
#else
/* The stack: the ABA reproducer and the same input preempted a step earlier. */
static void check_treiber(void)
{
	weft_runner *r = weft_runner_new(weft_fuzz_target());
	weft_runner_set_feedback(r, WEFT_FEEDBACK_ALL);
	static feature_set f, g, pf, pg;
	static const uint8_t aba[] = { 0x01, 0x06, 0x00, 0x00, 0x01, 0x01, 0x01, 0x01 };
	uint8_t earlier[sizeof aba];
	memcpy(earlier, aba, sizeof aba);
	earlier[1] = 0x05;
	CHECK(run(r, aba, sizeof aba, &f) == WEFT_FAIL_LINEARIZABILITY, "aba fails");
	run(r, earlier, sizeof earlier, &g);
	only_kind(&f, WEFT_FEEDBACK_PAIRS, &pf);
	only_kind(&g, WEFT_FEEDBACK_PAIRS, &pg);
	CHECK(pf.n > 0 && !same_set(&pf, &pg), "two interleavings, the same pair features");
	CHECK(count_kind(&f, WEFT_FEEDBACK_READS_FROM) > 0, "aba: t0's CAS reads t1's writes");
	weft_runner_free(r);
}
#endif

/*
 * A trace by hand: thread 0 stores to n objects (sites 1000 + i), then thread 1
 * loads each (sites 5000 + i) - n reads-from features - and a preemption.  Checks
 * the sorted order past the insertion-sort size, and the limits.
 */
static void check_synthetic(size_t n_objects)
{
	static sched_event ev[2 * 2000 + 2];
	static char object[2000];
	static weft_feature f[RUNNER_FEEDBACK_MAX_FEATURES + 1];
	size_t n = 0;
	for (size_t i = 0; i < n_objects; i++)
		ev[n++] = (sched_event){ .kind = WEFT_ACCESS_STORE, .thread = 0,
					 .site_id = 1000 + (uint32_t)i, .addr = &object[i] };
	ev[n++] = (sched_event){ .kind = SCHED_EV_PREEMPT, .thread = 0, .other = 1 };
	for (size_t i = 0; i < n_objects; i++)
		ev[n++] = (sched_event){ .kind = WEFT_ACCESS_LOAD, .thread = 1,
					 .site_id = 5000 + (uint32_t)i, .addr = &object[i] };
	runner_feedback *fb = runner_feedback_new();
	REQUIRE(fb, "runner_feedback_new");
	runner_feedback_input in = { ev, n, NULL, 0, NULL, 0 };
	/* values apart (check_values): here the object table's limit */
	runner_feedback_compute(fb, WEFT_FEEDBACK_ALL & ~WEFT_FEEDBACK_VALUES, &in);
	size_t got = runner_feedback_get(fb, f, sizeof f / sizeof f[0]);
	size_t tracked = n_objects < RUNNER_FEEDBACK_MAX_OBJECTS ? n_objects
								 : RUNNER_FEEDBACK_MAX_OBJECTS;
	/* the pair: thread 0 goes on nowhere, thread 1 resumes at its first load */
	size_t want = 1 + tracked + 1;
	CHECK(got == want, "%zu objects: %zu features, want %zu", n_objects, got, want);
	CHECK(runner_feedback_dropped(fb) == n_objects - tracked, "%zu objects: %zu dropped",
	      n_objects, runner_feedback_dropped(fb));
	int sorted = 1;
	for (size_t i = 1; i < got && i < sizeof f / sizeof f[0]; i++)
		sorted &= f[i - 1].kind < f[i].kind ||
			  (f[i - 1].kind == f[i].kind && f[i - 1].id < f[i].id);
	CHECK(sorted, "%zu objects: features not sorted by kind, id", n_objects);
	feature_set all = { .n = got < MAXF ? got : MAXF };
	memcpy(all.f, f, all.n * sizeof f[0]);
	CHECK(find(&all, WEFT_FEEDBACK_PAIRS,
		   runner_feedback_pair_id(RUNNER_SWITCH_PREEMPT, 0, 5000)) != NULL,
	      "%zu objects: the preemption pair", n_objects);
	size_t found = 0;
	for (size_t i = 0; i < tracked; i++)
		found += find(&all, WEFT_FEEDBACK_READS_FROM,
			      runner_feedback_rf_id(1000 + (uint32_t)i, 5000 + (uint32_t)i)) != NULL;
	CHECK(found == tracked, "%zu objects: %zu of %zu reads-from features", n_objects, found,
	      tracked);
	runner_feedback_free(fb);
}

/* One object written by thread 0 and read by thread 1 at 1100 site pairs: 1100
 * distinct reads-from features, of which the first 1024 are kept. */
static void check_feature_limit(void)
{
	static sched_event ev[2200];
	static weft_feature f[1100];
	int object;
	for (uint32_t i = 0; i < 1100; i++) {
		ev[2 * i] = (sched_event){ .kind = WEFT_ACCESS_STORE, .thread = 0,
					   .site_id = 1000 + i, .addr = &object };
		ev[2 * i + 1] = (sched_event){ .kind = WEFT_ACCESS_LOAD, .thread = 1,
					       .site_id = 5000 + i, .addr = &object };
	}
	runner_feedback *fb = runner_feedback_new();
	REQUIRE(fb, "runner_feedback_new");
	runner_feedback_input in = { ev, 2200, NULL, 0, NULL, 0 };
	runner_feedback_compute(fb, WEFT_FEEDBACK_READS_FROM, &in);
	size_t got = runner_feedback_get(fb, f, 1100);
	CHECK(got == RUNNER_FEEDBACK_MAX_FEATURES && runner_feedback_dropped(fb) == 1100 - got,
	      "1100 distinct features: %zu kept, %zu dropped", got, runner_feedback_dropped(fb));
	/* the next execution starts empty */
	runner_feedback_input none = { NULL, 0, NULL, 0, NULL, 0 };
	runner_feedback_compute(fb, WEFT_FEEDBACK_ALL, &none);
	got = runner_feedback_get(fb, f, 1100);
	CHECK(got == 1 && f[0].kind == WEFT_FEEDBACK_OUTCOME && runner_feedback_dropped(fb) == 0,
	      "an empty execution after a full one: %zu features", got);
	runner_feedback_free(fb);
}

/*
 * Values read from another thread (VALUES): exact below 128, then one feature
 * per bit length; a value read from the reader's own write gives none.  (Exact
 * below 16 before the ninth session: a count of 20 workers read as 19, one
 * short, was no new feature, and order_chain's last step had no gradient.)
 */
static void check_values(void)
{
	static const uint64_t stored[] = { 0, 1, 2, 19, 20, 127, 128, 255, 1u << 20, (1u << 20) + 5 };
	enum { N = sizeof stored / sizeof stored[0] };
	static sched_event ev[3 * N];
	static weft_feature f[3 * N];
	int object;
	size_t n = 0;
	for (size_t i = 0; i < N; i++) {
		ev[n++] = (sched_event){ .kind = WEFT_ACCESS_STORE, .thread = 0, .site_id = 10,
					 .addr = &object, .value = stored[i] };
		ev[n++] = (sched_event){ .kind = WEFT_ACCESS_LOAD, .thread = 1, .site_id = 20,
					 .addr = &object, .value = stored[i] };
		ev[n++] = (sched_event){ .kind = WEFT_ACCESS_LOAD, .thread = 0, .site_id = 30,
					 .addr = &object, .value = stored[i] };
	}
	runner_feedback *fb = runner_feedback_new();
	REQUIRE(fb, "runner_feedback_new");
	runner_feedback_input in = { ev, n, NULL, 0, NULL, 0 };
	runner_feedback_compute(fb, WEFT_FEEDBACK_VALUES, &in);
	size_t got = runner_feedback_get(fb, f, 3 * N);
	feature_set all = { .n = got < MAXF ? got : MAXF };
	memcpy(all.f, f, all.n * sizeof f[0]);
	/* 0, 1, 2, 19, 20, 127 exact; 128 and 255 share bit length 8; 2^20 and 2^20 + 5 share 21 */
	CHECK(got == 8, "values: %zu features, want 8", got);
	const weft_feature *x = find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_value_id(20, 128));
	CHECK(x && x->count == 2, "values: 128 and 255 are one bucket (count %u)", x ? x->count : 0);
	CHECK(runner_feedback_value_id(20, 128) == runner_feedback_value_id(20, 255) &&
	      runner_feedback_value_id(20, 19) != runner_feedback_value_id(20, 20) &&
	      runner_feedback_value_id(20, 127) != runner_feedback_value_id(20, 126) &&
	      runner_feedback_value_id(20, 256) != runner_feedback_value_id(20, 255),
	      "values: the buckets");
	CHECK(!find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_value_id(30, 0)),
	      "values: a read of the reader's own store counted");
	runner_feedback_free(fb);
}

/*
 * Time-outs in a row (VALUES): a thread's k-th time-out in a row at one wait
 * site is the feature (site, k); a wait there that did not time out ends the
 * run; another site or another thread counts apart.
 */
static void check_timeouts(void)
{
	int sem, cond;
	enum { SEM_SITE = 40, COND_SITE = 50 };
	const sched_event ev[] = {
		{ .kind = WEFT_ACCESS_SEM_WAIT, .thread = 1, .site_id = SEM_SITE, .addr = &sem, .value = 2 },
		{ .kind = WEFT_ACCESS_SEM_WAIT, .thread = 1, .site_id = SEM_SITE, .addr = &sem, .value = 2 },
		{ .kind = WEFT_ACCESS_WAIT, .thread = 2, .site_id = COND_SITE, .addr = &cond, .value = 1 },
		{ .kind = WEFT_ACCESS_SEM_WAIT, .thread = 1, .site_id = SEM_SITE, .addr = &sem, .value = 2 },
		{ .kind = WEFT_ACCESS_SEM_WAIT, .thread = 1, .site_id = SEM_SITE, .addr = &sem, .value = 1 },
		{ .kind = WEFT_ACCESS_SEM_WAIT, .thread = 1, .site_id = SEM_SITE, .addr = &sem, .value = 2 },
		{ .kind = WEFT_ACCESS_WAIT, .thread = 2, .site_id = COND_SITE, .addr = &cond, .value = 0 },
	};
	static weft_feature f[16];
	runner_feedback *fb = runner_feedback_new();
	REQUIRE(fb, "runner_feedback_new");
	runner_feedback_input in = { ev, sizeof ev / sizeof ev[0], NULL, 0, NULL, 0 };
	runner_feedback_compute(fb, WEFT_FEEDBACK_VALUES, &in);
	size_t got = runner_feedback_get(fb, f, 16);
	feature_set all = { .n = got < MAXF ? got : MAXF };
	memcpy(all.f, f, all.n * sizeof f[0]);
	const weft_feature *one = find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_timeouts_id(SEM_SITE, 1));
	CHECK(got == 4, "time-outs: %zu features, want 4 (sem 1-3, cond 1)", got);
	CHECK(one && one->count == 2, "time-outs: the first of a run twice (count %u)",
	      one ? one->count : 0);
	CHECK(find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_timeouts_id(SEM_SITE, 3)) &&
	      !find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_timeouts_id(SEM_SITE, 4)),
	      "time-outs: three in a row, then a wait that did not time out ends the run");
	CHECK(find(&all, WEFT_FEEDBACK_VALUES, runner_feedback_timeouts_id(COND_SITE, 1)),
	      "time-outs: another thread's condition wait counts apart");
	runner_feedback_compute(fb, WEFT_FEEDBACK_ALL & ~WEFT_FEEDBACK_VALUES, &in);
	got = runner_feedback_get(fb, f, 16);
	all.n = got < MAXF ? got : MAXF;
	memcpy(all.f, f, all.n * sizeof f[0]);
	CHECK(count_kind(&all, WEFT_FEEDBACK_VALUES) == 0, "time-outs counted with VALUES off");
	runner_feedback_free(fb);
}

int main(void)
{
	check_values();
	check_timeouts();
	check_feature_limit();
	check_parse();
	check_synthetic(40);     /* past the insertion sort */
	check_synthetic(1000);   /* past the object table: the first 768 are tracked */
#ifndef FEEDBACK_TREIBER
	check_counter_exact();
	check_kinds(NULL, 0);
#else
	check_treiber();
	static const uint8_t three[] = { 0x00, 0x01, 0x01, 0x01, 0x00, 0x01, 0x02, 0x00, 0x02 };
	check_kinds(three, sizeof three);
#endif
	check_random();
	return check_summary("test_feedback");
}
