/*
 * targets/plain_handshake.c - a flag handshake without synchronisation: an
 * ordinary pthread program, no weft in sight, built with weft's compiler pass
 * (CMake: weft_add_program ... INSTRUMENT).
 *
 * Program: a producer fills in a message (its length and its bytes) and sets
 * a `ready` flag; a consumer spins on the flag (sched_yield() between looks)
 * and then checks the message.
 * Seeded bug (default build): the producer raises the plain `ready` flag
 * before it writes the message (an ordering violation), so a consumer that
 * looks in between reads an empty message.  Fixed build
 * (-DWEFT_PLAIN_HANDSHAKE_FIXED): the message is written first and the flag is
 * an atomic stored with release order and loaded with acquire order.
 *
 * Known minimal failing interleaving: 1 preemption.  The producer sets
 * `ready` and is preempted before it writes the message; the consumer sees
 * the flag and reads length 0.  Oracle: the consumer's assert() on the
 * message.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

struct message {
	int len;
	char text[8];
};

static struct message msg;
#ifdef WEFT_PLAIN_HANDSHAKE_FIXED
static atomic_int ready;
#else
static int ready;
#endif

static void *producer(void *arg)
{
	(void)arg;
#ifdef WEFT_PLAIN_HANDSHAKE_FIXED
	memcpy(msg.text, "hello", 6);
	msg.len = 5;
	atomic_store_explicit(&ready, 1, memory_order_release);
#else
	ready = 1;              /* bug: published before it is written */
	memcpy(msg.text, "hello", 6);
	msg.len = 5;
#endif
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
#ifdef WEFT_PLAIN_HANDSHAKE_FIXED
	while (!atomic_load_explicit(&ready, memory_order_acquire))
		sched_yield();
#else
	while (!ready)
		sched_yield();
#endif
	assert(msg.len == 5);
	assert(strcmp(msg.text, "hello") == 0);
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	ready = 0;
	msg.len = 0; msg.text[0] = '\0';
	/* one line: which store touches the granule first is the compiler's choice */
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return 0;
}
