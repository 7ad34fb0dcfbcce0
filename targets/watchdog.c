/*
 * targets/watchdog.c - an ordinary pthread program that sleeps, reads the
 * clock, prints, and calls exit() from a thread (issue 22: under weft sleeps
 * do not sleep, clocks are logical, stdout is quiet and exit ends the execution,
 * never the fuzzer: <weft/program.h>).
 *
 * Program: main starts a worker (takes the lock, marks the job done, prints)
 * and a watchdog that gives the worker one second, then checks the job; main
 * joins both and prints how long the watchdog waited, by the clock.
 * Seeded bug (default build): the watchdog treats "not done after one second"
 * as a hang and calls exit(3): a slow worker is not a dead one.
 * Fixed build (-DWEFT_WATCHDOG_FIXED): it keeps waiting, a second at a time.
 *
 * Known minimal failing interleaving: no preemption, one data choice.  Main
 * blocks in its first join and the forced switch goes to the watchdog; its sleep
 * ends at once (a timed wait that ends early: the last input byte, 01) and the
 * worker has not run.  Input `07 02 00 01`.  Verdict `validation`: "thread 2
 * called exit(3)".  Otherwise a sleep ends only when no other thread can run,
 * so the worker is done first and main prints "waited 1 s" by the logical
 * clock, in every run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int done;                     /* guarded by lock */
static long waited;                  /* seconds, by the clock */

static int job_done(void)
{
	pthread_mutex_lock(&lock);
	int d = done;
	pthread_mutex_unlock(&lock);
	return d;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_mutex_unlock(&lock);
	printf("worker: job done\n");
	return NULL;
}

static void *watchdog(void *arg)
{
	(void)arg;
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
#ifdef WEFT_WATCHDOG_FIXED
	while (!job_done())
		sleep(1);                    /* slow is not dead: keep waiting */
#else
	sleep(1);
	if (!job_done()) {
		printf("watchdog: the worker hangs, giving up\n");
		exit(3);                     /* bug: one second is not a hang */
	}
#endif
	clock_gettime(CLOCK_MONOTONIC, &end);
	waited = (long)(end.tv_sec - start.tv_sec);
	return NULL;
}

int main(void)
{
	pthread_t w, d;
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&d, NULL, watchdog, NULL);
	pthread_join(w, NULL);
	pthread_join(d, NULL);
	printf("main: the watchdog waited %ld s\n", waited);
	return 0;
}
