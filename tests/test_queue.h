/*
 * tests/test_queue.h - the bounded FIFO model the oracle tests share: a state
 * kept compact (front at items[0], unused items zero), so it is memcpy-able and
 * canonical and the checker can memoize it with no copy/equal/hash.
 * Define TEST_QUEUE_CAP before including to change the capacity (default 16);
 * enq on a full queue returns -1.
 */
#ifndef WEFT_TESTS_TEST_QUEUE_H
#define WEFT_TESTS_TEST_QUEUE_H

#include <string.h>

#include "weft/model.h"

#ifndef TEST_QUEUE_CAP
#define TEST_QUEUE_CAP 16
#endif

enum { TQ_ENQ, TQ_DEQ, TQ_NOPS };

typedef struct test_queue {
	int64_t len;
	int64_t items[TEST_QUEUE_CAP];
} test_queue;

/* The checker hands init zeroed memory: zero is the empty state. */
static void test_zero_init(void *s) { (void)s; }

static int64_t test_queue_apply(void *s, unsigned op, const int64_t *args)
{
	test_queue *q = s;
	if (op == TQ_ENQ) {
		if (q->len == TEST_QUEUE_CAP)
			return -1;
		q->items[q->len++] = args[0];
		return 0;
	}
	if (q->len == 0)
		return WEFT_NONE;
	int64_t v = q->items[0];
	memmove(q->items, q->items + 1, (size_t)(q->len - 1) * sizeof v);
	q->items[--q->len] = 0;
	return v;
}

static const weft_model test_queue_model = { .name = "queue", .state_size = sizeof(test_queue),
					     .init = test_zero_init, .apply = test_queue_apply };

#endif /* WEFT_TESTS_TEST_QUEUE_H */
