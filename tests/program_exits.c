/*
 * tests/program_exits.c - a whole program whose worker thread ends the
 * process the ways that bypass exit handlers (tests/program_exits.sh; issue 29).
 *
 * WEFT_TEST_EXIT (read by the worker) names the call: "_exit", "_Exit",
 * "quick_exit" through the drop-in header's renames (the caller's site), or
 * "sym_exit", "sym_quick_exit" by symbol (the parenthesised name escapes the
 * function-like macro, as code built without the header calls it:
 * runner/exit_guard.c's definitions); WEFT_TEST_STATUS its status.  A program
 * is judged as its process would be: status 0 passes, any other is
 * `validation`.  Either way the execution ends, never the process: the replay
 * tool goes on and prints its summary, where it used to end in silence.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *worker(void *arg)
{
	(void)arg;
	const char *how = getenv("WEFT_TEST_EXIT");
	const char *s = getenv("WEFT_TEST_STATUS");
	int status = s ? atoi(s) : 0;
	if (!how)
		return NULL;
	if (strcmp(how, "_exit") == 0)
		_exit(status);
	if (strcmp(how, "_Exit") == 0)
		_Exit(status);
	if (strcmp(how, "quick_exit") == 0)
		quick_exit(status);
	if (strcmp(how, "sym_exit") == 0)
		(_exit)(status);
	if (strcmp(how, "sym_quick_exit") == 0)
		(quick_exit)(status);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}


/*
 * A program, not a test: tests/program_exits.sh runs it and fails unless each exit call
 * ends the execution with its verdict, never the process.
 */
