/*
 * bench/relacy/seqlock.c - a sequence lock with C11 fences (one writer, one
 * reader that tries once): a reader that saw the same even sequence number
 * before and after must have read a consistent pair.  Correct.  The weft
 * twin of rl_tests.cpp's seqlock_test, for bench/relacy.sh.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int seq, a, b;

static void *writer(void *arg)
{
	(void)arg;
	int s = atomic_load_explicit(&seq, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&a, 1, memory_order_relaxed);
	atomic_store_explicit(&b, 1, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 2, memory_order_release);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	int s1 = atomic_load_explicit(&seq, memory_order_acquire);
	int a1 = atomic_load_explicit(&a, memory_order_relaxed);
	int b1 = atomic_load_explicit(&b, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	int s2 = atomic_load_explicit(&seq, memory_order_relaxed);
	if (s1 == s2 && (s1 & 1) == 0)
		assert(a1 == b1);
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
