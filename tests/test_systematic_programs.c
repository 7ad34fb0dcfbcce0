/*
 * tests/test_systematic_programs.c - systematic mode is sound on whole
 * programs (issue 22): its claims are checked against brute force on small
 * programs whose main spawns threads.
 *
 * Brute force (here, independent of search/): a stateless enumeration of
 * every answer to every question the scheduler asks (strategy.h: pick at every
 * switch point, forced picks), by replaying a prefix of answers and advancing
 * it like an odometer.  The one question it skips is a fresh thread's first
 * switch point (a thread other than 0 that has passed none yet: it has done
 * nothing since it was chosen, so stopping it there is the same as not having
 * chosen it), the rule schedule_dfs.h states.  Then, for each program:
 *   1. the search without reduction runs exactly as many executions as brute
 *      force, and sees the same set of outcomes (verdict + message: each
 *      program's main returns a number that encodes what its threads saw);
 *   2. with reduction it runs no more, and sees the same set of outcomes;
 *   3. the buggy flag program (targets/flag_pointer.c's pattern) fails in
 *      brute force, and so in both searches; its fixed variant never does.
 * What must not happen: an outcome brute force reaches that a search misses
 * (that is what "all N interleavings are fine" would then wrongly claim).
 */
#include <semaphore.h>
#include <string.h>

#include "check.h"
#include "weft/weft.h"
#include "weft/run.h"
#include "weft/sync.h"
#include "../runner/runner_internal.h"
#include "../search/schedule_dfs.h"

/* ---- the programs (each sets up its own globals: main runs once per execution) ---- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static _Atomic int flag, x, ready;
static int value = 42, *shared, seen_value, fixed_variant;
static _Atomic int r2;

/* Flag read outside the lock, pointer cleared under it (the program). */
static void *flag_reader(void *arg)
{
	(void)arg;
	if (weft_atomic_load(&flag))
		return NULL;
	weft_pthread_mutex_lock(&lock);
	if (fixed_variant && weft_atomic_load(&flag)) {
		weft_pthread_mutex_unlock(&lock);
		return NULL;
	}
	if (!shared)
		weft_fail("reader: pointer cleared after the flag said open");
	seen_value = *shared;
	weft_pthread_mutex_unlock(&lock);
	return NULL;
}

static void *flag_closer(void *arg)
{
	(void)arg;
	weft_pthread_mutex_lock(&lock);
	weft_atomic_store(&flag, 1);
	shared = NULL;
	weft_pthread_mutex_unlock(&lock);
	return NULL;
}

static int flag_main(int fixed)
{
	pthread_t a, b;
	fixed_variant = fixed;
	weft_atomic_store(&flag, 0);
	shared = &value;
	seen_value = 0;
	weft_pthread_create(&a, NULL, flag_reader, NULL);
	weft_pthread_create(&b, NULL, flag_closer, NULL);
	weft_pthread_join(a, NULL);
	weft_pthread_join(b, NULL);
	return 100 + seen_value;
}

static int64_t flag_buggy_main(void *i, const int64_t *a) { (void)i; (void)a; return flag_main(0); }
static int64_t flag_fixed_main(void *i, const int64_t *a) { (void)i; (void)a; return flag_main(1); }

/*
 * A waiter woken by a signal, then observed holding the lock before its next
 * access: reached only through a decision right after a wake-up (outcome 110:
 * the trylock found the lock busy and `x` still 0).  The old rule ("a thread
 * just switched to asks no question") never explored it.
 */
static sem_t waiting;

static void *waiter(void *arg)
{
	(void)arg;
	weft_pthread_mutex_lock(&lock);
	weft_sem_post(&waiting);
	while (!weft_atomic_load(&ready))
		weft_pthread_cond_wait(&cond, &lock);
	weft_atomic_store(&x, 1);
	weft_pthread_mutex_unlock(&lock);
	return NULL;
}

