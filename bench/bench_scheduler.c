/*
 * bench/bench_scheduler.c - what the managed scheduler costs, in three figures.
 *
 *   a. a switch point that does not switch: one target operation doing N
 *      weft_atomic_load calls, run on 2 threads with no preemption (the empty
 *      input); time / weft_result.steps.  The same loop called directly from
 *      main (no managed execution: a plain C11 load plus a thread-local check)
 *      is printed next to it for comparison.
 *   b. a real hand-off: an operation doing M loads on each of 2 threads, each
 *      operation planned to be preempted at every one of its steps (input built
 *      by every_step_input, docs/input-format.md); time / weft_result.switches.
 *   c. whole executions per second of a fixed counter (2 threads x 1
 *      weft_atomic_fetch_add), with inputs "" (no preemption) and 04 (one
 *      preemption: t0 is preempted at step 2, before its fetch_add).
 *
 * Every figure is the median (and the minimum) over REPS repetitions.  The
 * environment knobs WEFT_SPIN (hand-off spin, scheduler/handoff.h) and WEFT_PIN
 * (workers follow the controller's CPU, scheduler/pool.c) are printed first.
 *
 * Usage: bench_scheduler [--quick]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft/run.h"
#include "weft/weft.h"

#define REPS 7
#define N_LOADS_SWITCH_POINT 100000   /* benchmark a: loads per operation */
#define M_LOADS_HANDOFF 200           /* benchmark b: loads per operation (2 x 201 planned preemptions) */
#define HANDOFF_INPUT_BYTES (2 * 4 * (M_LOADS_HANDOFF + 2))   /* benchmark b's plan */

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
	.setup = cell_setup,
	.teardown = cell_teardown,
};

static const weft_target bench_handoff = {
	.name = "bench_handoff",
	.ops = loads_m_ops,
	.n_ops = 1,
	.step_budget = 4 * M_LOADS_HANDOFF,
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

static weft_runner *new_runner(const weft_target *t)
{
	weft_runner *r = weft_runner_new(t);
	if (!r) {
		fprintf(stderr, "bench_scheduler: out of memory creating a runner for %s\n", t->name);
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

static void print_row(const char *what, stat2 s, const char *unit, const char *detail)
{
	printf("%-40s %12.1f %12.1f %12.1f  %-9s %s\n", what, s.median, s.min, s.max, unit, detail);
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
	/* Per repetition: at least this many executions, for at least this long. */
	const int runs_a = quick ? 1 : 5;           /* executions of 2 x N loads */
	const int runs_plain = quick ? 2 : 20;      /* direct calls of N loads */
	const int runs_b = quick ? 2 : 10;          /* executions of ~2M switches */
	const int runs_c = quick ? 100 : 1000;      /* counter executions */
	const double min_ns = quick ? 20e6 : 200e6; /* b and c */
	int runs;

	/* The same rules as sched_handoff_configure() and pool.c, for the record. */
	unsigned ncpu = cpus_allowed();
	const char *env = getenv("WEFT_SPIN");
	const char *pin = getenv("WEFT_PIN");
	unsigned spin = (env && *env && ncpu >= 2) ? (unsigned)strtoul(env, NULL, 10) : 0;
	int pinned = !(pin && strcmp(pin, "0") == 0);

	printf("weft bench_scheduler%s: median / min / max over %d repetitions\n",
	       quick ? " --quick" : "", REPS);
	printf("environment: %u CPU(s) allowed; hand-off spin %u iterations (WEFT_SPIN=%s); "
	       "workers follow the controller's CPU: %s (WEFT_PIN=%s)\n",
	       ncpu, spin, env ? env : "unset", pinned ? "yes" : "no", pin ? pin : "unset");
	printf("\n%-40s %12s %12s %12s  %-9s %s\n", "benchmark", "median", "min", "max", "unit",
	       "detail");

	double v[REPS];
	char detail[160];
	weft_result res;
	memset(&res, 0, sizeof res);

	/* a. switch point without a switch ---------------------------------------- */
	{
		static const uint8_t input[] = { 0, 0, 0 };
		weft_runner *r = new_runner(&bench_switch_point);
		run_checked(r, input, sizeof input, &res);   /* warm-up: creates the workers */
		double hot[REPS];
		for (int k = 0; k < REPS; k++) {
			inside_ns = 0;
			inside_loads = 0;
			v[k] = time_runs(r, input, sizeof input, runs_a, 0, &res, &runs) /
			       ((double)res.steps * runs);
			hot[k] = inside_ns / (double)inside_loads;
		}
		snprintf(detail, sizeof detail, "loop timed inside the op: %d x %d loads",
			 2 * runs, N_LOADS_SWITCH_POINT);
		print_row("a. switch point, no switch (hot path)", summarize(hot, REPS), "ns/load", detail);
		snprintf(detail, sizeof detail,
			 "whole run / steps (+ trace hash, history); %llu steps, %u switch",
			 (unsigned long long)res.steps, res.switches);
		print_row("a. switch point, no switch (execution)", summarize(v, REPS), "ns/step", detail);
		weft_runner_free(r);

		bench_cell *c = cell_setup();
		if (!c)
			return 2;
		const int64_t n = N_LOADS_SWITCH_POINT;
		volatile int64_t sink = 0;
		for (int k = 0; k < REPS; k++) {
			double t0 = now_ns();
			for (int i = 0; i < runs_plain; i++)
				sink += op_loads(c, &n);
			v[k] = (now_ns() - t0) / ((double)n * runs_plain);
		}
		(void)sink;
		cell_teardown(c);
		snprintf(detail, sizeof detail, "same op called from main: %lld loads, no execution",
			 (long long)n);
		print_row("a. same loop, unmanaged thread", summarize(v, REPS), "ns/load", detail);
	}

	/* b. hand-off at every eligible switch point -------------------------------- */
	{
		static uint8_t input[HANDOFF_INPUT_BYTES];
		size_t n = every_step_input(input, M_LOADS_HANDOFF + 1);
		weft_runner *r = new_runner(&bench_handoff);
		run_checked(r, input, n, &res);
		for (int k = 0; k < REPS; k++)
			v[k] = time_runs(r, input, n, runs_b, min_ns, &res, &runs) /
			       ((double)res.switches * runs);
		snprintf(detail, sizeof detail,
			 "%u switches (%u preemptions), %llu steps per execution",
			 res.switches, res.preemptions, (unsigned long long)res.steps);
		print_row("b. hand-off (preempt at every point)", summarize(v, REPS), "ns/switch",
			  detail);
		weft_runner_free(r);
	}

	/* c. counter executions per second ------------------------------------------ */
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
		weft_runner *r = new_runner(&bench_counter);
		for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
			run_checked(r, cases[ci].data, cases[ci].size, &res);
			for (int k = 0; k < REPS; k++) {
				double t = time_runs(r, cases[ci].data, cases[ci].size, runs_c,
						     min_ns, &res, &runs);
				v[k] = runs * 1e9 / t;
			}
			stat2 s = summarize(v, REPS);
			snprintf(detail, sizeof detail,
				 "%u switches (%u preemptions) per execution; %.2f us/exec",
				 res.switches, res.preemptions, 1e6 / s.median);
			print_row(cases[ci].what, s, "exec/s", detail);
		}
		weft_runner_free(r);
	}
	return 0;
}
