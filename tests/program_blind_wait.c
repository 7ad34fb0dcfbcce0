/*
 * tests/program_blind_wait.c - a spin-wait without a switch point (built
 * without the pass, its flag a plain volatile int): when the waiter runs
 * before the setter it spins for good, when the setter runs first it passes.
 * So some inputs hang and others pass: a batch replay must give every input
 * its line, the one that hung the timeout, and go on (issue 30;
 * tests/replay_timeout_batch.sh).
 *
 * A program, not a test: tests/replay_timeout_batch.sh runs it.
 */
#include <pthread.h>

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
	ready = 1;
	return NULL;
}

int main(void)
{
	pthread_t w, s;
	pthread_create(&w, NULL, waiter, NULL);
	pthread_create(&s, NULL, setter, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	return 0;
}
