/*
 * tests/program_two_bugs.c - one program, two bugs, two assertions: what a
 * reduction must not swap (issue 29; tests/reduce_symptom.sh).
 *
 * Two workers each count two events in `first` and then one in `second`,
 * without a lock: a preemption inside an increment loses an update.  main
 * checks that at most one update of `first` was lost (bug 1: two preemptions
 * lose two), then `second` (bug 2: one preemption).  A crash of bug 1 is one
 * moved preemption away from bug 2's simpler failure: a reducer that keeps
 * "any assertion" (or any crash) reports bug 2 with bug 1's crash file.
 */
#include <assert.h>
#include <pthread.h>

static int first, second;

static void *worker(void *arg)
{
	(void)arg;
	first++;
	first++;
	second++;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	first = second = 0;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(first >= 3);    /* bug 1 */
	assert(second == 2);   /* bug 2 */
	return 0;
}
