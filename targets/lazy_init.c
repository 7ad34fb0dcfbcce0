/*
 * targets/lazy_init.c - an ordinary pthread program that never resets its
 * globals: weft must give every execution the globals a fresh process has
 * (issue 22; harness/program_main.c restores them before each execution).
 *
 * Program: two workers each make sure a lookup table is built (lazily, on
 * first use), then add one of its entries to a total; main joins them and
 * asserts the table was built once and the total is right.  Every piece of
 * state is a global or a static with an initial value, and main sets none of
 * them: a second execution that saw the first one's `ready`, `builds` or
 * `total` would behave differently (no build at all, builds == 2, ...).
 * Seeded bug (default build): the "is it built?" check and the build are not
 * one critical section (check-then-act), so both workers can build it.
 * Fixed build (-DWEFT_LAZY_INIT_FIXED): check and build under the lock.
 *
 * Known minimal failing interleaving: 1 preemption.  Main spawns both workers
 * and joins the first; worker 1 sees `ready` 0 and is preempted before it
 * locks; worker 2 builds the table and sets `ready`; worker 1 builds it again:
 * builds == 2, main's assert fails.  Oracle: the program's own assert().
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int ready;            /* the table is built */
static int builds;                  /* guarded by lock */
static int table[4];
static int *entries = table;        /* a pointer initialised at load time */
static atomic_int total;

static void build_table(void)
{
	builds++;
	for (int i = 0; i < 4; i++)
		entries[i] = 10 * (i + 1);
}

static void ensure_table(void)
{
#ifdef WEFT_LAZY_INIT_FIXED
	pthread_mutex_lock(&lock);
	if (!atomic_load(&ready)) {
		build_table();
		atomic_store(&ready, 1);
	}
	pthread_mutex_unlock(&lock);
#else
	if (!atomic_load(&ready)) {   /* bug: another worker may build it meanwhile */
		pthread_mutex_lock(&lock);
		build_table();
		pthread_mutex_unlock(&lock);
		atomic_store(&ready, 1);
	}
#endif
}

static void *worker(void *arg)
{
	static int calls;           /* a function-local static: reset too */
	int index = *(const int *)arg;
	calls++;
	ensure_table();
	atomic_fetch_add(&total, entries[index]);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int first = 0, second = 3;
	pthread_create(&a, NULL, worker, &first);
	pthread_create(&b, NULL, worker, &second);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(builds == 1);
	assert(atomic_load(&total) == 50);
	return 0;
}
