/*
 * bench/hard/torn_pair.c - many threads, one narrow window: a two-field record
 * published under a sequence counter that writers do not exclude each other
 * on (hard benchmark, issue 33; an ordinary pthread program, C11 atomics).
 *
 * Program: WRITERS threads each publish the pair (i, i) into `a` and `b`,
 * bracketed by two increments of `seq` (odd = a write in progress, as in a
 * seqlock); one reader takes a snapshot: it reads `seq`, and if even, `a` and
 * `b`, then `seq` again, and trusts the pair when both readings agree.
 * Seeded bug (default build): the writers do not serialise among themselves
 * (the lock that should guard the write side is missing), so two writers in
 * flight bring `seq` back to even: a reader that reads both `seq` values inside
 * that overlap trusts a torn pair.  Fixed build (-DHARD_TORN_RECORD_FIXED): a
 * mutex around the write side.
 *
 * Window: writer X's first increment, writer Y's first increment, one of them
 * storing `a` but not yet `b` (or both stores mixed), then all four reader loads,
 * before either writer's second increment: 2 preemptions of writers at chosen
 * steps and the reader's 4 steps packed in between, among 9 threads whose
 * other steps all close the window.  Why hard: a uniform choice of the next
 * thread almost never keeps two writers parked mid-write while the reader runs
 * four steps in a row; PCT needs the reader's priority between the writers' and
 * two change points at exact steps.  Oracle: the reader's assert().
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifndef WRITERS
#define WRITERS 8
#endif

static atomic_uint seq;
#ifndef FIELDS
#define FIELDS 3
#endif

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
