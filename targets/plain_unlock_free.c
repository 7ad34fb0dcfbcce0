/*
 * targets/plain_unlock_free.c - a window right after an unlock: an ordinary
 * pthread program, no weft in sight, built with weft's compiler pass (CMake:
 * weft_add_program ... INSTRUMENT).
 *
 * Program: main hands a job (malloc'd, with a mutex and a condition variable)
 * to a worker and waits under the job's mutex until the worker marks it done;
 * then it destroys the job: job_free() clears the magic word and frees it.
 * The worker marks the job done under the mutex, signals, unlocks, and then
 * counts the job in the job's own statistics.
 * Seeded bug (default build): the worker touches the job after unlocking; the
 * moment it unlocks, main may wake, see `done` and free the job.  Fixed build
 * (-DWEFT_PLAIN_UNLOCK_FREE_FIXED): the statistics are updated before the
 * unlock.
 * Symptom: under AddressSanitizer, heap-use-after-free at the worker's
 * statistics update; without it, the worker's magic check fails (assertion).
 *
 * Known minimal failing interleaving: the worker is preempted right after its
 * unlock (the after-release switch point); main wakes and frees the job; the
 * worker reads it.  Oracle: ASan, or the program's own assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define JOB_MAGIC 0x70bu

struct job {
	uint64_t header[2];     /* what an allocator may reuse first, kept apart */
	unsigned magic;
	int done;
	int stats;
	pthread_mutex_t lock;
	pthread_cond_t finished;
};

static struct job *job_new(void)
{
	struct job *j = calloc(1, sizeof *j);
	assert(j != NULL);
	j->magic = JOB_MAGIC;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->finished, NULL);
	return j;
}

static void job_free(struct job *j)
{
	assert(j->magic == JOB_MAGIC);
	j->magic = 0;
	pthread_cond_destroy(&j->finished);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

static void job_count(struct job *j)
{
	assert(j->magic == JOB_MAGIC);
	j->stats++;
}

static void *worker(void *arg)
{
	struct job *j = arg;
	pthread_mutex_lock(&j->lock);
	j->done = 1;
	pthread_cond_signal(&j->finished);
#ifdef WEFT_PLAIN_UNLOCK_FREE_FIXED
	job_count(j);
	pthread_mutex_unlock(&j->lock);
#else
	pthread_mutex_unlock(&j->lock);
	job_count(j);           /* bug: main may have freed the job by now */
#endif
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct job *j = job_new();
	pthread_create(&t, NULL, worker, j);
	pthread_mutex_lock(&j->lock);
	while (!j->done)
		pthread_cond_wait(&j->finished, &j->lock);
	pthread_mutex_unlock(&j->lock);
	job_free(j);
	pthread_join(t, NULL);
	return 0;
}
