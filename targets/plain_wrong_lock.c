/*
 * targets/plain_wrong_lock.c - a lock taken on the wrong object: an ordinary
 * pthread program, no weft in sight, built with weft's compiler pass (CMake:
 * weft_add_program ... INSTRUMENT).
 *
 * Program: two statistics counters, `sent` and `received`, each with its own
 * mutex.  A sender thread counts two messages sent; a receiver thread counts
 * two messages received and, for each, one reply sent; main joins both and
 * asserts the totals (4 sent, 2 received).
 * Seeded bug (default build): the receiver's reply path counts `sent` under
 * `received_lock` (a copy-paste slip), so its increment of `sent` is not
 * serialised with the sender's.  Fixed build (-DWEFT_PLAIN_WRONG_LOCK_FIXED):
 * it takes `sent_lock`.
 *
 * Known minimal failing interleaving: 1 preemption.  The sender loads `sent`
 * under `sent_lock` and is preempted before its store; the receiver, holding
 * only `received_lock`, increments `sent`; the sender stores its stale value:
 * 3 sent, not 4.  Oracle: main's assert() on the totals.
 */
#include <assert.h>
#include <pthread.h>

static int sent, received;
static pthread_mutex_t sent_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t received_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_sent(void)
{
	pthread_mutex_lock(&sent_lock);
	sent++;
	pthread_mutex_unlock(&sent_lock);
}

static void count_reply(void)
{
#ifdef WEFT_PLAIN_WRONG_LOCK_FIXED
	pthread_mutex_lock(&sent_lock);
	sent++;
	pthread_mutex_unlock(&sent_lock);
#else
	pthread_mutex_lock(&received_lock);     /* bug: the other counter's lock */
	sent++;
	pthread_mutex_unlock(&received_lock);
#endif
}

static void count_received(void)
{
	pthread_mutex_lock(&received_lock);
	received++;
	pthread_mutex_unlock(&received_lock);
}

static void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++)
		count_sent();
	return NULL;
}

static void *receiver(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		count_received();
		count_reply();
	}
	return NULL;
}

int main(void)
{
	pthread_t s, r;
	sent = 0;
	received = 0;
	pthread_create(&s, NULL, sender, NULL);
	pthread_create(&r, NULL, receiver, NULL);
	pthread_join(s, NULL);
	pthread_join(r, NULL);
	assert(received == 2);
	assert(sent == 4);
	return 0;
}
