/*
 * targets/correct/condvar_slot.c - correct corpus (issue 30): a one-slot
 * mailbox with a mutex and two condition variables, both waits in `while`
 * loops.  The producer puts 1, 2, 3; the consumer takes three and checks the
 * order; main asserts the sum 6.
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER, emptied = PTHREAD_COND_INITIALIZER;
static int full, slot, sum;

static void *producer(void *arg)
{
	(void)arg;
	for (int v = 1; v <= 3; v++) {
		pthread_mutex_lock(&lock);
		while (full)
			pthread_cond_wait(&emptied, &lock);
		slot = v;
		full = 1;
		pthread_cond_signal(&filled);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int expect = 1; expect <= 3; expect++) {
		pthread_mutex_lock(&lock);
		while (!full)
			pthread_cond_wait(&filled, &lock);
		assert(slot == expect);
		sum += slot;
		full = 0;
		pthread_cond_signal(&emptied);
		pthread_mutex_unlock(&lock);
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
	assert(sum == 6);
	return 0;
}
