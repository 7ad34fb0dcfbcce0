/*
 * bench/bench_access.c - what an instrumented memory access costs
 * (instrument/weft_instrument.cpp, scheduler/access.c).  This file is itself
 * compiled with weft's pass plugin, so its loops are instrumented like a
 * target's; the baseline loop opts out (disable_sanitizer_instrumentation, which
 * the pass honours).  Rows, in ns per load, median and min over REPS:
 *
 *   baseline            the loop uninstrumented;
 *   outside execution   instrumented, no managed execution: the TLS load and
 *                       the branch the pass puts before each access;
 *   own memory          inside an execution, memory no other thread touched:
 *                       not a step (the default mode's table probe);
 *   atomics mode        inside, WEFT_ACCESSES=atomics: the call, then nothing;
 *   shared memory       inside, memory another thread touched: a step, the
 *                       switch point that does not switch plus its trace event
 *                       (compare bench_scheduler's row a, weft_atomic_load);
 *   atomic outside      an atomic load (relaxed), no managed execution: the
 *                       guards before and after it (issue 18: the post-hook's);
 *   atomic seq_cst      inside, WEFT_MEMORY=c11: a step plus the memory model's
 *                       post-hook on an untracked location (one compare);
 *   atomic relaxed      the same, relaxed: the location is tracked, one message.
 *
 * Executions run on the scheduler directly (sched_exec_run, fibers, a strategy
 * that never preempts), so nothing but the accesses is timed.
 * Usage: bench_access [--quick]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scheduler/sched.h"

#define REPS 7
#define WORDS 64
#define LOADS 200000

static int data[WORDS];
static volatile int sink;
static int loads = LOADS;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline, disable_sanitizer_instrumentation))
static int loop_plain(void)
{
	int sum = 0, n = loads;
	for (int i = 0; i < n; i++)
		sum += data[i & (WORDS - 1)];
	return sum;
}

__attribute__((noinline))
static int loop_instrumented(void)
{
	int sum = 0, n = loads;   /* one instrumented access per iteration: data[] only */
	for (int i = 0; i < n; i++)
		sum += data[i & (WORDS - 1)];
	return sum;
}

static uint64_t never(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	(void)self, (void)thread, (void)call, (void)step;
	return UINT64_MAX;
}

static unsigned same(void *self, unsigned thread, uint32_t call, uint64_t step,
		     sched_mask runnable, bool forced)
{
	(void)self, (void)call, (void)step, (void)runnable, (void)forced;
	return thread;
}

__attribute__((noinline))
static int loop_atomic_sc(void)
{
	int sum = 0, n = loads;
	for (int i = 0; i < n; i++)
		sum += __atomic_load_n(&data[i & (WORDS - 1)], __ATOMIC_SEQ_CST);
	return sum;
}

__attribute__((noinline))
static int loop_atomic_relaxed(void)
{
	int sum = 0, n = loads;
	for (int i = 0; i < n; i++)
		sum += __atomic_load_n(&data[i & (WORDS - 1)], __ATOMIC_RELAXED);
	return sum;
}

/* Thread 0 touches every word first (so thread 1's loads are shared) unless alone. */
static double timed_ns;
static int (*timed_loop)(void) = loop_instrumented;
static void body(void *ctx, unsigned thread)
{
	unsigned n_threads = *(unsigned *)ctx;
	sched_call_begin(thread);
	if (n_threads == 2 && thread == 0) {
		for (int i = 0; i < WORDS; i++)
			sink = data[i];
		return;
	}
	double t0 = now_ns();
	sink = timed_loop();
	timed_ns = now_ns() - t0;
}

static double managed_ns_per_load(unsigned n_threads, uint8_t accesses)
{
	static sched_pool pool;
	static sched_exec exec;
	static bool ready;
	if (!ready) {
		sched_pool_init(&pool, SCHED_BACKEND_FIBER);
		sched_exec_init(&exec, &pool);
		ready = true;
	}
	const sched_exec_config cfg = {
		.n_threads = n_threads,
		.step_budget = 4ull * loads,
		.spin_limit = 4ull * loads,
		.livelock_limit = 4ull * loads,
		.accesses = accesses,
		.memory = SCHED_MEMORY_C11,
		.strategy = { .next_preemption = never, .pick = same },
		.body = body,
		.body_ctx = &n_threads,
	};
	if (sched_exec_run(&exec, &cfg) != 0)
		exit(2);
	return timed_ns / loads;
}

static double managed_atomic_ns(int (*loop)(void))
{
	timed_loop = loop;
	double ns = managed_ns_per_load(1, SCHED_ACCESSES_SHARED);
	timed_loop = loop_instrumented;
	return ns;
}

static double unmanaged_ns_per_load(int (*loop)(void))
{
	double t0 = now_ns();
	sink = loop();
	return (now_ns() - t0) / loads;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void row(const char *what, double v[REPS], const char *detail)
{
	qsort(v, REPS, sizeof v[0], cmp_double);
	printf("%-22s %10.2f %10.2f  %s\n", what, v[REPS / 2], v[0], detail);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--quick") == 0)
		loads = LOADS / 20;
	else if (argc > 1) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	double v[8][REPS];
	for (int k = -1; k < REPS; k++) {   /* k = -1: warm-up */
		double r[8] = {
			unmanaged_ns_per_load(loop_plain),
			unmanaged_ns_per_load(loop_instrumented),
			managed_ns_per_load(1, SCHED_ACCESSES_SHARED),
			managed_ns_per_load(1, SCHED_ACCESSES_ATOMICS),
			managed_ns_per_load(2, SCHED_ACCESSES_SHARED),
			unmanaged_ns_per_load(loop_atomic_relaxed),
			managed_atomic_ns(loop_atomic_sc),
			managed_atomic_ns(loop_atomic_relaxed),
		};
		for (int i = 0; k >= 0 && i < 8; i++)
			v[i][k] = r[i];
	}
	printf("weft bench_access: ns per load, median and min over %d repetitions of %d loads\n",
	       REPS, loads);
	printf("%-22s %10s %10s\n", "", "median", "min");
	row("baseline", v[0], "not instrumented");
	row("outside execution", v[1], "instrumented, weft_impl_current == NULL");
	row("own memory", v[2], "managed, WEFT_ACCESSES=shared, not a step");
	row("atomics mode", v[3], "managed, WEFT_ACCESSES=atomics, not a step");
	row("shared memory", v[4], "managed, a step that does not switch (+ trace event)");
	row("atomic outside", v[5], "instrumented relaxed atomic load, weft_impl_current == NULL");
	row("atomic seq_cst", v[6], "managed, a step + the memory model (WEFT_MEMORY=c11, untracked)");
	row("atomic relaxed", v[7], "managed, a step + the memory model (tracked, one message)");
	return 0;
}
