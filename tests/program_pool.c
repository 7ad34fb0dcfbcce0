/*
 * tests/program_pool.c - a pool of 20 workers whose bug needs a switch inside
 * one of the threads created last (tests/program_pool.sh).
 *
 * The last worker created adds 1 to a total in two steps (load, then store);
 * the one before it adds 10 at once.  Seeded bug (default build): preempt the
 * last worker between its load and its store, let the other add, and an update
 * is lost.  Fixed build (-DWEFT_POOL_FIXED): both add atomically.
 *
 * Why a test: the input gave control bytes to a program's first 16 threads
 * only, so threads 16 and up could never be preempted: the fuzz binary could
 * not write this interleaving, whatever it sampled (issue 33, the pool of 20
 * threads in bench/hard/order_chain.c).  A program, not a test by itself.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef WORKERS
#define WORKERS 20   /* program_pool_wide: 100 (thread 48 is the byte '0'; 200+ forced switches) */
#endif

static atomic_int total;
static int id[WORKERS];

static void *worker(void *arg)
{
	int i = *(int *)arg;
	if (i == WORKERS - 1) {
#ifdef WEFT_POOL_FIXED
		atomic_fetch_add(&total, 1);
#else
		int v = atomic_load(&total);
		atomic_store(&total, v + 1);
#endif
	} else if (i == WORKERS - 2) {
		atomic_fetch_add(&total, 10);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++) {
		id[i] = i;
		pthread_create(&t[i], NULL, worker, &id[i]);
	}
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load(&total) == 11);
	return 0;
}
