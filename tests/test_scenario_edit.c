/*
 * tests/test_scenario_edit.c - the simplifier's structural edits
 * (reduce/scenario_edit.h): a thread exchange renumbers the plan's `to`
 * thread modulo the slots the replay reads it with (input/schedule_bytes.c).
 *
 *   1. A data structure (slots = its threads): a switch to 5 among 3 threads
 *      is a switch to thread 2, so exchanging threads 1 and 2 makes it 1.
 *   2. A program (slots = its 128 possible threads, 3 listed): a switch to
 *      thread 17 names thread 17, which no exchange of listed threads
 *      touches; a switch to listed thread 2 follows the exchange.  (Before,
 *      17 was read modulo the 3 listed threads: the edited candidate
 *      switched to thread 1, another schedule, wasting the simplifier's run.)
 */
#include <string.h>

#include "check.h"
#include "../input/scenario.h"
#include "../reduce/scenario_edit.h"

static input_scenario in, out;
static reduce_lists lists;

/* Three threads, one call each; call 0 switches to `a` at step 1, call 1 to `b` at step 2. */
static void three_threads(uint8_t a, uint8_t b)
{
	memset(&in, 0, sizeof in);
	in.n_threads = 3;
	in.n_calls = 3;
	for (unsigned t = 0; t <= 3; t++)
		in.first_call[t] = t;
	for (unsigned c = 0; c < 3; c++)
		in.calls[c].thread = c;
	in.plan[0] = (input_preemption){ 1, a };
	in.plan[1] = (input_preemption){ 2, b };
	in.n_plan = 2;
	in.first_plan[0] = 0;
	in.first_plan[1] = 1;
	in.first_plan[2] = 2;
	in.first_plan[3] = 2;
}

int main(void)
{
	input_bounds b;
	memset(&b, 0, sizeof b);
	b.min_threads = 1;
	b.max_threads = 3;
	three_threads(5, 0);
	reduce_swap_lists(&lists, &in, 1, 2);
	reduce_rebuild(&out, &in, &lists, &b);
	CHECK(out.n_plan == 2 && out.plan[0].to == 1,
	      "data structure: a switch to 5 (thread 2 of 3) became %u, not 1", out.plan[0].to);
	CHECK(out.plan[1].to == 0, "data structure: a switch to 0 became %u", out.plan[1].to);

	b.program = 1;
	b.max_threads = INPUT_MAX_THREADS;
	three_threads(17, 2);
	reduce_swap_lists(&lists, &in, 1, 2);
	reduce_rebuild(&out, &in, &lists, &b);
	CHECK(out.n_plan == 2 && out.plan[0].to == 17,
	      "program: a switch to unlisted thread 17 became %u", out.plan[0].to);
	CHECK(out.plan[1].to == 1, "program: a switch to listed thread 2 became %u, not 1",
	      out.plan[1].to);
	three_threads(17 + INPUT_MAX_THREADS, 0);
	reduce_lists_of(&lists, &in);
	reduce_rebuild(&out, &in, &lists, &b);
	CHECK(out.plan[0].to == 17, "program: a switch to 145 (thread 17) became %u",
	      out.plan[0].to);
	return check_summary("test_scenario_edit");
}
