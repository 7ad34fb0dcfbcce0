/*
 * targets/correct/spin_acqrel.c - correct corpus (issue 30): a release/acquire
 * hand-off with spin-waits.  The producer writes a plain message, then stores
 * the flag 1 with release; the consumer spins (load acquire, sched_yield)
 * until 1, reads the message, and answers by storing 2; the producer spins
 * until 2.  Correct under C11: the acquire that reads a release store sees
 * what came before it.  (Issue 30: c11 called it a livelock.)
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int flag;
static int message;

static void *consumer(void *arg)
{
	(void)arg;
	while (atomic_load_explicit(&flag, memory_order_acquire) != 1)
		sched_yield();
	assert(message == 42);
	atomic_store_explicit(&flag, 2, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t c;
	pthread_create(&c, NULL, consumer, NULL);
	message = 42;
	atomic_store_explicit(&flag, 1, memory_order_release);
	while (atomic_load_explicit(&flag, memory_order_acquire) != 2)
		sched_yield();
	pthread_join(c, NULL);
	return 0;
}
