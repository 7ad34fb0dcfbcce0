/*
 * tests/test_oracle_differential.c - weft_check against a brute-force checker
 * on thousands of random small histories (1..7 operations, 1..4 threads, some
 * pending).
 *
 * The brute force is the definition (Herlihy & Wing 1990), spelled out: for
 * every subset of the pending operations, every permutation of the completed
 * operations plus that subset which respects real-time order (a before b
 * whenever a returned before b was invoked), replayed on the model; linearizable
 * iff one of them gives every completed operation its observed result.
 *
 * Histories come from random interleavings of a real run (each operation takes
 * effect at one step between its invocation and its return: linearizable, and
 * the check must say so), with every result random (mostly not linearizable),
 * or with one result random (near misses).  Models: a register (read, write,
 * cas), a queue in a fixed array (memcpy-able), a queue whose state owns heap
 * memory (copy/destroy/equal/hash), and a set keyed by element, checked both
 * partitioned and not.  Every NOT_LINEARIZABLE explanation is checked too: the
 * prefix is a valid partial linearization, the stuck operation is the
 * earliest-returning one left and the model disagrees with it there; a check
 * capped at 1..5 steps says the same or UNKNOWN, never the opposite.  Last, the
 * text of a partitioned explanation, and the smallest failing key speaking.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"

enum { MAX_N = 7, STATE_WORDS = 16 };

#define TEST_QUEUE_CAP MAX_N   /* a history of MAX_N ops never fills it */
#include "tests/test_queue.h"

/* ---- models ---- */

enum { R_READ, R_WRITE, R_CAS };
enum { S_ADD, S_REMOVE, S_CONTAINS };

static int64_t register_apply(void *s, unsigned op, const int64_t *args)
{
	int64_t *v = s;
	if (op == R_WRITE)
		*v = args[0];
	if (op == R_CAS && *v == args[0])
		return *v = args[1], 1;
	return op == R_READ ? *v : 0;
}

/* A queue whose state owns memory: the checker must use copy/destroy/equal/hash. */
typedef struct heap_queue {
	int64_t *items;
	size_t len;
} heap_queue;

static int64_t heap_queue_apply(void *s, unsigned op, const int64_t *args)
{
	heap_queue *q = s;
	if (op == TQ_ENQ) {
		int64_t *items = realloc(q->items, (q->len + 1) * sizeof *items);
		REQUIRE(items, "realloc");
		q->items = items;
		q->items[q->len++] = args[0];
		return 0;
	}
	if (q->len == 0)
		return WEFT_NONE;
	int64_t v = q->items[0];
	memmove(q->items, q->items + 1, --q->len * sizeof v);
	return v;
}

static void heap_queue_copy(void *dst, const void *src)
{
	const heap_queue *s = src;
	heap_queue *d = dst;
	d->len = s->len;
	d->items = malloc((s->len ? s->len : 1) * sizeof *d->items);
	REQUIRE(d->items, "malloc");
	if (s->len)
		memcpy(d->items, s->items, s->len * sizeof *d->items);
}

static void heap_queue_destroy(void *s) { free(((heap_queue *)s)->items); }

static int heap_queue_equal(const void *a, const void *b)
{
	const heap_queue *x = a, *y = b;
	return x->len == y->len && (!x->len || !memcmp(x->items, y->items, x->len * 8));
}

/* Deliberately weak (the length only): collisions make the memo rely on equal(). */
static uint64_t heap_queue_hash(const void *s)
{
	return ((const heap_queue *)s)->len;
}

/* A set of small integers; operations on different elements commute. */
static int64_t set_apply(void *s, unsigned op, const int64_t *args)
{
	uint64_t *bits = s, bit = (uint64_t)1 << args[0];
	int64_t had = (*bits & bit) != 0;
	if (op == S_ADD)
		*bits |= bit;
	if (op == S_REMOVE)
		*bits &= ~bit;
	return op == S_ADD ? !had : had;
}

static int64_t set_key(unsigned op, const int64_t *args)
{
	(void)op;
	return args[0];
}

static const weft_model register_model = { .name = "register", .state_size = sizeof(int64_t),
					   .init = test_zero_init, .apply = register_apply };
static const weft_model heap_queue_model = {
	.name = "heap-queue", .state_size = sizeof(heap_queue), .init = test_zero_init,
	.apply = heap_queue_apply, .copy = heap_queue_copy, .destroy = heap_queue_destroy,
	.equal = heap_queue_equal, .hash = heap_queue_hash };
static const weft_model set_model = { .name = "set", .state_size = sizeof(uint64_t),
				      .init = test_zero_init, .apply = set_apply,
				      .partition = set_key };

