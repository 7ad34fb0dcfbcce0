/*
 * search/dpor.h - partial-order reduction for the systematic explorer: an
 * execution cut into steps, which steps commute, and where a depth-first
 * search must branch so that every class of equivalent executions is explored.
 *
 * A *step* is what one thread does between two of its switch points: the
 * access (or operation start) right after a switch point, and everything up to
 * the next one.  The explorer decides who takes each step; two executions that
 * order only independent steps differently are equivalent (Mazurkiewicz): same
 * results, same final state, same history as a partial order, same verdict.
 *
 * Dependence (two steps of different threads):
 *   - same object (sched_event.addr) and at least one writes: stores,
 *     exchanges, fetch-ops and successful CAS write; loads and failed CAS read;
 *     an access kind this file does not know (locks, issue 5) is a write;
 *   - one step ends an operation and the other begins one: the oracle's
 *     real-time order ("a returned before b was invoked") must be the same in
 *     equivalent executions, or a reordering could hide a failure;
 *   - a step with more than DPOR_MAX_ACCESSES accesses (an atomic block), an
 *     event kind this file does not know, or a data choice (dpor_steps_mark:
 *     a weak read, a store buffer's commit, a timed wait's end) conflicts with
 *     everything;
 *   - under a weak memory model (C11, TSO, PSO: dpor_steps.weak), a step with a
 *     fence, a blocking primitive (lock, unlock, semaphore, spawn, join, ...) or a
 *     thread's start conflicts with everything: each of them is a full barrier
 *     in the model (scheduler/memory.c: sched_mem_sync joins the thread's view
 *     with one global view, or drains its buffer), so its place among the other
 *     threads' relaxed accesses decides which stores those may read, which no
 *     object names (relaxed message passing was reported fine with reduction,
 *     issue 31).
 * Only more dependence than necessary is ever assumed: that costs executions,
 * never a missed class.
 *
 * Objects are named by the order of their first access in the execution, not
 * by address: addresses change from one execution to the next (the instance is
 * allocated anew; under ASan it never comes back at the same place), and sleep
 * sets compare a step remembered from an earlier execution with the steps of
 * the current one.  Two executions that share a prefix give the same names to
 * the objects that prefix touched; any two objects first touched after it may
 * be the same (dpor_dependent_later).
 *
 * The search: source-DPOR (Abdulla, Aronis, Jonsson, Sagonas, "Optimal Dynamic
 * Partial Order Reduction", POPL 2014, Algorithm 1), with races found after
 * each execution over its whole step sequence (dpor_races) instead of as each
 * event is added; the same races are found because a replayed prefix is the
 * same execution.  Vector clocks give happens-before.  The sleep sets and the
 * backtrack sets live in the search (schedule_dfs.c).
 */
#ifndef WEFT_SEARCH_DPOR_H
#define WEFT_SEARCH_DPOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../scheduler/sched.h"

#define DPOR_MAX_ACCESSES 4
/*
 * Threads the search tracks: 32-bit sets and per-thread vector clocks.  The
 * scheduler runs up to SCHED_MAX_THREADS (128); an execution with more threads
 * than this is refused by the search (dpor_steps_parse returns -2), so
 * systematic mode says so instead of exploring part of it.
 */
#define DPOR_MAX_THREADS 32
#define DPOR_CONFLICTS_ALL 0xff   /* n_access value: dependent with every step */

typedef struct dpor_step {
	uint8_t thread;
	uint8_t n_access;              /* or DPOR_CONFLICTS_ALL */
	uint8_t begins, ends;          /* contains an operation's begin / end */
	uint8_t writes;                /* bit i: access i writes */
	uint32_t object[DPOR_MAX_ACCESSES];   /* names, in order of first access */
} dpor_step;

/* The steps of one execution, read from its trace as it grows. */
typedef struct dpor_steps {
	dpor_step *step;
	size_t n, cap;
	uint32_t (*clock)[DPOR_MAX_THREADS];  /* happens-before, filled by dpor_races */
	size_t clock_cap;
	size_t parsed;                 /* trace events consumed */
	uint32_t boundary;             /* bit t: thread t's next event starts a step */
	uint32_t marked;               /* bit t: thread t's next parsed step conflicts with all */
	bool weak;                     /* a weak memory model: syncs and starts conflict with all */
	int32_t last[DPOR_MAX_THREADS];   /* each thread's current step, -1 = none */
	const void **objects;          /* object name -> address, this execution */
	size_t n_objects, objects_cap;
} dpor_steps;

/* Two steps of one execution, of different threads, that do not commute (rules above). */
bool dpor_dependent(const dpor_step *a, const dpor_step *b);
/*
 * The same for `earlier`, a step of another execution that shared with this
 * one the prefix in which the first `known` objects were named, and `b`, a
 * step of this execution after that prefix.
 */
bool dpor_dependent_later(const dpor_step *earlier, uint32_t known, const dpor_step *b);

void dpor_steps_init(dpor_steps *s);
void dpor_steps_free(dpor_steps *s);
void dpor_steps_reset(dpor_steps *s);
/* Consume the trace's new events; returns -1 when out of memory, -2 past DPOR_MAX_THREADS. */
int dpor_steps_parse(dpor_steps *s, const sched_trace *t);
/*
 * `thread` made a data choice (its last event asked it, not parsed yet): the
 * step that event belongs to conflicts with every step.
 */
void dpor_steps_mark(dpor_steps *s, unsigned thread);
/*
 * Weak models only: `thread` reached its first switch point having recorded no
 * event: its start (a barrier) becomes a step of its own, dependent with
 * everything, so a decision between the start and the first access can be
 * asked to reverse a race (parse first).  Returns -1 when out of memory.
 */
int dpor_steps_start(dpor_steps *s, unsigned thread);
/* `thread` is at a switch point: its next event starts a new step (parse first). */
void dpor_steps_boundary(dpor_steps *s, unsigned thread);

/*
 * For every race j < k with from <= k < to (dependent steps of different threads,
 * j happens-before k through no other step), call found(ctx, j, k, initials):
 * `initials` is the set of threads that can start an execution which, from the
 * state before step j, reverses the race (source-DPOR's I(notdep(j).k)).
 * Returns -1 when out of memory.
 */
typedef void (*dpor_race_fn)(void *ctx, size_t j, size_t k, uint32_t initials);
int dpor_races(dpor_steps *s, size_t from, size_t to, dpor_race_fn found, void *ctx);

#endif /* WEFT_SEARCH_DPOR_H */
