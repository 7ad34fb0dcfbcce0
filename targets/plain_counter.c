/*
 * targets/plain_counter.c - a counter incremented with a plain `++` by two
 * threads: an ordinary pthread program, no weft in sight, found only because
 * weft's compiler pass makes each shared load and store a switch point
 * (CMake: weft_add_program ... INSTRUMENT).
 *
 * Program: main sets hits = 0, starts two workers that each count two events,
 * joins them and asserts hits == 4.
 * Seeded bug (default build): `hits++` is a load and a store with nothing in
 * between: a data race, and a lost update when another thread's increment
 * falls between them.  Fixed build (-DWEFT_PLAIN_COUNTER_FIXED): the increment
 * under a mutex.
 *
 * Known minimal failing interleaving: 1 preemption.  Worker 1 loads hits (0)
 * and is preempted before its store; worker 2 increments twice; worker 1 stores
 * 1 and increments once more: 3, and main's assert fails.  Oracle: the
 * program's own assert().
 */
#include <assert.h>
#include <pthread.h>

static int hits;
static pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_event(void)
{
#ifdef WEFT_PLAIN_COUNTER_FIXED
	pthread_mutex_lock(&hits_lock);
	hits++;
	pthread_mutex_unlock(&hits_lock);
#else
	(void)hits_lock;
	hits++;
#endif
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++)
		count_event();
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	hits = 0;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(hits == 4);
	return 0;
}
