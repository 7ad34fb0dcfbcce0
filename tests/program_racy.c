/*
 * tests/program_racy.c - three data races the check must report (each a
 * false "fine" before issue 30), one thread pair each, in one program so that
 * WEFT_RACES=warn lists all three (tests/program_races.sh):
 *
 *   relaxed  plain data published behind a relaxed flag: the reader sees the
 *            flag and reads the data with no happens-before (a relaxed atomic
 *            orders nothing; under c11 it may also read the old data)
 *   free     a block read by one thread and freed by another that only waited
 *            for a relaxed "done" flag: the free is a write of the block
 *   mixed    a counter bumped with an atomic fetch_add by one thread and read
 *            plainly by another before the join
 *
 * The race-free twins of these patterns are in tests/program_race_free.c.
 * Built with weft's pass (weft_add_program ... INSTRUMENT).
 *
 * A program, not a test: tests/program_races.sh runs it and fails unless each race
 * is reported.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

static int data;
static atomic_int flag;
static int *block;
static atomic_int done;
static atomic_int hits;
static int seen;

static void *publisher(void *arg)
{
	(void)arg;
	data = 42;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	if (atomic_load_explicit(&flag, memory_order_relaxed))
		seen = data;
	seen += *block;
	atomic_store_explicit(&done, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	block = malloc(sizeof *block);
	*block = 1;
	pthread_t p, r;
	pthread_create(&p, NULL, publisher, NULL);
	pthread_create(&r, NULL, reader, NULL);
	while (!atomic_load_explicit(&done, memory_order_relaxed))
		sched_yield();
	free(block);
	int plain_hits = *(int *)&hits;
	pthread_join(p, NULL);
	pthread_join(r, NULL);
	return plain_hits > 1;
}
