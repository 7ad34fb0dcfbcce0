/*
 * oracle/partition.c - P-compositionality (Horn & Kroening, "Faster
 * linearizability checking via P-compositionality", FORTE 2015): when the
 * model puts every operation under a key (a set's element, a map's key) and
 * operations on different keys never affect each other, a history is
 * linearizable iff each key's sub-history is, so each is checked alone, from
 * init.  The search's cost is exponential in the overlap of a history, so
 * several small sub-histories are far cheaper than their union.
 *
 * This file owns the split: the keys, their order (ascending key, then
 * invocation order, so the verdict and the failing key are deterministic), and
 * the (key, index) sort, shared with the search's list of call and return
 * times.  Which sub-history decides the verdict is linearize.c's policy.
 */
#include <stdlib.h>

#include "partition.h"

/* Keys are signed; flipping the sign bit makes unsigned order match signed order. */
#define ORACLE_SIGN ((uint64_t)1 << 63)

static int oracle_pair_cmp(const void *a, const void *b)
{
	const oracle_pair *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int oracle_pair_less(const oracle_pair *x, const oracle_pair *y)
{
	return x->key < y->key || (x->key == y->key && x->idx < y->idx);
}

/*
 * Up to this many pairs an insertion sort: an execution's history has a few
 * operations, and qsort (merge sort through a comparison callback) cost an
 * eighth of the check of such a history (issue 33).  The order is total
 * (indices differ), so both sorts give the same result.
 */
#define ORACLE_INSERTION_SORT 32

void oracle_sort(oracle_pair *p, size_t n)
{
	if (n <= ORACLE_INSERTION_SORT) {
		for (size_t i = 1; i < n; i++) {
			oracle_pair v = p[i];
			size_t j = i;
			for (; j > 0 && oracle_pair_less(&v, &p[j - 1]); j--)
				p[j] = p[j - 1];
			p[j] = v;
		}
		return;
	}
	for (size_t i = 1; i < n; i++)
		if (oracle_pair_cmp(&p[i - 1], &p[i]) > 0) {
			qsort(p, n, sizeof *p, oracle_pair_cmp);
			return;
		}
}

int oracle_partition(const weft_model *model, const weft_history *h,
		     const weft_check_options *opts, oracle_pair *keys)
{
	if (!model->partition || (opts && opts->no_partition) || h->n_ops == 0)
		return 0;
	for (size_t i = 0; i < h->n_ops; i++) {
		int64_t key = model->partition(h->ops[i].op, h->ops[i].args);
		if (key == WEFT_PARTITION_ALL)
			return 0;
		keys[i] = (oracle_pair){ (uint64_t)key ^ ORACLE_SIGN, (uint32_t)i };
	}
	oracle_sort(keys, h->n_ops);
	return 1;
}

size_t oracle_partition_next(const oracle_pair *keys, size_t n, size_t s, uint32_t *map)
{
	size_t e;
	for (e = s; e < n && keys[e].key == keys[s].key; e++)
		map[e - s] = keys[e].idx;
	return e;
}

int64_t oracle_partition_key(const oracle_pair *keys, size_t s)
{
	return (int64_t)(keys[s].key ^ ORACLE_SIGN);
}
