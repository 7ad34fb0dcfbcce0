/*
 * tests/program_sites_tally.h - a user's header with a static inline helper
 * (tests/program_sites.c): its accesses are the user's code and stay
 * attributed to this header's line and the helper's name.
 */
#ifndef PROGRAM_SITES_TALLY_H
#define PROGRAM_SITES_TALLY_H

static inline void tally_add(int *slot, int n)
{
	*slot += n;   /* the helper's read and write */
}

#endif
