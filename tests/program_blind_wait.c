/*
 * tests/program_blind_wait.c - a spin-wait without a switch point (built
 * without the pass, its flag a plain volatile int): when the waiter runs
 * before the setter sets the flag (the schedule switches at the setter's
 * sched_yield) it spins for good, else it passes (the empty input).
 * So some inputs hang and others pass: a batch replay must give every input
 * its line, the one that hung the timeout, and go on (issue 30;
 * tests/replay_timeout_batch.sh).
 *
 * A program, not a test: tests/replay_timeout_batch.sh runs it.
 */
#include <pthread.h>
#include <sched.h>

static volatile int ready;

static void *waiter(void *arg)
{
	(void)arg;
	while (!ready)
		;
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	sched_yield();   /* a switch point: the schedule may run the waiter now */
	ready = 1;
	return NULL;
}

int main(void)
{
	pthread_t w, s;
	pthread_create(&s, NULL, setter, NULL);
	pthread_create(&w, NULL, waiter, NULL);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	return 0;
}


/*
 * A program, not a test: tests/replay_timeout_batch.sh runs it and fails unless every
 * input of a batch gets its line, the ones that hang the timeout verdict.
 */
