/*
 * targets/pthread_account.c - an ordinary pthread program, written against
 * plain <pthread.h>, <stdatomic.h> and <assert.h> with no weft in sight: weft
 * runs it through the drop-in path alone (CMake weft_add_program: -include
 * weft/dropin.h -Dmain=weft_program_main, linked with harness/program_main.c).
 *
 * Program: main starts two threads that each withdraw 80 from an account
 * holding 100, joins them, and asserts the balance never went negative.
 * Seeded bug (default build): withdraw checks the balance and updates it in
 * two separate critical sections (check-then-act), so both checks can pass.
 * Fixed build (-DWEFT_PTHREAD_ACCOUNT_FIXED): one critical section.
 *
 * Known minimal failing interleaving: 1 preemption.  Main creates both
 * threads and blocks joining the first; thread 1 checks (100 >= 80) and is
 * preempted after unlocking; thread 2 checks and withdraws; thread 1 withdraws:
 * -60, and main's assert fails.  Oracle: the program's own assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int balance;                 /* guarded by lock */
static atomic_int withdrawals;      /* how many succeeded */

static void *withdraw(void *arg)
{
	int amount = *(const int *)arg;
#ifdef WEFT_PTHREAD_ACCOUNT_FIXED
	pthread_mutex_lock(&lock);
	if (balance >= amount) {
		balance -= amount;
		atomic_fetch_add(&withdrawals, 1);
	}
	pthread_mutex_unlock(&lock);
#else
	pthread_mutex_lock(&lock);
	int enough = balance >= amount;
	pthread_mutex_unlock(&lock);   /* bug: the balance may change before the update */
	if (enough) {
		pthread_mutex_lock(&lock);
		balance -= amount;
		pthread_mutex_unlock(&lock);
		atomic_fetch_add(&withdrawals, 1);
	}
#endif
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int amount = 80;
	balance = 100;
	atomic_store(&withdrawals, 0);
	pthread_create(&a, NULL, withdraw, &amount);
	pthread_create(&b, NULL, withdraw, &amount);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(balance >= 0);
	assert(atomic_load(&withdrawals) == 1);
	return 0;
}
