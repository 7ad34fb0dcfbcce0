/*
 * oracle/partition.h - P-compositionality for the linearizability search
 * (oracle/linearize.c): splitting a history into per-key sub-histories, and
 * the (key, index) pairs and their sort, which the search also uses to order
 * its call and return times.  Internal to the oracle.
 */
#ifndef WEFT_ORACLE_PARTITION_H
#define WEFT_ORACLE_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "weft/check.h"

/* A sort key: times, or partition keys with the sign bit flipped (order-preserving). */
typedef struct oracle_pair {
	uint64_t key;
	uint32_t idx;
} oracle_pair;

/* Sorts by (key, idx), O(n) when already sorted (histories usually are), else qsort. */
void oracle_sort(oracle_pair *p, size_t n);

/*
 * 1 when h is to be split: the model partitions, opts do not say no_partition,
 * h is not empty and every op has a key (none is WEFT_PARTITION_ALL).  keys[]
 * (h->n_ops entries) then holds (key, history index) in ascending order.
 */
int oracle_partition(const weft_model *model, const weft_history *h,
		     const weft_check_options *opts, oracle_pair *keys);

/*
 * The sub-history starting at keys[s] (s < n): its history indices, in
 * invocation order, go to map[0..e-s); returns e, where the next one starts.
 */
size_t oracle_partition_next(const oracle_pair *keys, size_t n, size_t s, uint32_t *map);

/* The model's key of the sub-history starting at keys[s]. */
int64_t oracle_partition_key(const oracle_pair *keys, size_t s);

#endif /* WEFT_ORACLE_PARTITION_H */
