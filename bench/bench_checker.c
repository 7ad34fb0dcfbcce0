/*
 * bench/bench_checker.c - what the linearizability checker (weft/check.h)
 * costs, in time and in search steps, on two kinds of histories:
 *
 *   a. the 102 Jepsen etcd register logs with a known verdict
 *      (tests/data/jepsen-etcd): per log the median of REPS checks; printed
 *      are the median and the maximum over the logs, and the total for all 102;
 *   b. generated register, queue and set histories of 10 .. 1,000,000
 *      operations: the model itself run under a seeded random schedule of 1
 *      (sequential), 4, 5 or 50 threads.  Each thread
 *      cycles invoke -> take effect (apply the model) -> return, and a random
 *      thread takes the next step, so calls overlap (about 4 at a time) and
 *      the history is linearizable by construction.  The non-linearizable
 *      variant corrupts one result past the middle: a queue's deq returns a
 *      value never enqueued; a set's result is flipped (the first flip, from
 *      the middle on, that the checker refutes).  Median of REPS checks.
 *      Each row runs in a child process, so its peak memory (getrusage's
 *      ru_maxrss of the child: the history, the checker and the search) is
 *      its own.
 *
 * Times come from CLOCK_MONOTONIC, in this file only: nothing the checker
 * decides depends on time.  The generator's randomness is test_rand-style
 * xorshift with fixed seeds, so every run checks the same histories.
 *
 * Usage: bench_checker [--quick] [ETCD_DIR]   (ETCD_DIR defaults to the repo's copy)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/history_io.h"
#include "oracle/models.h"
#include "weft/check.h"

#ifndef WEFT_ETCD_DIR
#define WEFT_ETCD_DIR "tests/data/jepsen-etcd"
#endif

enum { MAX_THREADS = 64, MAX_REPS = 7 };

static int reps = MAX_REPS;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t rand64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One history checked `reps` times: the median time, and the (deterministic) outcome. */
typedef struct timing {
	size_t n_ops;
	double ms;
	uint64_t cost;
	weft_check_verdict verdict;
} timing;

static timing time_check(weft_checker *c, const weft_history *h, const weft_check_options *opts)
{
	weft_check_result res;
	double t[MAX_REPS];
	for (int i = 0; i < reps; i++) {
		double start = now_ms();
		weft_check(c, h, opts, &res);
		t[i] = now_ms() - start;
	}
	return (timing){ h->n_ops, median(t, reps), res.cost, res.verdict };
}

/* ---- a. the etcd logs ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
	*len = buf ? fread(buf, 1, (size_t)size, f) : 0;
	fclose(f);
	return buf;
}

static double parse_ms_total;   /* reading the etcd logs (text -> history), all of them */

/* Checks one log; 0, or -1 when it cannot be read. */
static int etcd_one(weft_checker *c, const char *dir, const char *log, timing *out)
{
	char path[1024], err[ORACLE_ERROR_MAX];
	size_t len;
	snprintf(path, sizeof path, "%s/%s", dir, log);
	char *text = slurp(path, &len);
	oracle_history h;
	double start = now_ms();
	int bad = !text || oracle_read_jepsen(text, len, path, &h, err) != 0;
	parse_ms_total += now_ms() - start;
	if (bad) {
		fprintf(stderr, "bench_checker: cannot read %s\n", path);
		free(text);
		return -1;
	}
	weft_history view = oracle_history_view(&h);
	*out = time_check(c, &view, NULL);
	oracle_history_free(&h);
	free(text);
	return 0;
}

static void etcd_rows(const char *dir)
{
	char path[1024], log[256], verdict[64];
	snprintf(path, sizeof path, "%s/VERDICTS", dir);
	FILE *f = fopen(path, "r");
	weft_checker *c = weft_checker_new(&weft_model_register);
	double ms[128], costs[128], total_ms = 0, total_cost = 0, max_ms = 0, max_cost = 0;
	int n = 0, wrong = 0;
	size_t min_ops = SIZE_MAX, max_ops = 0;
	for (timing t; f && c && n < 128 && fscanf(f, "%255s %63s", log, verdict) == 2; n++) {
		if (etcd_one(c, dir, log, &t) != 0)
			break;
		wrong += (t.verdict == WEFT_CHECK_LINEARIZABLE) != (strcmp(verdict, "linearizable") == 0);
		ms[n] = t.ms, costs[n] = (double)t.cost;
		total_ms += t.ms, total_cost += (double)t.cost;
		max_ms = t.ms > max_ms ? t.ms : max_ms;
		max_cost = (double)t.cost > max_cost ? (double)t.cost : max_cost;
		min_ops = t.n_ops < min_ops ? t.n_ops : min_ops;
		max_ops = t.n_ops > max_ops ? t.n_ops : max_ops;
	}
	if (f)
		fclose(f);
	weft_checker_free(c);
	if (n == 0) {
		printf("| etcd logs | (none read from %s) | | | |\n", dir);
		return;
	}
	printf("| etcd, per log: median | %zu-%zu | %d/%d agree with VERDICTS | %.0f | %.3f | |\n",
	       min_ops, max_ops, n - wrong, n, median(costs, n), median(ms, n));
	printf("| etcd, per log: max | | | %.0f | %.3f | |\n", max_cost, max_ms);
	printf("| etcd, all %d logs | %d logs | | %.0f | %.3f | |\n", n, n, total_cost, total_ms);
	printf("| etcd, all %d logs: reading the files (not in the times above) | | | | %.3f | |\n",
	       n, parse_ms_total);
}

