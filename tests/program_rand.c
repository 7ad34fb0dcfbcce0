/*
 * tests/program_rand.c - a whole program whose verdict depends on libc's
 * pseudo-random generators and on the interleaving (tests/program_globals.sh).
 *
 * Two threads each draw from rand() and from drand48(); which thread draws first
 * is the schedule's choice.  In a fresh process (rand as if srand(1), drand48
 * from its documented initial state) rand's first value is the larger of its
 * first two and drand48's the smaller, so the assertion holds exactly when
 * thread 0 drew first: the verdict is the order of the draws.  If the generators' state were carried from one execution
 * to the next, as libc keeps it for a process, an input's verdict would depend
 * on the inputs run before it: runner/program_env.c resets them per execution.
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int drawn[2];
static double drawn48[2];

static void *draw(void *arg)
{
	int i = (int)(long)arg;
	drawn[i] = rand();
	drawn48[i] = drand48();
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, draw, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(drawn[0] > drawn[1] && drawn48[0] < drawn48[1]);
	return 0;
}
