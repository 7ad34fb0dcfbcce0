/*
 * tests/program_hang.c - a hang in one interleaving only, in a loop without a
 * switch point (issue 29; tests/fuzz_timeout.sh).
 *
 * Built without weft's pass: only the pthread calls are switch points.  The
 * worker takes the lock and, if main has not announced itself yet, busy-waits
 * on a volatile flag for main to do so: a loop with no switch point, so weft
 * can never preempt it and main never runs again.  Sequentially (and in the
 * simplest run, where main runs until it joins) main announces first and the
 * worker does not wait.  In the bad interleaving (main preempted at its
 * pthread_mutex_lock, before the store) the process hangs for real: only a
 * timeout ends it (libFuzzer's -timeout, the replay's --timeout).  One
 * preemption.
 */
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int announced;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	int early = !announced;
	pthread_mutex_unlock(&lock);
	if (early)
		while (!announced)   /* the bug: waits for main without letting it run */
			;
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_lock(&lock);
	announced = 1;
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	return 0;
}


/*
 * A program, not a test: tests/fuzz_timeout.sh runs it and fails unless the hang ends with
 * weft's report and a timeout file that hangs again.
 */