/* ---- b. generated histories ---- */

/* One row family: a model, how calls are drawn, how the result is checked. */
enum { W_QUEUE, W_SET, W_REGISTER };

typedef struct workload {
	const char *what;
	const weft_model *model;
	int is_set;            /* W_SET: add/remove/contains of 1 + n/10 keys; W_REGISTER:
				  read or write a fresh value; W_QUEUE: enq or deq */
	int bound;             /* queue: enq only while fewer than `bound` are queued; 0 = 50% */
	int broken;            /* corrupt one result (the non-linearizable variant) */
	int no_partition;
	uint64_t max_cost;     /* 0 = the default cap */
	unsigned threads;      /* 0 = 4; 1 = sequential */
	unsigned enq_pct;      /* queue: chance of enq in percent; 0 = 50 */
} workload;

typedef struct generator {
	const workload *w;
	weft_op_record *ops;
	size_t n, want;
	uint32_t now;
	uint64_t rng;
	int64_t next_value, keys, queued;
	void *state;
} generator;

/* A fresh call on thread t: queue enq (a new value) or deq; set add/remove/contains. */
static void gen_invoke(generator *g, unsigned t)
{
	weft_op_record *r = &g->ops[g->n++];
	*r = (weft_op_record){ .thread = t, .invoked_at = g->now++, .pending = 1 };
	if (g->w->is_set == W_SET) {
		r->op = (unsigned)(rand64(&g->rng) % 3);
		r->args[0] = (int64_t)(rand64(&g->rng) % (uint64_t)g->keys);
		return;
	}
	if (g->w->is_set == W_REGISTER) {
		r->op = rand64(&g->rng) % 2 ? WEFT_REGISTER_WRITE : WEFT_REGISTER_READ;
		r->args[0] = g->next_value++;
		return;
	}
	unsigned pct = g->w->enq_pct ? g->w->enq_pct : 50;
	int enq = rand64(&g->rng) % 100 < pct && (!g->w->bound || g->queued < g->w->bound);
	r->op = enq ? WEFT_QUEUE_ENQ : WEFT_QUEUE_DEQ;
	r->args[0] = g->next_value++;
}

/* The call takes effect: the model gives its result (and the queue's length moves). */
static void gen_effect(generator *g, weft_op_record *r)
{
	r->result = g->w->model->apply(g->state, r->op, r->args);
	if (g->w->is_set == W_QUEUE)
		g->queued += r->op == WEFT_QUEUE_ENQ ? 1 : r->result != WEFT_NONE ? -1 : 0;
}

/* Runs the model under the random schedule until `want` calls have all returned. */
static void generate(generator *g)
{
	size_t current[MAX_THREADS] = { 0 };
	int phase[MAX_THREADS] = { 0 };   /* 0 idle, 1 called, 2 took effect */
	int busy = 0;
	unsigned threads = g->w->threads ? g->w->threads : 4;
	while (g->n < g->want || busy) {
		unsigned t = (unsigned)(rand64(&g->rng) % threads);
		weft_op_record *r = &g->ops[current[t]];
		if (phase[t] == 0 && g->n < g->want) {
			current[t] = g->n;
			gen_invoke(g, t);
			busy++;
		} else if (phase[t] == 1) {
			gen_effect(g, r);
		} else if (phase[t] == 2) {
			r->returned_at = g->now++;
			r->pending = 0;
			busy--;
		} else {
			continue;
		}
		phase[t] = (phase[t] + 1) % 3;
	}
}

static weft_op_record *make_history(const workload *w, size_t n, uint64_t seed)
{
	generator g = { .w = w, .want = n, .rng = seed, .keys = 1 + (int64_t)n / 10 };
	const weft_model *m = w->model;
	g.ops = calloc(n, sizeof *g.ops);
	g.state = calloc(1, m->state_size);
	if (!g.ops || !g.state)
		abort();
	m->init(g.state);
	generate(&g);
	if (m->destroy)
		m->destroy(g.state);
	free(g.state);
	return g.ops;
}

/* Corrupts one result from the middle on, until the checker refutes the history. */
static void break_history(weft_checker *c, weft_op_record *ops, size_t n, int is_set)
{
	weft_history h = { ops, n };
	weft_check_result res;
	for (size_t i = n / 2; i < n; i++) {
		if (is_set == W_REGISTER || (is_set == W_QUEUE && ops[i].op != WEFT_QUEUE_DEQ))
			continue;
		int64_t saved = ops[i].result;
		ops[i].result = is_set ? !saved : -1;   /* queue values are >= 0: never enqueued */
		if (!is_set || weft_check(c, &h, NULL, &res) == WEFT_CHECK_NOT_LINEARIZABLE)
			return;
		ops[i].result = saved;
	}
}

