/*
 * tests/test_sync_barrier.c - the rarer POSIX primitives under the scheduler
 * (scheduler/sync_barrier.c), one behaviour per check, each over 2,000 random
 * schedules:
 *   - a barrier lets nobody past before everyone arrived, and names exactly
 *     one serial thread per round; a barrier counted for more threads than
 *     come is a deadlock that says who waits at it and how many arrived;
 *   - a spin lock excludes (no lost update) and trylock reports busy; a
 *     relock deadlocks;
 *   - pthread_once runs its routine exactly once per execution, and a caller
 *     that finds it running waits until it returned.
 * Before these twins the real calls blocked a managed thread that held the
 * baton: the run hung instead of failing.
 */
#include <errno.h>
#include <string.h>

#include "weft/run.h"
#include "weft/sync.h"
#include "weft/weft.h"
#include "check.h"

typedef struct shared {
	pthread_barrier_t barrier;
	pthread_spinlock_t spin;
	pthread_once_t once;
	_Atomic int arrived, serial, value, done, init_runs, init_a, init_b;
} shared;

/* The once routine's object: pthread_once passes no argument. */
static _Thread_local shared *once_object;

static void *shared_new(unsigned barrier_count)
{
	shared *s = calloc(1, sizeof *s);
	pthread_barrier_init(&s->barrier, NULL, barrier_count);
	pthread_spin_init(&s->spin, PTHREAD_PROCESS_PRIVATE);
	s->once = (pthread_once_t)PTHREAD_ONCE_INIT;
	return s;
}

static void *shared_new3(void) { return shared_new(3); }
static void *shared_new4(void) { return shared_new(4); }

static void shared_free(void *p)
{
	shared *s = p;
	pthread_barrier_destroy(&s->barrier);
	pthread_spin_destroy(&s->spin);
	free(s);
}

static uint8_t next_byte(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (uint8_t)(*x >> 56);
}

/* Random schedules of `t`; returns how many failed, the first one's message in msg. */
static unsigned random_failures(const weft_target *t, char *msg, size_t cap)
{
	weft_runner *r = weft_runner_new(t);
	uint64_t x = 777;
	unsigned fails = 0;
	msg[0] = 0;
	for (int i = 0; i < 2000; i++) {
		uint8_t in[24];
		for (size_t k = 0; k < sizeof in; k++)
			in[k] = next_byte(&x);
		weft_result res;
		if (weft_runner_run(r, in, sizeof in, &res) != WEFT_PASS && fails++ == 0)
			snprintf(msg, cap, "%s: %s", weft_verdict_name(res.verdict), res.message);
	}
	weft_runner_free(r);
	return fails;
}

/*
 * The model: every operation returns 0 and none blocks.  (Without a model the
 * implementation run alone is the model, and alone a barrier of three waits
 * for good: a barrier is not a linearizable object.)
 */
static void ok_init(void *state) { *(char *)state = 0; }
static int64_t ok_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state, (void)op, (void)args;
	return 0;
}
static const weft_model ok_model = { .name = "returns 0", .state_size = 1,
				     .init = ok_init, .apply = ok_apply };

/* ---- barriers ---- */
static int64_t phase(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	weft_atomic_fetch_add(&s->arrived, 1);
	int rc = weft_pthread_barrier_wait(&s->barrier);
	if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
		weft_atomic_fetch_add(&s->serial, 1);
	else if (rc != 0)
		weft_fail("pthread_barrier_wait failed");
	if (weft_atomic_load(&s->arrived) != 3)
		weft_fail("past the barrier before everyone arrived");
	return 0;
}

static int64_t one_serial(void *p, const int64_t *args)
{
	(void)args;
	if (weft_atomic_load(&((shared *)p)->serial) != 1)
		weft_fail("not exactly one serial thread");
	return 0;
}

static const weft_op barrier_ops[] = { { .name = "phase", .run = phase },
				       { .name = "check", .run = one_serial,
					 .flags = WEFT_OP_FINAL_ONLY } };
static const weft_target barrier_target = { .name = "barrier", .ops = barrier_ops, .n_ops = 2,
	.final_op = &barrier_ops[1], .setup = shared_new3, .teardown = shared_free, .model = &ok_model,
	.min_threads = 3, .max_threads = 3, .max_ops_per_thread = 1 };
static const weft_target short_barrier_target = { .name = "short_barrier", .ops = barrier_ops,
	.n_ops = 1, .setup = shared_new4, .teardown = shared_free, .model = &ok_model,
	.min_threads = 3, .max_threads = 3, .max_ops_per_thread = 1 };

