/*
 * targets/plain_session_uaf.c - a use-after-free between threads: an ordinary
 * pthread program, no weft in sight, built with weft's compiler pass (CMake:
 * weft_add_program ... INSTRUMENT).
 *
 * Program: main opens a session (malloc), hands it to a worker thread that
 * adds to its byte count, then closes it: session_close() clears the magic
 * word (as destructors that guard against reuse do) and frees it.  Every
 * session function first checks the magic word.
 * Seeded bug (default build): main closes the session before joining the
 * worker, so the worker may still be using it.  Fixed build
 * (-DWEFT_PLAIN_SESSION_UAF_FIXED): join first, then close.
 * Symptom: under AddressSanitizer, heap-use-after-free at the worker's read of
 * the freed session; without it, the worker's magic check fails (assertion).
 *
 * Known minimal failing interleaving: 2 preemptions.  Main starts the worker
 * and is preempted right after pthread_create; the worker is preempted at its
 * first read of the session; main closes (frees) it; the worker reads it.
 * Oracle: ASan, or the program's own assert().
 */
#include <assert.h>
#include <pthread.h>
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

static void *worker(void *arg)
{
	session_add(arg, 10);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct session *s = session_open();
	pthread_create(&t, NULL, worker, s);
#ifdef WEFT_PLAIN_SESSION_UAF_FIXED
	pthread_join(t, NULL);
	session_close(s);
#else
	session_close(s);
	pthread_join(t, NULL);
#endif
	return 0;
}
