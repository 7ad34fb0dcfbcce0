/*
 * tests/program_timedlock.c - pthread_mutex_timedlock, a managed lock whose
 * timeout is the input's choice (scheduler/sync.c).  Before weft caught it,
 * the real call locked the real mutex, which weft's managed locks never
 * touch: it always "succeeded" at once, and a thread entered the critical
 * section while another held the lock - a false failure on correct code.
 *
 * Program: two workers each add 1 to a plain counter 3 times under the
 * mutex, taken with pthread_mutex_timedlock; a try that times out retries
 * with pthread_mutex_lock.  Then each adds 1 to a second count under a
 * read-write lock taken with pthread_rwlock_timedwrlock (by symbol; managed
 * as an untimed lock), after a clock_nanosleep of 2 s relative, then until
 * 1 s later absolute (by symbol: logical time).  main checks both counts (6)
 * and that the logical clock moved at least 3 s.
 * Seeded bug (-DWEFT_TIMEDLOCK_BUGGY): a timed-out try goes on without the
 * lock, so a preemption inside the section loses an update.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int count, writes;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		struct timespec deadline;
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += 1;
		int rc = pthread_mutex_timedlock(&lock, &deadline);
		int locked = rc == 0;
#ifndef WEFT_TIMEDLOCK_BUGGY
		if (rc == ETIMEDOUT) {
			pthread_mutex_lock(&lock);
			locked = 1;
		}
#endif
		int seen = count;
		count = seen + 1;
		if (locked)
			pthread_mutex_unlock(&lock);
	}
	struct timespec t = { .tv_sec = 2 };
	clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += 1;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	for (int i = 0; i < 3; i++) {
		struct timespec deadline;
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += 1;
		if (pthread_rwlock_timedwrlock(&rw, &deadline) != 0)
			continue;
		int seen = writes;
		writes = seen + 1;
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	assert(writes == 6 && end.tv_sec - start.tv_sec >= 3);
	assert(count == 6);
	return 0;
}
/* Checked by tests/program_sem.sh. */
