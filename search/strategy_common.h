/*
 * search/strategy_common.h - what the baseline strategies (random walk, PCT,
 * uniform; strategy_baselines.h) share: a seeded PRNG and a count of the
 * switch points each thread passed.
 *
 * PRNG: xoshiro256** seeded through splitmix64 (Blackman and Vigna).  Every
 * random decision of explore mode comes from one of these, seeded from the
 * command line's --seed: no other randomness, no clock, so the same seed gives
 * the same executions.
 *
 * Step counting.  Every baseline asks to be preempted at every switch point
 * (next_preemption returns step + 1; the hot path is untouched, the cost is
 * one out-of-line call per step), so the scheduler calls next_preemption once
 * per switch point a thread passes outside atomic blocks (step >= 1), right
 * after pick (when pick was asked), and once with step 0 when a call starts.
 * Counting the steps between those calls gives each thread's and each call's
 * switch points: what PCT and the uniform strategy estimate the next
 * execution's length from.  At pick time the asking thread has not been
 * counted for the switch point it is at; a thread waiting at its own switch
 * point (preempted there) has.
 */
#ifndef WEFT_SEARCH_STRATEGY_COMMON_H
#define WEFT_SEARCH_STRATEGY_COMMON_H

#include <stdint.h>
#include <string.h>

#include "../input/scenario.h"
#include "../scheduler/sched.h"

typedef struct search_rng {
	uint64_t s[4];
} search_rng;

static inline uint64_t search_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A generator for `seed` and `stream` (independent streams from one seed). */
static inline void search_rng_seed(search_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
	for (int i = 0; i < 4; i++)
		r->s[i] = search_splitmix64(&x);
}

static inline uint64_t search_rng_next(search_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/*
 * Uniform in [0, bound), bound >= 1 (Lemire's multiply-shift with rejection:
 * exact; "Fast random integer generation in an interval", TOMACS 2019).  The
 * threshold, (2^64 - bound) mod bound, is below bound, so a low half at or
 * above bound is accepted without it: the division happens on few calls, and
 * the values and the draws taken are what they were with it on every call.
 */
static inline uint64_t search_rng_below(search_rng *r, uint64_t bound)
{
	if (bound <= 1)
		return 0;
	unsigned __int128 m = (unsigned __int128)search_rng_next(r) * bound;
	if ((uint64_t)m < bound) {
		uint64_t threshold = (0 - bound) % bound;
		while ((uint64_t)m < threshold)
			m = (unsigned __int128)search_rng_next(r) * bound;
	}
	return (uint64_t)(m >> 64);
}

/* A uniformly chosen thread of the non-empty bit mask. */
static inline unsigned search_rng_member(search_rng *r, sched_mask mask)
{
	unsigned k = (unsigned)search_rng_below(r, (uint64_t)sched_count(mask));
	if ((uint64_t)(mask >> 64) == 0) {   /* threads below 64: one word, the same pick */
		uint64_t low = (uint64_t)mask;
		for (; k > 0 && low; k--)
			low &= low - 1;
		return low ? (unsigned)__builtin_ctzll(low) : 0;
	}
	for (; k > 0 && mask; k--)
		mask &= mask - 1;   /* drop the lowest: the k-th is then the lowest */
	return mask ? sched_lowest(mask) : 0;
}

/*
 * Switch points passed, per thread and per call, in the current execution,
 * and whether a thread spins (see the top of this file).
 */
typedef struct search_steps {
	uint64_t total;                              /* all threads */
	uint64_t thread[SCHED_MAX_THREADS];
	uint64_t call[INPUT_MAX_CALLS];            /* scenario calls (not spawned threads) */
	uint64_t last[SCHED_MAX_THREADS];            /* the step of its call last seen */
	uint64_t seen_epoch[SCHED_MAX_THREADS];      /* the execution's change count then */
	uint64_t quiet[SCHED_MAX_THREADS];           /* switch points since memory last changed */
	/* per-thread entries from n_thread on, and call[] from n_call on, are 0: what
	   search_steps_restart clears (an execution touches a few of 128 threads) */
	unsigned n_thread, n_call;
} search_steps;

/* All zero; for a struct never used (or not known to be zero past its marks). */
static inline void search_steps_reset(search_steps *c)
{
	memset(c, 0, sizeof *c);
}

/*
 * The same, for one that only search_steps_next has written since its reset:
 * clears what the execution used, not the 5 KB of capacity (every reader
 * still sees zeros everywhere, so nothing else changes).
 */
static inline void search_steps_restart(search_steps *c)
{
	/* loops, not five memset calls: an execution uses a few entries of each */
	c->total = 0;
	for (unsigned t = 0; t < c->n_thread; t++)
		c->thread[t] = c->last[t] = c->seen_epoch[t] = c->quiet[t] = 0;
	for (unsigned i = 0; i < c->n_call; i++)
		c->call[i] = 0;
	c->n_thread = c->n_call = 0;
}

/* The switch point being decided: `thread` is at `step` of its call (pick's arguments). */
static inline uint64_t search_steps_now(const search_steps *c, unsigned thread, uint64_t step)
{
	if (thread >= SCHED_MAX_THREADS || step < c->last[thread])
		return c->total;
	return c->total + (step - c->last[thread]);
}

/*
 * next_preemption for every baseline: count what `thread` passed since it was
 * last asked, then ask again at the next switch point - unless the thread
 * spins (no change to shared memory for more than the scheduler's spin limit
 * of its switch points): then at the step after the scheduler's own spin
 * limit, so that progress.c, which counts only switch points that are not
 * planned preemptions, deschedules the spinner or declares a livelock as it
 * does for the fuzzer's schedules.  Without this a strategy that preempts at
 * every step would switch the progress checks off.  The price: up to
 * spin_limit + 1 switch points after a spin ends are not decision points.
 */
static inline uint64_t search_steps_next(search_steps *c, unsigned thread, uint32_t call,
					  uint64_t step)
{
	if (thread >= SCHED_MAX_THREADS)
		return step + 1;
	if (thread >= c->n_thread)
		c->n_thread = thread + 1;
	if (call < INPUT_MAX_CALLS && call >= c->n_call)
		c->n_call = call + 1;
	uint64_t passed = step >= c->last[thread] ? step - c->last[thread] : step;
	c->last[thread] = step;
	c->total += passed;
	c->thread[thread] += passed;
	if (call < INPUT_MAX_CALLS)
		c->call[call] += passed;
	/* asked on the thread itself, which holds the baton (exec.c, switch_point.c) */
	const sched_thread *self = weft_impl_current;
	if (!self || self->id != thread)
		return step + 1;
	const sched_exec *x = self->exec;
	if (x->epoch != c->seen_epoch[thread]) {
		c->seen_epoch[thread] = x->epoch;
		c->quiet[thread] = 0;
	} else {
		c->quiet[thread] += passed;
	}
	if (c->quiet[thread] <= x->cfg.spin_limit)
		return step + 1;
	return step + x->cfg.spin_limit + 2;
}

#endif /* WEFT_SEARCH_STRATEGY_COMMON_H */
