/*
 * runner/divergence.h - where two runs of the same input part ways.
 *
 * Every failing input is run twice (runner.c, recheck_failure); a copy of the
 * first run's trace is compared event by event with the second's.  Events are
 * compared by what the fuzzer and the report see (kind, thread, other thread,
 * stable site id, value), never by address.
 */
#ifndef WEFT_RUNNER_DIVERGENCE_H
#define WEFT_RUNNER_DIVERGENCE_H

#include <stddef.h>

#include "../scheduler/trace.h"

/* A trace's events copied out of the scheduler; capacity is reused across inputs. */
typedef struct runner_trace_copy {
	sched_event *events;
	size_t n, cap;
} runner_trace_copy;

/* Copy `t` into `c`; 0, or -1 out of memory (c is then unchanged). */
int runner_trace_copy_save(runner_trace_copy *c, const sched_trace *t);
/* The first index at which `c` and `t` differ (or where the shorter ends); -1 if equal. */
long runner_trace_first_divergence(const runner_trace_copy *c, const sched_trace *t);

#endif /* WEFT_RUNNER_DIVERGENCE_H */
