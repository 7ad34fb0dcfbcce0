/*
 * tests/program_ubsan.c - a concurrency bug whose consequence only UBSan sees
 * (issue 29; tests/program_ubsan.sh).
 *
 * A journal of two entries: main writes "started", then main and a worker each
 * append one more entry if there is room.  The append checks the count and
 * then reads it again to index the journal (check-then-act on a plain int).
 * Sequentially the second appender finds the journal full and drops its entry.
 * In the bad interleaving (the worker checks, count 1; main appends, count 2;
 * the worker reads the count again) the worker writes journal[2]: an index out
 * of the array's declared bounds, which -fsanitize=bounds (part of
 * -fsanitize=undefined) reports as "index 2 out of bounds for type 'int[2]'"
 * before the store happens.  With -fno-sanitize-recover (WEFT_SANITIZE=ON)
 * UBSan ends the process: weft's report of the interleaving must follow, and
 * the fuzz binary's crash file must replay to the same error.
 * Minimal failing interleaving: one preemption (the worker, between its check
 * and its index).  Built with weft's pass (INSTRUMENT).
 */
#include <pthread.h>

#define JOURNAL_SIZE 2

static int journal[JOURNAL_SIZE];
static int count;

static void append(int entry)
{
	if (count < JOURNAL_SIZE)
		journal[count++] = entry;   /* count read again: the index may be stale-checked */
}

static void *worker(void *arg)
{
	(void)arg;
	append(2);
	return NULL;
}

int main(void)
{
	append(1);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	append(3);
	pthread_join(t, NULL);
	return journal[0] == 1 ? 0 : 1;
}
