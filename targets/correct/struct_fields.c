/*
 * targets/correct/struct_fields.c - correct corpus (issue 30): neighbouring
 * fields and bytes written by different threads without a lock.  Thread 0
 * writes `a` (a char) and name[0], thread 1 writes `b` (the next char) and
 * name[1], thread 2 writes `count` (a short after them): no two threads touch
 * the same byte, so there is no data race (C11 5.1.2.4: distinct memory
 * locations).  main checks every field after joining.
 */
#include <assert.h>
#include <pthread.h>

static struct {
	char a, b;
	short count;
	char name[4];
} shared;

static void *writer(void *arg)
{
	int me = (int)(long)arg;
	if (me == 0) {
		shared.a = 'x';
		shared.name[0] = 'o';
	} else if (me == 1) {
		shared.b = 'y';
		shared.name[1] = 'k';
	} else {
		shared.count = 300;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, writer, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(shared.a == 'x' && shared.b == 'y' && shared.count == 300);
	assert(shared.name[0] == 'o' && shared.name[1] == 'k');
	return 0;
}
