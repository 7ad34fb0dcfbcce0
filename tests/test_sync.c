/*
 * tests/test_sync.c - managed blocking and progress, one behaviour per check:
 * a lock-order deadlock is found and explained; locks in a fixed order never
 * deadlock; a spinner behind a preempted lock holder is descheduled (no false
 * step-budget); a spin nobody can end is a livelock; an operation that runs
 * alone too long breaks an obstruction-freedom claim; unlocking a free mutex
 * is misuse; a timed wait nobody signals times out; semaphores and rwlocks
 * hand over; every verdict repeats itself.
 */
#include <errno.h>
#include <string.h>

#include "weft/run.h"
#include "weft/sync.h"
#include "weft/weft.h"
#include "check.h"

typedef struct shared {
	pthread_mutex_t a, b;
	pthread_cond_t cond;
	pthread_rwlock_t rw;
	sem_t sem;
	_Atomic int flag, spin;
	int plain;
} shared;

static void *shared_new(void)
{
	shared *s = calloc(1, sizeof *s);
	pthread_mutex_init(&s->a, NULL);
	pthread_mutex_init(&s->b, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_rwlock_init(&s->rw, NULL);
	sem_init(&s->sem, 0, 0);
	return s;
}

static void shared_free(void *p)
{
	shared *s = p;
	sem_destroy(&s->sem);
	free(s);
}

/* ---- lock order ---- */
static int64_t lock_ab(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	weft_pthread_mutex_lock(&s->a);
	weft_pthread_mutex_lock(&s->b);
	weft_pthread_mutex_unlock(&s->b);
	weft_pthread_mutex_unlock(&s->a);
	return 0;
}

static int64_t lock_ba(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	weft_pthread_mutex_lock(&s->b);
	weft_pthread_mutex_lock(&s->a);
	weft_pthread_mutex_unlock(&s->a);
	weft_pthread_mutex_unlock(&s->b);
	return 0;
}

static const weft_op order_ops[] = { { .name = "lock_ab", .run = lock_ab },
				     { .name = "lock_ba", .run = lock_ba } };
static const weft_target order_target = { .name = "order", .ops = order_ops, .n_ops = 2,
	.setup = shared_new, .teardown = shared_free };
static const weft_op ordered_ops[] = { { .name = "lock_ab", .run = lock_ab } };
static const weft_target ordered_target = { .name = "ordered", .ops = ordered_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free };

static void test_lock_order_deadlock(void)
{
	weft_runner *r = weft_runner_new(&order_target);
	/* t0: lock_ab, preempted at step 3 (before locking b) to t1; t1: lock_ba */
	const uint8_t in[] = { 0x00, 0x05, 0x01, 0x02, 0x01, 0x00 };
	weft_result res;
	weft_verdict v = weft_runner_run(r, in, sizeof in, &res);
	CHECK(v == WEFT_FAIL_DEADLOCK, "verdict %s", weft_verdict_name(v));
	CHECK(strstr(res.message, "thread 0 in lock_ab() waits to lock mutex 2") &&
	      strstr(res.message, "held by thread 1") &&
	      strstr(res.message, "thread 1 in lock_ba() waits to lock mutex 1") &&
	      strstr(res.message, "held by thread 0"), "message: %s", res.message);
	uint64_t hash = res.trace_hash;
	weft_runner_run(r, in, sizeof in, &res);
	CHECK(res.trace_hash == hash && res.verdict == v, "a deadlock repeats itself");
	weft_runner_free(r);
}

/* ---- a fixed lock order never deadlocks, whatever the schedule ---- */
static void test_fixed_order_never_deadlocks(void)
{
	weft_runner *r = weft_runner_new(&ordered_target);
	uint64_t x = 12345;
	unsigned fails = 0;
	for (int i = 0; i < 3000; i++) {
		uint8_t in[16];
		for (size_t k = 0; k < sizeof in; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			in[k] = (uint8_t)(x >> 56);
		}
		fails += weft_runner_run(r, in, sizeof in, NULL) != WEFT_PASS;
	}
	CHECK(fails == 0, "%u of 3000 random schedules failed", fails);
	weft_runner_free(r);
}

/* ---- spinning ---- */
static int64_t spin_increment(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	while (weft_atomic_exchange(&s->spin, 1))
		while (weft_atomic_load(&s->spin))
			weft_yield();
	s->plain++;
	weft_atomic_store(&s->spin, 0);
	return 0;
}

static const weft_op spin_ops[] = { { .name = "increment", .run = spin_increment } };
static const weft_target spin_target = { .name = "spin", .ops = spin_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free };

static void test_spinner_is_descheduled(void)
{
	weft_runner *r = weft_runner_new(&spin_target);
	/* t0 preempted right after taking the lock (step 3: before its store) to t1 */
	const uint8_t in[] = { 0x05, 0x01, 0x00 };   /* one op kind: no kind byte */
	weft_result res;
	weft_verdict v = weft_runner_run(r, in, sizeof in, &res);
	CHECK(v == WEFT_PASS, "verdict %s: %s", weft_verdict_name(v), res.message);
	CHECK(res.preemptions == 1 && res.steps < 200, "%u preemptions, %llu steps",
	      res.preemptions, (unsigned long long)res.steps);
	weft_runner_free(r);
}

static int64_t wait_flag(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	while (!weft_atomic_load(&s->flag))
		weft_yield();
	return 0;
}

static const weft_op never_ops[] = { { .name = "wait_flag", .run = wait_flag } };
static const weft_target never_target = { .name = "never", .ops = never_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free, .livelock_limit = 300 };

static void test_livelock(void)
{
	weft_runner *r = weft_runner_new(&never_target);
	weft_result res;
	weft_verdict v = weft_runner_run(r, NULL, 0, &res);
	CHECK(v == WEFT_FAIL_LIVELOCK, "verdict %s: %s", weft_verdict_name(v), res.message);
	CHECK(strstr(res.message, "spins forever in wait_flag()") != NULL, "message: %s", res.message);
	CHECK(res.steps < 1000, "stopped after %llu steps", (unsigned long long)res.steps);
	weft_runner_free(r);
}

static const weft_target claimed_target = { .name = "claimed", .ops = never_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free, .obstruction_free_steps = 20 };

static void test_obstruction(void)
{
	weft_runner *r = weft_runner_new(&claimed_target);
	weft_result res;
	weft_verdict v = weft_runner_run(r, NULL, 0, &res);
	CHECK(v == WEFT_FAIL_OBSTRUCTION, "verdict %s: %s", weft_verdict_name(v), res.message);
	CHECK(strstr(res.message, "wait_flag() on thread 0 ran 20 switch points alone") != NULL,
	      "message: %s", res.message);
	weft_runner_free(r);
}

/* ---- misuse, timed waits, semaphores, rwlocks ---- */
static int64_t unlock_free(void *p, const int64_t *args)
{
	(void)args;
	weft_pthread_mutex_unlock(&((shared *)p)->a);
	return 0;
}

static const weft_op misuse_ops[] = { { .name = "unlock_free", .run = unlock_free } };
static const weft_target misuse_target = { .name = "misuse", .ops = misuse_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free, .min_threads = 1, .max_threads = 1 };

static int64_t timed_wait(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	struct timespec past = { 0, 0 };
	weft_pthread_mutex_lock(&s->a);
	int rc = weft_pthread_cond_timedwait(&s->cond, &s->a, &past);
	weft_pthread_mutex_unlock(&s->a);
	return rc == ETIMEDOUT;
}

static const weft_op timed_ops[] = { { .name = "timed_wait", .run = timed_wait } };
static const weft_target timed_target = { .name = "timed", .ops = timed_ops, .n_ops = 1,
	.setup = shared_new, .teardown = shared_free, .min_threads = 1, .max_threads = 1 };

static int64_t sem_give(void *p, const int64_t *args)
{
	(void)args;
	return weft_sem_post(&((shared *)p)->sem);
}

static int64_t sem_take(void *p, const int64_t *args)
{
	shared *s = p;
	(void)args;
	weft_pthread_rwlock_rdlock(&s->rw);
	weft_pthread_rwlock_unlock(&s->rw);
	return weft_sem_wait(&s->sem);
}

static const weft_op sem_ops[] = { { .name = "take", .run = sem_take },
				   { .name = "give", .run = sem_give } };
static const weft_target sem_target = { .name = "sem", .ops = sem_ops, .n_ops = 2,
	.setup = shared_new, .teardown = shared_free };

static void test_misuse_timeout_semaphore(void)
{
	weft_runner *r = weft_runner_new(&misuse_target);
	weft_result res;
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_FAIL_MISUSE &&
	      strstr(res.message, "unlocks mutex 1, which is not locked"), "%s", res.message);
	weft_runner_free(r);

	r = weft_runner_new(&timed_target);
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_PASS, "timed wait: %s", res.message);
	weft_runner_free(r);

	r = weft_runner_new(&sem_target);
	/* t0: take (waits), t1: give */
	const uint8_t in[] = { 0x00, 0x02, 0x01, 0x00 };
	weft_verdict v = weft_runner_run(r, in, sizeof in, &res);
	CHECK(v == WEFT_PASS && res.switches >= 2, "semaphore: %s %s (%u switches)",
	      weft_verdict_name(v), res.message, res.switches);
	weft_runner_free(r);
}

int main(void)
{
	test_lock_order_deadlock();
	test_fixed_order_never_deadlocks();
	test_spinner_is_descheduled();
	test_livelock();
	test_obstruction();
	test_misuse_timeout_semaphore();
	return check_summary("test_sync");
}
