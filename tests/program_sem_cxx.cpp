/*
 * tests/program_sem_cxx.cpp - POSIX semaphores reached by symbol alone
 * (harness/program_interpose.c): C++, so no header renames sem_wait.  Before
 * the interposer caught them, a managed sem_wait blocked on the real
 * semaphore: on fibers the whole execution hung, a correct program "timed
 * out" (a false verdict), and the bug below was never seen.
 *
 * Program: a producer hands 4 numbers to a consumer through a ring of 2
 * slots guarded by two semaphores (free slots, filled slots); the consumer
 * checks it gets 1, 2, 3, 4 in order.  It also drains a third semaphore with
 * sem_trywait and sem_timedwait (both fail: it is 0), and checks
 * sem_getvalue of the free-slot semaphore after the join (2).  Each slot is
 * read and written under a mutex taken with pthread_mutex_timedlock (also
 * caught by symbol: before, the real call took the real mutex at once).
 * Seeded bug (-DWEFT_SEM_CXX_BUGGY): the free-slot semaphore starts at 3 for
 * 2 slots, so the producer may overwrite a slot the consumer has not read.
 */
#include <cassert>
#include <cerrno>
#include <ctime>
#include <pthread.h>
#include <semaphore.h>
#include <thread>

#ifdef WEFT_SEM_CXX_BUGGY
static const unsigned free_slots = 3;   /* bug: one more than the ring has */
#else
static const unsigned free_slots = 2;
#endif

static sem_t empty, full, never;
static int ring[2];
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

/* The ring's slots under a timed lock (a timeout retries untimed). */
static void lock_ring()
{
	struct timespec deadline = { std::time(nullptr) + 1, 0 };
	if (pthread_mutex_timedlock(&ring_lock, &deadline) != 0)
		pthread_mutex_lock(&ring_lock);
}

int main()
{
	sem_init(&empty, 0, free_slots);
	sem_init(&full, 0, 0);
	sem_init(&never, 0, 0);
	std::thread producer([] {
		for (int i = 1; i <= 4; i++) {
			sem_wait(&empty);
			lock_ring();
			ring[i % 2] = i;
			pthread_mutex_unlock(&ring_lock);
			sem_post(&full);
		}
	});
	std::thread consumer([] {
		for (int i = 1; i <= 4; i++) {
			sem_wait(&full);
			lock_ring();
			assert(ring[i % 2] == i);
			pthread_mutex_unlock(&ring_lock);
			sem_post(&empty);
		}
	});
	assert(sem_trywait(&never) == -1 && errno == EAGAIN);
	struct timespec deadline = { std::time(nullptr) + 1, 0 };
	assert(sem_timedwait(&never, &deadline) == -1 && errno == ETIMEDOUT);
	producer.join();
	consumer.join();
	int value = -1;
	sem_getvalue(&empty, &value);
	assert(value == (int)free_slots);
	return 0;
}
/* Checked by tests/program_sem.sh. */
