/*
 * targets/correct/seqlock_fenced.c - correct corpus (issue 30): a seqlock done
 * right in C11.  The writer makes the sequence odd (relaxed store, then a
 * release fence), writes the two fields as relaxed atomics, and makes the
 * sequence even again with a release store.  A reader loads the sequence with
 * acquire, the fields relaxed, an acquire fence, the sequence again relaxed:
 * a read is valid when both sequences are equal and even, and then y == 2x.
 * Readers try three times at most (a reader that never gets a valid read is
 * no error).  The writer writes (1, 2) then (2, 4).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint seq;
static atomic_int x, y;

static void write_pair(int v)
{
	unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);   /* the odd seq before the fields */
	atomic_store_explicit(&x, v, memory_order_relaxed);
	atomic_store_explicit(&y, 2 * v, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 2, memory_order_release);   /* the fields before it */
}

static void *writer(void *arg)
{
	(void)arg;
	write_pair(1);
	write_pair(2);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	for (int attempt = 0; attempt < 3; attempt++) {
		unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
		int a = atomic_load_explicit(&x, memory_order_relaxed);
		int b = atomic_load_explicit(&y, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);   /* the fields before the second seq */
		unsigned s2 = atomic_load_explicit(&seq, memory_order_relaxed);
		if (s1 == s2 && s1 % 2 == 0) {
			assert(b == 2 * a);
			return NULL;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t w, r[2];
	pthread_create(&w, NULL, writer, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&r[i], NULL, reader, NULL);
	pthread_join(w, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	assert(atomic_load(&x) == 2 && atomic_load(&y) == 4);
	return 0;
}
