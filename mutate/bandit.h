/*
 * mutate/bandit.h - which mutation the structure-aware mutator makes next: an
 * adaptive choice among its arms (sample a uniform, POS, random-walk or PCT
 * schedule on a fresh scenario or on the input's own, keep a prefix of the
 * input's plan, edit a preemption or an operation, reverse a race of the
 * input's run, splice two inputs),
 * rewarded when the execution of the mutant put accesses to one object in an
 * unserializable order no earlier one had (closeness.h).
 *
 * Why: no fixed mix is right for every target (bench/results.md: uniform is
 * the best baseline on some bugs, POS or the random walk on others), and a
 * mixture is never better than its best part weighted by its share.  A bandit
 * moves the share toward the arms whose mutants keep giving new orders of
 * threads' accesses to one object, the "closer to failure" signal of issue 33;
 * the priors come from measured per-arm failure rates (bandit.c).  Rewarding
 * any new interleaving feature (weft/run.h: pairs, reads-from, outcomes), as
 * before, credited nearly every run of every arm, so the shares stayed at the
 * priors (measured with bench/search_quick.sh).
 *
 * The estimate per arm is probability matching on a decayed mean:
 * weight = prior * (gains + K/2) / (pulls + K), at least prior / 4 so that no
 * arm starves, with pulls and gains decayed by 1/256 per reward so the choice
 * follows the campaign's phase (early: fresh scenarios; later: corpus work).
 * The features of every mutant's run are still marked seen (id mod 2^16, its
 * count bucketed as libFuzzer buckets counters): the race reversal prefers
 * reads-from pairs not seen (flip.h).  With feedback off nothing is rewarded
 * and the priors stay.  Deterministic: the choice draws from the
 * mutator's seeded generator, and the state follows the calls made.
 */
#ifndef WEFT_MUTATE_BANDIT_H
#define WEFT_MUTATE_BANDIT_H

#include <stddef.h>
#include <stdint.h>

#include "weft/run.h"
#include "../search/strategy_common.h"

typedef enum mutate_arm {
	MUTATE_UNIFORM_FRESH,   /* a fresh random scenario, uniform over interleavings */
	MUTATE_POS_FRESH,       /* a fresh scenario, partial-order sampling */
	MUTATE_WALK_FRESH,      /* a fresh scenario, random walk */
	MUTATE_PCT_FRESH,       /* a fresh scenario, PCT depth 2 or 3 */
	MUTATE_UNIFORM_SAME,    /* the input's scenario, uniform */
	MUTATE_POS_SAME,        /* the input's scenario, POS */
	MUTATE_WALK_PREFIX,     /* the input's plan for 0..63 decisions, then a random walk */
	MUTATE_EDIT_PLAN,       /* insert, move or drop one preemption */
	MUTATE_EDIT_CALL,       /* one operation or argument changed, then a sample */
	MUTATE_FLIP,            /* races of the input's run reversed (flip.h, keep_order.h) */
	MUTATE_SPLICE,          /* threads of two inputs, then a sample (crossover only) */
	MUTATE_ARMS
} mutate_arm;

#define MUTATE_SEEN_SLOTS 65536

typedef struct mutate_bandit {
	double pulls[MUTATE_ARMS], gains[MUTATE_ARMS];
	int last;                          /* the arm of the last mutant, or -1 */
	uint8_t seen[MUTATE_SEEN_SLOTS];   /* count buckets seen per feature slot */
} mutate_bandit;

void mutate_bandit_init(mutate_bandit *b);
#define MUTATE_FRESH_ARMS                                                              \
	((1u << MUTATE_UNIFORM_FRESH) | (1u << MUTATE_POS_FRESH) | (1u << MUTATE_WALK_FRESH) | \
	 (1u << MUTATE_PCT_FRESH))
#define MUTATE_ALL_ARMS ((1u << MUTATE_ARMS) - 1)

/* The next arm among `allowed` (a bit per arm, at least one fresh arm);
 * remembered as the last. */
mutate_arm mutate_bandit_pick(mutate_bandit *b, search_rng *rng, unsigned allowed);
/* The last mutant was new to the engine (novel) or not: credit its arm; once. */
void mutate_bandit_credit(mutate_bandit *b, int novel);
/*
 * Whether any of a run's features is new (count bucket included); marks them
 * seen.  *new_kinds: the kinds (weft_feedback_kind) of the features never
 * seen at any count before (focus.h moves on a new value).
 */
int mutate_bandit_novel(mutate_bandit *b, const weft_feature *f, size_t n, unsigned *new_kinds);
/* Whether a feature id was ever seen in a mutant's run (any count). */
int mutate_bandit_seen(const mutate_bandit *b, uint32_t id);
/* The current share of each arm, in permille (for the exit statistics). */
void mutate_bandit_shares(const mutate_bandit *b, unsigned *permille);

#endif /* WEFT_MUTATE_BANDIT_H */
