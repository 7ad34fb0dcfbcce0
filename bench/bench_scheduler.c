/*
 * bench/bench_scheduler.c - what the managed scheduler costs, in three figures,
 * for each backend side by side (fibers and pthreads, scheduler/sched.h).
 *
 *   a. a switch point that does not switch: one target operation doing N
 *      weft_atomic_load calls, run on 2 threads with no preemption (the empty
 *      input); time / weft_result.steps.  The same loop called directly from
 *      main (no managed execution: a plain C11 load plus a thread-local check)
 *      is printed next to it for comparison.
 *   b. a real hand-off, two ways.  Through the runner: an operation doing M
 *      loads on each of 2 threads, each operation planned to be preempted at
 *      every one of its steps (input built by every_step_input,
 *      docs/input-format.md); time / weft_result.switches.  This includes the
 *      bytes strategy, whose plan lookup is linear in the plan (400 entries
 *      here, a handful in real inputs).  The scheduler alone: sched_exec_run
 *      with a strategy that preempts at every step and picks the other thread,
 *      2 threads x H weft_yield(): switch point, preemption, trace event and
 *      the backend's transfer, nothing else.
 *   c. whole executions per second of a fixed counter (2 threads x 1
 *      weft_atomic_fetch_add), with inputs "" (no preemption) and 04 (one
 *      preemption: t0 is preempted at step 2, before its fetch_add).
 *
 * Every figure is the median (and the minimum) over REPS repetitions, once with
 * fibers and once with pthreads (each runner is made with WEFT_BACKEND set:
 * the benchmark overrides any value from the environment).  The backends take
 * turns within each repetition, so a noisy moment on a shared machine hits
 * both columns rather than one.  The pthread knobs
 * WEFT_SPIN (hand-off spin, scheduler/handoff.h) and WEFT_PIN (workers follow
 * the controller's CPU, scheduler/pool.c) are printed first.
 *
 * The load loops never change memory, so the targets raise spin_limit and
 * livelock_limit above their step counts: otherwise progress detection
 * (scheduler/progress.c) would deschedule them as spinners.
 *
 * Usage: bench_scheduler [--quick]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scheduler/sched.h"
#include "weft/run.h"
#include "weft/weft.h"

#define REPS 7
#define N_LOADS_SWITCH_POINT 100000   /* benchmark a: loads per operation */
#define M_LOADS_HANDOFF 200           /* benchmark b: loads per operation (2 x 201 planned preemptions) */
#define HANDOFF_INPUT_BYTES (2 * 4 * (M_LOADS_HANDOFF + 2))   /* benchmark b's plan */
#define H_YIELDS 10000                /* benchmark b, scheduler alone: yields per thread */

/* ---- the targets --------------------------------------------------------- */

/*
 * Benchmark b's input: two threads, one operation each, each planned to be
 * preempted at every step 1..steps of its operation (a LEB128 step + 2, then
 * the thread byte), so every switch point hands off.
 */
