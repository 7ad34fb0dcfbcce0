/*
 * targets/correct/refcount.c - correct corpus (issue 30): an object shared by
 * three threads through an atomic reference count.  main allocates it with
 * count 3 and a plain payload; each thread reads the payload, then drops its
 * reference with fetch_sub(acq_rel); the one that drops the last reference
 * frees the object (its acquire half orders the others' reads before the
 * free).  main asserts exactly one thread freed it.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct object {
	atomic_int refs;
	int payload;
};

static atomic_int frees;

static void *user(void *arg)
{
	struct object *o = arg;
	assert(o->payload == 7);
	if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) == 1) {
		free(o);
		atomic_fetch_add(&frees, 1);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	struct object *o = malloc(sizeof *o);
	atomic_init(&o->refs, 3);
	o->payload = 7;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, user, o);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load(&frees) == 1);
	return 0;
}
