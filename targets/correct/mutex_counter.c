/*
 * targets/correct/mutex_counter.c - correct corpus (issue 30): a plain counter
 * behind a pthread mutex.  Three threads add 1 twice each, one lock per add;
 * main joins them and asserts 6.  No interleaving, memory model or race check
 * may fail it.
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, adder, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(counter == 6);
	return 0;
}
