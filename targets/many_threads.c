/*
 * targets/many_threads.c - an ordinary pthread program with 25 threads (issue
 * 22: programs may spawn up to 127 threads besides main; the limit was 7).
 *
 * Program: main starts 24 workers, each of which writes its ticket into its
 * own slot and counts itself in; then main starts a collector that adds up the
 * slots and asserts the total; main joins everyone.
 * Seeded bug (default build): an ordering assumption: the collector is started
 * last, so main assumes it runs last, and joins the workers only afterwards;
 * a collector scheduled before some worker sees an empty slot.
 * Fixed build (-DWEFT_MANY_THREADS_FIXED): main joins the workers before it
 * starts the collector.
 *
 * Known minimal failing interleaving: no preemption.  Main creates the 24
 * workers and the collector (thread 25) and blocks in its first join; that
 * forced switch goes to thread 25 (a preemption planned one step past where
 * main blocked names it: docs/input-format.md; `to` byte 25, thread numbers
 * taken modulo 128 for programs); the collector finds every slot empty.
 * Input: `1e 19` (main's step 28 = v 30, to 25; before issue 17's forced
 * switches, `1d 19`: a preemption before the join).  Oracle: the program's
 * own assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define WORKERS 24

static atomic_int slot[WORKERS];
static atomic_int arrived;
static int ticket[WORKERS];

static void *worker(void *arg)
{
	int *t = arg;
	atomic_store(&slot[t - ticket], *t);
	atomic_fetch_add(&arrived, 1);
	return NULL;
}

static void *collector(void *arg)
{
	int sum = 0;
	(void)arg;
	for (int i = 0; i < WORKERS; i++)
		sum += atomic_load(&slot[i]);
	assert(sum == WORKERS * (WORKERS + 1) / 2);
	assert(atomic_load(&arrived) == WORKERS);
	return NULL;
}

int main(void)
{
	pthread_t workers[WORKERS], last;
	for (int i = 0; i < WORKERS; i++) {
		ticket[i] = i + 1;
		pthread_create(&workers[i], NULL, worker, &ticket[i]);
	}
#ifdef WEFT_MANY_THREADS_FIXED
	for (int i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);
	pthread_create(&last, NULL, collector, NULL);
#else
	pthread_create(&last, NULL, collector, NULL);   /* bug: "it runs last" */
	for (int i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);
#endif
	pthread_join(last, NULL);
	return 0;
}
