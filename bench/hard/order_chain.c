/*
 * bench/hard/order_chain.c - an ordering bug among 20 threads (hard benchmark,
 * issue 33; an ordinary pthread program, C11 atomics).
 *
 * Program: THREADS workers share a start-up "stage" word.  The worker created
 * k-th from last runs subsystem k: once it has registered itself (a fetch_add
 * on `registered`), it advances the stage from k to k + 1 if it finds it at k
 * (each subsystem assumes the one before it is done when it sees its number);
 * the worker that finds the stage
 * at DEPTH - 1 starts the last subsystem, which asserts that every worker has
 * registered, assuming that a stage that high means everyone has run.
 * Seeded bug (default build): the assumption "stage DEPTH-1 reached => all
 * workers registered" is false when the workers of subsystems 0..DEPTH-1 run their
 * check in exactly that order (the reverse of their creation) before some other worker registered.  Fixed
 * build (-DHARD_ORDER_CHAIN_FIXED): the last subsystem waits for the count.
 *
 * Window: DEPTH specific threads' check-and-advance in one order out of DEPTH!
 * (each one's load after the previous one's store), while at least one of the
 * other THREADS - DEPTH workers has not yet registered.  Why hard: a random
 * order of DEPTH threads is the right one with probability 1/DEPTH!; PCT's
 * priorities give the same odds; the chain runs against creation order, so
 * the threads that must go first exist last; nothing about one wrong order
 * helps the next.  Oracle: the assert().
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifndef THREADS
#define THREADS 20
#endif
#ifndef DEPTH
#define DEPTH 6
#endif

static atomic_int registered, stage;
static int id[THREADS];

static void start_last_subsystem(void)
{
#ifdef HARD_ORDER_CHAIN_FIXED
	while (atomic_load(&registered) < THREADS)
		sched_yield();
#endif
	assert(atomic_load(&registered) == THREADS);   /* "stage DEPTH-1: all are up" */
}

static void *worker(void *arg)
{
	int k = THREADS - 1 - *(int *)arg;   /* its subsystem: the last created starts first */
	atomic_fetch_add(&registered, 1);
	if (k < DEPTH && atomic_load(&stage) == k) {
		if (k == DEPTH - 1)
			start_last_subsystem();
		atomic_store(&stage, k + 1);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++) {
		id[i] = i;
		pthread_create(&t[i], NULL, worker, &id[i]);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
