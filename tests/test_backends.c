/*
 * tests/test_backends.c - the fiber and pthread backends are interchangeable.
 *
 * Why: fibers are the default because they are fast; they are only allowed to
 * be the default if nothing a user sees depends on them.  So, in this one
 * process, every target below gets two runners, one per backend (WEFT_BACKEND
 * is read when a runner is made), and every input - the corpus files of the
 * target plus seeded random ones - must give on both the same verdict, trace
 * hash, counts, message, text report and JSON report.  The targets cover every
 * way an execution ends: pass, linearizability, validation (a lost update in a
 * program with spawned threads), deadlock, livelock, assertion, step budget;
 * and the verdicts each target is known for must actually occur, so the
 * comparison is not made on passing runs only.
 *
 * Also asserted: errno is per managed thread on both backends (a fiber's errno
 * is saved across switches); WEFT_TARGET_REAL_THREADS gets pthreads whatever
 * WEFT_BACKEND says; programs (without thread-locals: program_tls.sh) and
 * data structures default to fibers; WEFT_BACKEND=bogus stops the process with exit status 2 and a
 * message; fiber and pthread runners made before fork() work in the child
 * (afl-fuzz's fork server).
 *
 * The target sources are compiled into this binary with weft_fuzz_target
 * renamed per file (tests/CMakeLists.txt), hence the declarations below.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "runner/runner_internal.h"
#include "weft/run.h"
#include "weft/weft.h"

const weft_target *backends_counter(void);
const weft_target *backends_spsc_ring(void);
const weft_target *backends_treiber_stack(void);
const weft_target *backends_ms_queue(void);
const weft_target *backends_hash_set(void);
const weft_target *backends_blocking_queue(void);
const weft_target *backends_transfer(void);
const weft_target *backends_spinlock(void);
const weft_target *backends_peterson(void);
const weft_target *backends_spin_barrier(void);
const weft_target *backends_rw_counter(void);
const weft_target *backends_mailbox(void);
const weft_target *backends_pthread_account(void);

#define RANDOM_INPUTS 200

/* ---- two targets of this file: a runaway, and errno across switches ---------- */

typedef struct cell { _Atomic uint32_t value; } cell;

static void *cell_new(void) { return calloc(1, sizeof(cell)); }
static void cell_free(void *c) { free(c); }

/* Never returns: every step changes memory, so it is no spinner: the step budget. */
static int64_t op_run_away(void *self, const int64_t *args)
{
	cell *c = self;
	(void)args;
	for (;;)
		weft_atomic_fetch_add(&c->value, 1);
	return 0;
}

static const weft_op runaway_ops[] = { { .name = "run_away", .run = op_run_away } };
static const weft_target runaway_target = {
	.name = "runaway", .ops = runaway_ops, .n_ops = 1, .step_budget = 300,
	.setup = cell_new, .teardown = cell_free,
};

/* errno = v, then switch points (another thread may run and set its own), then errno. */
static int64_t op_own_errno(void *self, const int64_t *args)
{
	cell *c = self;
	errno = (int)args[0];
	for (int i = 0; i < 3; i++)
		weft_atomic_fetch_add(&c->value, 1);
	return errno;
}

static void errno_model_init(void *state) { (void)state; }
static int64_t errno_model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state, (void)op;
	return args[0];   /* each thread sees the errno it set */
}
static const weft_model errno_model = { .name = "own errno", .state_size = 1,
					.init = errno_model_init, .apply = errno_model_apply };
static const weft_op errno_ops[] = {
	{ .name = "own_errno", .run = op_own_errno, .n_args = 1, .args = { { 1, 9 } } },
};
static const weft_target errno_target = {
	.name = "errno", .ops = errno_ops, .n_ops = 1, .max_threads = 3,
	.setup = cell_new, .teardown = cell_free, .model = &errno_model,
};

/* The same runaway, declared as needing real threads. */
static const weft_target real_threads_target = {
	.name = "real_threads", .ops = runaway_ops, .n_ops = 1, .step_budget = 300,
	.setup = cell_new, .teardown = cell_free, .flags = WEFT_TARGET_REAL_THREADS,
};