static void *poker(void *arg)
{
	(void)arg;
	int busy = weft_pthread_mutex_trylock(&lock) != 0;
	if (!busy)
		weft_pthread_mutex_unlock(&lock);
	weft_atomic_store(&r2, 10 * busy + weft_atomic_load(&x));
	return NULL;
}

static int64_t wake_main(void *i, const int64_t *args)
{
	(void)i;
	(void)args;
	pthread_t a, b;
	weft_atomic_store(&ready, 0);
	weft_atomic_store(&x, 0);
	weft_atomic_store(&r2, 0);
	sem_init(&waiting, 0, 0);
	weft_pthread_create(&a, NULL, waiter, NULL);
	weft_sem_wait(&waiting);
	weft_pthread_mutex_lock(&lock);   /* the waiter is in its wait: it let go */
	weft_atomic_store(&ready, 1);
	weft_pthread_cond_signal(&cond);
	weft_pthread_mutex_unlock(&lock);
	weft_pthread_create(&b, NULL, poker, NULL);
	weft_pthread_join(a, NULL);
	weft_pthread_join(b, NULL);
	return 100 + weft_atomic_load(&r2);
}

/* Three spawned threads and a join in the middle: order of increments and reads. */
static void *bump(void *arg)
{
	weft_atomic_fetch_add(&x, (int)(intptr_t)arg);
	return NULL;
}

static int64_t three_main(void *i, const int64_t *args)
{
	(void)i;
	(void)args;
	pthread_t t[3];
	weft_atomic_store(&x, 0);
	weft_pthread_create(&t[0], NULL, bump, (void *)(intptr_t)1);
	weft_pthread_create(&t[1], NULL, bump, (void *)(intptr_t)10);
	int mid = weft_atomic_load(&x);
	weft_pthread_join(t[0], NULL);
	weft_pthread_create(&t[2], NULL, bump, (void *)(intptr_t)100);
	int late = weft_atomic_load(&x);
	weft_pthread_join(t[1], NULL);
	weft_pthread_join(t[2], NULL);
	return 1000 * mid + late;
}

static int64_t no_op(void *i, const int64_t *a) { (void)i; (void)a; return 0; }

#define PROGRAM(var, fn) \
	static const weft_op var##_ops[] = {                                       \
		{ .name = "main", .run = fn },                                     \
		{ .name = "thread", .run = no_op, .flags = WEFT_OP_FINAL_ONLY },   \
	};                                                                         \
	static const weft_target var = { .name = #var, .ops = var##_ops, .n_ops = 2, \
					 .flags = WEFT_TARGET_PROGRAM }

PROGRAM(flag_buggy, flag_buggy_main);
PROGRAM(flag_fixed, flag_fixed_main);
PROGRAM(wake_program, wake_main);
PROGRAM(three_program, three_main);

/* ---- outcomes: verdict and message, as a set ---- */

#define MAX_OUTCOMES 64

typedef struct outcomes {
	unsigned n;
	char text[MAX_OUTCOMES][200];
} outcomes;

static void add_outcome(outcomes *o, weft_verdict v, const weft_result *res)
{
	char t[200];
	snprintf(t, sizeof t, "%s: %s", weft_verdict_name(v), res->message ? res->message : "");
	for (unsigned i = 0; i < o->n; i++)
		if (strcmp(o->text[i], t) == 0)
			return;
	REQUIRE(o->n < MAX_OUTCOMES, "too many outcomes");
	memcpy(o->text[o->n++], t, sizeof t);
}

static bool same_outcomes(const outcomes *a, const outcomes *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		bool found = false;
		for (unsigned k = 0; k < b->n && !found; k++)
			found = strcmp(a->text[i], b->text[k]) == 0;
		if (!found)
			return false;
	}
	return true;
}

static bool has_verdict(const outcomes *o, weft_verdict v)
{
	for (unsigned i = 0; i < o->n; i++)
		if (strncmp(o->text[i], weft_verdict_name(v), strlen(weft_verdict_name(v))) == 0)
			return true;
	return false;
}

