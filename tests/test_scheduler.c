/*
 * tests/test_scheduler.c - the managed-thread scheduler's promises:
 *   - exactly one OS thread runs managed code at a time (never two);
 *   - the bytes' schedule is followed exactly (golden report of the counter);
 *   - managed threads are pooled and reused (as many stacks as threads, never
 *     more); pthread workers have the fuzzer's signals blocked; fibers all run
 *     on the controlling thread (WEFT_BACKEND picks the backend: ctest runs
 *     this test under both);
 *   - a runaway execution ends by the step budget with pending operations,
 *     and the next execution starts clean;
 *   - no switch happens inside weft_atomic_begin/end;
 *   - the controlling thread's CPU affinity is its own again after a run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>

#include "check.h"
#include "runner/runner_internal.h"
#include "weft/run.h"
#include "weft/weft.h"

/* ---- probe: exclusive sections between switch points ------------------------- */

typedef struct probe {
	_Atomic uint32_t shared;
	volatile pthread_t owner;
	volatile int overlap;
} probe;

static pthread_t seen_threads[64];
static unsigned n_seen_threads;
static int saw_unblocked_signal;
/*
 * One frame address per stack seen: frames of one shallow operation lie within
 * a few KiB of each other, distinct stacks (pthread stacks, fiber stacks) at
 * least 256 KiB apart.  The frame address, not a local's: ASan may move
 * locals to its fake stack.
 */
#define SAME_STACK_DISTANCE (64 * 1024)
static uintptr_t seen_stacks[64];
static unsigned n_seen_stacks;

static void note_stack(uintptr_t frame)
{
	for (unsigned i = 0; i < n_seen_stacks; i++) {
		uintptr_t d = frame > seen_stacks[i] ? frame - seen_stacks[i] : seen_stacks[i] - frame;
		if (d < SAME_STACK_DISTANCE)
			return;
	}
	if (n_seen_stacks < 64)
		seen_stacks[n_seen_stacks++] = frame;
}

static void note_worker(void)
{
	note_stack((uintptr_t)__builtin_frame_address(0));
	pthread_t self = pthread_self();
	for (unsigned i = 0; i < n_seen_threads; i++)
		if (pthread_equal(seen_threads[i], self))
			return;
	if (n_seen_threads < 64)
		seen_threads[n_seen_threads++] = self;
	sigset_t mask;
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	int sigs[] = { SIGALRM, SIGINT, SIGTERM, SIGUSR1, SIGUSR2 };
	for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++)
		saw_unblocked_signal |= !sigismember(&mask, sigs[i]);
}

/* If another OS thread ran at the same time, it would overwrite owner. */
static void exclusive_section(probe *p)
{
	pthread_t self = pthread_self();
	p->owner = self;
	for (int i = 0; i < 2000; i++)
		if (!pthread_equal(p->owner, self))
			p->overlap = 1;
}

static int64_t probe_touch(void *self, const int64_t *args)
{
	probe *p = self;
	(void)args;
	note_worker();
	for (int i = 0; i < 4; i++) {
		exclusive_section(p);
		weft_atomic_fetch_add(&p->shared, 1);
	}
	exclusive_section(p);
	return 0;
}

static void *probe_setup(void) { return calloc(1, sizeof(probe)); }
static void probe_teardown(void *p) { free(p); }

static int probe_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	probe *p = self;
	(void)h;
	if (p->overlap)
		snprintf(msg, cap, "two OS threads ran managed code at once");
	return p->overlap;
}

/*
 * touch() always returns 0.  A model is needed here: without one the oracle
 * would replay touch() on the controlling thread (the implementation is the
 * default model), and note_worker() would count that thread as a worker.
 */
static void touch_model_init(void *state) { (void)state; }
static int64_t touch_model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state; (void)op; (void)args;
	return 0;
}
static const weft_model touch_model = { .name = "touch", .state_size = 1,
					.init = touch_model_init, .apply = touch_model_apply };

static const weft_op probe_ops[] = { { .name = "touch", .run = probe_touch } };
static const weft_target probe_target = {
	.name = "probe", .ops = probe_ops, .n_ops = 1, .max_threads = 4, .max_ops_per_thread = 3,
	.setup = probe_setup, .teardown = probe_teardown, .validate = probe_validate,
	.model = &touch_model,
};

