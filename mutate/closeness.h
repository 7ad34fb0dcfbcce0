/*
 * mutate/closeness.h - a "closer to failure" signal from one run's trace, for
 * the bandit's reward (bandit.h): the unserializable orders of three accesses
 * to one object the run made that the campaign had not seen.
 *
 * What: thread A accesses an object (site s1), another thread B accesses it
 * next (s2), then A again (s3), with B's access a write or both of A's
 * writes, as AVIO (Lu et al., ASPLOS 2006) names the orders no serial run of
 * A's pair can give: read-write-read, write-write-read, read-write-write,
 * write-read-write.  A triple is (s1, s2, s3, which of them wrote), stable
 * site ids only (never addresses), hashed to one of 2^16 bits.
 *
 * Why: the novelty the bandit rewarded first (interleaving features: switch
 * pairs, reads-from pairs, outcomes) mostly measures how different a run is,
 * and every sampler makes different runs; a lost update, an ABA, a torn
 * publication or a check-then-act is one of these triples on the object the
 * bug is about, usually with a second one around it.  An arm whose runs keep
 * making triples not seen yet is the one putting threads' accesses to one
 * object in new orders, which is what a hard bug needs more of.
 *
 * Cost: one pass over the trace with a small table of the objects touched
 * (MUTATE_CLOSE_OBJECTS, open addressing, stamped with the run so nothing is
 * cleared per run; further objects are not followed).  Deterministic: which objects are followed depends on the order
 * they were first touched, never on their addresses' values.
 */
#ifndef WEFT_MUTATE_CLOSENESS_H
#define WEFT_MUTATE_CLOSENESS_H

#include <stdint.h>

#include "../scheduler/trace.h"

#define MUTATE_CLOSE_SLOTS 65536
#define MUTATE_CLOSE_OBJECTS 512   /* objects followed per run (a power of two) */

typedef struct mutate_close_access {
	uint32_t site;
	uint8_t thread, wrote, valid;
} mutate_close_access;

/* An object of the run: its latest access, and the latest of another thread before it. */
typedef struct mutate_close_object {
	const void *addr;
	uint32_t run;   /* the run that claimed the slot: older slots are free */
	mutate_close_access prev, last;
} mutate_close_object;

typedef struct mutate_closeness {
	uint8_t seen[MUTATE_CLOSE_SLOTS / 8];   /* triples seen in the campaign, a bit each */
	uint64_t distinct;                      /* how many bits are set */
	uint32_t last_total;                    /* the last run's triples, repeats included */
	uint32_t run;                           /* runs observed (the table is never cleared) */
	mutate_close_object objects[MUTATE_CLOSE_OBJECTS];
} mutate_closeness;

void mutate_closeness_init(mutate_closeness *c);
/* The run's unserializable triples not seen before (marked seen now). */
unsigned mutate_closeness_observe(mutate_closeness *c, const sched_trace *t);
/* The id of a triple (tests build traces by hand): sites and which wrote. */
uint32_t mutate_closeness_id(uint32_t s1, uint32_t s2, uint32_t s3, unsigned writes);

#endif /* WEFT_MUTATE_CLOSENESS_H */