static bool has_text(const outcomes *o, const char *text)
{
	for (unsigned i = 0; i < o->n; i++)
		if (strstr(o->text[i], text))
			return true;
	return false;
}

/* ---- brute force ---- */

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
	unsigned n = (unsigned)__builtin_popcountll(options);
	if (b->cursor == MAX_DECISIONS) {
		b->overflow = true;
		return forced ? nth_bit(options, 0) : thread;
	}
	if (b->cursor == b->len) {   /* a new question: its first answer */
		b->n_options[b->len] = n;
		b->choice[b->len++] = 0;
	}
	unsigned c = b->choice[b->cursor++];
	return nth_bit(options, c);
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
	(void)self;
	(void)bound;
	return 0;
}

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
		n++;
		b->len = b->cursor;   /* answers past the ones asked this time are gone */
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

/* ---- the search ---- */

static uint64_t run_search(weft_runner *r, const input_scenario *s, bool reduce, outcomes *out)
{
	search_dfs *d = search_dfs_new(runner_trace(r));
	REQUIRE(d, "search_dfs_new");
	search_dfs_start(d, SEARCH_DFS_UNBOUNDED, reduce);
	uint64_t n = 0;
	for (int more = 1; more;) {
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

static bool saw_wake_outcome;

static void compare(const weft_target *t, int expect_failure)
{
	weft_runner *r = weft_runner_new(t);
	REQUIRE(r, "runner for %s", t->name);
	input_scenario s;
	memset(&s, 0, sizeof s);
	s.n_threads = 1;
	s.n_calls = 1;
	s.first_call[1] = 1;
	s.calls[0].pending = 1;
	outcomes brute_o = { 0 }, full_o = { 0 }, reduced_o = { 0 };
	uint64_t nb = run_brute(r, &s, &brute_o);
	uint64_t nf = run_search(r, &s, false, &full_o);
	uint64_t nr = run_search(r, &s, true, &reduced_o);
	printf("%-14s brute force %5llu, search %5llu, reduced %4llu; %u outcomes\n", t->name,
	       (unsigned long long)nb, (unsigned long long)nf, (unsigned long long)nr, brute_o.n);
	CHECK(nf == nb, "%s: the search ran %llu executions, brute force %llu", t->name,
	      (unsigned long long)nf, (unsigned long long)nb);
	CHECK(nr <= nf && nr > 0, "%s: reduction ran %llu", t->name, (unsigned long long)nr);
	CHECK(same_outcomes(&brute_o, &full_o), "%s: outcomes without reduction: %u, brute force %u",
	      t->name, full_o.n, brute_o.n);
	CHECK(same_outcomes(&brute_o, &reduced_o), "%s: outcomes with reduction: %u, brute force %u",
	      t->name, reduced_o.n, brute_o.n);
	CHECK(brute_o.n > 1, "%s: a program with one outcome tests nothing", t->name);
	CHECK(has_verdict(&brute_o, WEFT_FAIL_ASSERTION) == (expect_failure != 0),
	      "%s: brute force %s the failure", t->name, expect_failure ? "misses" : "finds");
	CHECK(has_verdict(&reduced_o, WEFT_FAIL_ASSERTION) == (expect_failure != 0),
	      "%s: reduction %s the failure", t->name, expect_failure ? "misses" : "finds");
	if (t == &wake_program)
		saw_wake_outcome = has_text(&brute_o, "returned 110") &&
				   has_text(&full_o, "returned 110") &&
				   has_text(&reduced_o, "returned 110");
	for (unsigned i = 0; i < brute_o.n; i++)
		printf("  %s\n", brute_o.text[i]);
	weft_runner_free(r);
}

int main(void)
{
	compare(&flag_buggy, 1);
	compare(&flag_fixed, 0);
	compare(&wake_program, 0);
	CHECK(saw_wake_outcome, "the outcome reached only after a wake-up decision was missed");
	compare(&three_program, 0);
	return check_summary("test_systematic_programs");
}
