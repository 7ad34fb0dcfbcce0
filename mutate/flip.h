/*
 * mutate/flip.h - reverse one race of a recorded run: the mutator's race
 * reversal arm (mutate.c), after RFF (Wolff et al., "Greybox fuzzing for
 * concurrency testing", ASPLOS 2024), whose mutations flip which store a load
 * reads and complete the rest with a randomized scheduler.
 *
 * A race here is two accesses to one object by different threads, at least
 * one of them a write, with no access of either thread to that object between
 * them in the run: thread A's access e1, then thread B's e2.  Reversing it
 * means: replay the run up to the decision just before e1 (the recorder's
 * decision log, schedule_record.h, says which one), hand the baton to B
 * there, let B run first until it has made e2 (its access count in the run,
 * search_pos_lead), then let POS (strategy_pos.c) finish the execution (or
 * keep the run's order after it: keep_order.h, half the reversals).  The
 * sampled run is written back as an explicit plan like every other sample, so
 * it replays anywhere and the minimizers reduce it.
 *
 * Why: a fresh sample explores anywhere; a reversal keeps what the input's
 * run had (the scenario, the prefix that reached its state) and changes one
 * order that decides a value read - the step a bug needs next when the input
 * is one order away from it.  Which race: as RFF aims at reads-from pairs
 * not seen yet, a race whose reversal makes a load read a store from a site
 * pair (runner/feedback.h READS_FROM) the campaign has not seen is preferred;
 * among equals, any race found from random starting points of the run, so
 * objects accessed often get more flips.
 *
 * Pure: it reads a trace and a decision log and draws from the caller's
 * generator; no state, no allocation.
 */
#ifndef WEFT_MUTATE_FLIP_H
#define WEFT_MUTATE_FLIP_H

#include <stdint.h>

#include "../scheduler/trace.h"
#include "../search/strategy_common.h"

typedef struct mutate_flip {
	uint64_t follow;       /* decisions replayed before B takes over (recorder's follow) */
	unsigned first;        /* thread A, whose access e1 is held back */
	unsigned second;       /* thread B, which runs first */
	uint32_t accesses;     /* B's accesses from the start up to and including e2 */
	uint32_t first_event;  /* e1's and e2's indices in the trace (tests, reports) */
	uint32_t second_event;
} mutate_flip;

/* Whether the fuzz campaign has seen a reads-from feature (runner/feedback.h). */
typedef int (*mutate_flip_seen)(void *ctx, uint32_t rf_id);

/*
 * Choose a race of `t` to reverse.  decision_at[d] / decision_to[d]: the
 * trace's length when unforced decision d + 1 was asked and the thread that
 * ran on (n of them logged).  Up to 32 races are collected; with `seen`
 * (may be NULL), those whose reversal makes a reads-from pair never seen are
 * preferred.  Returns 1 and fills *out, or 0 when the run has no race that a
 * logged decision just before e1 can reverse.
 */
int mutate_flip_choose(const sched_trace *t, const uint32_t *decision_at,
		       const uint8_t *decision_to, uint64_t n, search_rng *rng,
		       mutate_flip_seen seen, void *ctx, mutate_flip *out);

/*
 * As mutate_flip_choose, but a pair need not be adjacent: e2 is any later
 * access to e1's object by another thread, a write among the two, within
 * the window (up to 128 pairs collected).  For keep_order.h, whose reversal
 * makes A's accesses from e1 to e2 wait until after e2: e1 can then read
 * from any later write, or stop reading from its writer for any later read.
 */
int mutate_flip_choose_far(const sched_trace *t, const uint32_t *decision_at,
			   const uint8_t *decision_to, uint64_t n, search_rng *rng,
			   mutate_flip_seen seen, void *ctx, mutate_flip *out);

#endif /* WEFT_MUTATE_FLIP_H */
