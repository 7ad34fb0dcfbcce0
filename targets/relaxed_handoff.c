/*
 * targets/relaxed_handoff.c - a job handed to a worker through a flag stored
 * relaxed: an ordinary pthread program with C11 atomics, no weft in sight,
 * built with weft's compiler pass (CMake: weft_add_program ... INSTRUMENT).
 * Its bug is one of memory orders: only the memory model (WEFT_MEMORY=c11, the
 * default) shows it, through the pass's atomics (scheduler/access_memory.c).
 *
 * Program: a dispatcher fills in a job (its number and its size, atomics
 * stored relaxed) and posts it by setting `posted`; a worker waits for `posted`
 * (an acquire load, sched_yield() between looks) and checks the job it got.
 * Seeded bug (default build): `posted` is stored with memory_order_relaxed, so
 * nothing orders the job's fields before it: the worker's acquire load
 * synchronises with nothing and it may read the fields' old values.  Every
 * sequentially consistent interleaving passes (WEFT_MEMORY=sc never fails).
 * Fixed build (-DWEFT_RELAXED_HANDOFF_FIXED): `posted` is stored with
 * memory_order_release, which the worker's acquire load pairs with.
 *
 * Known minimal failing execution: no preemption, one weak read.  The worker
 * spins until it is descheduled, the dispatcher fills in and posts the job and
 * ends, the worker sees `posted` and reads the job's number from before the
 * dispatcher's store (0).  Oracle: the worker's assert() on the job.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifdef WEFT_RELAXED_HANDOFF_FIXED
#define POST_ORDER memory_order_release
#else
#define POST_ORDER memory_order_relaxed   /* bug: publishes nothing written before it */
#endif

static atomic_int job_number, job_size, posted;

static void *dispatcher(void *arg)
{
	(void)arg;
	atomic_store_explicit(&job_size, 64, memory_order_relaxed);
	atomic_store_explicit(&job_number, 7, memory_order_relaxed);
	atomic_store_explicit(&posted, 1, POST_ORDER);
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&posted, memory_order_acquire))
		sched_yield();
	int number = atomic_load_explicit(&job_number, memory_order_relaxed);
	int size = atomic_load_explicit(&job_size, memory_order_relaxed);
	assert(number == 7 && size == 64);
	return NULL;
}

int main(void)
{
	pthread_t w, d;
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&d, NULL, dispatcher, NULL);
	pthread_join(d, NULL);
	pthread_join(w, NULL);
	return 0;
}
