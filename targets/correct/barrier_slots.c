/*
 * targets/correct/barrier_slots.c - correct corpus (issue 30): three threads,
 * a pthread barrier between two phases.  Phase 1: each writes its own `int`
 * slot (adjacent in one array: only a byte-precise race check leaves them
 * apart).  Phase 2: each reads all three slots and stores the sum in its own
 * result slot.  main asserts every result is 1 + 2 + 3.
 */
#include <assert.h>
#include <pthread.h>

enum { N = 3 };
static pthread_barrier_t phase;
static int slots[N], sums[N];

static void *worker(void *arg)
{
	int me = (int)(long)arg;
	slots[me] = me + 1;
	pthread_barrier_wait(&phase);
	int sum = 0;
	for (int i = 0; i < N; i++)
		sum += slots[i];
	sums[me] = sum;
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	pthread_barrier_init(&phase, NULL, N);
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < N; i++)
		assert(sums[i] == 6);
	pthread_barrier_destroy(&phase);
	return 0;
}
