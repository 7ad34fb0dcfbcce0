/*
 * search/stress.h - the stress runner: a scenario's threads run at the same
 * time on real pthreads, with no scheduler, and the history they leave is
 * checked by the same oracle as a managed execution.  Lincheck's stress mode;
 * the seeds' "trivial test" (hammer a counter from many threads, compare the
 * end result) with a linearizability check instead of one final comparison.
 *
 * Why it is here: a baseline for explore mode (explore.h) and the benchmark,
 * so that "how much does controlling the schedule buy" has a number.  It is
 * not deterministic and has no report of the interleaving, which is the point
 * of weft; what it does have is real parallelism (and so real hardware
 * effects that a sequentially consistent scheduler cannot show).
 *
 * One execution: the controlling thread makes a fresh instance and publishes
 * the scenario; it runs thread 0 itself and worker pthreads (created on first
 * use, reused) run threads 1..n-1; all of them meet at a spinning barrier and
 * start together.  Each operation takes an invocation and a return time from
 * one shared atomic counter (so "a returned before b was invoked" is exactly
 * a.returned_at < b.invoked_at); the final operation runs on the controller
 * afterwards.  Outside a managed execution weft's atomics are plain C11
 * atomics and its locks are the real pthread ones (test_unmanaged).
 *
 * Not every target can be stressed: an operation that waits for another
 * thread (a lock, a condition, a semaphore, a spin loop) may wait forever in
 * a real run (a deadlock, a lost wake-up, a livelock, a take() on an empty
 * queue), and a stress run has no timeout to end it (a timeout would be a
 * wall-clock decision).  search_stress_unsupported says so for programs and
 * for targets whose operations were seen waiting in a probe of managed
 * executions.
 */
#ifndef WEFT_SEARCH_STRESS_H
#define WEFT_SEARCH_STRESS_H

#include <stdio.h>

#include "weft/check.h"
#include "weft/run.h"
#include "../input/scenario.h"

typedef struct search_stress search_stress;

/* NULL when out of memory.  Threads are created on the first run. */
search_stress *search_stress_new(weft_runner *runner);
void search_stress_free(search_stress *s);

/*
 * Run `scenario` (its plan is ignored) once, in parallel, and judge its
 * history; fills *out (may be NULL): preemptions, switches and steps are 0,
 * trace_hash is a hash of the history (operations, results and the order of
 * their times).  WEFT_ERROR when threads cannot be created.
 */
weft_verdict search_stress_run(search_stress *s, const input_scenario *scenario,
				weft_result *out);

/* The last run's history, in order of invocation (the final operation last). */
const weft_op_record *search_stress_history(const search_stress *s, size_t *n);

/* The last run as weft's report prints it: scenario, history, explanation. */
void search_stress_report(const search_stress *s, FILE *out);

/*
 * NULL when `runner`'s target can be stressed; else why not, one line.
 * Probes with up to 200 managed random-walk executions (seeded, so always
 * the same answer): any lock, condition, semaphore, join, yield, block or
 * descheduled spinner in their traces, or a deadlock, livelock or step-budget
 * verdict, means an operation can wait for another.
 */
const char *search_stress_unsupported(weft_runner *runner);

#endif /* WEFT_SEARCH_STRESS_H */
