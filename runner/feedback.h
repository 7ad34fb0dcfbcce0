/*
 * runner/feedback.h - interleaving feedback: what one execution did, as a
 * small set of stable feature ids for the fuzzer (issue 7).
 *
 * Code coverage cannot tell two interleavings of the same operations apart:
 * the same lines run.  These features can.  Four kinds, each switchable:
 *
 *   PAIRS       one per switch between threads (SCHED_EV_PREEMPT, and
 *               SCHED_EV_SWITCH when a thread finished, blocked or was
 *               descheduled as a spinner): (how, where the switched-out thread
 *               was, where the switched-in thread was).  "Where a thread was"
 *               at event i is its *next program point*: the first event of that
 *               thread after i that is an access, an operation begin or an
 *               operation end.  A switch point comes before its access, so for
 *               a preemption that is exactly the access the thread was about to
 *               make when it was stopped, and for the thread switched to it is
 *               the access it was stopped before (or, for a thread that had not
 *               started its operation, that operation's begin).  A thread with
 *               no later program point (finished, or the execution was cut)
 *               is "nowhere" (0).
 *   READS_FROM  one per access that reads a value last written, in this
 *               execution, by a *different* thread at the same address:
 *               (writer's site, reader's site).  Reads: load, exchange,
 *               compare-exchange (failed or not), fetch-ops; writes: store,
 *               exchange, successful compare-exchange, fetch-ops (an RMW is a
 *               read, then a write).  Locks and semaphores the same way:
 *               lock, trylock, rdlock, condition wait and sem_wait read and
 *               write the object; unlock, signal, broadcast and sem_post write
 *               it.  A value from before the execution (setup) or from the
 *               reader's own thread gives nothing.  Addresses only match
 *               accesses within one execution; they never enter a feature.
 *   OUTCOME     one per execution: a hash of every operation's (thread,
 *               position in its thread, op, arguments, result) - pending and
 *               blocked are results of their own - and the final operation's:
 *               what happened, not when.
 *   VALUES      one per read of a value another thread wrote (the reads-from
 *               pass): (read site, the value, exact below 128, else its bit
 *               length), so an input that takes a stage or a count one step
 *               further is new; and one per time-out of a timed wait (a
 *               condition wait or sem_timedwait that timed out): (wait site,
 *               the thread's time-outs in a row there), so an input that makes
 *               a retry loop wait once more is new.  The mutator's frontier
 *               moves on a new one (mutate/focus.h).
 *
 * Sites are the trace's stable site ids (basename, line, access kind);
 * operation begins and ends are named by the operation kind.  A feature id is
 * a 32-bit hash of (kind, a, b): the same source and input give the same ids on
 * every machine, compiler and load address.  An id occurring several times in
 * an execution is one feature with a count.
 *
 * Cost: one forward pass over the trace (reads-from), one backward pass
 * (pairs), one over the history (outcome); fixed tables allocated once with
 * the state, nothing allocated per execution.  Limits: at most
 * RUNNER_FEEDBACK_MAX_FEATURES distinct features and
 * RUNNER_FEEDBACK_MAX_OBJECTS distinct addresses per execution; beyond
 * them new ones are dropped (counted in `dropped`).
 */
#ifndef WEFT_RUNNER_FEEDBACK_H
#define WEFT_RUNNER_FEEDBACK_H

#include <stddef.h>
#include <stdint.h>

#include "weft/run.h"
#include "weft/target.h"
#include "../scheduler/trace.h"

#define RUNNER_FEEDBACK_MAX_FEATURES 1024

/* Whether an access event reads / writes its object, as READS_FROM counts them
 * (above); also the mutator's race reversal (mutate/flip.c). */
static inline int runner_access_reads(const sched_event *e)
{
	switch (e->kind) {
	case WEFT_ACCESS_STORE: case WEFT_ACCESS_UNLOCK: case WEFT_ACCESS_SIGNAL:
	case WEFT_ACCESS_BROADCAST: case WEFT_ACCESS_SEM_POST:
		return 0;
	default:
		return 1;
	}
}

static inline int runner_access_writes(const sched_event *e)
{
	switch (e->kind) {
	case WEFT_ACCESS_LOAD:
		return 0;
	case WEFT_ACCESS_CAS:
		return sched_cas_wrote(e);   /* a failed compare-exchange only reads */
	default:
		return 1;
	}
}
#define RUNNER_FEEDBACK_MAX_OBJECTS 768

/* How a switch happened: the first word of a pair feature. */
enum runner_switch_how {
	RUNNER_SWITCH_PREEMPT = 1,   /* the strategy preempted a thread that could go on */
	RUNNER_SWITCH_FINISHED,      /* the thread's operations were done */
	RUNNER_SWITCH_BLOCKED,       /* it blocked on a lock, condition, semaphore, join */
	RUNNER_SWITCH_SPINNING,      /* it was descheduled as a spinner */
};

typedef struct runner_feedback runner_feedback;

/* What one execution left behind; every pointer may be NULL when its n is 0. */
typedef struct runner_feedback_input {
	const sched_event *events;
	size_t n_events;
	const weft_op_record *calls;      /* the scenario's calls (op kind of a call index) */
	size_t n_calls;
	const weft_op_record *history;    /* in order of invocation, the final op last */
	size_t n_history;
} runner_feedback_input;

/* NULL when out of memory.  The state holds every table (tens of KiB). */
runner_feedback *runner_feedback_new(void);
void runner_feedback_free(runner_feedback *fb);

/* Replace the features with those of this execution, of the kinds in `kinds`. */
void runner_feedback_compute(runner_feedback *fb, unsigned kinds, const runner_feedback_input *in);

/* Copy up to `cap` features (sorted by kind, then id); returns how many there are. */
size_t runner_feedback_get(const runner_feedback *fb, weft_feature *out, size_t cap);
/* Features dropped by the last computation because a table was full. */
size_t runner_feedback_dropped(const runner_feedback *fb);

/* The ids, for tests that build a trace by hand: */
uint32_t runner_feedback_pair_id(unsigned how, uint32_t from_site, uint32_t to_site);
uint32_t runner_feedback_rf_id(uint32_t write_site, uint32_t read_site);
uint32_t runner_feedback_value_id(uint32_t read_site, uint64_t value);
/* A VALUES feature too: a thread's in_a_row-th time-out in a row at a timed wait site. */
uint32_t runner_feedback_timeouts_id(uint32_t wait_site, uint32_t in_a_row);
/* The stable name of operation kind `op`'s begin (end = 0) or end (end = 1). */
uint32_t runner_feedback_op_site(unsigned op, int end);

#endif /* WEFT_RUNNER_FEEDBACK_H */