static void test_one_thread_at_a_time_and_pooled(void)
{
	weft_runner *r = weft_runner_new(&probe_target);
	uint64_t seed = 42;
	uint8_t buf[64];
	unsigned failures = 0, preempted = 0;
	for (int run = 0; run < 300; run++) {
		size_t n = test_rand(&seed) % sizeof buf;
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)(test_rand(&seed) % 8);   /* small distances: many switches */
		weft_result res;
		failures += weft_runner_run(r, buf, n, &res) != WEFT_PASS;
		preempted += res.preemptions > 0;
	}
	CHECK(failures == 0, "%u executions saw two threads at once", failures);
	CHECK(preempted > 100, "only %u of 300 executions preempted: the test tests nothing", preempted);
	CHECK(n_seen_stacks <= 4, "%u distinct stacks for at most 4 threads: not reused",
	      n_seen_stacks);
	CHECK(n_seen_stacks >= 2, "only %u stacks seen", n_seen_stacks);
	if (runner_backend(r) == SCHED_BACKEND_PTHREAD) {
		CHECK(n_seen_threads <= 4, "%u distinct worker pthreads for at most 4 threads: "
		      "not reused", n_seen_threads);
		CHECK(n_seen_threads >= 2, "only %u workers seen", n_seen_threads);
		CHECK(!saw_unblocked_signal, "a worker had a fuzzer signal unblocked");
	} else {
		CHECK(n_seen_threads == 1 && pthread_equal(seen_threads[0], pthread_self()),
		      "fibers ran on %u OS threads, want the controlling thread only",
		      n_seen_threads);
	}
	fprintf(stderr, "test_scheduler: backend %s, %u stacks, %u OS threads\n",
		weft_runner_backend(r), n_seen_stacks, n_seen_threads);
	weft_runner_free(r);
}

/* ---- the counter's schedule, as a golden report ------------------------------ */

typedef struct counter { _Atomic uint32_t value; } counter;

enum { COUNTER_LOAD_LINE = __LINE__ + 5 };   /* the load below; the store follows it */
static int64_t counter_inc(void *self, const int64_t *args)
{
	counter *c = self;
	(void)args;
	uint32_t v = weft_atomic_load(&c->value);
	weft_atomic_store(&c->value, v + 1);
	return 0;
}

static int64_t counter_inc_atomic_block(void *self, const int64_t *args)
{
	counter *c = self;
	(void)args;
	weft_atomic_begin();
	uint32_t v = weft_atomic_load(&c->value);
	weft_atomic_store(&c->value, v + 1);
	weft_atomic_end();
	return 0;
}

static void *counter_setup(void) { return calloc(1, sizeof(counter)); }

static int counter_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	counter *c = self;
	size_t done = 0;
	for (size_t i = 0; i < h->n_ops; i++)
		done += !h->ops[i].pending;
	if (atomic_load(&c->value) == done)
		return 0;
	snprintf(msg, cap, "final value %u after %zu increments", atomic_load(&c->value), done);
	return 1;
}

static const weft_op counter_ops[] = { { .name = "inc", .run = counter_inc } };
static const weft_op block_ops[] = { { .name = "inc", .run = counter_inc_atomic_block } };
static const weft_target counter_target = {
	.name = "counter", .ops = counter_ops, .n_ops = 1,
	.setup = counter_setup, .teardown = probe_teardown, .validate = counter_validate,
};
static const weft_target block_target = {
	.name = "counter_block", .ops = block_ops, .n_ops = 1,
	.setup = counter_setup, .teardown = probe_teardown, .validate = counter_validate,
};

static const char golden_counter_report[] =
	"==weft== FAIL validation in counter: final value 1 after 2 increments\n"
	"==weft== 2 threads, 2 operations, 1 preemption, 2 switches, 6 steps\n"
	"scenario:\n"
	"  thread 0: inc()\n"
	"  thread 1: inc()\n"
	"interleaving:\n"
	"  step  thread 0                      thread 1\n"
	"     1  inc()\n"
	"     2  load test_scheduler.c:%d -> 0\n"
	"     3  ~~ preempted, to thread 1\n"
	"     4                                inc()\n"
	"     5                                load test_scheduler.c:%d -> 0\n"
	"     6                                store test_scheduler.c:%d <- 1\n"
	"     7                                inc() = 0\n"
	"     8                                -- done, to thread 0\n"
	"     9  store test_scheduler.c:%d <- 1\n"
	"    10  inc() = 0\n"
	"history (each operation from its start to its return; time = step):\n"
	"  thread 0  |--- inc() = 0 ---|\n"
	"  thread 1    |- inc() = 0 -|\n";

