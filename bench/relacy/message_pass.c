/*
 * bench/relacy/message_pass.c - message passing: a writer stores the data
 * relaxed and the flag release; a reader that sees the flag (acquire) must
 * see the data.  Correct.  The weft twin of rl_tests.cpp's
 * message_pass_test, for bench/relacy.sh.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int data, flag;

static void *writer(void *arg)
{
	(void)arg;
	atomic_store_explicit(&data, 42, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	if (atomic_load_explicit(&flag, memory_order_acquire))
		assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
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