typedef struct test_model {
	const weft_model *model;
	unsigned n_kinds;
	int n_histories;
} test_model;

/* ---- the brute force ---- */

static int64_t *state_new(const weft_model *m, int64_t *buf)
{
	_Static_assert(sizeof(int64_t) * STATE_WORDS >= sizeof(test_queue), "state buffer");
	memset(buf, 0, sizeof(int64_t) * STATE_WORDS);
	m->init(buf);
	return buf;
}

static void state_free(const weft_model *m, int64_t *buf)
{
	if (m->destroy)
		m->destroy(buf);
}

/* b was placed after a although it returned before a was invoked. */
static int breaks_real_time(const weft_op_record *a, const weft_op_record *b)
{
	return !b->pending && b->returned_at < a->invoked_at;
}

static int valid_order(const weft_model *m, const weft_op_record *h, const size_t *idx, size_t k)
{
	for (size_t a = 0; a < k; a++)
		for (size_t b = a + 1; b < k; b++)
			if (breaks_real_time(&h[idx[a]], &h[idx[b]]))
				return 0;
	int64_t buf[STATE_WORDS];
	int64_t *s = state_new(m, buf);
	int ok = 1;
	for (size_t i = 0; i < k && ok; i++) {
		int64_t got = m->apply(s, h[idx[i]].op, h[idx[i]].args);
		ok = h[idx[i]].pending || got == h[idx[i]].result;
	}
	state_free(m, s);
	return ok;
}

static int next_permutation(size_t *a, size_t n)
{
	size_t i = n, j = n;
	if (n < 2)
		return 0;
	for (i = n - 1; i > 0 && a[i - 1] >= a[i]; i--)
		;
	if (i == 0)
		return 0;
	while (a[j - 1] <= a[i - 1])
		j--;
	size_t t = a[i - 1];
	a[i - 1] = a[j - 1], a[j - 1] = t;
	for (j = n - 1; i < j; i++, j--)
		t = a[i], a[i] = a[j], a[j] = t;
	return 1;
}

static int brute_linearizable(const weft_model *m, const weft_op_record *h, size_t n)
{
	size_t n_pending = 0;
	for (size_t i = 0; i < n; i++)
		n_pending += h[i].pending != 0;
	for (unsigned mask = 0; mask < 1u << n_pending; mask++) {
		size_t idx[MAX_N], k = 0, p = 0;
		for (size_t i = 0; i < n; i++)
			if (!h[i].pending || (mask >> p++) & 1)
				idx[k++] = i;
		do {
			if (valid_order(m, h, idx, k))
				return 1;
		} while (next_permutation(idx, k));
	}
	return 0;
}

/* ---- random histories ---- */

typedef struct sim_thread {
	unsigned n, next, phase;     /* phase: 0 to invoke, 1 to take effect, 2 to return */
	size_t rec;                  /* the history record of the op in progress */
	unsigned kinds[MAX_N];
	int64_t args[MAX_N][2];
} sim_thread;

static int64_t random_result(uint64_t *rng)
{
	int64_t r = (int64_t)(test_rand(rng) % 5);
	return r == 4 ? WEFT_NONE : r;
}

static void plan(const test_model *tm, sim_thread *t, unsigned n_threads, uint64_t *rng)
{
	size_t n = 1 + test_rand(rng) % MAX_N;
	memset(t, 0, n_threads * sizeof *t);
	for (size_t i = 0; i < n; i++) {
		sim_thread *th = &t[test_rand(rng) % n_threads];
		th->kinds[th->n] = (unsigned)(test_rand(rng) % tm->n_kinds);
		th->args[th->n][0] = (int64_t)(test_rand(rng) % 3) + (tm->model == &set_model ? 0 : 1);
		th->args[th->n][1] = (int64_t)(test_rand(rng) % 3) + 1;
		th->n++;
	}
}

/* One step of thread i; returns the number of records. */
static size_t step(const weft_model *m, int64_t *state, sim_thread *th, unsigned i,
		   weft_op_record *h, size_t n, uint32_t *time)
{
	if (th->phase == 0) {
		h[n] = (weft_op_record){ .thread = i, .op = th->kinds[th->next],
					 .args = { th->args[th->next][0], th->args[th->next][1] },
					 .invoked_at = ++*time, .pending = 1 };
		th->rec = n++;
	} else if (th->phase == 1) {
		h[th->rec].result = m->apply(state, h[th->rec].op, h[th->rec].args);
	} else {
		h[th->rec].returned_at = ++*time;
		h[th->rec].pending = 0;
		th->next++;
	}
	th->phase = (th->phase + 1) % 3;
	return n;
}