static void test_barrier(void)
{
	char msg[512];
	unsigned fails = random_failures(&barrier_target, msg, sizeof msg);
	CHECK(fails == 0, "barrier: %u of 2000 schedules failed, first: %s", fails, msg);

	weft_runner *r = weft_runner_new(&short_barrier_target);
	weft_result res;
	weft_verdict v = weft_runner_run(r, NULL, 0, &res);
	CHECK(v == WEFT_FAIL_DEADLOCK && strstr(res.message, "waits at barrier 1") &&
	      strstr(res.message, "3 of 4 arrived"), "%s: %s", weft_verdict_name(v), res.message);
	weft_runner_free(r);
}

/* ---- spin locks ---- */
static int64_t spin_increment(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	if (weft_pthread_spin_trylock(&s->spin) == EBUSY)
		weft_pthread_spin_lock(&s->spin);
	int v = weft_atomic_load(&s->value);   /* a switch point inside: a lost update if not excluded */
	weft_atomic_store(&s->value, v + 1);
	weft_pthread_spin_unlock(&s->spin);
	weft_atomic_fetch_add(&s->done, 1);
	return 0;
}

static int64_t no_lost_update(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	if (weft_atomic_load(&s->value) != weft_atomic_load(&s->done))
		weft_fail("lost update under the spin lock");
	return 0;
}

static int64_t relock(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	weft_pthread_spin_lock(&s->spin);
	weft_pthread_spin_lock(&s->spin);
	return 0;
}

static const weft_op spin_ops[] = { { .name = "increment", .run = spin_increment },
				    { .name = "check", .run = no_lost_update,
				      .flags = WEFT_OP_FINAL_ONLY } };
static const weft_target spin_target = { .name = "spin", .ops = spin_ops, .n_ops = 2,
	.final_op = &spin_ops[1], .setup = shared_new3, .teardown = shared_free, .model = &ok_model };
static const weft_op relock_ops[] = { { .name = "relock", .run = relock } };
static const weft_target relock_target = { .name = "relock", .ops = relock_ops, .n_ops = 1,
	.setup = shared_new3, .teardown = shared_free, .model = &ok_model, .min_threads = 1, .max_threads = 1 };

static void test_spin_lock(void)
{
	char msg[512];
	unsigned fails = random_failures(&spin_target, msg, sizeof msg);
	CHECK(fails == 0, "spin lock: %u of 2000 schedules failed, first: %s", fails, msg);

	weft_runner *r = weft_runner_new(&relock_target);
	weft_result res;
	weft_verdict v = weft_runner_run(r, NULL, 0, &res);
	CHECK(v == WEFT_FAIL_DEADLOCK && strstr(res.message, "spin lock 1"), "%s: %s",
	      weft_verdict_name(v), res.message);
	weft_runner_free(r);
}

/* ---- once ---- */
static void init_routine(void)
{
	shared *s = once_object;
	weft_atomic_fetch_add(&s->init_runs, 1);
	weft_atomic_store(&s->init_a, 1);   /* switch points inside the routine */
	weft_atomic_store(&s->init_b, 1);
}

static int64_t use_once(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	once_object = s;
	weft_pthread_once(&s->once, init_routine);
	if (!weft_atomic_load(&s->init_a) || !weft_atomic_load(&s->init_b))
		weft_fail("pthread_once returned before the routine finished");
	return 0;
}

static int64_t ran_once(void *p, const int64_t *args)
{
	(void)args;
	if (weft_atomic_load(&((shared *)p)->init_runs) != 1)
		weft_fail("the once routine did not run exactly once");
	return 0;
}

static const weft_op once_ops[] = { { .name = "use", .run = use_once },
				    { .name = "check", .run = ran_once,
				      .flags = WEFT_OP_FINAL_ONLY } };
static const weft_target once_target = { .name = "once", .ops = once_ops, .n_ops = 2,
	.final_op = &once_ops[1], .setup = shared_new3, .teardown = shared_free, .model = &ok_model };

static void test_once(void)
{
	char msg[512];
	unsigned fails = random_failures(&once_target, msg, sizeof msg);
	CHECK(fails == 0, "once: %u of 2000 schedules failed, first: %s", fails, msg);
}

int main(void)
{
	test_barrier();
	test_spin_lock();
	test_once();
	return check_summary("test_sync_barrier");
}
