/*
 * tests/project/main.c - the program: two workers (workers.cpp, std::thread)
 * each add one to a global tally (lib/), and main checks that both counted.
 */
#include <assert.h>

#include "lib/tally.h"

void run_workers(struct tally *t, int workers, long each);

static struct tally total;

int main(void)
{
	tally_init(&total);
	run_workers(&total, 2, 5);
	assert(tally_check(&total, 2, 10));
	return 0;
}