static const char *verdict_word(weft_check_verdict v)
{
	return v == WEFT_CHECK_LINEARIZABLE ? "linearizable"
	       : v == WEFT_CHECK_NOT_LINEARIZABLE ? "not linearizable" : "unknown (cap)";
}

static void generated_row(const workload *w, size_t n)
{
	weft_checker *c = weft_checker_new(w->model);
	weft_op_record *ops = make_history(w, n, 0x9E3779B97F4A7C15u ^ n);
	if (!c)
		abort();
	if (w->broken)
		break_history(c, ops, n, w->is_set);
	weft_history h = { ops, n };
	weft_check_options opts = { .max_cost = w->max_cost, .no_partition = w->no_partition };
	timing t = time_check(c, &h, &opts);
	printf("| %s | %zu | %s | %llu | %.3f |", w->what, n, verdict_word(t.verdict),
	       (unsigned long long)t.cost, t.ms);
	fflush(stdout);
	free(ops);
	weft_checker_free(c);
}

/* The row in a child process, then the child's peak memory as the last column. */
static void forked_row(const workload *w, size_t n)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		generated_row(w, n);
		_exit(0);
	}
	struct rusage ru;
	int status;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status)) {
		printf(" (the row failed) |\n");
		return;
	}
	printf(" %.1f |\n", (double)ru.ru_maxrss / 1024.0);   /* KiB on Linux */
	fflush(stdout);
}

static void generated_rows(void)
{
	const weft_model *q = &weft_model_queue, *set = &weft_model_set;
	static const size_t sizes[] = { 10, 100, 1000, 10000 };
	const workload rows[] = {
		{ "queue, at most 8 queued", q, W_QUEUE, 8, 0, 0, 0, 0, 0 },
		{ "queue, at most 8 queued, one deq corrupted", q, W_QUEUE, 8, 1, 0, 0, 0, 0 },
		{ "set", set, W_SET, 0, 0, 0, 0, 0, 0 },
		{ "set, one result flipped", set, W_SET, 0, 1, 0, 0, 0, 0 },
		{ "set, --no-partition", set, W_SET, 0, 0, 1, 0, 0, 0 },
		{ "queue, unbounded (50% enq), cap 1M steps", q, W_QUEUE, 0, 0, 0, 1000000, 0, 0 },
	};
	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
		for (size_t i = 0; i < 4; i++)
			if (sizes[i] <= 1000 || !rows[r].no_partition)
				forked_row(&rows[r], sizes[i]);
}

/* Issue 19's goals: many clients, long histories, sequential ones. */
static void scale_rows(int quick)
{
	const weft_model *q = &weft_model_queue, *set = &weft_model_set;
	const weft_model *reg = &weft_model_register;
	const workload concurrent[] = {
		{ "register, 5 clients", reg, W_REGISTER, 0, 0, 0, 0, 5, 0 },
		{ "register, 50 clients", reg, W_REGISTER, 0, 0, 0, 0, 50, 0 },
		{ "queue, at most 8 queued, 5 clients", q, W_QUEUE, 8, 0, 0, 0, 5, 0 },
		{ "queue, at most 8 queued, 50 clients", q, W_QUEUE, 8, 0, 0, 0, 50, 0 },
	};
	const workload sequential[] = {
		{ "sequential register", reg, W_REGISTER, 0, 0, 0, 0, 1, 0 },
		{ "sequential queue (50% enq)", q, W_QUEUE, 0, 0, 0, 0, 1, 0 },
		{ "sequential queue (75% enq: grows to n/2)", q, W_QUEUE, 0, 0, 0, 0, 1, 75 },
		{ "sequential set", set, W_SET, 0, 0, 0, 0, 1, 0 },
	};
	const workload wrong = { "queue, unbounded, 5 clients, one deq wrong (default caps)", q,
				 W_QUEUE, 0, 1, 0, 0, 5, 0 };
	for (size_t r = 0; r < sizeof concurrent / sizeof concurrent[0]; r++)
		for (size_t n = 1000; n <= (quick ? 10000u : 100000u); n *= 10)
			forked_row(&concurrent[r], n);
	forked_row(&wrong, 1000);
	for (size_t r = 0; r < sizeof sequential / sizeof sequential[0]; r++)
		for (size_t n = 100000; n <= 1000000; n *= 10)
			forked_row(&sequential[r], n);
}

int main(int argc, char **argv)
{
	const char *dir = WEFT_ETCD_DIR;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			reps = 1;
		else if (argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "usage: %s [--quick] [ETCD_DIR]\n", argv[0]);
			return 2;
		}
	}
	printf("weft linearizability checker: median of %d checks per history "
	       "(default cost cap %u steps)\n\n", reps, WEFT_CHECK_DEFAULT_MAX_COST);
	printf("| history | operations | verdict | cost (steps) | time (ms) | peak RSS (MB) |\n");
	printf("|---|---|---|---|---|---|\n");
	etcd_rows(dir);
	generated_rows();
	scale_rows(reps == 1);
	return 0;
}
