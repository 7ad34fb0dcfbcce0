/*
 * mutate/focus.c - the frontier of a climb (design in focus.h).
 */
#include "focus.h"

#include <string.h>

void mutate_focus_written(mutate_focus *f, const uint8_t *bytes, size_t n)
{
	f->last_size = n <= sizeof f->last ? n : 0;
	memcpy(f->last, bytes, f->last_size);
}

int mutate_focus_promote(mutate_focus *f)
{
	if (f->last_size == 0)
		return 0;
	memcpy(f->bytes, f->last, f->last_size);
	f->size = f->last_size;
	f->last_size = 0;   /* promoted once */
	return 1;
}

int mutate_focus_instead(const mutate_focus *f, search_rng *rng, size_t max_size)
{
	return f->size != 0 && f->size <= max_size &&
	       search_rng_below(rng, 100) < MUTATE_FOCUS_PERCENT;
}
