/*
 * tests/test_part_blocks.c - a call that blocks in an init or post part
 * (issue 30, item 6).  The parts run alone on the controlling thread, so such
 * a call could never be woken: it used to wait for good in a real
 * pthread_cond_wait or pthread_mutex_lock, and the replay timed out (the fuzz
 * binary hung).  Now the call returns WEFT_BLOCKED, the part ends with it and
 * the model decides (runner/runner.c, judge_blocked_part): a pass if it agrees
 * the call blocks there, else a deadlock whose message names the part.
 *
 * The target: a gate.  pass() waits until the gate is open (the model: blocks
 * while closed), open() opens it, hold() takes a lock and keeps it (the model
 * claims it never blocks, so a second hold() is a deadlock), is_open() reads the
 * gate under its lock (also the final operation in one test).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "weft/run.h"
#include "weft/sync.h"
#include "weft/weft.h"

enum { OP_PASS, OP_OPEN, OP_HOLD, OP_IS_OPEN };

typedef struct gate {
	pthread_mutex_t lock, held;
	pthread_cond_t opened;
	int open;   /* guarded by lock */
} gate;

static int64_t op_pass(void *self, const int64_t *args)
{
	(void)args;
	gate *g = self;
	weft_pthread_mutex_lock(&g->lock);
	while (!g->open)
		weft_pthread_cond_wait(&g->opened, &g->lock);
	weft_pthread_mutex_unlock(&g->lock);
	return 0;
}

static int64_t op_open(void *self, const int64_t *args)
{
	(void)args;
	gate *g = self;
	weft_pthread_mutex_lock(&g->lock);
	g->open = 1;
	weft_pthread_cond_broadcast(&g->opened);
	weft_pthread_mutex_unlock(&g->lock);
	return 0;
}

static int64_t op_hold(void *self, const int64_t *args)
{
	(void)args;
	weft_pthread_mutex_lock(&((gate *)self)->held);   /* kept: a second hold() waits */
	return 0;
}

/* Also the final operation: it takes the lock a blocked pass() leaves held. */
static int64_t op_is_open(void *self, const int64_t *args)
{
	(void)args;
	gate *g = self;
	weft_pthread_mutex_lock(&g->lock);
	int64_t open = g->open;
	weft_pthread_mutex_unlock(&g->lock);
	return open;
}

static void *gate_setup(void)
{
	gate *g = calloc(1, sizeof *g);
	pthread_mutex_init(&g->lock, NULL);
	pthread_mutex_init(&g->held, NULL);
	pthread_cond_init(&g->opened, NULL);
	return g;
}

static void gate_teardown(void *self) { free(self); }

static void model_init(void *state) { *(int64_t *)state = 0; }

static int64_t model_apply(void *state, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *open = state;
	if (op == OP_OPEN)
		*open = 1;
	if (op == OP_IS_OPEN)
		return *open;
	return op == OP_PASS && !*open ? WEFT_BLOCKED : 0;
}

static const weft_model gate_model = {
	.name = "gate", .state_size = sizeof(int64_t), .init = model_init, .apply = model_apply,
};
static const weft_op gate_ops[] = {
	[OP_PASS] = { .name = "pass", .run = op_pass },
	[OP_OPEN] = { .name = "open", .run = op_open },
	[OP_HOLD] = { .name = "hold", .run = op_hold },
	[OP_IS_OPEN] = { .name = "is_open", .run = op_is_open },
};
static const weft_target gate_target = {
	.name = "gate", .ops = gate_ops, .n_ops = 4, .max_threads = 2, .max_ops_per_thread = 1,
	.setup = gate_setup, .teardown = gate_teardown, .model = &gate_model,
};

/* Run `input` on target t: its verdict and report. */
static weft_verdict run(const weft_target *t, const uint8_t *input, size_t n, char **report)
{
	weft_runner *r = weft_runner_new(t);
	REQUIRE(r, "runner");
	weft_result res;
	weft_verdict v = weft_runner_run(r, input, n, &res);
	size_t size = 0;
	FILE *out = open_memstream(report, &size);
	weft_runner_report(r, out);
	fclose(out);
	weft_runner_free(r);
	return v;
}

static void expect_of(const weft_target *t, const uint8_t *input, size_t n, weft_verdict want,
		      const char *line)
{
	char *report = NULL;
	weft_verdict v = run(t, input, n, &report);
	CHECK(v == want, "verdict %d, want %d:\n%s", (int)v, (int)want, report);
	CHECK(strstr(report, line) != NULL, "no line '%s' in:\n%s", line, report);
	free(report);
}

/* Two threads, open() each, then the parts given. */
static void expect(const uint8_t *parts, size_t n, weft_verdict want, const char *line)
{
	uint8_t input[32] = { OP_OPEN, 0x00, OP_OPEN, 0x00 };
	REQUIRE(n + 4 <= sizeof input, "input");
	memcpy(input + 4, parts, n);
	expect_of(&gate_target, input, n + 4, want, line);
}

int main(void)
{
	/* init: pass() on the closed gate blocks, as the model says: a pass, nothing parallel */
	static const uint8_t init_pass[] = { 0x53, 1, 0, OP_PASS };
	expect(init_pass, sizeof init_pass, WEFT_PASS, "before all threads: pass() = blocked\n");
	/* post: pass() after the opens goes through */
	static const uint8_t post_pass[] = { 0x53, 0, 1, OP_PASS };
	expect(post_pass, sizeof post_pass, WEFT_PASS, "after all threads: pass() = 0\n");
	/* a second hold() blocks where the model says it returns: a deadlock naming the part */
	static const uint8_t init_hold[] = { 0x53, 3, 0, OP_HOLD, OP_HOLD, OP_OPEN };
	expect(init_hold, sizeof init_hold, WEFT_FAIL_DEADLOCK,
	       "FAIL deadlock in gate: hold() in the init part blocked: a part runs alone on the "
	       "controlling thread, so nothing could wake it; the model says otherwise");
	static const uint8_t post_hold[] = { 0x53, 0, 2, OP_HOLD, OP_HOLD };
	expect(post_hold, sizeof post_hold, WEFT_FAIL_DEADLOCK,
	       "hold() in the post part blocked");
	/* a blocked call is left mid-way, its lock held: neither the post part nor the final
	   operation runs after it (they would wait for good on that lock) */
	weft_target with_final = gate_target;
	with_final.final_op = &gate_ops[OP_IS_OPEN];
	static const uint8_t init_then_post[] = { OP_OPEN, 0x00, OP_OPEN, 0x00,
						  0x53, 1, 1, OP_PASS, OP_IS_OPEN };
	expect_of(&with_final, init_then_post, sizeof init_then_post, WEFT_PASS,
		  "before all threads: pass() = blocked\n");
	static const uint8_t post_then_final[] = { OP_IS_OPEN, 0x00, OP_IS_OPEN, 0x00,
						   0x53, 0, 1, OP_PASS };
	expect_of(&with_final, post_then_final, sizeof post_then_final, WEFT_PASS,
		  "after all threads: pass() = blocked\n");
	return check_summary("test_part_blocks");
}
