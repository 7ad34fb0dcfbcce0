/*
 * bench/hard/lease_timeout.c - a bug behind sleeps and timed waits: a lease
 * stolen from a holder that is only slow (hard benchmark, issue 33; an
 * ordinary pthread program).
 *
 * Program: a holder takes the lease (owner = 1 under the mutex), then does
 * STEPS units of work, each a usleep() followed by a heartbeat (a counter
 * bumped under the mutex), and finally checks that it still owns the lease
 * before committing.  A standby waits for the lease with
 * pthread_cond_timedwait(); each time its wait times out and the heartbeat has
 * not moved since the previous time out, it counts a miss, and after MISSES
 * misses in a row it declares the holder dead and takes the lease itself.
 * Seeded bug (default build): the holder commits after a plain check of
 * `owner` without fencing its work against the steal: a holder whose
 * heartbeats all landed at the wrong moments commits on a lease it lost
 * (assert).  Fixed build (-DHARD_LEASE_TIMEOUT_FIXED): the standby never steals
 * at all: it takes the lease only when released.
 *
 * Window: MISSES time-outs of the standby's wait (each a data choice of weft:
 * sync.h, "a timed wait times out when the input says so") in a row, with no
 * heartbeat between two of them, while the holder is between its first
 * heartbeat and its commit; the holder's sleeps end by choice or when no
 * other thread can run.  Why hard: each time-out is one choice among the
 * wait's outcomes, they must come MISSES times while the holder sleeps, and a
 * schedule that lets the holder run resets the count.  Oracle: the holder's
 * assert().
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#ifndef STEPS
#define STEPS 3
#endif
#ifndef MISSES
#define MISSES 11
#endif

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static int owner, heartbeat, taken;

static void *holder(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	owner = 1;
	taken = 1;
	pthread_mutex_unlock(&m);
	for (int i = 0; i < STEPS; i++) {
		usleep(1000);                   /* a unit of work */
		pthread_mutex_lock(&m);
		heartbeat++;
		pthread_mutex_unlock(&m);
	}
	pthread_mutex_lock(&m);
	assert(owner == 1);                     /* commit: "the lease is still mine" */
	owner = 0;
	pthread_cond_signal(&released);
	pthread_mutex_unlock(&m);
	return NULL;
}

static int holder_looks_dead(int *misses, int *last)
{
#ifdef HARD_LEASE_TIMEOUT_FIXED
	return 0;                               /* a silent holder may be slow: never steal */
#endif
	*misses = heartbeat == *last ? *misses + 1 : 0;
	*last = heartbeat;
	return *misses >= MISSES;
}

static void *standby(void *arg)
{
	(void)arg;
	struct timespec deadline = { 0, 0 };
	int misses = 0, last = -1;
	pthread_mutex_lock(&m);
	while (!taken || owner != 0) {
		if (taken && pthread_cond_timedwait(&released, &m, &deadline) == ETIMEDOUT &&
		    holder_looks_dead(&misses, &last)) {
			owner = 2;              /* steal the lease */
			break;
		}
		if (!taken) {
			pthread_mutex_unlock(&m);
			usleep(100);
			pthread_mutex_lock(&m);
		}
	}
	owner = owner ? owner : 2;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t h, s;
	pthread_create(&h, NULL, holder, NULL);
	pthread_create(&s, NULL, standby, NULL);
	pthread_join(h, NULL);
	pthread_join(s, NULL);
	return 0;
}
