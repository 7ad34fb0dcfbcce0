/*
 * targets/correct/c_constructor.c - correct corpus (issue 30): a C program
 * whose __attribute__((constructor)) allocates the table its threads use and
 * whose destructor frees it.
 *
 * The constructor allocates four slots, each 1; two threads each double every
 * slot under a mutex; main asserts the table is the constructor's at start
 * (all 1: a fresh process's) and all 4 at the end.  Correct under every
 * interleaving.  Without constructors re-run per execution (harness/
 * program_main.c) the second execution would find the first one's table (or a
 * freed one, had the destructor run at exit).
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

enum { SLOTS = 4 };

static int *table;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void make_table(void)
{
	table = malloc(SLOTS * sizeof *table);
	for (int i = 0; i < SLOTS; i++)
		table[i] = 1;
}

__attribute__((destructor)) static void free_table(void)
{
	free(table);
	table = NULL;
}

static void *doubler(void *arg)
{
	(void)arg;
	for (int i = 0; i < SLOTS; i++) {
		pthread_mutex_lock(&lock);
		table[i] *= 2;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < SLOTS; i++)
		assert(table[i] == 1);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, doubler, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < SLOTS; i++)
		assert(table[i] == 4);
	return 0;
}