/* ---- helpers ------------------------------------------------------------------ */

static weft_runner *runner_on(const weft_target *t, const char *backend)
{
	if (backend)
		setenv("WEFT_BACKEND", backend, 1);
	else
		unsetenv("WEFT_BACKEND");
	weft_runner *r = weft_runner_new(t);
	unsetenv("WEFT_BACKEND");
	REQUIRE(r != NULL, "no runner for %s", t->name);
	return r;
}

/* The last execution's text or JSON report, as a malloc'd string. */
static char *report_of(const weft_runner *r, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	REQUIRE(f != NULL, "open_memstream");
	if (json)
		weft_runner_report_json(r, f);
	else
		weft_runner_report(r, f);
	fclose(f);
	return buf;
}

typedef struct pair {
	const weft_target *target;
	weft_runner *fiber, *pthread;
	unsigned runs, mismatches;
	unsigned seen[WEFT_FAIL_DATA_RACE + 1];   /* verdicts, counted on the fiber side */
} pair;

static int same_result(const weft_result *a, const weft_result *b)
{
	return a->verdict == b->verdict && a->trace_hash == b->trace_hash &&
	       a->n_threads == b->n_threads && a->n_ops == b->n_ops &&
	       a->preemptions == b->preemptions && a->switches == b->switches &&
	       a->steps == b->steps && a->check_cost == b->check_cost &&
	       a->check_unknown == b->check_unknown && strcmp(a->message, b->message) == 0;
}

/* Run `data` on both runners; returns the verdict (the fiber's). */
static weft_verdict run_both(pair *p, const uint8_t *data, size_t size, const char *what)
{
	weft_result a, b;
	weft_runner_run(p->fiber, data, size, &a);
	char *text_a = report_of(p->fiber, 0), *json_a = report_of(p->fiber, 1);
	weft_runner_run(p->pthread, data, size, &b);
	char *text_b = report_of(p->pthread, 0), *json_b = report_of(p->pthread, 1);
	int same = same_result(&a, &b) && strcmp(text_a, text_b) == 0 && strcmp(json_a, json_b) == 0;
	if (!same && p->mismatches++ < 3)
		fprintf(stderr, "%s, %s: fiber and pthread differ\n--- fiber:\n%s--- pthread:\n%s",
			p->target->name, what, text_a, text_b);
	p->runs++;
	p->seen[a.verdict]++;
	free(text_a), free(json_a), free(text_b), free(json_b);
	return a.verdict;
}

static uint8_t *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = malloc(4096);
	*size = buf ? fread(buf, 1, 4096, f) : 0;
	fclose(f);
	return buf;
}

/* Every corpus file of `structure`; a reproducer NAME.KIND.bin must get verdict KIND. */
static void run_corpus(pair *p, const char *structure)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/%s", WEFT_CORPUS_DIR, structure);
	DIR *d = opendir(dir);
	REQUIRE(d != NULL, "cannot open %s", dir);
	unsigned files = 0;
	for (struct dirent *e; (e = readdir(d));) {
		const char *name = e->d_name;
		size_t n = strlen(name);
		if (n < 4 || strcmp(name + n - 4, ".bin") != 0)
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, name);
		size_t size = 0;
		uint8_t *data = read_whole(path, &size);
		REQUIRE(data != NULL, "cannot read %s", path);
		weft_verdict v = run_both(p, data, size, name);
		free(data);
		char kind[64] = "pass";   /* seed-NAME.bin */
		if (strncmp(name, "seed-", 5) != 0) {
			const char *dot = strchr(name, '.');
			snprintf(kind, sizeof kind, "%.*s", (int)(n - 4 - (size_t)(dot + 1 - name)),
				 dot + 1);
		}
		CHECK(strcmp(weft_verdict_name(v), kind) == 0, "%s: verdict %s, want %s", path,
		      weft_verdict_name(v), kind);
		files++;
	}
	closedir(d);
	CHECK(files >= 2, "only %u corpus files in %s", files, dir);
}

