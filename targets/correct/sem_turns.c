/*
 * targets/correct/sem_turns.c - correct corpus (issue 30): two threads take
 * turns through two POSIX semaphores (ping starts).  Each appends its mark to
 * a shared log on its turn; main asserts the log alternates: 0 1 0 1.
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static sem_t turn[2];
static int log_marks[4], n_marks;

static void *player(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < 2; i++) {
		sem_wait(&turn[me]);
		log_marks[n_marks++] = me;
		sem_post(&turn[1 - me]);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	sem_init(&turn[0], 0, 1);
	sem_init(&turn[1], 0, 0);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, player, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(n_marks == 4);
	for (int i = 0; i < 4; i++)
		assert(log_marks[i] == i % 2);
	sem_destroy(&turn[0]);
	sem_destroy(&turn[1]);
	return 0;
}