static size_t every_step_input(uint8_t *buf, unsigned steps)
{
	size_t n = 0;
	for (int thread = 0; thread < 2; thread++) {
		for (unsigned s = 1; s <= steps; s++) {
			unsigned v = s + 2;
			if (v >= 0x80 || v == '0') {   /* '0' would read as 0: spell it b0 00 */
				buf[n++] = (uint8_t)(0x80 | (v & 0x7f));
				v >>= 7;
			}
			buf[n++] = (uint8_t)v;
			buf[n++] = 0;   /* to: the other thread */
		}
		buf[n++] = 0;   /* end of the thread's list */
	}
	return n;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct bench_cell {
	_Atomic uint32_t value;
} bench_cell;

static void *cell_setup(void)
{
	bench_cell *c = malloc(sizeof *c);
	if (c)
		atomic_init(&c->value, 0);
	return c;
}

static void cell_teardown(void *self)
{
	free(self);
}

/* args[0] loads of one atomic word; the sum keeps the loop from being dropped. */
static int64_t op_loads(void *self, const int64_t *args)
{
	bench_cell *c = self;
	uint64_t sum = 0;
	for (int64_t i = 0; i < args[0]; i++)
		sum += weft_atomic_load(&c->value);
	return (int64_t)sum;
}

/*
 * Benchmark a's operation: the same loop, timed from inside the managed thread.
 * No switch happens during the loop (no preemption), so this is the hot path of
 * the switch point alone: step count, countdown, trace append.  Only the baton
 * holder runs and hand-offs order memory, so plain statics are race-free here.
 */
static double inside_ns;
static uint64_t inside_loads;

static int64_t op_loads_timed(void *self, const int64_t *args)
{
	double t0 = now_ns();
	int64_t r = op_loads(self, args);
	inside_ns += now_ns() - t0;
	inside_loads += (uint64_t)args[0];
	return r;
}

static int64_t op_increment(void *self, const int64_t *args)
{
	(void)args;
	bench_cell *c = self;
	weft_atomic_fetch_add(&c->value, 1);
	return 0;
}

/* Counter model: the final value equals the increments performed. */
static int counter_validate(void *self, const weft_history *h, char *msg, size_t cap)
{
	bench_cell *c = self;
	uint32_t done = 0, pending = 0;
	for (size_t i = 0; i < h->n_ops; i++) {
		if (h->ops[i].pending)
			pending++;
		else
			done++;
	}
	uint32_t value = atomic_load(&c->value);
	if (value >= done && value <= done + pending)
		return 0;
	snprintf(msg, cap, "final value %u after %u increments", value, done);
	return 1;
}

/* The load count is an argument with min == max: fixed, and it consumes no byte. */
static const weft_op loads_n_ops[] = {
	{ .name = "loads", .run = op_loads_timed, .n_args = 1,
	  .args = { { N_LOADS_SWITCH_POINT, N_LOADS_SWITCH_POINT } } },
};
static const weft_op loads_m_ops[] = {
	{ .name = "loads", .run = op_loads, .n_args = 1,
	  .args = { { M_LOADS_HANDOFF, M_LOADS_HANDOFF } } },
};
static const weft_op counter_ops[] = {
	{ .name = "increment", .run = op_increment },
};

static const weft_target bench_switch_point = {
	.name = "bench_switch_point",
	.ops = loads_n_ops,
	.n_ops = 1,
	.step_budget = 4 * N_LOADS_SWITCH_POINT,   /* 2 threads x N loads, with room */
	.spin_limit = 4 * N_LOADS_SWITCH_POINT,
	.livelock_limit = 4 * N_LOADS_SWITCH_POINT,
	.setup = cell_setup,
	.teardown = cell_teardown,
};

static const weft_target bench_handoff = {
	.name = "bench_handoff",
	.ops = loads_m_ops,
	.n_ops = 1,
	.step_budget = 4 * M_LOADS_HANDOFF,
	.spin_limit = 4 * M_LOADS_HANDOFF,
	.livelock_limit = 4 * M_LOADS_HANDOFF,
	.setup = cell_setup,
	.teardown = cell_teardown,
};

static const weft_target bench_counter = {
	.name = "bench_counter",
	.ops = counter_ops,
	.n_ops = 1,
	.setup = cell_setup,
	.teardown = cell_teardown,
	.validate = counter_validate,
};

/* Not used by this program (no harness glue is linked); a target file names one. */
WEFT_FUZZ_TARGET(bench_counter)

/* ---- timing --------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

typedef struct stat2 {
	double median, min, max;
} stat2;

static stat2 summarize(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	stat2 s = { v[n / 2], v[0], v[n - 1] };
	return s;
}

/* ---- running ----------------------------------------------------------------- */

static const char *const backends[] = { "fiber", "pthread" };
#define N_BACKENDS 2

/* A runner on `backend`: WEFT_BACKEND is read when the runner is made. */
static weft_runner *new_runner(const weft_target *t, const char *backend)
{
	setenv("WEFT_BACKEND", backend, 1);
	weft_runner *r = weft_runner_new(t);
	if (!r) {
		fprintf(stderr, "bench_scheduler: out of memory creating a runner for %s\n", t->name);
		exit(2);
	}
	if (strcmp(weft_runner_backend(r), backend) != 0) {
		fprintf(stderr, "bench_scheduler: asked for %s, the runner uses %s\n", backend,
			weft_runner_backend(r));
		exit(2);
	}
	return r;
}

/* One run that must pass; exits with the report otherwise. */
static void run_checked(weft_runner *r, const uint8_t *data, size_t size, weft_result *res)
{
	if (weft_runner_run(r, data, size, res) != WEFT_PASS) {
		fprintf(stderr, "bench_scheduler: unexpected verdict %s: %s\n",
			weft_verdict_name(res->verdict), res->message);
		weft_runner_report(r, stderr);
		exit(2);
	}
}

/*
 * Run one input at least `min_runs` times and for at least `min_ns`; returns the
 * elapsed ns and the number of executions in *runs.  Time-bounded so a slow
 * setting (a long spin on too few CPUs) cannot make the benchmark take minutes.
 */
static double time_runs(weft_runner *r, const uint8_t *data, size_t size, int min_runs,
			double min_ns, weft_result *last, int *runs)
{
	double t0 = now_ns(), t;
	int n = 0;
	do {
		run_checked(r, data, size, last);
		n++;
		t = now_ns() - t0;
	} while (n < min_runs || t < min_ns);
	*runs = n;
	return t;
}

static unsigned cpus_allowed(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

/* One row: a figure for each backend (median and min), its unit, what it ran. */
static void print_row(const char *what, const stat2 *s, const char *unit, const char *detail)
{
	printf("%-40s", what);
	for (int b = 0; b < N_BACKENDS; b++)
		printf(" %12.1f %10.1f", s[b].median, s[b].min);
	printf("  %-9s %s\n", unit, detail);
}

typedef struct bench_settings {
	int runs_a, runs_plain, runs_b, runs_c;   /* per repetition: at least this many */
	double min_ns;                            /* and at least this long (b and c) */
} bench_settings;

/* a. switch point without a switch: the op's own loop, and the whole execution. */
static void bench_switch_point_rows(const bench_settings *set)
{
	static const uint8_t input[] = { 0, 0, 0 };
	stat2 hot_s[N_BACKENDS], exec_s[N_BACKENDS];
	weft_result res;
	int runs = 0;
	weft_runner *r[N_BACKENDS];
	double v[N_BACKENDS][REPS], hot[N_BACKENDS][REPS];
	for (int b = 0; b < N_BACKENDS; b++) {
		r[b] = new_runner(&bench_switch_point, backends[b]);
		run_checked(r[b], input, sizeof input, &res);   /* warm-up: creates the threads */
	}
	for (int k = 0; k < REPS; k++)
		for (int b = 0; b < N_BACKENDS; b++) {
			inside_ns = 0;
			inside_loads = 0;
			v[b][k] = time_runs(r[b], input, sizeof input, set->runs_a, 0, &res, &runs) /
				  ((double)res.steps * runs);
			hot[b][k] = inside_ns / (double)inside_loads;
		}
	for (int b = 0; b < N_BACKENDS; b++) {
		hot_s[b] = summarize(hot[b], REPS);
		exec_s[b] = summarize(v[b], REPS);
		weft_runner_free(r[b]);
	}
	char detail[160];
	snprintf(detail, sizeof detail, "loop timed inside the op: %d x %d loads", 2 * runs,
		 N_LOADS_SWITCH_POINT);
	print_row("a. switch point, no switch (hot path)", hot_s, "ns/load", detail);
	snprintf(detail, sizeof detail,
		 "whole run / steps (+ trace hash, history); %llu steps, %u switch",
		 (unsigned long long)res.steps, res.switches);
	print_row("a. switch point, no switch (execution)", exec_s, "ns/step", detail);
}

/* a, for comparison: the same loop called from main, no execution (no backend). */
static void bench_unmanaged_row(const bench_settings *set)
{
	bench_cell *c = cell_setup();
	if (!c)
		exit(2);
	const int64_t n = N_LOADS_SWITCH_POINT;
	volatile int64_t sink = 0;
	double v[REPS];
	for (int k = 0; k < REPS; k++) {
		double t0 = now_ns();
		for (int i = 0; i < set->runs_plain; i++)
			sink += op_loads(c, &n);
		v[k] = (now_ns() - t0) / ((double)n * set->runs_plain);
	}
	(void)sink;
	cell_teardown(c);
	stat2 s = summarize(v, REPS), both[N_BACKENDS] = { s, s };
	char detail[160];
	snprintf(detail, sizeof detail,
		 "same op called from main: %lld loads, no execution (either column)", (long long)n);
	print_row("a. same loop, unmanaged thread", both, "ns/load", detail);
}

/* b. a hand-off at every eligible switch point. */
static void bench_handoff_row(const bench_settings *set)
{
	static uint8_t input[HANDOFF_INPUT_BYTES];
	size_t n = every_step_input(input, M_LOADS_HANDOFF + 1);
	stat2 s[N_BACKENDS];
	weft_result res;
	int runs;
	weft_runner *r[N_BACKENDS];
	double v[N_BACKENDS][REPS];
	for (int b = 0; b < N_BACKENDS; b++) {
		r[b] = new_runner(&bench_handoff, backends[b]);
		run_checked(r[b], input, n, &res);
	}
	for (int k = 0; k < REPS; k++)
		for (int b = 0; b < N_BACKENDS; b++)
			v[b][k] = time_runs(r[b], input, n, set->runs_b, set->min_ns, &res, &runs) /
				  ((double)res.switches * runs);
	for (int b = 0; b < N_BACKENDS; b++) {
		s[b] = summarize(v[b], REPS);
		weft_runner_free(r[b]);
	}
	char detail[160];
	snprintf(detail, sizeof detail, "%u switches (%u preemptions), %llu steps per execution",
		 res.switches, res.preemptions, (unsigned long long)res.steps);
	print_row("b. hand-off, bytes plan at every point", s, "ns/switch", detail);
}

/* b, the scheduler alone: preempt at every step, always to the other thread. */
static uint64_t every_step(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	(void)self, (void)thread, (void)call;
	return step + 1;
}

static unsigned the_other(void *self, unsigned thread, uint32_t call, uint64_t step,
			  sched_mask runnable, bool forced)
{
	(void)self, (void)call, (void)step, (void)runnable, (void)forced;
	return thread ^ 1u;
}

static void yield_body(void *ctx, unsigned thread)
{
	(void)ctx;
	sched_call_begin(thread);
	for (int i = 0; i < H_YIELDS; i++)
		weft_yield();
}

static void bench_transfer_row(const bench_settings *set)
{
	const sched_exec_config cfg = {
		.n_threads = 2,
		.step_budget = 4 * H_YIELDS,
		.spin_limit = 4 * H_YIELDS,
		.livelock_limit = 4 * H_YIELDS,
		.strategy = { .next_preemption = every_step, .pick = the_other },
		.body = yield_body,
	};
	const sched_backend which[N_BACKENDS] = { SCHED_BACKEND_FIBER, SCHED_BACKEND_PTHREAD };
	stat2 s[N_BACKENDS];
	unsigned switches = 0;
	static sched_pool pool[N_BACKENDS];
	static sched_exec exec[N_BACKENDS];
	double v[N_BACKENDS][REPS];
	for (int b = 0; b < N_BACKENDS; b++) {
		sched_pool_init(&pool[b], which[b]);
		sched_exec_init(&exec[b], &pool[b]);
	}
	for (int k = -1; k < REPS; k++)   /* k = -1: warm-up */
		for (int b = 0; b < N_BACKENDS; b++) {
			double t0 = now_ns();
			int runs = 0;
			do {
				if (sched_exec_run(&exec[b], &cfg) != 0)
					exit(2);
				runs++;
			} while (runs < set->runs_b || now_ns() - t0 < set->min_ns);
			switches = exec[b].switches;
			if (k >= 0)
				v[b][k] = (now_ns() - t0) / ((double)exec[b].switches * runs);
		}
	for (int b = 0; b < N_BACKENDS; b++) {
		s[b] = summarize(v[b], REPS);
		sched_pool_destroy(&pool[b]);
		sched_exec_destroy(&exec[b]);
	}
	char detail[160];
	snprintf(detail, sizeof detail, "sched_exec_run, no runner: %u switches per execution",
		 switches);
	print_row("b. hand-off, scheduler alone", s, "ns/switch", detail);
}

/* c. whole counter executions per second, without and with one preemption. */
static void bench_counter_rows(const bench_settings *set)
{
	static const uint8_t no_preempt[] = { 0 };
	/* 04: thread 0's increment preempted at its step 2, the fetch_add. */
	static const uint8_t one_preempt[] = { 4 };
	static const struct {
		const char *what;
		const uint8_t *data;
		size_t size;
	} cases[] = {
		{ "c. counter, no preemption (00)", no_preempt, sizeof no_preempt },
		{ "c. counter, 1 preemption (04)", one_preempt, sizeof one_preempt },
	};
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
		stat2 s[N_BACKENDS];
		weft_result res;
		int runs;
		weft_runner *r[N_BACKENDS];
		double v[N_BACKENDS][REPS];
		for (int b = 0; b < N_BACKENDS; b++) {
			r[b] = new_runner(&bench_counter, backends[b]);
			run_checked(r[b], cases[ci].data, cases[ci].size, &res);
		}
		for (int k = 0; k < REPS; k++)
			for (int b = 0; b < N_BACKENDS; b++) {
				double t = time_runs(r[b], cases[ci].data, cases[ci].size,
						     set->runs_c, set->min_ns, &res, &runs);
				v[b][k] = runs * 1e9 / t;
			}
		for (int b = 0; b < N_BACKENDS; b++) {
			s[b] = summarize(v[b], REPS);
			weft_runner_free(r[b]);
		}
		char detail[160];
		snprintf(detail, sizeof detail,
			 "%u switches (%u preemptions) per execution; %.2f / %.2f us/exec",
			 res.switches, res.preemptions, 1e6 / s[0].median, 1e6 / s[1].median);
		print_row(cases[ci].what, s, "exec/s", detail);
	}
}

int main(int argc, char **argv)
{
	int quick = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0) {
			quick = 1;
		} else {
			fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
			return 2;
		}
	}
	bench_settings set = {
		.runs_a = quick ? 1 : 5,           /* executions of 2 x N loads */
		.runs_plain = quick ? 2 : 20,      /* direct calls of N loads */
		.runs_b = quick ? 2 : 10,          /* executions of ~400 switches */
		.runs_c = quick ? 100 : 1000,      /* counter executions */
		.min_ns = quick ? 20e6 : 200e6,    /* b and c */
	};

	/* The same rules as sched_handoff_configure() and pool.c, for the record. */
	unsigned ncpu = cpus_allowed();
	const char *env = getenv("WEFT_SPIN");
	const char *pin = getenv("WEFT_PIN");
	unsigned spin = (env && *env && ncpu >= 2) ? (unsigned)strtoul(env, NULL, 10) : 0;
	int pinned = !(pin && strcmp(pin, "0") == 0);

	printf("weft bench_scheduler%s: median and min over %d repetitions, per backend\n",
	       quick ? " --quick" : "", REPS);
	printf("environment: %u CPU(s) allowed; pthreads: hand-off spin %u iterations "
	       "(WEFT_SPIN=%s), workers follow the controller's CPU: %s (WEFT_PIN=%s)\n",
	       ncpu, spin, env ? env : "unset", pinned ? "yes" : "no", pin ? pin : "unset");
	printf("\n%-40s %23s %23s\n", "", "fiber", "pthread");
	printf("%-40s %12s %10s %12s %10s  %-9s %s\n", "benchmark", "median", "min", "median",
	       "min", "unit", "detail");

	bench_switch_point_rows(&set);
	bench_unmanaged_row(&set);
	bench_handoff_row(&set);
	bench_transfer_row(&set);
	bench_counter_rows(&set);
	return 0;
}