/* Seeded inputs: small bytes (preemption distances) mixed with any byte. */
static void run_random(pair *p, uint64_t seed)
{
	uint8_t buf[40];
	for (int i = 0; i < RANDOM_INPUTS; i++) {
		size_t n = test_rand(&seed) % sizeof buf;
		for (size_t k = 0; k < n; k++) {
			uint64_t x = test_rand(&seed);
			buf[k] = (uint8_t)((x & 1) ? (x >> 56) : (x >> 56) % 8);
		}
		char what[32];
		snprintf(what, sizeof what, "random input %d", i);
		run_both(p, buf, n, what);
	}
}

static void pair_open(pair *p, const weft_target *t)
{
	memset(p, 0, sizeof *p);
	p->target = t;
	p->fiber = runner_on(t, "fiber");
	p->pthread = runner_on(t, "pthread");
	CHECK(runner_backend(p->fiber) == SCHED_BACKEND_FIBER, "%s: not on fibers", t->name);
	CHECK(runner_backend(p->pthread) == SCHED_BACKEND_PTHREAD, "%s: not on pthreads",
	      t->name);
}

static void pair_close(pair *p)
{
	CHECK(p->mismatches == 0, "%s: %u of %u inputs differ between the backends",
	      p->target->name, p->mismatches, p->runs);
	weft_runner_free(p->fiber);
	weft_runner_free(p->pthread);
}

/* ---- the comparisons ------------------------------------------------------------ */

static const struct {
	const weft_target *(*target)(void);
	const char *structure;
	weft_verdict must_see;   /* a failure the inputs must reach on this target */
} library[] = {
	{ backends_counter, "counter", WEFT_FAIL_LINEARIZABILITY },
	{ backends_spsc_ring, "spsc_ring", WEFT_FAIL_LINEARIZABILITY },
	{ backends_treiber_stack, "treiber_stack", WEFT_FAIL_LINEARIZABILITY },
	{ backends_ms_queue, "ms_queue", WEFT_FAIL_LINEARIZABILITY },
	{ backends_hash_set, "hash_set", WEFT_FAIL_LINEARIZABILITY },
	{ backends_blocking_queue, "blocking_queue", WEFT_FAIL_DEADLOCK },
	{ backends_transfer, "transfer", WEFT_FAIL_DEADLOCK },
	{ backends_spinlock, "spinlock", WEFT_FAIL_LINEARIZABILITY },
	{ backends_peterson, "peterson", WEFT_FAIL_ASSERTION },
	{ backends_spin_barrier, "spin_barrier", WEFT_FAIL_LIVELOCK },
	{ backends_rw_counter, "rw_counter", WEFT_FAIL_LINEARIZABILITY },
	{ backends_mailbox, "mailbox", WEFT_FAIL_LINEARIZABILITY },
	{ backends_pthread_account, "pthread_account", WEFT_FAIL_ASSERTION },
};

static void test_targets_agree(void)
{
	unsigned total = 0, failing = 0;
	for (size_t i = 0; i < sizeof library / sizeof library[0]; i++) {
		pair p;
		pair_open(&p, library[i].target());
		run_corpus(&p, library[i].structure);
		run_random(&p, 0xbacc + i);
		CHECK(p.seen[library[i].must_see] > 0, "%s: no %s among %u inputs: the comparison "
		      "never covered that verdict", p.target->name,
		      weft_verdict_name(library[i].must_see), p.runs);
		total += p.runs;
		failing += p.runs - p.seen[WEFT_PASS];
		pair_close(&p);
	}
	fprintf(stderr, "test_backends: %u inputs on %zu targets, %u failing: the same on both "
		"backends\n", total, sizeof library / sizeof library[0], failing);
}

static void test_step_budget_agrees(void)
{
	pair p;
	pair_open(&p, &runaway_target);
	run_random(&p, 7);
	CHECK(p.seen[WEFT_FAIL_BUDGET] == p.runs, "runaway: %u of %u runs hit the step budget",
	      p.seen[WEFT_FAIL_BUDGET], p.runs);
	pair_close(&p);
}