static void test_schedule_is_followed(void)
{
	weft_runner *r = weft_runner_new(&counter_target);
	const uint8_t input[] = { 5 };   /* thread 0's inc preempted at its step 3: the store */
	weft_result res;
	CHECK(weft_runner_run(r, input, sizeof input, &res) == WEFT_FAIL_VALIDATION, "lost update");
	CHECK(res.preemptions == 1 && res.n_threads == 2 && res.n_ops == 2, "minimal shape");
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	weft_runner_report(r, out);
	fclose(out);
	char golden[2048];
	snprintf(golden, sizeof golden, golden_counter_report, COUNTER_LOAD_LINE,
		 COUNTER_LOAD_LINE, COUNTER_LOAD_LINE + 1, COUNTER_LOAD_LINE + 1);
	CHECK(strcmp(text, golden) == 0, "report differs:\n%s\nexpected:\n%s", text, golden);
	free(text);
	const uint8_t earlier[] = { 4 };   /* preempt at step 2, before the load: no bug */
	CHECK(weft_runner_run(r, earlier, sizeof earlier, &res) == WEFT_PASS, "step 2 passes");
	CHECK(res.preemptions == 1, "step 2 still preempts once");
	weft_runner_free(r);
}

static void test_no_switch_inside_atomic_block(void)
{
	weft_runner *plain = weft_runner_new(&counter_target);
	weft_runner *block = weft_runner_new(&block_target);
	unsigned plain_failures = 0, block_failures = 0;
	for (unsigned a = 0; a < 16; a++) {
		for (unsigned b = 0; b < 16; b++) {
			const uint8_t input[] = { (uint8_t)b, 0, (uint8_t)a };
			plain_failures += weft_runner_run(plain, input, sizeof input, NULL) != WEFT_PASS;
			block_failures += weft_runner_run(block, input, sizeof input, NULL) != WEFT_PASS;
		}
	}
	CHECK(plain_failures > 0, "no schedule broke the plain counter: the test tests nothing");
	CHECK(block_failures == 0, "%u schedules switched inside an atomic block", block_failures);
	weft_runner_free(plain);
	weft_runner_free(block);
}

/* ---- the step budget ------------------------------------------------------- */

static _Atomic uint32_t never_set;

static int64_t spin_forever(void *self, const int64_t *args)
{
	(void)self;
	(void)args;
	while (weft_atomic_load(&never_set) == 0)
		weft_yield();
	return 1;
}

static size_t last_pending, last_history;

static int count_pending(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)self;
	(void)msg;
	(void)cap;
	last_pending = 0;
	last_history = h->n_ops;
	for (size_t i = 0; i < h->n_ops; i++)
		last_pending += h->ops[i].pending;
	return 0;
}

static const weft_op spin_ops[] = { { .name = "spin", .run = spin_forever } };
static const weft_target spin_target = {
	.name = "spinner", .ops = spin_ops, .n_ops = 1, .step_budget = 500,
	.validate = count_pending,
};

static void test_step_budget_cuts_runaway_execution(void)
{
	weft_runner *r = weft_runner_new(&spin_target);
	const uint8_t input[] = { 0, 0, 0, 7, 0, 9 };
	weft_result first, again;
	last_history = 99;
	CHECK(weft_runner_run(r, input, sizeof input, &first) == WEFT_FAIL_BUDGET, "budget verdict");
	CHECK(last_history == 99, "validate must not judge a cut execution");
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	weft_runner_report(r, out);
	fclose(out);
	CHECK(strstr(text, "!! step budget exhausted") != NULL, "report shows the cut:\n%s", text);
	CHECK(strstr(text, "spin() =") == NULL, "no spin returned: all pending:\n%s", text);
	free(text);
	CHECK(first.steps == 501, "cut at the 501st switch point, got %llu",
	      (unsigned long long)first.steps);
	CHECK(strstr(first.message, "step budget of 500") != NULL, "message: %s", first.message);
	uint64_t hash = first.trace_hash;
	CHECK(weft_runner_run(r, input, sizeof input, &again) == WEFT_FAIL_BUDGET, "again");
	CHECK(again.trace_hash == hash, "a cut execution replays identically");

	/* The same pool then runs a normal execution cleanly. */
	weft_runner *c = weft_runner_new(&counter_target);
	const uint8_t ok[] = { 0 };
	CHECK(weft_runner_run(c, ok, sizeof ok, &again) == WEFT_PASS, "clean after a cut");
	weft_runner_free(c);
	weft_runner_free(r);
}

/* Workers follow the controller's CPU, but the controller's own mask comes back. */
static void test_controller_affinity_restored(void)
{
	cpu_set_t before, after;
	REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0, "getaffinity");
	weft_runner *r = weft_runner_new(&counter_target);
	const uint8_t input[] = { 5 };
	for (int i = 0; i < 20; i++)
		weft_runner_run(r, input, sizeof input, NULL);
	REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof after, &after) == 0, "getaffinity");
	CHECK(CPU_EQUAL(&before, &after), "the controlling thread's affinity was not restored");
	weft_runner_free(r);
}

int main(void)
{
	test_controller_affinity_restored();
	test_one_thread_at_a_time_and_pooled();
	test_schedule_is_followed();
	test_no_switch_inside_atomic_block();
	test_step_budget_cuts_runaway_execution();
	return check_summary("test_scheduler");
}
