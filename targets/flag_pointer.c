/*
 * targets/flag_pointer.c - a whole pthread program where a flag read outside
 * the lock goes stale: the reproducer of systematic mode's unsoundness on
 * programs (issue 22).
 *
 * Program: main spawns a reader and a closer and joins both.  The reader
 * reads the `closed` flag (an atomic), then locks and dereferences the shared
 * pointer; the closer locks, sets the flag and clears the pointer.
 * Seeded bug (default build): the reader trusts the flag it read before
 * locking, so the closer can run between its check and its lock and the
 * reader dereferences NULL (caught by the assert before it).
 * Fixed build (-DWEFT_FLAG_POINTER_FIXED): the reader reads the flag again
 * under the lock.
 *
 * Known minimal failing interleaving: 1 preemption.  Main spawns both threads
 * and joins the reader; the reader loads the flag (0) and is preempted before
 * its lock; the closer locks, sets the flag, clears the pointer, unlocks and
 * ends; the reader locks and finds the pointer NULL.  Oracle: assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int closed;
static int value = 42;
static int *shared;                  /* guarded by lock */

static void *reader(void *arg)
{
	int *seen = arg;
	if (atomic_load(&closed))
		return NULL;
	pthread_mutex_lock(&lock);
#ifdef WEFT_FLAG_POINTER_FIXED
	if (atomic_load(&closed)) {
		pthread_mutex_unlock(&lock);
		return NULL;
	}
#endif
	assert(shared != NULL);
	*seen = *shared;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *closer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	atomic_store(&closed, 1);
	shared = NULL;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t r, c;
	int seen = 0;
	atomic_store(&closed, 0);
	shared = &value;
	pthread_create(&r, NULL, reader, &seen);
	pthread_create(&c, NULL, closer, NULL);
	pthread_join(r, NULL);
	pthread_join(c, NULL);
	return seen != 0 && seen != 42;
}
