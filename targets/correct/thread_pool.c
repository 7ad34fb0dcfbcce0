/*
 * targets/correct/thread_pool.c - correct corpus (issue 30): a pool of two
 * workers fed through a job queue (mutex, `work` and `done` condition
 * variables).  main submits four jobs (each adds its number to a plain
 * total under the lock), waits on `done` until all have run, then shuts the
 * pool down (flag + broadcast) and joins.  main asserts 1 + 2 + 3 + 4.
 */
#include <assert.h>
#include <pthread.h>

enum { WORKERS = 2, JOBS = 4 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static int queue[JOBS], queued, next_job, finished, total, shutting_down;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (next_job == queued && !shutting_down)
			pthread_cond_wait(&work, &lock);
		if (next_job == queued)
			break;   /* shutting down and nothing left */
		int job = queue[next_job++];
		pthread_mutex_unlock(&lock);
		pthread_mutex_lock(&lock);   /* the job itself: one locked update */
		total += job;
		if (++finished == JOBS)
			pthread_cond_signal(&done);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int j = 1; j <= JOBS; j++) {
		pthread_mutex_lock(&lock);
		queue[queued++] = j;
		pthread_cond_signal(&work);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	while (finished < JOBS)
		pthread_cond_wait(&done, &lock);
	shutting_down = 1;
	pthread_cond_broadcast(&work);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	assert(total == 10);
	return 0;
}
