/*
 * bench/hard/stale_quad.c - a weak-memory bug that needs four stale reads
 * at once (hard benchmark, issue 33; an ordinary pthread program, C11
 * atomics, run under weft's C11 model, WEFT_MEMORY=c11, the default).
 *
 * Program: a configurator thread writes four settings, each VERSIONS times
 * (defaults, then refinements: 1, 2, ...), all relaxed, then raises `ready`
 * with a relaxed store; a worker waits for `ready` and reads the four settings.
 * It tolerates stale settings (it re-reads them later) unless all four are
 * still at their initial 0, a state it treats as impossible (assert).
 * Seeded bug (default build): `ready` is stored and loaded relaxed, so seeing it
 * gives no happens-before to the settings' stores.  Fixed build
 * (-DHARD_STALE_QUAD_FIXED): release store, acquire load.
 *
 * Window: four loads, each choosing the oldest of VERSIONS + 1 stores it may
 * read (weft's data choice per weak load, 0 = the newest), after the worker has
 * seen `ready`.  Why hard: each stale read is a 1-in-(VERSIONS + 1) choice, the
 * four must agree, and none of the samplers aims at reads-from; an SC
 * execution never fails.  Oracle: the worker's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifndef VERSIONS
#define VERSIONS 7
#endif
#ifdef HARD_STALE_QUAD_FIXED
#define READY_STORE memory_order_release
#define READY_LOAD memory_order_acquire
#else
#define READY_STORE memory_order_relaxed     /* bug: orders nothing */
#define READY_LOAD memory_order_relaxed
#endif

#define SETTINGS 4

static atomic_int setting[SETTINGS], ready;

static void *configurator(void *arg)
{
	(void)arg;
	for (int v = 1; v <= VERSIONS; v++)
		for (int s = 0; s < SETTINGS; s++)
			atomic_store_explicit(&setting[s], v, memory_order_relaxed);
	atomic_store_explicit(&ready, 1, READY_STORE);
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&ready, READY_LOAD))
		sched_yield();
	int zeros = 0;
	for (int s = 0; s < SETTINGS; s++)
		zeros += atomic_load_explicit(&setting[s], memory_order_relaxed) == 0;
	assert(zeros < SETTINGS);      /* "some setting is always configured by now" */
	return NULL;
}

int main(void)
{
	pthread_t c, w;
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&c, NULL, configurator, NULL);
	pthread_join(c, NULL);
	pthread_join(w, NULL);
	return 0;
}
