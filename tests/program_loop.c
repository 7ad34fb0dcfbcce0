/*
 * tests/program_loop.c - a thread that loops without a switch point (built
 * without the pass, its flag a plain volatile int that nobody sets): the
 * search modes must end it with a timeout, not hang (issue 31;
 * harness/watchdog.c; tests/program_first_access.sh).
 *
 * A program, not a test: tests/program_first_access.sh runs it and fails unless
 * --systematic and --explore end it with the timeout verdict.
 */
#include <pthread.h>

static volatile int stop;

static void *spin(void *arg)
{
	(void)arg;
	while (!stop)
		;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, spin, NULL);
	pthread_join(t, NULL);
	return 0;
}
