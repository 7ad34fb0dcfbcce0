/*
 * bench/hard/three_races.c - several ordering constraints at once: three
 * independent lost updates that must all happen in one execution (hard
 * benchmark, issue 33; an ordinary pthread program, C11 atomics).
 *
 * Program: three shards, each counted by two threads with a load and a store
 * (not one read-modify-write).  One thread of each pair first does PAD steps
 * of its own work (stores to its private slot), then counts; the other counts
 * at once, then does its PAD steps.  main joins everyone and runs a health check that raises the alarm
 * (the assert) only when every shard is short: a lost update in one or two
 * shards is tolerated as "noise" by the monitoring code.
 * Seeded bug (default build): the non-atomic increments.  Fixed build
 * (-DHARD_THREE_RACES_FIXED): fetch_add.
 *
 * Window: per shard, the early thread must be held back until the late one has
 * done its PAD steps and its load, then load before the late one's store; and
 * that three times over, the three races independent of each other.  Why
 * hard: each race alone is a preemption at one step plus a long delay; all
 * three at once multiply the odds (random walk, POS) or need three
 * well-placed change points (PCT depth 4).  Oracle: main's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SHARDS 3
#ifndef PAD
#define PAD 8
#endif

static atomic_int count[SHARDS];
static atomic_int scratch[2 * SHARDS];
static int id[2 * SHARDS];

static void *counter(void *arg)
{
	int i = *(int *)arg, shard = i / 2, late = i % 2;
	if (late)                                   /* its own work first */
		for (int p = 0; p < PAD; p++)
			atomic_store(&scratch[i], p);
#ifdef HARD_THREE_RACES_FIXED
	atomic_fetch_add(&count[shard], 1);
#else
	int v = atomic_load(&count[shard]);         /* bug: load, then store */
	atomic_store(&count[shard], v + 1);
#endif
	if (!late)                                  /* its own work after */
		for (int p = 0; p < PAD; p++)
			atomic_store(&scratch[i], p);
	return NULL;
}

int main(void)
{
	pthread_t t[2 * SHARDS];
	for (int i = 0; i < 2 * SHARDS; i++) {
		id[i] = i;
		pthread_create(&t[i], NULL, counter, &id[i]);
	}
	for (int i = 0; i < 2 * SHARDS; i++)
		pthread_join(t[i], NULL);
	int short_shards = 0;
	for (int s = 0; s < SHARDS; s++)
		short_shards += atomic_load(&count[s]) != 2;
	assert(short_shards < SHARDS);              /* "all shards short: a real fault" */
	return 0;
}
