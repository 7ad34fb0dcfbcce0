/*
 * targets/plain_spawn_order.c - an ordering violation across many threads:
 * an ordinary pthread program, no weft in sight, built with weft's compiler
 * pass (CMake: weft_add_program ... INSTRUMENT).
 *
 * Program: main starts a pool of 12 workers, then loads the configuration
 * they work with and publishes it through a global pointer; each worker
 * scales its own slot by the configured factor; main joins the pool and
 * checks every slot.
 * Seeded bug (default build): main publishes the configuration after it has
 * spawned the workers, assuming they are slow to start; a worker that runs
 * before main gets there finds no configuration.  Fixed build
 * (-DWEFT_PLAIN_SPAWN_ORDER_FIXED): the configuration is published before the
 * first pthread_create.
 *
 * Known minimal failing interleaving: 1 preemption.  Main creates a worker and
 * is preempted right after (pthread_create is a release, followed by a switch
 * point); the worker reads the configuration pointer: NULL.  Oracle: the
 * worker's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define WORKERS 12

struct config {
	int factor;
	int offset;
};

static const struct config *config;
static struct config loaded;
static int slot[WORKERS];

static void load_config(void)
{
	loaded.factor = 3;
	loaded.offset = 1;
	config = &loaded;
}

static void *worker(void *arg)
{
	int *s = arg;
	const struct config *c = config;
	assert(c != NULL);      /* bug surfaces here: not loaded yet */
	*s = *s * c->factor + c->offset;
	return NULL;
}

int main(void)
{
	pthread_t pool[WORKERS];
	config = NULL;
	for (int i = 0; i < WORKERS; i++)
		slot[i] = i;
#ifdef WEFT_PLAIN_SPAWN_ORDER_FIXED
	load_config();
#endif
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&pool[i], NULL, worker, &slot[i]);
#ifndef WEFT_PLAIN_SPAWN_ORDER_FIXED
	load_config();          /* bug: the workers may already be running */
#endif
	for (int i = 0; i < WORKERS; i++)
		pthread_join(pool[i], NULL);
	for (int i = 0; i < WORKERS; i++)
		assert(slot[i] == i * 3 + 1);
	return 0;
}