/* A random interleaving of a real run, maybe cut short (ops in flight stay pending). */
static size_t simulate(const test_model *tm, weft_op_record *h, uint64_t *rng)
{
	sim_thread t[4];
	unsigned n_threads = 1 + (unsigned)(test_rand(rng) % 4);
	plan(tm, t, n_threads, rng);
	int64_t buf[STATE_WORDS];
	int64_t *state = state_new(tm->model, buf);
	size_t n = 0, steps = 0, cut = test_rand(rng) % 3 ? SIZE_MAX : test_rand(rng) % 22;
	uint32_t time = 0;
	for (; steps < cut; steps++) {
		unsigned live[4], n_live = 0;
		for (unsigned i = 0; i < n_threads; i++)
			if (t[i].next < t[i].n)
				live[n_live++] = i;
		if (n_live == 0)
			break;
		unsigned i = live[test_rand(rng) % n_live];
		n = step(tm->model, state, &t[i], i, h, n, &time);
	}
	state_free(tm->model, state);
	return n;
}

/* mode 0: the real results; 1: every result random; 2: one result random. */
static size_t generate(const test_model *tm, int mode, weft_op_record *h, uint64_t *rng)
{
	size_t n = simulate(tm, h, rng);
	for (size_t i = 0; i < n; i++) {
		if (h[i].pending)
			h[i].result = 0;
		else if (mode == 1)
			h[i].result = random_result(rng);
	}
	if (mode == 2 && n > 0) {
		size_t i = test_rand(rng) % n;
		if (!h[i].pending)
			h[i].result = random_result(rng);
	}
	return n;
}

/* ---- the explanation of a NOT_LINEARIZABLE result ---- */

static int in_sub_history(const weft_check_result *r, const weft_op_record *op)
{
	return !r->partitioned || set_key(op->op, op->args) == r->partition_key;
}

static int is_earliest_left(const weft_op_record *h, size_t n, const weft_check_result *r,
			    const int *placed)
{
	for (size_t i = 0; i < n; i++)
		if (!placed[i] && !h[i].pending && in_sub_history(r, &h[i]) &&
		    h[i].returned_at < h[r->stuck].returned_at)
			return 0;
	return 1;
}

/* Prefix: distinct, of the sub-history, in real-time order, each result what the model gives. */
static int valid_prefix(const weft_model *m, const weft_op_record *h, size_t n,
			const weft_check_result *r, int *placed, int64_t *buf)
{
	for (size_t k = 0; k < r->n_longest; k++) {
		if (r->longest[k] >= n || placed[r->longest[k]])
			return 0;
		const weft_op_record *op = &h[r->longest[k]];
		for (size_t j = 0; j < k; j++)
			if (breaks_real_time(&h[r->longest[j]], op))
				return 0;
		int64_t got = m->apply(buf, op->op, op->args);
		if (!in_sub_history(r, op) || (!op->pending && got != op->result))
			return 0;
		placed[r->longest[k]] = 1;
	}
	return 1;
}

static void check_explanation(const weft_model *m, const weft_op_record *h, size_t n,
			      const weft_check_result *r, const char *what)
{
	int placed[MAX_N] = { 0 };
	int64_t buf[STATE_WORDS];
	int64_t *s = state_new(m, buf);
	int ok = r->stuck < n && !h[r->stuck].pending && valid_prefix(m, h, n, r, placed, s);
	CHECK(ok, "%s: invalid prefix or stuck %zu", what, r->stuck);
	if (ok) {
		CHECK(!placed[r->stuck] && in_sub_history(r, &h[r->stuck]) &&
		      is_earliest_left(h, n, r, placed), "%s: stuck %zu", what, r->stuck);
		int64_t got = m->apply(s, h[r->stuck].op, h[r->stuck].args);
		CHECK(got == r->stuck_model_result && got != h[r->stuck].result,
		      "%s: model %lld", what, (long long)r->stuck_model_result);
	}
	state_free(m, s);
}

/* ---- the comparison ---- */

/* A capped check stops (freeing every state) or agrees; it never contradicts. */
static void check_capped(weft_checker *c, const weft_history *h, weft_check_verdict full,
			 uint64_t cap)
{
	weft_check_options opts = { .max_cost = cap };
	weft_check_result r;
	weft_check_verdict v = weft_check(c, h, &opts, &r);
	CHECK((v == full || v == WEFT_CHECK_UNKNOWN) && r.cost <= cap,
	      "capped at %llu: %s, cost %llu", (unsigned long long)cap,
	      weft_check_verdict_name(v), (unsigned long long)r.cost);
}

