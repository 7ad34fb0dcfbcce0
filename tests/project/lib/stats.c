/* tests/project/lib/stats.c - the tally's check: the library's second file. */
#include "tally.h"

int tally_check(const struct tally *t, long count, long sum)
{
	return t->count == count && t->sum == sum;
}

/*
 * A program, not a test: tests/ecosystem/weft_cc.sh (the project's Makefile builds it)
 * runs it and fails unless the project builds and its bug is found.
 */
