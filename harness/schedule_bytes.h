/*
 * harness/schedule_bytes.h - choices -> schedule: the fuzzer's bytes as a strategy.
 *
 * Read from the back of the input, one record per preemption:
 *   distance  LEB128 varint, low 7 bits first, high bit = more bytes follow.
 *             A first byte 0x00 means "no more preemptions in this execution".
 *             Otherwise: preempt at the distance-th switch point, counted from
 *             the previous preemption (or the start), among those where another
 *             thread could run (distance 0 via 0x80 0x00 counts as 1).
 *   thread    read when the preemption happens: which of the n other runnable
 *             threads runs, as choose(n) (no byte when n == 1).
 * So k preemptions at any depths cost about 2k bytes (3k past depth 127), and
 * zeroing or dropping a distance byte ends the schedule there: fewer preemptions.
 */
#ifndef WEFT_HARNESS_SCHEDULE_BYTES_H
#define WEFT_HARNESS_SCHEDULE_BYTES_H

#include "choice.h"
#include "../scheduler/strategy.h"

/* A strategy reading the back of `c` (c must outlive the execution). */
sched_strategy harness_schedule_bytes(harness_choices *c);

#endif /* WEFT_HARNESS_SCHEDULE_BYTES_H */
