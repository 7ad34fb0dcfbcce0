/*
 * bench/relacy/counter.c - two threads each add one to a counter (seq_cst
 * fetch_add); main checks the sum.  Correct.  The weft twin of
 * rl_tests.cpp's counter_test, for bench/relacy.sh.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int n;

static void *add_one(void *arg)
{
	(void)arg;
	atomic_fetch_add_explicit(&n, 1, memory_order_seq_cst);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, add_one, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load_explicit(&n, memory_order_relaxed) == 2);
	return 0;
}
