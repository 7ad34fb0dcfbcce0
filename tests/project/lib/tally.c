/*
 * tests/project/lib/tally.c - the planted bug: tally_add updates a shared tally
 * with plain reads and writes, so two threads adding at once can lose one
 * update (read count, the other thread adds, write count + 1).  Only the
 * compiler pass makes those accesses switch points: by symbol alone the
 * threads run whole and the bug is out of reach.  -DTALLY_LOCKED is the fix.
 */
#include <pthread.h>

#include "tally.h"

#ifdef TALLY_LOCKED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif

void tally_init(struct tally *t)
{
	t->count = 0;
	t->sum = 0;
}

void tally_add(struct tally *t, long n)
{
#ifdef TALLY_LOCKED
	pthread_mutex_lock(&lock);
#endif
	long count = t->count;
	t->count = count + 1;
	t->sum += n;
#ifdef TALLY_LOCKED
	pthread_mutex_unlock(&lock);
#endif
}

/*
 * A program, not a test: tests/ecosystem/weft_cc.sh (the project's Makefile builds it)
 * runs it and fails unless the planted lost update is found and replayed at this file's
 * lines.
 */
