/*
 * tests/program_drift.c - a correct program whose verdict the executions before
 * it decide: a library it links keeps a counter weft cannot reset
 * (tests/program_fresh.sh; runner/fresh.h).
 *
 * Each run takes a session number from the library (tests/program_drift_lib.c:
 * a static counter, as a library keeps its handles; built as a plain static
 * library, without weft's sections, so the per-execution restore of the
 * program's globals never sees it) and files its two workers' results in a
 * table of 64 sessions.  In a fresh process the number is 0 and the program
 * passes on every input; in one process that already ran 64 executions it is
 * 64 and the assertion fails.  The fuzz binary and a batch replay must say
 * `nondeterministic` ("fails only after N earlier executions"), not file an
 * assertion failure whose crash file passes when replayed alone.
 *
 * With WEFT_DRIFT_PASSES (program_drift_passes) nothing fails: the table is
 * used round robin, and from session 100 on main yields once more before it
 * starts its workers, so the same input runs differently late in a process:
 * the runner's drift probe must warn (runner.c, probe_drift).
 *
 * A program, not a test: tests/program_fresh.sh runs it.
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>

#define SESSIONS 64

int drift_session_open(void);   /* tests/program_drift_lib.c */

static int done[SESSIONS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	int session = *(int *)arg;
	pthread_mutex_lock(&lock);
	done[session]++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	int session = drift_session_open();
#ifdef WEFT_DRIFT_PASSES
	if (session >= 100)
		sched_yield();
	session %= SESSIONS;
#endif
	assert(session < SESSIONS && "the session table has 64 slots");
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &session);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(done[session] == 2);
	return 0;
}
