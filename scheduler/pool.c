/*
 * scheduler/pool.c - the managed threads, created on first use and reused:
 * worker pthreads, or fibers (handoff_fiber.c) when the pool's backend says so.
 * Everything below about signals, fork and CPUs is about pthreads: fibers run
 * on the controlling thread, survive fork and need no pinning, so a fiber pool
 * makes no system call per execution.
 *
 * Why on first use: afl-fuzz forks the target after initialisation and a forked
 * child has only the forking thread, so workers made in LLVMFuzzerInitialize
 * would be gone.  For the same reason a pool remembers the fork generation it
 * was made in and rebuilds itself in a child (pthread_atfork counts forks).
 *
 * Why the signal mask: libFuzzer's -timeout and afl's stop signals are handled
 * on the fuzzer's own thread; a worker that took SIGALRM, SIGINT, SIGTERM, SIGUSR1
 * or SIGUSR2 would run the handler in the middle of a managed step.  Workers are
 * created with those blocked (they inherit the creator's mask).
 *
 * Why pinning: only one thread runs at a time, so a second CPU buys nothing, but
 * a thread woken on the other, idle CPU costs 20-40 us to get going on this
 * machine, against ~3 us for a hand-off on one CPU (bench/README.md has the
 * figures: 5-8x more executions per second pinned).  So the workers follow the
 * controlling thread's CPU: checked at every execution, re-pinned when it moved.
 * The controlling thread (the fuzzer's) is held on that CPU only while an
 * execution runs, so the last worker's wake-up does not send it to the other
 * CPU, and gets its own affinity mask back when the execution ends: between
 * executions the kernel may move it, and with -jobs/-fork every process follows
 * its own controller.  WEFT_PIN=0 turns all of this off.
 *
 * A parked worker sleeps on its baton.  It runs only when an execution passes
 * it the baton, so nothing instrumented runs between executions.
 */
#define _GNU_SOURCE
#include "sched.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic unsigned fork_generation;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static bool pinning_enabled = true;   /* written once, under pool_once */

static void count_fork_in_child(void)
{
	atomic_fetch_add_explicit(&fork_generation, 1, memory_order_relaxed);
}

static void pool_process_init(void)
{
	pthread_atfork(NULL, NULL, count_fork_in_child);
	sched_handoff_configure();
	const char *pin = getenv("WEFT_PIN");   /* a misspelt value must not test something else */
	if (pin && *pin && strcmp(pin, "0") != 0 && strcmp(pin, "1") != 0) {
		fprintf(stderr, "weft: WEFT_PIN=%s: use 1 (pin managed threads, default) or 0\n", pin);
		exit(2);
	}
	pinning_enabled = !(pin && strcmp(pin, "0") == 0);
}

static void *worker_main(void *arg)
{
	sched_thread *self = arg;
	sched_baton_wait(&self->baton);
	while (!self->quit)
		sched_thread_run(self);   /* ends in sched_transfer: waits for the next turn */
	return NULL;
}

static int start_worker(sched_thread *t)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	/*
	 * A program's pthread_create may be weft's interposer (harness/
	 * program_interpose.c), which sends a managed thread's calls to the
	 * managed twin; this one, made for a managed thread that spawns, must be
	 * the real call: it is made as nobody.
	 */
	struct weft_impl_thread *caller = weft_impl_current;
	weft_impl_current = NULL;
	int rc = pthread_create(&t->pthread, NULL, worker_main, t);
	weft_impl_current = caller;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc == 0 ? 0 : -1;
}

void sched_pool_init(sched_pool *pool, sched_backend backend)
{
	pthread_once(&pool_once, pool_process_init);
	memset(pool, 0, sizeof *pool);
	pool->backend = backend;
	pool->pinned_cpu = -1;
	pool->fork_generation = atomic_load_explicit(&fork_generation, memory_order_relaxed);
}

static void forget_workers_lost_in_fork(sched_pool *pool)
{
	unsigned gen = atomic_load_explicit(&fork_generation, memory_order_relaxed);
	if (gen == pool->fork_generation || pool->backend == SCHED_BACKEND_FIBER)
		return;   /* fibers are memory: the child has them all */
	/* Their pthreads do not exist in this process; their memory is abandoned. */
	pool->n_created = 0;
	pool->fork_generation = gen;
	pool->pinned_cpu = -1;
}

static void pin_worker(sched_thread *t, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t->pthread, sizeof set, &set);   /* best effort */
}

static void follow(sched_pool *pool, int cpu)
{
	if (cpu == pool->pinned_cpu)
		return;
	for (unsigned i = 0; i < pool->n_created; i++)
		pin_worker(pool->threads[i], cpu);
	pool->pinned_cpu = cpu;
}

void sched_pool_hold_controller(sched_pool *pool)
{
	pool->controller_held = false;
	if (!pinning_enabled || pool->backend == SCHED_BACKEND_FIBER)
		return;
	int cpu = sched_getcpu();
	if (cpu < 0 || pthread_getaffinity_np(pthread_self(), sizeof pool->controller_mask,
					      &pool->controller_mask) != 0)
		return;
	follow(pool, cpu);
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pool->controller_held = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

void sched_pool_release_controller(sched_pool *pool)
{
	if (pool->controller_held)
		pthread_setaffinity_np(pthread_self(), sizeof pool->controller_mask,
				       &pool->controller_mask);
	pool->controller_held = false;
}

static int start_thread(sched_pool *pool, sched_thread *t)
{
	if (pool->backend == SCHED_BACKEND_FIBER)
		return sched_fiber_worker_start(pool, t);
	if (start_worker(t) != 0)
		return -1;
	if (pool->pinned_cpu >= 0)
		pin_worker(t, pool->pinned_cpu);
	return 0;
}

int sched_pool_reserve(sched_pool *pool, unsigned n)
{
	forget_workers_lost_in_fork(pool);
	while (pool->n_created < n) {
		void *mem = NULL;
		if (posix_memalign(&mem, 64, sizeof(sched_thread)) != 0)
			return -1;
		sched_thread *t = mem;
		memset(t, 0, sizeof *t);
		t->id = pool->n_created;
		t->pool = pool;
		if (start_thread(pool, t) != 0) {
			free(t);
			return -1;
		}
		pool->threads[pool->n_created++] = t;
	}
	return 0;
}

void sched_pool_destroy(sched_pool *pool)
{
	forget_workers_lost_in_fork(pool);
	for (unsigned i = 0; i < pool->n_created; i++) {
		sched_thread *t = pool->threads[i];
		if (pool->backend == SCHED_BACKEND_FIBER) {
			sched_fiber_worker_stop(pool, t);
		} else {
			t->quit = true;
			sched_baton_pass(&t->baton);
			pthread_join(t->pthread, NULL);
		}
		free(t);
		pool->threads[i] = NULL;
	}
	pool->n_created = 0;
}