static void compare(const test_model *tm, uint64_t *rng)
{
	weft_checker *c = weft_checker_new(tm->model);
	REQUIRE(c, "checker");
	weft_op_record h[MAX_N];
	int counts[3] = { 0 };
	weft_check_options whole = { .no_partition = 1 };
	for (int i = 0; i < tm->n_histories; i++) {
		size_t n = generate(tm, i % 3, h, rng);
		weft_history hist = { h, n };
		weft_check_result r, rw;
		int want = brute_linearizable(tm->model, h, n);
		weft_check_verdict v = weft_check(c, &hist, NULL, &r);
		counts[v]++;
		CHECK(v == (want ? WEFT_CHECK_LINEARIZABLE : WEFT_CHECK_NOT_LINEARIZABLE),
		      "%s history %d: brute force %d, weft_check %s", tm->model->name, i, want,
		      weft_check_verdict_name(v));
		if (v == WEFT_CHECK_NOT_LINEARIZABLE)
			check_explanation(tm->model, h, n, &r, tm->model->name);
		check_capped(c, &hist, v, (uint64_t)(1 + i % 5));
		if (!tm->model->partition)
			continue;
		CHECK(weft_check(c, &hist, &whole, &rw) == v && !rw.partitioned,
		      "%s history %d: partitioned and whole disagree", tm->model->name, i);
		if (v == WEFT_CHECK_NOT_LINEARIZABLE)
			check_explanation(tm->model, h, n, &rw, "set, whole");
	}
	fprintf(stderr, "%s: %d histories, %d linearizable, %d not, %d unknown\n",
		tm->model->name, tm->n_histories, counts[0], counts[1], counts[2]);
	CHECK(counts[0] > tm->n_histories / 5 && counts[1] > tm->n_histories / 5,
	      "%s: both verdicts well represented", tm->model->name);
	weft_checker_free(c);
}

/* ---- the partitioned explanation ---- */

static weft_op_record rec(unsigned thread, unsigned op, int64_t x, int64_t result, uint32_t inv)
{
	return (weft_op_record){ .thread = thread, .op = op, .args = { x }, .result = result,
				 .invoked_at = inv, .returned_at = inv + 1 };
}

static void test_partitioned_explanation(void)
{
	static const weft_op set_ops[] = { [S_ADD] = { .name = "add", .n_args = 1 },
					   [S_REMOVE] = { .name = "remove", .n_args = 1 },
					   [S_CONTAINS] = { .name = "contains", .n_args = 1 } };
	weft_checker *c = weft_checker_new(&set_model);
	REQUIRE(c, "checker");
	const weft_op_record h[] = { rec(0, S_ADD, 3, 1, 1), rec(0, S_ADD, 7, 1, 3),
				     rec(1, S_CONTAINS, 7, 0, 5) };
	weft_history hist = { h, 3 };
	weft_check_result r;
	REQUIRE(weft_check(c, &hist, NULL, &r) == WEFT_CHECK_NOT_LINEARIZABLE, "key 7 fails");
	CHECK(r.partitioned && r.partition_key == 7 && r.n_partitions == 2, "key %lld",
	      (long long)r.partition_key);
	char text[512] = "";
	FILE *f = tmpfile();
	REQUIRE(f, "tmpfile");
	weft_check_explain(f, &hist, set_ops, &r);
	rewind(f);
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	/* counted in key 7's sub-history: 2 operations, not the history's 3 */
	const char *want = "  in the sub-history of key 7 (2 operations)\n"
			   "  longest linearizable prefix: 1 of 2 operations\n"
			   "    1. thread 0  add(7) = 1\n"
			   "  cannot be placed next: thread 1  contains(7) = 0, but the model gives 1\n";
	CHECK(strcmp(text, want) == 0, "explanation:\n%s", text);
	/* Two failing keys: the smaller one speaks. */
	const weft_op_record two[] = { rec(0, S_CONTAINS, 9, 1, 1), rec(1, S_CONTAINS, 2, 1, 3) };
	weft_history hist2 = { two, 2 };
	REQUIRE(weft_check(c, &hist2, NULL, &r) == WEFT_CHECK_NOT_LINEARIZABLE, "both fail");
	CHECK(r.partition_key == 2 && r.stuck == 1 && r.n_longest == 0, "key %lld stuck %zu",
	      (long long)r.partition_key, r.stuck);
	weft_checker_free(c);
}

int main(void)
{
	static const test_model models[] = {
		{ &register_model, 3, 2000 },
		{ &test_queue_model, 2, 2000 },
		{ &heap_queue_model, 2, 1000 },
		{ &set_model, 3, 1500 },
	};
	uint64_t rng = 0xD1FFE7E57ULL;
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
		compare(&models[i], &rng);
	test_partitioned_explanation();
	return check_summary("test_oracle_differential");
}
