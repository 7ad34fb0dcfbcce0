/*
 * bench/hard/retry_duplicate.c - a bug behind timed waits and sleeps: a client
 * that gives up on a slow server and resends, so a request runs twice (hard
 * benchmark, issue 33; an ordinary pthread program, POSIX semaphores).
 *
 * Program: a client posts a request (a semaphore) and waits for the reply
 * with sem_timedwait(); each time out it counts, and after RETRIES time-outs
 * in a row it resends the request, for at most one resend.  The server takes
 * requests; for each it sleeps STEPS times (usleep: the slow part), applies
 * the request (a counter) and posts the reply.  The client finally checks
 * that its request was applied exactly once.
 * Seeded bug (default build): the resend is not idempotent (no request id), so
 * a server that was only slow applies both.  Fixed build
 * (-DHARD_RETRY_DUPLICATE_FIXED): the request carries an id and the server
 * skips an id it has applied.
 *
 * Window: RETRIES time-outs of the client's wait in a row (each a data choice:
 * sync.h, "a timed wait times out when the input says so"), all while the
 * server is still inside its first request's sleeps (each of which may end by
 * a choice or when nobody else can run), then the server must get to the
 * resent request before the client's last wait ends.  Why hard: a run of
 * RETRIES agreeing choices against the sleeps' own choices; a schedule that
 * lets the reply through first wins the client's wait and ends the bug.
 * Oracle: the client's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#ifndef RETRIES
#define RETRIES 8
#endif
#ifndef STEPS
#define STEPS 2
#endif

static sem_t request, reply;
static atomic_int applied, sent;
#ifdef HARD_RETRY_DUPLICATE_FIXED
static atomic_int last_id;
#endif

static void *server(void *arg)
{
	(void)arg;
	for (int served = 0; served < 2; served++) {
		sem_wait(&request);
		int id = atomic_load(&sent);
		if (id == 0)
			break;                          /* the client's "done" */
		for (int s = 0; s < STEPS; s++)
			usleep(1000);                   /* the slow part */
#ifdef HARD_RETRY_DUPLICATE_FIXED
		if (atomic_exchange(&last_id, 1) == 1)
			continue;                       /* seen: a resend */
#endif
		atomic_fetch_add(&applied, 1);
		sem_post(&reply);
	}
	return NULL;
}

static void *client(void *arg)
{
	(void)arg;
	struct timespec deadline = { 0, 0 };
	int timeouts = 0, resent = 0;
	atomic_store(&sent, 1);
	sem_post(&request);
	while (sem_timedwait(&reply, &deadline) != 0) {
		if (++timeouts < RETRIES || resent)
			continue;
		resent = 1;                             /* "the server lost it": resend */
		sem_post(&request);
	}
	assert(atomic_load(&applied) == 1);
	atomic_store(&sent, 0);
	sem_post(&request);                             /* done: let the server go */
	sem_post(&request);
	return NULL;
}

int main(void)
{
	pthread_t c, s;
	sem_init(&request, 0, 0);
	sem_init(&reply, 0, 0);
	pthread_create(&s, NULL, server, NULL);
	pthread_create(&c, NULL, client, NULL);
	pthread_join(c, NULL);
	pthread_join(s, NULL);
	return 0;
}
