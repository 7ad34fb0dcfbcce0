/*
 * tests/program_sites.c - a C program whose racy access is in a static
 * inline helper of its own header (tests/program_sites_tally.h): the report
 * names the header's line and the helper (tests/program_sites.sh, issue 32),
 * since a header in the user's tree is the user's code, not a system one.
 *
 * The bug: two threads add to one plain int through the helper, unguarded: a
 * data race WEFT_RACES=warn names.  (The lost update it allows is out of
 * reach: the helper's accesses go through its argument, so the first thread's
 * are no steps until the second thread touches `total`, ARCHITECTURE.md
 * "Known limits".)
 * Built with weft's pass (weft_add_program ... INSTRUMENT).
 */
#include <pthread.h>

#include "program_sites_tally.h"

static int total;

static void *adder(void *arg)
{
	(void)arg;
	tally_add(&total, 1);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, adder, NULL);
	pthread_create(&b, NULL, adder, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

/*
 * A program, not a test: tests/program_sites.sh runs it and fails unless the race in the
 * user header's helper is reported at that header's line.
 */
