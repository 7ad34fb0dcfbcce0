/*
 * search/strategy_baselines.h - three schedules that are not the fuzzer's, for
 * comparison (explore mode, explore.h): each a sched_strategy (strategy.h),
 * driven by a seeded PRNG (strategy_common.h) and nothing else.
 *
 * All three are asked at every switch point (next_preemption returns step + 1,
 * except while a thread spins: strategy_common.h), so every step is a decision.
 * Before each execution the caller calls the strategy's *_start function.
 * *_init clears the whole struct (its step counts are kilobytes) and seeds
 * it; *_reseed only seeds one that was initialized before (start resets the
 * rest in proportion to what the last execution used): the mutator draws a
 * new seed per mutation (mutate/mutate.c), where the clears were 7% of its
 * time (issue 33).
 *
 * random (strategy_random.c), a random walk: at every switch point, the next
 * thread is drawn uniformly from the runnable threads, the current one
 * included; at a forced pick (the current thread finished, blocked or spins)
 * uniformly from the candidates.  Data choices (strategy.h `choose`) are
 * uniform too.
 *
 * pct (strategy_pct.c), Burckhardt, Kothari, Musuvathi and Nagarakatte,
 * "A randomized scheduler with probabilistic guarantees of finding bugs"
 * (ASPLOS 2010), with depth d: the n threads get the distinct priorities
 * d .. d+n-1 in a random order; d-1 change points k_1..k_{d-1} are drawn
 * uniformly from [1, k], k the estimated number of steps (switch points) of
 * the execution; the highest-priority runnable thread always runs; when the
 * execution reaches step k_i, the running thread's priority becomes d-i, below
 * every initial one.  PCT finds a bug of depth d with probability at least
 * 1/(n k^(d-1)) per execution when k is right.  d = 1 never switches away
 * from a thread that can go on, except at the very first step (weft starts
 * thread 0, and a higher-priority thread takes over there: weft counts that
 * switch as a preemption, PCT does not) and when a higher-priority thread
 * becomes runnable again (woken from a lock or a wait, or a descheduled
 * spinner after memory changed).  Data choices (a sleep or timed wait ending
 * early, a weak read, a buffered store): uniform, from their own stream, so a
 * bug that needs a sleeper to wake early is within PCT's reach (issue 31).
 *
 * uniform (strategy_uniform.c): at every switch point, thread i runs the next
 * step with probability proportional to its remaining steps, estimated as
 * (its estimated total) - (steps it passed).  When every thread's number of
 * switch points is fixed and the estimates are exact this is exactly uniform
 * over interleavings: of the merges of the threads' step sequences, a fraction
 * r_i / sum(r) begins with thread i.  Details that keep it exact: a thread
 * preempted at a switch point still has the step after it to run (+1); a
 * thread chosen before it started is not asked again at its first switch
 * point (its start is not a step of its own).  Approximations: step counts
 * depend on the interleaving (CAS retries, spins, blocking), and the
 * estimates come from earlier executions (explore.c); a thread past its
 * estimate keeps weight 1.  Data choices: uniform.
 */
/*
 * pos (strategy_pos.c), partial-order sampling: Yuan, Yang and Gu, "Partial
 * order aware concurrency sampling" (CAV 2018).  Every thread's next event
 * has a random priority; the runnable thread whose next event has the
 * highest priority runs.  After each executed event e, the thread that made
 * it gets a fresh priority (its next event is a new one) and so does every
 * thread whose next event races with e (same object, one of the two writes):
 * so an event that was overtaken by a racing one gets a fresh chance to run
 * before or after the next, which is what spreads POS's samples evenly over
 * the partial orders instead of the interleavings.  A thread's next event is
 * the access at which it waits (scheduler: pending_addr, pending_kind, set
 * by instrumented atomics; a blocking call's object is not recorded, so
 * races through locks are seen only through their atomics).  Data choices:
 * uniform.
 */
#ifndef WEFT_SEARCH_STRATEGY_BASELINES_H
#define WEFT_SEARCH_STRATEGY_BASELINES_H

#include "strategy_common.h"
#include "../scheduler/strategy.h"

/* ---- random walk ---- */
typedef struct search_random_walk {
	search_rng rng;
	search_steps steps;
} search_random_walk;

void search_random_walk_init(search_random_walk *w, uint64_t seed);
void search_random_walk_reseed(search_random_walk *w, uint64_t seed);
void search_random_walk_start(search_random_walk *w);
sched_strategy search_random_walk_strategy(search_random_walk *w);

/* ---- PCT ---- */
#define SEARCH_PCT_MAX_DEPTH 16

typedef struct search_pct {
	search_rng rng;
	search_rng choice_rng;                             /* data choices (stream 6) */
	search_steps steps;
	unsigned depth;
	unsigned n_slots;
	uint64_t k;                                        /* the estimate this execution used */
	unsigned prio[SCHED_MAX_THREADS];                  /* higher runs first */
	unsigned n_changes, next_change;
	uint64_t change_at[SEARCH_PCT_MAX_DEPTH];         /* ascending */
	unsigned change_prio[SEARCH_PCT_MAX_DEPTH];
} search_pct;

void search_pct_init(search_pct *p, uint64_t seed, unsigned depth);
void search_pct_reseed(search_pct *p, uint64_t seed, unsigned depth);
/* A new execution of `n_slots` threads, about `k` steps long (k >= 1). */
void search_pct_start(search_pct *p, unsigned n_slots, uint64_t k);
sched_strategy search_pct_strategy(search_pct *p);

/* ---- uniform over interleavings ---- */
typedef struct search_uniform {
	search_rng rng;
	search_steps steps;
	uint64_t estimate[SCHED_MAX_THREADS];   /* each thread's switch points */
	sched_mask committed;                   /* chosen before it started: not asked again */
} search_uniform;

void search_uniform_init(search_uniform *u, uint64_t seed);
void search_uniform_reseed(search_uniform *u, uint64_t seed);
/* A new execution; estimate[t] for t < n_slots (0 taken as 1). */
void search_uniform_start(search_uniform *u, const uint64_t *estimate, unsigned n_slots);
sched_strategy search_uniform_strategy(search_uniform *u);

/* ---- partial-order sampling ---- */
typedef struct search_pos {
	search_rng rng;
	search_steps steps;
	uint64_t prio[SCHED_MAX_THREADS];   /* of each thread's next event; higher runs first */
	size_t seen;                        /* trace events already accounted for */
	uint32_t accesses[SCHED_MAX_THREADS];  /* each thread's accesses so far */
	int lead;                           /* a thread that runs first while it can, or -1 */
	uint32_t lead_until;                /* ... until it made this many accesses */
} search_pos;

void search_pos_init(search_pos *p, uint64_t seed);
void search_pos_reseed(search_pos *p, uint64_t seed);
void search_pos_start(search_pos *p);
/*
 * After start: `thread` runs whenever it can until it has made `accesses`
 * accesses in all (counted from the execution's start), then POS as usual.
 * The mutator's race reversal (mutate/flip.h) uses it to run the second
 * access of a race before the first.
 */
void search_pos_lead(search_pos *p, unsigned thread, uint32_t accesses);
sched_strategy search_pos_strategy(search_pos *p);

#endif /* WEFT_SEARCH_STRATEGY_BASELINES_H */
