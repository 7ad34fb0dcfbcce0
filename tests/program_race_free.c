/*
 * tests/program_race_free.c - race-free code that shares memory closely: every
 * case must draw no `data-race` with WEFT_RACES=1 (tests/program_races.sh).
 * Each case is a false race some detector once reported (weft's own before
 * issue 30): bytes that share an 8-byte granule without overlapping, and
 * orderings that come from an edge other than a lock.
 *
 *   adjacent  two int globals side by side, each under its own mutex
 *   slots     an int array, one element per thread, summed after the joins
 *   chars     a char array, one element per thread
 *   fields    a struct's two short fields, one per thread, under two locks
 *   barrier   per-thread int slots written before a barrier, read after it
 *   publish   plain data published by a release store, read after an
 *             acquire load that saw it
 *   fence     the same with relaxed atomics between a release and an acquire fence
 *   handoff   a heap block made by one thread, used and freed by the next one
 *             after a semaphore post
 *
 * Built with weft's pass (weft_add_program ... INSTRUMENT): every shared plain
 * access is checked.  Oracle: the asserts, and the race check.
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>

#define N 3

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER, lock_b = PTHREAD_MUTEX_INITIALIZER;
static int sent, received;   /* adjacent: one granule, two locks */
static int slot[N];
static char letter[N];
static struct { short left, right; } pair;
static pthread_barrier_t barrier;
static int round_slot[N];
static int seen_sum[N];
static int payload;
static atomic_int ready;
static int fenced_payload;
static atomic_int fenced_ready;
static sem_t posted;
static int *handed;

static void *worker(void *arg)
{
	int me = (int)(long)arg;
	pthread_mutex_lock(me == 0 ? &lock_a : &lock_b);
	if (me == 0)
		sent++;
	else
		received++;
	pthread_mutex_unlock(me == 0 ? &lock_a : &lock_b);
	slot[me] = me + 1;
	letter[me] = (char)('a' + me);
	pthread_mutex_lock(me == 0 ? &lock_a : &lock_b);
	if (me == 0)
		pair.left++;
	else
		pair.right++;
	pthread_mutex_unlock(me == 0 ? &lock_a : &lock_b);
	round_slot[me] = 10 * (me + 1);
	pthread_barrier_wait(&barrier);
	for (int i = 0; i < N; i++)
		seen_sum[me] += round_slot[i];
	return NULL;
}

static void *producer(void *arg)
{
	(void)arg;
	payload = 42;
	atomic_store_explicit(&ready, 1, memory_order_release);
	fenced_payload = 7;
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&fenced_ready, 1, memory_order_relaxed);
	int *block = malloc(sizeof *block);
	*block = 5;
	handed = block;
	sem_post(&posted);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	if (atomic_load_explicit(&ready, memory_order_acquire))
		assert(payload == 42);
	if (atomic_load_explicit(&fenced_ready, memory_order_relaxed)) {
		atomic_thread_fence(memory_order_acquire);
		assert(fenced_payload == 7);
	}
	sem_wait(&posted);
	assert(*handed == 5);
	free(handed);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	pthread_barrier_init(&barrier, NULL, N);
	sem_init(&posted, 0, 0);
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(sent == 1 && received == N - 1);
	assert(slot[0] + slot[1] + slot[2] == 6 && letter[2] == 'c');
	assert(pair.left == 1 && pair.right == N - 1);
	for (int i = 0; i < N; i++)
		assert(seen_sum[i] == 60);
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	pthread_barrier_destroy(&barrier);
	return 0;
}
