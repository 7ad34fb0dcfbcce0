/*
 * tests/test_closeness.c - the mutator's "closer to failure" signal
 * (mutate/closeness.h): unserializable orders of three accesses to one object.
 *
 *   1. On a hand-made trace: A-B-A orders with B's write between A's read and
 *      write (lost update), B's write between two reads of A (a torn read),
 *      A's writes around B's read count; all reads, all writes, two threads'
 *      accesses without a third in between, accesses to different objects and
 *      a failed compare-exchange as the middle (it only reads) do not.  The id
 *      names the sites and which wrote.  A triple is new once per campaign.
 *   2. Ids never come from addresses: the same accesses on other objects (and
 *      more objects than the table follows: the first ones are followed) mark
 *      the same triples; the table is reused across runs without clearing.
 */
#include <string.h>

#include "check.h"
#include "../mutate/closeness.h"

static sched_event ev(unsigned thread, unsigned kind, const void *addr, uint32_t site)
{
	sched_event e;
	memset(&e, 0, sizeof e);
	e.kind = (uint8_t)kind;
	e.thread = (uint8_t)thread;
	e.addr = addr;
	e.site_id = site;
	return e;
}

static int marked(const mutate_closeness *c, uint32_t id)
{
	uint32_t bit = id % MUTATE_CLOSE_SLOTS;
	return (c->seen[bit / 8] >> (bit % 8)) & 1;
}

static unsigned observe(mutate_closeness *c, sched_event *e, size_t n)
{
	sched_trace t = { e, n, 0 };
	return mutate_closeness_observe(c, &t);
}

/* Four objects: x a lost update (R W W), y a torn read (R W R), z all reads,
 * w all writes; v: a failed CAS between A's writes; u: A A B (no third). */
static size_t build(sched_event *e, const int *x, const int *y, const int *z, const int *w,
		    const int *v, const int *u)
{
	size_t n = 0;
	e[n++] = ev(0, WEFT_ACCESS_LOAD, x, 11);
	e[n++] = ev(0, WEFT_ACCESS_LOAD, y, 21);
	e[n++] = ev(0, WEFT_ACCESS_LOAD, z, 31);
	e[n++] = ev(0, WEFT_ACCESS_STORE, w, 41);
	e[n++] = ev(0, WEFT_ACCESS_STORE, v, 51);
	e[n++] = ev(0, WEFT_ACCESS_LOAD, u, 61);
	e[n++] = ev(0, WEFT_ACCESS_STORE, u, 62);
	e[n++] = ev(1, WEFT_ACCESS_STORE, x, 12);
	e[n++] = ev(1, WEFT_ACCESS_STORE, y, 22);
	e[n++] = ev(1, WEFT_ACCESS_LOAD, z, 32);
	e[n++] = ev(1, WEFT_ACCESS_STORE, w, 42);
	e[n++] = ev(1, WEFT_ACCESS_CAS, v, 52);   /* other = 0: failed, a read */
	e[n++] = ev(1, WEFT_ACCESS_STORE, u, 63);
	e[n++] = ev(0, WEFT_ACCESS_STORE, x, 13);
	e[n++] = ev(0, WEFT_ACCESS_LOAD, y, 23);
	e[n++] = ev(0, WEFT_ACCESS_LOAD, z, 33);
	e[n++] = ev(0, WEFT_ACCESS_STORE, w, 43);
	e[n++] = ev(0, WEFT_ACCESS_STORE, v, 53);
	e[n++] = ev(0, SCHED_EV_OP_END, NULL, 0);
	return n;
}

static void triples_on_a_trace(void)
{
	static int x, y, z, w, v, u;
	sched_event e[32];
	size_t n = build(e, &x, &y, &z, &w, &v, &u);
	mutate_closeness *c = calloc(1, sizeof *c);
	REQUIRE(c, "out of memory");
	mutate_closeness_init(c);
	CHECK(observe(c, e, n) == 3, "new triples: %llu marked", (unsigned long long)c->distinct);
	CHECK(c->last_total == 3, "%u triples in the run, not 3", c->last_total);
	CHECK(marked(c, mutate_closeness_id(11, 12, 13, 3)), "the lost update (R W W) not marked");
	CHECK(marked(c, mutate_closeness_id(21, 22, 23, 2)), "the torn read (R W R) not marked");
	CHECK(marked(c, mutate_closeness_id(51, 52, 53, 5)), "W R W around a failed CAS not marked");
	CHECK(!marked(c, mutate_closeness_id(31, 32, 33, 0)), "three reads marked");
	CHECK(!marked(c, mutate_closeness_id(41, 42, 43, 7)), "three writes marked");
	CHECK(observe(c, e, n) == 0, "the same triples new twice");
	CHECK(c->last_total == 3 && c->distinct == 3, "a second run changed the counts");
	free(c);
}

static void ids_not_addresses(void)
{
	static int a[6], b[6 + MUTATE_CLOSE_OBJECTS];
	sched_event e1[32], e2[32 + MUTATE_CLOSE_OBJECTS];
	size_t n1 = build(e1, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
	size_t n2 = build(e2, &b[5], &b[4], &b[3], &b[2], &b[1], &b[0]);
	/* then more objects than the table follows, each touched once */
	e2[n2 - 1] = ev(1, WEFT_ACCESS_LOAD, &b[6], 99);
	for (size_t k = 1; k < MUTATE_CLOSE_OBJECTS; k++)
		e2[n2++] = ev(1, WEFT_ACCESS_LOAD, &b[6 + k], 99);
	mutate_closeness *c1 = calloc(1, sizeof *c1), *c2 = calloc(1, sizeof *c2);
	REQUIRE(c1 && c2, "out of memory");
	mutate_closeness_init(c1);
	mutate_closeness_init(c2);
	for (int run = 0; run < 3; run++) {   /* later runs reuse the stamped table */
		observe(c1, e1, n1);
		observe(c2, e2, n2);
	}
	CHECK(memcmp(c1->seen, c2->seen, sizeof c1->seen) == 0,
	      "other objects marked other triples");
	CHECK(c2->last_total == 3, "%u triples with many objects, not 3", c2->last_total);
	free(c1);
	free(c2);
}

int main(void)
{
	triples_on_a_trace();
	ids_not_addresses();
	return check_summary("test_closeness");
}
