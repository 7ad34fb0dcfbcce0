/*
 * tests/test_focus.c - the frontier of a climb (mutate/focus.h) and what
 * moves it (mutate_bandit_novel's new kinds, mutate/bandit.h).
 *
 *   1. No frontier: no mutation starts from one.  A mutant written but not
 *      promoted is none either; one promoted is, for about
 *      MUTATE_FOCUS_PERCENT of the calls, never when it does not fit
 *      max_size; a later mutant replaces it only when promoted itself, and a
 *      mutant is promoted once.
 *   2. The bandit reports a feature's kind as new only the first time its id
 *      is seen (a new count bucket of it is novel, not new).
 *   3. End to end on the fixed counter, fed back like libFuzzer (mutate,
 *      take or run, observe): with VALUES feedback the frontier moves (the
 *      counter's loads read values no run read before) and about a quarter
 *      of the later mutations start from it; with every kind but VALUES it
 *      never moves and no mutation starts from it.
 */
#include <string.h>

#include "check.h"
#include "weft/mutate.h"
#include "weft/run.h"
#include "../mutate/bandit.h"
#include "../mutate/focus.h"

#define WEFT_COUNTER_FIXED
#include "../targets/counter.c"

#define CALLS 4000
#define CAP 4096

static mutate_focus focus;   /* large: not on the stack */
static mutate_bandit bandit;

/* How many of CALLS calls start from the frontier (max_size given). */
static unsigned instead(search_rng *rng, size_t max_size)
{
	unsigned n = 0;
	for (unsigned i = 0; i < CALLS; i++)
		n += (unsigned)mutate_focus_instead(&focus, rng, max_size);
	return n;
}

static void frontier(void)
{
	search_rng rng;
	search_rng_seed(&rng, 1, 1);
	const uint8_t a[] = { 1, 2, 3 }, b[] = { 4, 5, 6, 7 };
	memset(&focus, 0, sizeof focus);
	CHECK(instead(&rng, 100) == 0, "a mutation started from no frontier");
	mutate_focus_written(&focus, a, sizeof a);
	CHECK(instead(&rng, 100) == 0, "a mutant not promoted became the frontier");
	CHECK(mutate_focus_promote(&focus) == 1, "the mutant written was not promoted");
	CHECK(focus.size == sizeof a && memcmp(focus.bytes, a, sizeof a) == 0,
	      "the frontier is not the mutant promoted");
	unsigned n = instead(&rng, 100);
	CHECK(n > CALLS * (MUTATE_FOCUS_PERCENT - 5) / 100 &&
	      n < CALLS * (MUTATE_FOCUS_PERCENT + 5) / 100,
	      "%u of %u mutations from the frontier, want about %d%%", n, CALLS,
	      MUTATE_FOCUS_PERCENT);
	CHECK(instead(&rng, sizeof a - 1) == 0, "a frontier longer than max_size was used");
	CHECK(mutate_focus_promote(&focus) == 0, "a mutant was promoted twice");
	mutate_focus_written(&focus, b, sizeof b);
	CHECK(focus.size == sizeof a && memcmp(focus.bytes, a, sizeof a) == 0,
	      "a later mutant replaced the frontier without being promoted");
	CHECK(mutate_focus_promote(&focus) == 1 && focus.size == sizeof b &&
	      memcmp(focus.bytes, b, sizeof b) == 0, "the later mutant promoted is not the frontier");
}

static void new_kinds(void)
{
	mutate_bandit_init(&bandit);
	weft_feature value = { 77, 1, WEFT_FEEDBACK_VALUES }, pair = { 78, 1, WEFT_FEEDBACK_PAIRS };
	unsigned kinds;
	CHECK(mutate_bandit_novel(&bandit, &value, 1, &kinds) && kinds == WEFT_FEEDBACK_VALUES,
	      "a value never seen: novel, kinds %u", kinds);
	CHECK(!mutate_bandit_novel(&bandit, &value, 1, &kinds) && kinds == 0,
	      "the same value again: not novel, kinds %u", kinds);
	value.count = 9;
	CHECK(mutate_bandit_novel(&bandit, &value, 1, &kinds) && kinds == 0,
	      "a new count of a value seen: novel but no new kind, kinds %u", kinds);
	weft_feature both[2] = { value, pair };
	CHECK(mutate_bandit_novel(&bandit, both, 2, &kinds) && kinds == WEFT_FEEDBACK_PAIRS,
	      "a pair never seen next to a value seen: kinds %u", kinds);
}

/* libFuzzer's loop in small: mutate, take the sample or run the bytes, observe. */
static weft_mutator_stats campaign(weft_runner *r, unsigned kinds, unsigned rounds)
{
	weft_mutator *m = weft_mutator_new(r, 0);
	REQUIRE(m && weft_runner_set_feedback(r, kinds) == 0, "out of memory");
	static uint8_t buf[CAP];
	size_t n = 0;
	for (unsigned i = 1; i <= rounds; i++) {
		n = weft_mutate(m, buf, n, CAP, i * 2654435761u, NULL);
		if (!weft_mutator_take(m, buf, n, NULL))
			weft_runner_run(r, buf, n, NULL);
		weft_mutator_observe(m);
	}
	weft_mutator_stats s = weft_mutator_stats_get(m);
	weft_runner_set_feedback(r, 0);
	weft_mutator_free(m);
	return s;
}

static void end_to_end(weft_runner *r)
{
	weft_mutator_stats v = campaign(r, WEFT_FEEDBACK_ALL, 2000);
	CHECK(v.frontiers > 0, "2000 mutations of the counter never read a new value");
	CHECK(v.focused > v.mutations / 8 && v.focused < v.mutations * 2 / 5,
	      "%llu of %llu mutations from the frontier, want about a quarter",
	      (unsigned long long)v.focused, (unsigned long long)v.mutations);
	weft_mutator_stats no = campaign(r, WEFT_FEEDBACK_ALL & ~WEFT_FEEDBACK_VALUES, 2000);
	CHECK(no.frontiers == 0 && no.focused == 0,
	      "without VALUES feedback the frontier moved %llu times, %llu mutations from it",
	      (unsigned long long)no.frontiers, (unsigned long long)no.focused);
}

int main(void)
{
	frontier();
	new_kinds();
	weft_runner *r = weft_runner_new(&counter_target);
	REQUIRE(r, "out of memory");
	end_to_end(r);
	weft_runner_free(r);
	return check_summary("test_focus");
}
