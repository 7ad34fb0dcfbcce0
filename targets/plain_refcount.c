/*
 * targets/plain_refcount.c - a reference count dropped with a plain decrement:
 * an ordinary pthread program, no weft in sight, built with weft's compiler
 * pass (CMake: weft_add_program ... INSTRUMENT).
 *
 * Program: main creates an object holding two references and hands one to
 * each of two workers; each worker uses the object and drops its reference
 * with obj_put(), which frees the object when the count reaches 0.  After the
 * joins main asserts that the object was freed exactly once.
 * Seeded bug (default build): obj_put() decrements with a plain `refs--` and
 * then tests `refs == 0`: three plain accesses with nothing in between.  Two
 * puts that interleave lose a decrement (the object is never freed) or both
 * see 0 (it is freed twice).  Fixed build (-DWEFT_PLAIN_REFCOUNT_FIXED): one
 * atomic_fetch_sub, whose own result decides who frees.
 *
 * Known minimal failing interleavings, 1 preemption each: worker 1 decrements
 * (2 -> 1) and is preempted before its test; worker 2 decrements to 0 and
 * frees the object; worker 1 reads the freed count, sees 0 and frees it again
 * (double free); or worker 1 is preempted between its load and its store and
 * the count ends at 1 (never freed).
 * Oracle: under AddressSanitizer, heap-use-after-free at worker 1's second
 * read of the count; without it, obj_free()'s assert on the magic word (the
 * first free poisons it with one atomic exchange, so two frees cannot both
 * pass), or main's assert(frees == 1).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define OBJ_MAGIC 0x0b1ec7u

struct obj {
	uint64_t header[2];     /* what an allocator may reuse first, kept apart */
	atomic_uint magic;
#ifdef WEFT_PLAIN_REFCOUNT_FIXED
	atomic_int refs;
#else
	int refs;
#endif
	int uses;
	pthread_mutex_t lock;
};

static int frees;

static struct obj *obj_new(int refs)
{
	struct obj *o = calloc(1, sizeof *o);
	assert(o != NULL);
	atomic_init(&o->magic, OBJ_MAGIC);
	o->refs = refs;
	pthread_mutex_init(&o->lock, NULL);
	return o;
}

static void obj_free(struct obj *o)
{
	unsigned was = atomic_exchange(&o->magic, 0);   /* poison it */
	assert(was == OBJ_MAGIC);       /* a second free finds it poisoned */
	pthread_mutex_destroy(&o->lock);
	free(o);
	frees++;                        /* only the last holder gets here */
}

static void obj_use(struct obj *o)
{
	pthread_mutex_lock(&o->lock);
	o->uses++;
	pthread_mutex_unlock(&o->lock);
}

static void obj_put(struct obj *o)
{
#ifdef WEFT_PLAIN_REFCOUNT_FIXED
	if (atomic_fetch_sub(&o->refs, 1) == 1)
		obj_free(o);
#else
	o->refs--;              /* bug: a load and a store ... */
	if (o->refs == 0)       /* ... and another load: not one step */
		obj_free(o);
#endif
}

static void *worker(void *arg)
{
	struct obj *o = arg;
	obj_use(o);
	obj_put(o);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	struct obj *o = obj_new(2);
	frees = 0;
	pthread_create(&a, NULL, worker, o);
	pthread_create(&b, NULL, worker, o);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(frees == 1);
	return 0;
}