static void test_errno_is_per_thread(void)
{
	pair p;
	pair_open(&p, &errno_target);
	run_random(&p, 11);
	CHECK(p.seen[WEFT_PASS] == p.runs, "errno: %u of %u runs saw another thread's errno",
	      p.runs - p.seen[WEFT_PASS], p.runs);
	pair_close(&p);
}

/* ---- selection ----------------------------------------------------------------- */

static void test_selection(void)
{
	weft_runner *r = runner_on(&real_threads_target, "fiber");
	CHECK(runner_backend(r) == SCHED_BACKEND_PTHREAD,
	      "WEFT_TARGET_REAL_THREADS ran on %s under WEFT_BACKEND=fiber", weft_runner_backend(r));
	weft_runner_free(r);
	r = runner_on(backends_pthread_account(), NULL);
	CHECK(strcmp(weft_runner_backend(r), "fiber") == 0, "a program defaults to %s",
	      weft_runner_backend(r));
	weft_runner_free(r);
	r = runner_on(backends_counter(), NULL);
	CHECK(strcmp(weft_runner_backend(r), "fiber") == 0, "a data structure defaults to %s",
	      weft_runner_backend(r));
	weft_runner_free(r);
}

/* In a child: WEFT_BACKEND=bogus must exit 2 with a message naming the value. */
static void test_bogus_backend_refused(void)
{
	int fds[2];
	REQUIRE(pipe(fds) == 0, "pipe");
	fflush(NULL);
	pid_t pid = fork();
	REQUIRE(pid >= 0, "fork");
	if (pid == 0) {
		dup2(fds[1], 2);
		setenv("WEFT_BACKEND", "bogus", 1);
		weft_runner_new(backends_counter());
		_exit(3);   /* accepted: wrong */
	}
	close(fds[1]);
	char msg[256] = "";
	ssize_t n = read(fds[0], msg, sizeof msg - 1);
	msg[n > 0 ? n : 0] = 0;
	close(fds[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2, "WEFT_BACKEND=bogus: status %d, want "
	      "exit 2", status);
	CHECK(strstr(msg, "WEFT_BACKEND=bogus") != NULL, "no message naming the value: '%s'", msg);
}

/*
 * afl-fuzz forks after initialisation: runners that already ran (fibers mapped,
 * pthread workers started) must go on in the child, with the parent's results.
 */
static void test_fork(void)
{
	static const uint8_t inputs[][4] = { { 0 }, { 5 }, { 1, 5 }, { 4, 0, 2 } };
	weft_runner *r[2] = { runner_on(backends_counter(), "fiber"),
			      runner_on(backends_counter(), "pthread") };
	uint64_t hash[2][4];
	for (int b = 0; b < 2; b++)
		for (int i = 0; i < 4; i++) {
			weft_result res;
			weft_runner_run(r[b], inputs[i], sizeof inputs[i], &res);
			hash[b][i] = res.trace_hash;
		}
	fflush(NULL);
	pid_t pid = fork();
	REQUIRE(pid >= 0, "fork");
	if (pid == 0) {
		int bad = 0;
		for (int round = 0; round < 3; round++)
			for (int b = 0; b < 2; b++)
				for (int i = 0; i < 4; i++) {
					weft_result res;
					weft_runner_run(r[b], inputs[i], sizeof inputs[i], &res);
					bad += res.trace_hash != hash[b][i];
				}
		weft_runner_free(r[0]);
		weft_runner_free(r[1]);
		_exit(bad ? 1 : 0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "runners made before fork() gave other traces in the child (status %d)", status);
	CHECK(hash[0][1] != hash[0][0], "inputs too alike to tell anything");
	weft_runner_free(r[0]);
	weft_runner_free(r[1]);
}

int main(void)
{
	test_selection();
	test_bogus_backend_refused();
	test_targets_agree();
	test_step_budget_agrees();
	test_errno_is_per_thread();
	test_fork();
	return check_summary("test_backends");
}
