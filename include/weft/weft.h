/*
 * weft/weft.h - everything a fuzz target includes.
 *
 *   <weft/atomic.h>  switch points: instrumented atomics, weft_yield, atomic blocks
 *   <weft/target.h>  declaring operations, instance, validation: weft_target
 *   <weft/models.h>  the built-in models (queue, stack, ...) and short declarations
 * Tools that run targets also include <weft/run.h>.
 */
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include "weft/atomic.h"
#include "weft/target.h"
#include "weft/models.h"

#endif /* WEFT_WEFT_H */
