/*
 * tests/program_deaths.c - a whole program that ends its process in one of
 * the ways issue 29 lists, chosen by WEFT_TEST_DEATH (read by main); each is
 * a verdict with weft's report, never a bare death or a silent pass
 * (tests/program_deaths.sh):
 *   double_free  the worker frees the buffer main frees again after the join
 *                (an ownership slip): ASan says "attempting double-free", not
 *                "malloc_usable_size() for pointer which is not owned"
 *                (scheduler/access.c weft_impl_free), then weft's report;
 *   recursion    the worker recurses deeply (about 2 MB of frames): on the
 *                fiber backend it overflows its fiber stack, which weft's
 *                report names, with WEFT_BACKEND=pthread as the way out
 *                (runner/death.c);
 *   null_race    main clears a shared pointer that the worker checked and
 *                then uses (check-then-use): on the interleaving where main
 *                clears in between, the worker dereferences NULL, a SIGSEGV in
 *                program code (runner/death.c: the report, and in a fuzz build
 *                a crash file holding the bytes of that execution);
 *   kill         main sends SIGUSR1 to the worker with pthread_kill: weft's
 *                `misuse` verdict, where glibc used to segfault on weft's
 *                thread handle (scheduler/sync.c weft_thread_kill).
 * Built with weft's pass (INSTRUMENT), so plain accesses are switch points.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static char *buffer;
static int *volatile shared;
static int value = 7;

static __attribute__((noinline)) int depth(int n)
{
	volatile char frame[512];
	frame[0] = (char)n;
	if (n == 0)
		return frame[0];
	return depth(n - 1) + frame[0];
}

static void *worker(void *arg)
{
	const char *death = arg;
	if (strcmp(death, "double_free") == 0)
		free(buffer);
	else if (strcmp(death, "recursion") == 0)
		return (void *)(long)depth(4096);
	else if (strcmp(death, "null_race") == 0 && shared)
		return (void *)(long)*shared;
	return NULL;
}

int main(void)
{
	const char *death = getenv("WEFT_TEST_DEATH");
	if (!death)
		death = "";
	buffer = malloc(32);
	shared = &value;
	pthread_t t;
	pthread_create(&t, NULL, worker, (void *)death);
	if (strcmp(death, "null_race") == 0)
		shared = NULL;
	if (strcmp(death, "kill") == 0)
		pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	free(buffer);
	return 0;
}


/*
 * A program, not a test: tests/program_deaths.sh and tests/replay_deaths.sh runs it and
 * fails unless each way of dying gives its verdict and weft's report.
 */
