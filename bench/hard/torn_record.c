/*
 * bench/hard/torn_record.c - many threads, one narrow window: a record
 * published under a sequence counter whose writers hand over too early (hard
 * benchmark, issue 33; an ordinary pthread program, C11 atomics).
 *
 * Program: WRITERS threads each publish the record (i, i, ..., i), FIELDS
 * words, bracketed by two increments of `seq` (odd = a write in progress, as
 * in a seqlock).  Writers exclude each other with a lock word: each waits for
 * an even `seq`, then takes the lock by compare-and-swap (the crowd variant,
 * -DTRY_ONCE, skips its update instead of waiting).  One reader takes a
 * snapshot: it reads `seq`, and if even, the fields, then `seq` again, and
 * trusts the record when both readings agree.
 * Seeded bug (default build): a writer releases the lock before its closing
 * increment.  A writer Y that saw an even `seq` earlier and takes the lock in
 * that gap brings `seq` back to even while both are mid-write, and a reader
 * inside the overlap trusts a torn record.  Fixed build
 * (-DHARD_TORN_RECORD_FIXED): the closing increment, then the release.
 *
 * Window: Y's even-sequence check before X's opening increment, Y parked
 * through X's whole write, Y's CAS in X's one-step gap, Y's opening increment
 * and at least one store, then the reader's FIELDS + 2 loads, all before
 * either writer moves on.  Why hard: three preemptions at exact steps plus a
 * run of the reader's among WRITERS + 2 threads whose every other step closes
 * the window; a uniform choice of the next thread almost never keeps two
 * writers parked while the reader runs, and PCT needs the reader's priority
 * between the writers' and change points at exact steps.  Oracle: the
 * reader's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifndef WRITERS
#define WRITERS 8
#endif

#ifndef FIELDS
#define FIELDS 3
#endif

static atomic_uint seq;
static atomic_int field[FIELDS];
static atomic_int write_side;   /* the writers' lock: 1 = held */
static int id[WRITERS];

static void *writer(void *arg)
{
	int v = *(int *)arg;
	int free_ = 0;
	/* wait for an even sequence (no write in progress), then take the lock */
	while ((atomic_load(&seq) & 1) || !atomic_compare_exchange_strong(&write_side, &free_, 1)) {
#ifdef TRY_ONCE
		return NULL;    /* the crowd variant: a busy record skips this update */
#endif
		free_ = 0;
		sched_yield();
	}
	atomic_fetch_add(&seq, 1);      /* odd: a write in progress */
	for (int f = 0; f < FIELDS; f++)
		atomic_store(&field[f], v);
#ifdef HARD_TORN_RECORD_FIXED
	atomic_fetch_add(&seq, 1);
	atomic_store(&write_side, 0);
#else
	atomic_store(&write_side, 0);   /* bug: the next writer may start ... */
	atomic_fetch_add(&seq, 1);      /* ... before the sequence is even again */
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	unsigned s1 = atomic_load(&seq);
	if (s1 & 1)
		return NULL;            /* a write in progress: give up this snapshot */
	int x[FIELDS];
	for (int f = 0; f < FIELDS; f++)
		x[f] = atomic_load(&field[f]);
	if (atomic_load(&seq) == s1)    /* a consistent snapshot, the reader believes */
		for (int f = 1; f < FIELDS; f++)
			assert(x[f] == x[0]);
	return NULL;
}

int main(void)
{
	pthread_t w[WRITERS], r;
	for (int i = 0; i < WRITERS; i++) {
		id[i] = i + 1;
		pthread_create(&w[i], NULL, writer, &id[i]);
	}
	pthread_create(&r, NULL, reader, NULL);
	for (int i = 0; i < WRITERS; i++)
		pthread_join(w[i], NULL);
	pthread_join(r, NULL);
	return 0;
}
