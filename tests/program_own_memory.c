/*
 * tests/program_own_memory.c - a thread's own memory never costs steps, however
 * much of it (issue 30; scheduler/access.c grows its granule table and, past
 * its cap, takes a granule as nobody's).  Built with the pass.
 *
 * Two workers each fill and sum a 256 KiB heap array only they see (32,768
 * granules, more than the old fixed table's 12,288), then recurse 2,000 deep
 * with a local whose address escapes (so the pass instruments it: more
 * granules, each the thread's own).  Then each adds its result to a global
 * under a mutex.  Correct: every execution must pass, on both backends (with
 * the old table it failed `step-budget`, and the recursion `livelock` on
 * pthreads).
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

enum { WORDS = 256 * 1024 / sizeof(long), DEPTH = 2000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static __attribute__((noinline)) void keep(long *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

static __attribute__((noinline)) long deep(int n)
{
	long mine = n;
	keep(&mine);   /* escapes: instrumented, the thread's own stack */
	return n ? mine + deep(n - 1) : 0;
}

static void *worker(void *arg)
{
	(void)arg;
	long *a = malloc(WORDS * sizeof *a);
	assert(a);
	for (size_t i = 0; i < WORDS; i++)
		a[i] = 1;
	long sum = 0;
	for (size_t i = 0; i < WORDS; i++)
		sum += a[i];
	free(a);
	sum += deep(DEPTH);
	pthread_mutex_lock(&lock);
	total += sum;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(total == 2 * ((long)WORDS + (long)DEPTH * (DEPTH + 1) / 2));
	return 0;
}
