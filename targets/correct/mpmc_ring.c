/*
 * targets/correct/mpmc_ring.c - correct corpus (issue 30): a bounded
 * multi-producer multi-consumer ring of two cells, each cell with a sequence
 * number (weft's own writing of the well-known design).  A producer claims
 * position p with a CAS on `enq` when cell p % CAP has sequence p, writes the
 * plain value, and publishes sequence p + 1 with release; a consumer claims
 * position p with a CAS on `deq` when the cell's sequence is p + 1 (acquire),
 * reads the value, and frees the cell with sequence p + CAP (release).  Full
 * or empty: sched_yield and try again.  Two producers put 2 items each, two
 * consumers take 2 each; main asserts the sum and the count.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

enum { CAP = 2 };
static struct cell { atomic_uint seq; int value; } cells[CAP];
static atomic_uint enq, deq;
static atomic_int total, taken;

static void put(int v)
{
	for (;;) {
		unsigned p = atomic_load_explicit(&enq, memory_order_relaxed);
		struct cell *c = &cells[p % CAP];
		unsigned s = atomic_load_explicit(&c->seq, memory_order_acquire);
		if (s == p && atomic_compare_exchange_weak_explicit(&enq, &p, p + 1,
				memory_order_relaxed, memory_order_relaxed)) {
			c->value = v;
			atomic_store_explicit(&c->seq, p + 1, memory_order_release);
			return;
		}
		sched_yield();
	}
}

static int take(void)
{
	for (;;) {
		unsigned p = atomic_load_explicit(&deq, memory_order_relaxed);
		struct cell *c = &cells[p % CAP];
		unsigned s = atomic_load_explicit(&c->seq, memory_order_acquire);
		if (s == p + 1 && atomic_compare_exchange_weak_explicit(&deq, &p, p + 1,
				memory_order_relaxed, memory_order_relaxed)) {
			int v = c->value;
			atomic_store_explicit(&c->seq, p + CAP, memory_order_release);
			return v;
		}
		sched_yield();
	}
}

static void *producer(void *arg)
{
	int base = (int)(long)arg;
	put(base + 1);
	put(base + 2);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		atomic_fetch_add(&total, take());
		atomic_fetch_add(&taken, 1);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (unsigned i = 0; i < CAP; i++)
		atomic_init(&cells[i].seq, i);
	pthread_create(&t[0], NULL, producer, (void *)0L);
	pthread_create(&t[1], NULL, producer, (void *)10L);
	pthread_create(&t[2], NULL, consumer, NULL);
	pthread_create(&t[3], NULL, consumer, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load(&taken) == 4);
	assert(atomic_load(&total) == 1 + 2 + 11 + 12);
	return 0;
}
