/*
 * targets/correct/tas_lock.c - correct corpus (issue 30): a test-and-set spin
 * lock on atomic_flag (test_and_set acquire, clear release, sched_yield while
 * held) guarding a plain counter.  Two threads add 1 twice each; main
 * asserts 4.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_flag held = ATOMIC_FLAG_INIT;
static int counter;

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		while (atomic_flag_test_and_set_explicit(&held, memory_order_acquire))
			sched_yield();
		counter++;
		atomic_flag_clear_explicit(&held, memory_order_release);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, adder, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(counter == 4);
	return 0;
}
