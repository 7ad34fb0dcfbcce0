/*
 * tests/test_target_api.c - what a target declares is what the harness does:
 *   - non-parallel groups: a group's operations only ever run on one thread;
 *   - WEFT_OP_FINAL_ONLY operations are never given to a thread, and final_op
 *     runs once after all threads, its result in the history;
 *   - the oracle: a lost update is a linearizability failure with the
 *     operation the checker could not place in the message and the report;
 *   - without a model the implementation run sequentially is the model;
 *   - malformed targets are refused with a message.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "input/scenario.h"
#include "weft/check.h"
#include "weft/run.h"
#include "weft/weft.h"

/* ---- a counter with a lost update, a model, and a final get ---- */

typedef struct counter { _Atomic int64_t value; } counter;

static int64_t inc_racy(void *self, const int64_t *args)
{
	counter *c = self;
	(void)args;
	int64_t v = weft_atomic_load(&c->value);
	weft_atomic_store(&c->value, v + 1);
	return 0;
}

static int64_t get(void *self, const int64_t *args)
{
	(void)args;
	return weft_atomic_load(&((counter *)self)->value);
}

static void *counter_new(void) { return calloc(1, sizeof(counter)); }
static void counter_free(void *p) { free(p); }

static void model_init(void *s) { *(int64_t *)s = 0; }
static int64_t model_apply(void *s, unsigned op, const int64_t *args)
{
	(void)args;
	int64_t *v = s;
	return op == 0 ? (++*v, 0) : *v;
}
static const weft_model counter_model = { "counter", sizeof(int64_t), model_init, model_apply,
					  NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0 };

