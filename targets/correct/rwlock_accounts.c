/*
 * targets/correct/rwlock_accounts.c - correct corpus (issue 30): two balances
 * behind a pthread rwlock.  A writer moves 1 from `from` to `to` twice under
 * the write lock; two readers each check, under the read lock, that the sum
 * is 10.  main asserts the final balances (8, 2).
 */
#include <assert.h>
#include <pthread.h>

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static int from = 10, to;

static void *writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		pthread_rwlock_wrlock(&lock);
		from--;
		to++;
		pthread_rwlock_unlock(&lock);
	}
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&lock);
	assert(from + to == 10);
	pthread_rwlock_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t w, r[2];
	pthread_create(&w, NULL, writer, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&r[i], NULL, reader, NULL);
	pthread_join(w, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	assert(from == 8 && to == 2);
	return 0;
}
