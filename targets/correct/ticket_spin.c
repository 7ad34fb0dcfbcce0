/*
 * targets/correct/ticket_spin.c - correct corpus (issue 30): a ticket lock
 * with seq_cst atomics (take a ticket with fetch_add, spin with sched_yield
 * until `serving` is it, release by adding 1 to `serving`) guarding a plain
 * counter.  Three threads add 1 each; main asserts 3.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_uint next_ticket, serving;
static int counter;

static void *adder(void *arg)
{
	(void)arg;
	unsigned mine = atomic_fetch_add(&next_ticket, 1);
	while (atomic_load(&serving) != mine)
		sched_yield();
	counter++;
	atomic_fetch_add(&serving, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, adder, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(counter == 3);
	return 0;
}
