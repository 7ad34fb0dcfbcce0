/*
 * tests/program_spin_handoff.c - a correct hand-off by spin-waiting (issue 30):
 * two threads take turns through one atomic, each waiting for its turn with
 *     while (atomic_load_explicit(&turn, memory_order_acquire) != mine)
 *             sched_yield();
 * doing its part of the work (a plain counter) and passing the turn on with a
 * release store: the core of a single-producer queue.  Built with the pass
 * (tests/spin_handoff.sh).  Correct under every memory model: the release
 * store of the turn publishes the counter to the acquire load that sees it.
 * Each player takes its seat with a compare-exchange loop: in the simplest
 * run the first one's succeeds reading 0, the second one's fails reading 1,
 * then succeeds reading 1 (the report prints each so: issue 30, item 5).
 *
 * The false failure it guards against: under C11 a spinner may read an old
 * turn for a while, but not forever (stores become visible eventually); a
 * spinner descheduled while a newer turn existed that it had not seen must not
 * be left parked while the other thread spins alone and is called a livelock.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

enum { ROUNDS = 3 };

static atomic_int seats;  /* players seated so far */
static atomic_int turn;   /* whose turn: 0 or 1 */
static int count;         /* plain: only the thread whose turn it is touches it */

static void *player(void *arg)
{
	(void)arg;
	int mine = 0;   /* a failed compare-exchange puts the seats taken here */
	while (!atomic_compare_exchange_strong(&seats, &mine, mine + 1))
		;
	for (int round = 0; round < ROUNDS; round++) {
		while (atomic_load_explicit(&turn, memory_order_acquire) != mine)
			sched_yield();
		count++;
		/* publishes count to the other player's acquire load */
		atomic_store_explicit(&turn, 1 - mine, memory_order_release);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, player, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(count == 2 * ROUNDS);
	return 0;
}
