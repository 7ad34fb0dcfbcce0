/*
 * targets/tls_tally.c - an ordinary pthread program with thread-local storage:
 * weft must run it on real threads (issue 22: programs run on fibers by
 * default, and fibers share the controlling thread's thread-locals).
 * weft_add_program's launcher sees the object's .tbss and flags the target
 * (cmake/weft_program_cc.sh, harness/program_main.c).
 *
 * Program: two workers each count their own increments in a _Thread_local and
 * add each one to a shared total; each asserts its own count, main asserts the
 * total.  On fibers the two workers would share one thread-local, and any
 * schedule that interleaves their loops would fail the first assert.  Each
 * worker zeroes its count first: weft runs spawned threads on pooled workers,
 * so thread-locals, unlike globals, are not reset between executions (README).
 * Seeded bug (default build): the shared total is updated by a load and a
 * store (lost update).  Fixed build (-DWEFT_TLS_TALLY_FIXED): fetch_add.
 *
 * Known minimal failing interleaving: 1 preemption.  Worker 1 loads the total
 * (0) and is preempted before its store; worker 2 runs to its end (total 2);
 * worker 1 stores 1: main's assert on the total fails.  Oracle: assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define ROUNDS 2

static _Thread_local int mine;      /* this thread's increments */
static atomic_int total;

static void *worker(void *arg)
{
	(void)arg;
	mine = 0;
	for (int i = 0; i < ROUNDS; i++) {
		mine++;
#ifdef WEFT_TLS_TALLY_FIXED
		atomic_fetch_add(&total, 1);
#else
		int seen = atomic_load(&total);   /* bug: not one step with the store */
		atomic_store(&total, seen + 1);
#endif
	}
	assert(mine == ROUNDS);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(atomic_load(&total) == 2 * ROUNDS);
	return 0;
}
