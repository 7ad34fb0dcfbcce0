/*
 * oracle/value_arena.h - the value arena behind weft/value.h: interned
 * (length, bytes) slots, one per process, emptied per execution.  Internal:
 * the runner empties it, everything else goes through weft/value.h.
 */
#ifndef WEFT_ORACLE_VALUE_ARENA_H
#define WEFT_ORACLE_VALUE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "weft/target.h"

/* Forget every value (handles made before are no longer valid); O(1) when none was made. */
void oracle_value_reset(void);
/* How many distinct values the arena holds (tests). */
size_t oracle_value_count(void);

/*
 * The values `op` runs with, from the integers the input drew (`drawn`): a
 * typed argument's make() applied, the others copied.  Returns `drawn` itself
 * when no argument of `op` is made (the int64 case copies nothing), else `out`.
 */
const int64_t *oracle_value_args(const weft_op *op, const int64_t *drawn, int64_t *out);
/*
 * Argument `a` of `op` as text: `v` is a value, or (drawn != 0) the integer
 * drawn for it, made first.  Returns the length wanted, like snprintf.
 */
size_t oracle_value_format_arg(const weft_op *op, int a, int64_t v, int drawn, char *buf,
			       size_t cap);

#endif