static const weft_op racy_ops[] = {
	{ .name = "inc", .run = inc_racy },
	{ .name = "get", .run = get, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target racy_target = {
	.name = "racy", .ops = racy_ops, .n_ops = 2, .setup = counter_new,
	.teardown = counter_free, .model = &counter_model, .final_op = &racy_ops[1],
};
/* The same, no model: the implementation run sequentially is the model. */
static const weft_target racy_no_model = {
	.name = "racy_no_model", .ops = racy_ops, .n_ops = 2, .setup = counter_new,
	.teardown = counter_free, .final_op = &racy_ops[1],
};

static char *report_of(weft_runner *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	weft_runner_report(r, out);
	fclose(out);
	return text;
}

static void test_lost_update_is_not_linearizable(const weft_target *t)
{
	weft_runner *r = weft_runner_new(t);
	REQUIRE(r, "runner for %s", t->name);
	const uint8_t lost[] = { 5 }, fine[] = { 4 };   /* preempt at the store / the load */
	weft_result res;
	CHECK(weft_runner_run(r, lost, sizeof lost, &res) == WEFT_FAIL_LINEARIZABILITY,
	      "%s: lost update found by the oracle (%s)", t->name, res.message);
	CHECK(strstr(res.message, "get() on thread 2 returned 1, the model gives 2"),
	      "%s: message names the stuck operation: %s", t->name, res.message);
	char *text = report_of(r);
	CHECK(strstr(text, "after all threads: get() = 1"), "final op in report:\n%s", text);
	CHECK(strstr(text, "cannot be placed next"), "explanation in report:\n%s", text);
	free(text);
	CHECK(weft_runner_run(r, fine, sizeof fine, &res) == WEFT_PASS, "%s: no race, pass: %s",
	      t->name, res.message);
	CHECK(!res.check_unknown && res.check_cost > 0, "%s: the check ran", t->name);
	text = report_of(r);
	CHECK(strstr(text, "after all threads: get() = 2"), "final op in report:\n%s", text);
	free(text);
	weft_runner_stats st = weft_runner_stats_get(r);
	CHECK(st.executions == 2 && st.failures == 1 && st.check_unknown == 0, "stats counted");
	weft_runner_free(r);
}

/* ---- groups: a producer operation and a consumer operation ---- */

static int64_t nop(void *self, const int64_t *args) { (void)self; (void)args; return 0; }
static const weft_op spsc_ops[] = {
	{ .name = "produce", .run = nop, .group = 1 },
	{ .name = "consume", .run = nop, .group = 2 },
	{ .name = "peek", .run = nop },
	{ .name = "size", .run = nop, .flags = WEFT_OP_FINAL_ONLY },
};
static const weft_target spsc_target = {
	.name = "spsc", .ops = spsc_ops, .n_ops = 4, .max_threads = 4, .max_ops_per_thread = 4,
};

/* Every group's operations on one thread; FINAL_ONLY never on a thread. */
static int scenario_respects_groups(const input_scenario *s)
{
	int owner[3] = { -1, -1, -1 };
	for (unsigned i = 0; i < s->n_calls; i++) {
		unsigned g = spsc_ops[s->calls[i].op].group;
		if (spsc_ops[s->calls[i].op].flags & WEFT_OP_FINAL_ONLY)
			return 0;
		if (g == 0)
			continue;
		if (owner[g] >= 0 && owner[g] != (int)s->calls[i].thread)
			return 0;
		owner[g] = (int)s->calls[i].thread;
	}
	return 1;
}

static void test_groups(void)
{
	input_bounds b = input_bounds_of(&spsc_target);
	CHECK(b.n_thread_ops == 3, "three operations a thread may run, got %u", b.n_thread_ops);
	input_scenario s;
	input_choices c;
	input_choices_init(&c, NULL, 0);
	input_scenario_decode(&s, &spsc_target, &b, &c);
	CHECK(s.n_calls == 2 && s.calls[0].op == 0 && s.calls[1].op == 1 && s.calls[1].thread == 1,
	      "simplest: producer on thread 0, consumer on thread 1");
	uint64_t seed = 7;
	unsigned violations = 0, consumers_elsewhere = 0;
	for (int run = 0; run < 5000; run++) {
		uint8_t buf[32];
		for (size_t i = 0; i < sizeof buf; i++)
			buf[i] = (uint8_t)(test_rand(&seed) >> 56);
		input_choices_init(&c, buf, sizeof buf);
		input_scenario_decode(&s, &spsc_target, &b, &c);
		violations += !scenario_respects_groups(&s);
		for (unsigned i = 0; i < s.n_calls; i++)
			consumers_elsewhere += s.calls[i].op == 1 && s.calls[i].thread != 1;
	}
	CHECK(violations == 0, "%u scenarios ran a group on two threads", violations);
	CHECK(consumers_elsewhere > 0, "the consumer is not always thread 1");
}

/* ---- malformed targets ---- */

static void test_target_problems(void)
{
	static const weft_op no_run[] = { { .name = "x" } };
	static const weft_op bad_range[] = { { .name = "x", .run = nop, .n_args = 1,
					       .args = { { 5, 1 } } } };
	static const weft_op only_final[] = { { .name = "x", .run = nop,
						.flags = WEFT_OP_FINAL_ONLY } };
	static const weft_op other[] = { { .name = "y", .run = nop } };
	weft_target t = { .name = "t", .ops = racy_ops, .n_ops = 2 };
	CHECK(weft_target_problem(&t) == NULL, "a good target has no problem");
	weft_runner *ok = weft_runner_new(&t);
	CHECK(ok != NULL, "and gets a runner");
	weft_runner_free(ok);
	const weft_target edge = { .name = "edge", .ops = racy_ops, .n_ops = 2, .min_threads = 2,
				   .max_threads = WEFT_MAX_THREADS, .max_ops_per_thread = WEFT_MAX_OPS,
				   .step_budget = 1u << 20 };
	CHECK(weft_target_problem(&edge) == NULL, "the largest bounds are allowed");
	/* a memory model of its own (issue 18): the runner's unless $WEFT_MEMORY says otherwise */
	const weft_target x86 = { .name = "x86", .ops = racy_ops, .n_ops = 2, .memory = "tso" };
	unsetenv("WEFT_MEMORY");
	weft_runner *r = weft_runner_new(&x86);
	CHECK(r && strcmp(weft_runner_memory(r), "tso") == 0, "the target's memory model is used");
	weft_runner_free(r);
	setenv("WEFT_MEMORY", "pso", 1);
	r = weft_runner_new(&x86);
	CHECK(r && strcmp(weft_runner_memory(r), "pso") == 0, "$WEFT_MEMORY overrides it");
	weft_runner_free(r);
	unsetenv("WEFT_MEMORY");
	r = weft_runner_new(&t);
	CHECK(r && strcmp(weft_runner_memory(r), "c11") == 0, "no model given: c11");
	weft_runner_free(r);
	const weft_target bad[] = {
		{ .name = "no ops" },
		{ .name = "no run", .ops = no_run, .n_ops = 1 },
		{ .name = "range", .ops = bad_range, .n_ops = 1 },
		{ .name = "final", .ops = only_final, .n_ops = 1 },
		{ .name = "foreign final", .ops = racy_ops, .n_ops = 2, .final_op = other },
		/* bounds it cannot have are refused, never clamped (issue 20) */
		{ .name = "1000 threads", .ops = racy_ops, .n_ops = 2, .min_threads = 1000,
		  .max_threads = 5 },
		{ .name = "min > max", .ops = racy_ops, .n_ops = 2, .min_threads = 3, .max_threads = 2 },
		{ .name = "max threads", .ops = racy_ops, .n_ops = 2, .max_threads = WEFT_MAX_THREADS + 1 },
		{ .name = "ops", .ops = racy_ops, .n_ops = 2, .max_ops_per_thread = WEFT_MAX_OPS + 1 },
		{ .name = "budget", .ops = racy_ops, .n_ops = 2, .step_budget = (1u << 20) + 1 },
		{ .name = "memory", .ops = racy_ops, .n_ops = 2, .memory = "x86" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(weft_target_problem(&bad[i]) != NULL, "target '%s' refused", bad[i].name);
		CHECK(weft_runner_new(&bad[i]) == NULL, "no runner for '%s'", bad[i].name);
	}
}

int main(void)
{
	test_lost_update_is_not_linearizable(&racy_target);
	test_lost_update_is_not_linearizable(&racy_no_model);
	test_groups();
	test_target_problems();
	return check_summary("test_target_api");
}
