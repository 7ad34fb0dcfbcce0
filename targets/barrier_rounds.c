/*
 * targets/barrier_rounds.c - an ordinary pthread program that computes in
 * rounds with a barrier, a spin lock and pthread_once: the POSIX primitives a
 * managed thread used to call for real, blocking while it held the baton (the
 * run hung).  weft runs them as managed objects (scheduler/sync_barrier.c).
 *
 * Program: WORKERS threads fill a table once (pthread_once), then in each
 * round add their part to a shared sum under a spin lock and wait at a
 * barrier; the thread pthread_barrier_wait names as the serial one records
 * the round's total and resets the sum for the next round.  main asserts
 * every round's total.
 *
 * Seeded bug (default build): one barrier per round.  The other workers pass
 * the same barrier as the serial thread and may add their next round's part
 * before it has recorded and reset the sum: that part lands in the wrong
 * round, or is wiped by the reset.  Fixed build (-DWEFT_BARRIER_ROUNDS_FIXED):
 * a second barrier after the reset, so that nobody starts the next round
 * before it.
 *
 * Known minimal failing interleaving: 1 preemption.  The last worker to arrive
 * is the serial one; preempted right after the barrier (before it takes the
 * lock), another worker takes the lock first and adds its round-2 part, which
 * round 1's total then counts.  Oracle: assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

#define WORKERS 3
#define ROUNDS 2

static pthread_barrier_t barrier;
static pthread_spinlock_t lock;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int part[WORKERS];
static int sum;
static int totals[ROUNDS];

static void fill_table(void)
{
	for (int i = 0; i < WORKERS; i++)
		part[i] = i + 1;
}

static void add(int value)
{
	pthread_spin_lock(&lock);
	sum += value;
	pthread_spin_unlock(&lock);
}

static void close_round(int round)
{
	pthread_spin_lock(&lock);
	totals[round] = sum;
	sum = 0;
	pthread_spin_unlock(&lock);
}

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	pthread_once(&table_once, fill_table);
	for (int round = 0; round < ROUNDS; round++) {
		add(part[id] * (round + 1));
		if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			close_round(round);
#ifdef WEFT_BARRIER_ROUNDS_FIXED
		pthread_barrier_wait(&barrier);   /* the reset is done before anyone goes on */
#endif
	}
	return NULL;
}

int main(void)
{
	pthread_t t[WORKERS];
	pthread_barrier_init(&barrier, NULL, WORKERS);
	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	for (int round = 0; round < ROUNDS; round++)
		assert(totals[round] == (1 + 2 + 3) * (round + 1));
	pthread_barrier_destroy(&barrier);
	pthread_spin_destroy(&lock);
	return 0;
}
