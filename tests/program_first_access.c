/*
 * tests/program_first_access.c - bugs whose whole window lies before the
 * second thread's first access of a global (issue 31, item 1): reachable only
 * if the first thread's first access of a global is a switch point
 * (scheduler/access.c, "first touch of a global"; tests/program_first_access.sh).
 *
 * Default build: two spawned threads each do `total = total + 1` on a global
 * main never touches until it has joined them; a preemption between one
 * thread's load and store loses an update and main's assert fails.
 * -DWEFT_FIRST_ACCESS_FIELDS: a writer stores two fields of a global pair
 * (each in its own 8-byte granule), a reader that nobody ordered after it
 * reads both and asserts they agree; it fails only if it runs between the
 * writer's two stores, the writer's first accesses of either field.
 * -DWEFT_FIRST_ACCESS_FIXED: each thread's accesses under one mutex.
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void enter(void)
{
#ifdef WEFT_FIRST_ACCESS_FIXED
	pthread_mutex_lock(&lock);
#else
	(void)lock;
#endif
}

static void leave(void)
{
#ifdef WEFT_FIRST_ACCESS_FIXED
	pthread_mutex_unlock(&lock);
#endif
}

#ifdef WEFT_FIRST_ACCESS_FIELDS
static struct { long low, high; } pair;
static int mismatches;

static void *writer(void *arg)
{
	(void)arg;
	enter();
	pair.low = 7;
	pair.high = 7;
	leave();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	enter();
	long low = pair.low;
	long high = pair.high;
	leave();
	if (low != high)
		mismatches++;   /* only the reader writes it; main reads it after the join */
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	assert(mismatches == 0);
	return 0;
}
#else
static int total;

static void *bump(void *arg)
{
	(void)arg;
	enter();
	total = total + 1;
	leave();
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, bump, NULL);
	pthread_create(&b, NULL, bump, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(total == 2);
	return 0;
}
#endif
