/*
 * targets/correct/spin_seqcst.c - correct corpus (issue 30): a seq_cst
 * hand-off with spin-waits, every atomic seq_cst.
 * The producer writes a plain message, then stores the flag 1; the consumer
 * spins (load, sched_yield) until 1, reads the message, and answers 2; the
 * producer spins until 2.  The seq_cst twin of spin_acqrel.c.
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
	while (atomic_load_explicit(&flag, memory_order_seq_cst) != 1)
		sched_yield();
	assert(message == 42);
	atomic_store_explicit(&flag, 2, memory_order_seq_cst);
	return NULL;
}

int main(void)
{
	pthread_t c;
	pthread_create(&c, NULL, consumer, NULL);
	message = 42;
	atomic_store_explicit(&flag, 1, memory_order_seq_cst);
	while (atomic_load_explicit(&flag, memory_order_seq_cst) != 2)
		sched_yield();
	pthread_join(c, NULL);
	return 0;
}
