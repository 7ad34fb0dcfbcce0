/*
 * targets/correct/peterson_sc.c - correct corpus (issue 30): Peterson's mutual
 * exclusion for two threads with seq_cst atomics (correct under every memory
 * model weft has: seq_cst forbids the store-load reordering that breaks it
 * with weaker orders).  Each thread enters twice and adds 1 to a plain
 * counter inside; an `inside` count checks exclusion.  main asserts 4.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int wants[2], victim, inside;
static int counter;

static void *adder(void *arg)
{
	int me = (int)(long)arg, other = 1 - me;
	for (int i = 0; i < 2; i++) {
		atomic_store(&wants[me], 1);
		atomic_store(&victim, me);
		while (atomic_load(&wants[other]) && atomic_load(&victim) == me)
			sched_yield();
		assert(atomic_fetch_add(&inside, 1) == 0);
		counter++;
		atomic_fetch_sub(&inside, 1);
		atomic_store(&wants[me], 0);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, adder, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(counter == 4);
	return 0;
}
