/*
 * tests/program_flag_lock.c - a whole program built with the drop-in header alone
 * (no pass): a test-and-set spin lock written with the GNU flag builtins
 * (__atomic_test_and_set, __atomic_clear) and __sync_synchronize, guarding a
 * plain counter that two threads increment (tests/program_flag_lock.sh).
 *
 * WEFT_FLAG_LOCK_BUGGY releases the lock before the increment's write: a thread
 * that takes the lock in that gap reads the old count, one increment is lost and
 * main's assertion fails.  Only the renamed builtins are switch points here (the
 * counter is a plain int), so finding the bug, and a spinner that ever lets the
 * holder go on, both depend on the renames in <weft/dropin.h>.
 */
#include <assert.h>
#include <pthread.h>

static char lock_flag;
static int counter;

static void *increment(void *arg)
{
	(void)arg;
	while (__atomic_test_and_set(&lock_flag, __ATOMIC_ACQUIRE))
		;
	int seen = counter;
#ifdef WEFT_FLAG_LOCK_BUGGY
	__atomic_clear(&lock_flag, __ATOMIC_RELEASE);
	__sync_synchronize();
	counter = seen + 1;
#else
	counter = seen + 1;
	__sync_synchronize();
	__atomic_clear(&lock_flag, __ATOMIC_RELEASE);
#endif
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, increment, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(counter == 2);
	return 0;
}
