/*
 * tests/test_nondeterminism.c - a target that does not repeat itself is
 * reported as nondeterministic, with the first step where two runs of the same
 * input differ (runner.c re-runs every failing input before judging it); but
 * nondeterminism never hides a real failure: when both runs fail, the failure
 * is reported with a note, and when only the first failed, its report is shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "weft/atomic.h"
#include "weft/model.h"
#include "weft/run.h"

typedef struct cell { _Atomic int64_t v; } cell;
static cell shared;
static unsigned runs_so_far;   /* leaks from one execution into the next: the defect */

static void *setup(void) { atomic_store(&shared.v, 0); return &shared; }

static int64_t op_leaky(void *self, const int64_t *args)
{
	(void)args;
	cell *c = self;
	if (runs_so_far++ % 2)
		weft_yield();   /* every other call takes one more step */
	weft_atomic_load(&c->v);
	return 0;
}

/* Every operation returns 0: linearizable, so only validate() fails.  (Without a
 * model the implementation would be replayed as its own model, calling op_leaky
 * once more per run and hiding the leak.) */
static void zero_init(void *state) { *(int64_t *)state = 0; }
static int64_t zero_apply(void *state, unsigned op, const int64_t *args)
{
	(void)state;
	(void)op;
	(void)args;
	return 0;
}
static const weft_model zero_model = {
	.name = "zero", .state_size = sizeof(int64_t), .init = zero_init, .apply = zero_apply,
};

static int always_fails(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)self;
	(void)h;
	snprintf(msg, cap, "this target always fails");
	return 1;
}

static const weft_op leaky_ops[] = { { .name = "leaky", .run = op_leaky } };
static const weft_target leaky = {
	.name = "leaky", .ops = leaky_ops, .n_ops = 1, .min_threads = 1, .max_threads = 1,
	.max_ops_per_thread = 1, .setup = setup, .model = &zero_model, .validate = always_fails,
};

static int64_t op_steady(void *self, const int64_t *args)
{
	(void)args;
	weft_atomic_load(&((cell *)self)->v);
	return 0;
}
/* Fails every other time it is validated: the first run of an input fails, the re-run passes. */
static unsigned validations;
static int fails_first(void *self, const weft_history *h, char *msg, size_t cap)
{
	(void)self;
	(void)h;
	snprintf(msg, cap, "the first run's own failure");
	return validations++ % 2 == 0;
}

static const weft_op steady_ops[] = { { .name = "steady", .run = op_steady } };
static const weft_target steady = {
	.name = "steady", .ops = steady_ops, .n_ops = 1, .min_threads = 1, .max_threads = 1,
	.max_ops_per_thread = 1, .setup = setup, .model = &zero_model, .validate = always_fails,
};

static const weft_target flaky = {
	.name = "flaky", .ops = steady_ops, .n_ops = 1, .min_threads = 1, .max_threads = 1,
	.max_ops_per_thread = 1, .setup = setup, .model = &zero_model, .validate = fails_first,
};

/* The text report of the runner's last execution. */
static char *report_of(const weft_runner *r)
{
	char *text = NULL;
	size_t len;
	FILE *m = open_memstream(&text, &len);
	weft_runner_report(r, m);
	fclose(m);
	return text;
}

/* Both runs fail, differently: the real failure is reported, with a note. */
static void test_both_runs_fail(void)
{
	weft_runner *r = weft_runner_new(&leaky);
	weft_result res;
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_FAIL_VALIDATION, "leaky target: %s",
	      weft_verdict_name(res.verdict));
	CHECK(strncmp(res.message, "this target always fails [note: the target is "
		      "nondeterministic", 60) == 0, "failure, then the note: %s", res.message);
	CHECK(strstr(res.message, "(validation, then validation)") != NULL, "both verdicts: %s",
	      res.message);
	CHECK(strstr(res.message, "this report is of the second run]") != NULL, "which run: %s",
	      res.message);
	char *text = report_of(r);
	CHECK(strstr(text, "the first run of this input failed") == NULL,
	      "no first-run report when the report shows a failure:\n%s", text);
	free(text);
	CHECK(strstr(res.message, "first difference at step 2: thread 0: load test_nondeterminism.c:") != NULL &&
	      strstr(res.message, "then thread 0: yield test_nondeterminism.c:") != NULL,
	      "names the first diverging step: %s", res.message);
	weft_runner_free(r);
}

/* Only the first run fails: nondeterministic, and the failing run is shown too. */
static void test_first_run_only_fails(void)
{
	validations = 0;
	weft_runner *r = weft_runner_new(&flaky);
	weft_result res;
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_FAIL_NONDETERMINISM, "flaky target: %s",
	      weft_verdict_name(res.verdict));
	CHECK(strstr(res.message, "the target is nondeterministic") != NULL &&
	      strstr(res.message, "(validation, then pass)") != NULL, "message: %s", res.message);
	CHECK(strstr(res.message, "the first run failed: the first run's own failure") != NULL,
	      "the first run's explanation: %s", res.message);
	char *text = report_of(r);
	CHECK(strstr(text, "==weft== FAIL nondeterministic in flaky") != NULL &&
	      strstr(text, "the first run of this input failed; its report:\n"
			   "  | ==weft== FAIL validation in flaky: the first run's own failure") != NULL,
	      "report shows both runs:\n%s", text);
	free(text);
	/* the next input starts clean: a passing input shows no earlier run */
	validations = 1;
	CHECK(weft_runner_run(r, NULL, 0, &res) == WEFT_PASS, "passes: %s", res.message);
	text = report_of(r);
	CHECK(strstr(text, "first run") == NULL, "nothing left from the last input:\n%s", text);
	free(text);
	weft_runner_free(r);
}

int main(void)
{
	weft_result res;
	test_both_runs_fail();
	test_first_run_only_fails();

	/* A deterministic failure keeps its own verdict. */
	weft_runner *s = weft_runner_new(&steady);
	CHECK(weft_runner_run(s, NULL, 0, &res) == WEFT_FAIL_VALIDATION, "steady target: %s",
	      weft_verdict_name(res.verdict));
	CHECK(strcmp(res.message, "this target always fails") == 0, "message kept: %s", res.message);
	weft_runner_free(s);
	return check_summary("test_nondeterminism");
}
