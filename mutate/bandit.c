/*
 * mutate/bandit.c - the adaptive choice of the next mutation (design in
 * bandit.h).
 */
#include "bandit.h"

#include <string.h>

#define BANDIT_K 8.0          /* pseudo-pulls at rate 1/2 before an arm has a record */
#define BANDIT_DECAY (255.0 / 256.0)

/*
 * Priors, permille.  Mostly fresh scenarios under uniform, POS and the random
 * walk, the baselines best on most targets; then PCT, the best arm on
 * resize_set and pool_stack; then the arms on the input's own scenario.
 * Measured per arm (issue 17, ARCHITECTURE.md): which arm's mutant failed
 * first, over 40 seeds of 8 targets, per 1,000 pulls - uniform, POS on the
 * input's scenario reach the fresh arms' rates (spsc_ring, hash_set,
 * blocking_queue: more), an edited call too (key_lock_set); a kept plan
 * prefix and an edited preemption found nearly nothing (and the edit runs
 * twice), so they stay small, there for the long campaigns' corpus work.
 * The race reversal has 350 (was 150): on the hard benchmark's programs
 * (issue 33, bench/hard/) its mutant was the failing one in 7 of 8 seeds of
 * three_races, and at 350 the fuzzer's median fell 1.3-2.8x on four of five
 * programs (bench/search_quick.sh, ARCHITECTURE.md "Known limits").
 */
static const unsigned prior[MUTATE_ARMS] = {
	[MUTATE_UNIFORM_FRESH] = 300, [MUTATE_POS_FRESH] = 250, [MUTATE_WALK_FRESH] = 50,
	[MUTATE_PCT_FRESH] = 80,      [MUTATE_UNIFORM_SAME] = 90, [MUTATE_POS_SAME] = 70,
	[MUTATE_WALK_PREFIX] = 40,    [MUTATE_EDIT_PLAN] = 20,    [MUTATE_EDIT_CALL] = 60,
	[MUTATE_FLIP] = 350,          [MUTATE_SPLICE] = 40,
};

void mutate_bandit_init(mutate_bandit *b)
{
	memset(b, 0, sizeof *b);
	b->last = -1;
}

static double weight(const mutate_bandit *b, unsigned arm)
{
	double rate = (b->gains[arm] + BANDIT_K / 2) / (b->pulls[arm] + BANDIT_K);
	double w = prior[arm] * 2.0 * rate;   /* the prior itself at rate 1/2 */
	return w < prior[arm] / 4.0 ? prior[arm] / 4.0 : w;
}

mutate_arm mutate_bandit_pick(mutate_bandit *b, search_rng *rng, unsigned allowed)
{
	double w[MUTATE_ARMS], total = 0;
	for (unsigned a = 0; a < MUTATE_ARMS; a++) {
		w[a] = (allowed >> a) & 1 ? weight(b, a) : 0;
		total += w[a];
	}
	double x = (double)(search_rng_next(rng) >> 11) * 0x1p-53 * total;
	unsigned a = 0;
	while (a + 1 < MUTATE_ARMS && (x >= w[a] || w[a] == 0)) {
		x -= w[a];
		a++;
	}
	if (w[a] == 0)   /* rounding past the last arm with a weight */
		a = MUTATE_UNIFORM_FRESH;
	b->last = (int)a;
	return (mutate_arm)a;
}

/* libFuzzer's counter buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
static uint8_t bucket(uint32_t count)
{
	unsigned k = count <= 3 ? count - 1 : count < 8 ? 3 : count < 16 ? 4 : count < 32 ? 5
			 : count < 128 ? 6 : 7;
	return (uint8_t)(1u << k);
}

void mutate_bandit_credit(mutate_bandit *b, int novel)
{
	if (b->last < 0)
		return;
	for (unsigned a = 0; a < MUTATE_ARMS; a++) {
		b->pulls[a] *= BANDIT_DECAY;
		b->gains[a] *= BANDIT_DECAY;
	}
	b->pulls[b->last] += 1;
	b->gains[b->last] += novel != 0;
	b->last = -1;
}

int mutate_bandit_novel(mutate_bandit *b, const weft_feature *f, size_t n, unsigned *new_kinds)
{
	unsigned novel = 0;
	*new_kinds = 0;
	for (size_t i = 0; i < n; i++) {
		if (f[i].count == 0)
			continue;
		uint8_t *slot = &b->seen[f[i].id % MUTATE_SEEN_SLOTS], bit = bucket(f[i].count);
		if (*slot == 0)
			*new_kinds |= (unsigned)f[i].kind;
		novel += !(*slot & bit);
		*slot |= bit;
	}
	return novel > 0;
}

int mutate_bandit_seen(const mutate_bandit *b, uint32_t id)
{
	return b->seen[id % MUTATE_SEEN_SLOTS] != 0;
}

void mutate_bandit_shares(const mutate_bandit *b, unsigned *permille)
{
	double total = 0;
	for (unsigned a = 0; a < MUTATE_ARMS; a++)
		total += weight(b, a);
	for (unsigned a = 0; a < MUTATE_ARMS; a++)
		permille[a] = (unsigned)(1000.0 * weight(b, a) / total + 0.5);
}
