/*
 * scheduler/mask.h - a set of managed threads: bit t = thread t.
 *
 * 128 threads (issue 22: whole programs spawn tens of threads), so a set is
 * one 128-bit integer, which gcc and clang provide on 64-bit targets: the
 * set operations stay single expressions (|, &, ~, shifts), exactly what the
 * 32-bit masks were, and none of them is on the switch point's hot path (a
 * switch point that does not switch touches no set: switch_point.c).
 */
#ifndef WEFT_SCHED_MASK_H
#define WEFT_SCHED_MASK_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_MASK_BITS 128

__extension__ typedef unsigned __int128 sched_mask;

static inline sched_mask sched_bit(unsigned t)
{
	return (sched_mask)1 << t;
}

static inline bool sched_has(sched_mask m, unsigned t)
{
	return (m >> t) & 1;
}

/* The lowest thread of a non-empty set. */
static inline unsigned sched_lowest(sched_mask m)
{
	uint64_t lo = (uint64_t)m;
	return lo ? (unsigned)__builtin_ctzll(lo) : 64 + (unsigned)__builtin_ctzll((uint64_t)(m >> 64));
}

/* The upper word is counted only when it has a thread (without a popcount
   instruction each word costs a dozen operations; the random walk counts at
   every pick). */
static inline unsigned sched_count(sched_mask m)
{
	uint64_t hi = (uint64_t)(m >> 64);
	unsigned n = (unsigned)__builtin_popcountll((uint64_t)m);
	return hi ? n + (unsigned)__builtin_popcountll(hi) : n;
}

/* Threads 0..n-1. */
static inline sched_mask sched_first_n(unsigned n)
{
	return n >= SCHED_MASK_BITS ? ~(sched_mask)0 : sched_bit(n) - 1;
}

#endif /* WEFT_SCHED_MASK_H */
