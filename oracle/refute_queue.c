/*
 * oracle/refute_queue.c - a FIFO queue history refuted without a search, by
 * the violation patterns of Henzinger, Sezgin and Vafeiadis ("Aspect-oriented
 * linearizability proofs", CONCUR 2013), when the search would be slow or has
 * given up (linearize.c decides when).
 *
 * Why: the search's cost is exponential in the history's overlap, and a queue
 * history of 1,000 operations with 5 clients and one wrong dequeue exhausted
 * the default cost cap (10^7 steps, 15 s, 2.5 GB) and answered `unknown`.  Each
 * pattern below is a proof that no linearization exists, found in O(n log n):
 *
 *   fresh    a completed deq() returned v, and no enq(v) was called before
 *            that deq() returned (enq(v) would have to take effect first);
 *   repeated more completed deq()s returned v than enq(v)s were called;
 *   order    enq(a) returned before enq(b) was called, deq() returned b, and
 *            a is still queued ahead of b when it did: the deq() that returned
 *            a was called after b's returned, or none returned a and no deq()
 *            is pending (a pending one might have taken a).  Only for values
 *            enqueued once and dequeued at most once.
 *
 * Only sound refutations: finding none proves nothing, and the search runs.
 * The fourth pattern of the paper (a deq() that returned empty while the
 * queue was provably non-empty) is not checked.  For the strict FIFO model
 * only (weft_model_queue): a k-relaxed queue allows `order`.
 */
#define _GNU_SOURCE   /* qsort_r */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "weft/models.h"
#include "checker.h"

typedef struct qv {     /* one value's calls, by value */
	int64_t v;
	uint32_t idx;        /* its op's index in the history */
	int enq;             /* 1 enq(v) call, 0 a completed deq() returning v */
} qv;

static int qv_cmp(const void *a, const void *b)
{
	const qv *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	if (x->enq != y->enq)
		return y->enq - x->enq;   /* enqs first */
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int is_deq_value(const weft_op_record *r)
{
	return r->op == WEFT_QUEUE_DEQ && !r->pending && r->result != WEFT_NONE;
}

/* A value's run [s, e) of the sorted calls: fresh or repeated?  Else its single enq/deq. */
static const char *check_value(const weft_history *h, const qv *c, size_t s, size_t e,
			       char *buf, size_t cap)
{
	size_t enqs = 0;
	uint32_t first_call = UINT32_MAX;
	for (size_t i = s; i < e && c[i].enq; i++, enqs++)
		first_call = h->ops[c[i].idx].invoked_at < first_call ? h->ops[c[i].idx].invoked_at
								       : first_call;
	for (size_t i = s + enqs; i < e; i++) {
		const weft_op_record *d = &h->ops[c[i].idx];
		if (first_call > d->returned_at) {
			snprintf(buf, cap, "deq() = %" PRId64 " (operation %u) returned before any "
				 "enq(%" PRId64 ") was called", c[i].v, c[i].idx + 1, c[i].v);
			return buf;
		}
	}
	if (e - s - enqs > enqs) {
		snprintf(buf, cap, "%zu deq() calls returned %" PRId64 " but only %zu enq(%" PRId64
			 ") %s called", e - s - enqs, c[s].v, enqs, c[s].v, enqs == 1 ? "was" : "were");
		return buf;
	}
	return NULL;
}

typedef struct qpair { uint32_t enq, deq; } qpair;   /* deq: UINT32_MAX when none */

/* By enq's return time (the sweep's order for `a`), by its call time (for `b`). */
static int by_enq_return(const void *a, const void *b, void *hist)
{
	const weft_history *h = hist;
	uint32_t x = h->ops[((const qpair *)a)->enq].returned_at;
	uint32_t y = h->ops[((const qpair *)b)->enq].returned_at;
	return (x > y) - (x < y);
}

static int by_enq_call(const void *a, const void *b, void *hist)
{
	const weft_history *h = hist;
	uint32_t x = h->ops[((const qpair *)a)->enq].invoked_at;
	uint32_t y = h->ops[((const qpair *)b)->enq].invoked_at;
	return (x > y) - (x < y);
}

/*
 * The order pattern: for each b (by enq(b)'s call), the latest "still queued
 * until" time over every a whose enq returned before enq(b) was called (`a`
 * holds only values whose enq returned).
 */
static const char *check_order(const weft_history *h, qpair *a, size_t na, qpair *b,
			       size_t nb, int pending_deq, char *buf, size_t cap)
{
	qsort_r(a, na, sizeof *a, by_enq_return, (void *)h);
	qsort_r(b, nb, sizeof *b, by_enq_call, (void *)h);
	uint64_t best = 0;
	size_t j = 0, best_a = 0;
	for (size_t i = 0; i < nb; i++) {
		const weft_op_record *eb = &h->ops[b[i].enq];
		for (; j < na && h->ops[a[j].enq].returned_at < eb->invoked_at; j++) {
			uint64_t until = a[j].deq != UINT32_MAX ? h->ops[a[j].deq].invoked_at
				       : pending_deq ? 0 : UINT64_MAX;
			if (until > best)
				best = until, best_a = j;
		}
		if (b[i].deq == UINT32_MAX || best <= h->ops[b[i].deq].returned_at)
			continue;
		int64_t av = h->ops[a[best_a].enq].args[0], bv = eb->args[0];
		snprintf(buf, cap, "enq(%" PRId64 ") returned before enq(%" PRId64 ") was called, "
			 "yet deq() = %" PRId64 " (operation %u) returned while %" PRId64
			 " was still queued ahead of it", av, bv, bv, b[i].deq + 1, av);
		return buf;
	}
	return NULL;
}

const char *oracle_refute_queue(const weft_history *h, char *buf, size_t cap)
{
	size_t n = 0, na = 0, nb = 0;
	int pending_deq = 0;
	for (size_t i = 0; i < h->n_ops; i++) {
		const weft_op_record *r = &h->ops[i];
		n += r->op == WEFT_QUEUE_ENQ || is_deq_value(r);
		pending_deq |= r->op == WEFT_QUEUE_DEQ && r->pending;
	}
	qv *c = malloc((n ? n : 1) * sizeof *c);
	qpair *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
	const char *why = NULL;
	if (!c || !a || !b)
		goto out;
	n = 0;
	for (size_t i = 0; i < h->n_ops; i++) {
		const weft_op_record *r = &h->ops[i];
		if (r->op == WEFT_QUEUE_ENQ)
			c[n++] = (qv){ r->args[0], (uint32_t)i, 1 };
		else if (is_deq_value(r))
			c[n++] = (qv){ r->result, (uint32_t)i, 0 };
	}
	qsort(c, n, sizeof *c, qv_cmp);
	for (size_t s = 0, e; s < n && !why; s = e) {
		for (e = s; e < n && c[e].v == c[s].v; e++)
			;
		why = check_value(h, c, s, e, buf, cap);
		if (!why && c[s].enq && (e == s + 1 || (e == s + 2 && !c[s + 1].enq))) {
			b[nb] = (qpair){ c[s].idx, e == s + 2 ? c[s + 1].idx : UINT32_MAX };
			if (!h->ops[c[s].idx].pending)
				a[na++] = b[nb];
			nb++;
		}
	}
	if (!why)
		why = check_order(h, a, na, b, nb, pending_deq, buf, cap);
out:
	free(c), free(a), free(b);
	return why;
}
