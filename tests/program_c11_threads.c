/*
 * tests/program_c11_threads.c - C11's <threads.h>, caught by symbol
 * (harness/program_interpose.c).  glibc builds thrd_create, mtx_lock and
 * the rest on its internal pthread functions, so before they were caught a
 * thrd_create made a real thread outside every execution: no interleaving
 * of the workers was ever explored (a false "all fine").
 *
 * Program: two workers (thrd_create, each returning its argument) run
 * call_once, sleep 5 s (thrd_sleep: logical time), then add 1 to a shared
 * count under a mtx_t (mtx_timedlock, falling back to mtx_lock) with a
 * thrd_yield inside the section, and signal a cnd_t; main waits on the
 * condition until both are done, joins both (thrd_join's results), and
 * checks the count, the results and that the once routine ran once.
 * Seeded bug (-DWEFT_C11_THREADS_BUGGY): the section takes no lock, so a
 * switch at the yield loses an update.
 */
#include <assert.h>
#include <threads.h>
#include <time.h>

static mtx_t lock;
static cnd_t done;
static once_flag once = ONCE_FLAG_INIT;
static int count, finished, inits;

static void init(void)
{
	inits++;
}

static int worker(void *arg)
{
	call_once(&once, init);
	thrd_sleep(&(struct timespec){ .tv_sec = 5 }, NULL);
#ifndef WEFT_C11_THREADS_BUGGY
	struct timespec deadline;
	timespec_get(&deadline, TIME_UTC);
	deadline.tv_sec += 1;
	if (mtx_timedlock(&lock, &deadline) != thrd_success)
		mtx_lock(&lock);
#endif
	int seen = count;
	thrd_yield();
	count = seen + 1;
#ifndef WEFT_C11_THREADS_BUGGY
	mtx_unlock(&lock);
#endif
	mtx_lock(&lock);
	finished++;
	cnd_signal(&done);
	mtx_unlock(&lock);
	return (int)(long)arg;
}

int main(void)
{
	mtx_init(&lock, mtx_timed);
	cnd_init(&done);
	thrd_t t[2];
	for (long i = 0; i < 2; i++)
		assert(thrd_create(&t[i], worker, (void *)(i + 5)) == thrd_success);
	mtx_lock(&lock);
	while (finished < 2)
		cnd_wait(&done, &lock);
	mtx_unlock(&lock);
	int r0 = 0, r1 = 0;
	assert(thrd_join(t[0], &r0) == thrd_success && thrd_join(t[1], &r1) == thrd_success);
	assert(r0 == 5 && r1 == 6 && inits == 1);
	assert(count == 2);
	return 0;
}
/* Checked by tests/program_sem.sh. */
