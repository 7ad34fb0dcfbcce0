/*
 * targets/plain_session_uaf.c - a use-after-free between threads: an ordinary
 * pthread program, no weft in sight, built with weft's compiler pass (CMake:
 * weft_add_program ... INSTRUMENT).
 *
 * Program: main opens a session (malloc), hands it to a worker thread and
 * waits (a semaphore) until the worker has picked it up; then it closes it:
 * session_close() clears the magic word (as destructors that guard against
 * reuse do) and frees it.  Every session function first checks the magic word.
 * Seeded bug (default build): the worker says "picked up" before it is done
 * with the session, so main may close it while the worker still uses it.
 * Fixed build (-DWEFT_PLAIN_SESSION_UAF_FIXED): the worker posts when done.
 * Symptom: under AddressSanitizer, heap-use-after-free at the worker's read of
 * the freed session; without it, the worker's magic check fails (assertion).
 *
 * Known minimal failing interleaving: 1 preemption.  Main starts the worker and
 * blocks in sem_wait; the worker posts and is preempted right after (the
 * after-release switch point); main closes (frees) the session; the worker
 * reads it.  Without a preemption the worker finishes first: no failure.
 * Oracle: ASan, or the program's own assert().
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>

#define SESSION_MAGIC 0x5e55u

struct session {
	uint64_t header[2];     /* what an allocator may reuse first, kept apart */
	unsigned magic;
	int bytes;
};

static struct session *session_open(void)
{
	struct session *s = calloc(1, sizeof *s);
	assert(s != NULL);
	s->magic = SESSION_MAGIC;
	return s;
}

static void session_add(struct session *s, int n)
{
	assert(s->magic == SESSION_MAGIC);
	s->bytes += n;
}

static void session_close(struct session *s)
{
	assert(s->magic == SESSION_MAGIC);
	s->magic = 0;
	free(s);
}

static sem_t picked_up;

static void *worker(void *arg)
{
#ifdef WEFT_PLAIN_SESSION_UAF_FIXED
	session_add(arg, 10);
	sem_post(&picked_up);
#else
	sem_post(&picked_up);   /* bug: too early, the session is still in use */
	session_add(arg, 10);
#endif
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct session *s = session_open();
	sem_init(&picked_up, 0, 0);
	pthread_create(&t, NULL, worker, s);
	sem_wait(&picked_up);
	session_close(s);
	pthread_join(t, NULL);
	sem_destroy(&picked_up);
	return 0;
}
