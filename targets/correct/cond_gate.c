/*
 * targets/correct/cond_gate.c - correct corpus (issue 30): a gate opened by
 * pthread_cond_broadcast.  Three waiters wait (in a `while` loop) for `open`;
 * main sets it under the lock and broadcasts; each waiter counts itself
 * through.  main asserts all three passed.
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t opened = PTHREAD_COND_INITIALIZER;
static int open, passed;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!open)
		pthread_cond_wait(&opened, &lock);
	passed++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	pthread_mutex_lock(&lock);
	open = 1;
	pthread_cond_broadcast(&opened);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(passed == 3);
	return 0;
}
