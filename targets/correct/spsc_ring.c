/*
 * targets/correct/spsc_ring.c - correct corpus (issue 30): a single-producer
 * single-consumer ring of two slots.  Each index is written by one side only:
 * the producer fills a plain slot, then publishes `tail` with release; the
 * consumer reads `tail` with acquire, the slot, then frees it by publishing
 * `head` with release (the producer reads `head` with acquire before reusing
 * the slot).  Both wait with sched_yield when full or empty.  Four items, in
 * order; main asserts the sum.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

enum { CAP = 2, ITEMS = 4 };
static int slots[CAP];
static atomic_uint head, tail;
static int sum;

static void *producer(void *arg)
{
	(void)arg;
	for (int v = 1; v <= ITEMS; v++) {
		unsigned t = atomic_load_explicit(&tail, memory_order_relaxed);
		while (t - atomic_load_explicit(&head, memory_order_acquire) == CAP)
			sched_yield();
		slots[t % CAP] = v;
		atomic_store_explicit(&tail, t + 1, memory_order_release);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int expect = 1; expect <= ITEMS; expect++) {
		unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
		while (atomic_load_explicit(&tail, memory_order_acquire) == h)
			sched_yield();
		assert(slots[h % CAP] == expect);
		sum += slots[h % CAP];
		atomic_store_explicit(&head, h + 1, memory_order_release);
	}
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	assert(sum == 1 + 2 + 3 + 4);
	return 0;
}
