/*
 * harness/schedule_bytes.c - the fuzzer-bytes strategy (format in schedule_bytes.h).
 *
 * Why distances and not one byte per switch point: with a flat encoding a
 * preemption at depth 300 costs 300 bytes the fuzzer must keep exactly right;
 * here it costs 2.  Why 0 = stop: overwriting with zeros (what minimizers do)
 * then removes preemptions instead of adding them.
 */
#include "schedule_bytes.h"

#define VARINT_MAX_BYTES 4   /* distances up to 2^28: far past any step budget */

static uint64_t bytes_steps_to_preemption(void *self)
{
	harness_choices *c = self;
	uint8_t b = harness_take_back(c);
	if (b == 0)
		return 0;
	uint64_t distance = b & 0x7f;
	for (unsigned i = 1; (b & 0x80) && i < VARINT_MAX_BYTES; i++) {
		b = harness_take_back(c);
		distance |= (uint64_t)(b & 0x7f) << (7 * i);
	}
	return distance ? distance : 1;
}

static unsigned bytes_pick(void *self, unsigned n_candidates)
{
	return (unsigned)harness_choose_back(self, n_candidates);
}

static uint64_t bytes_choose(void *self, uint64_t bound)
{
	return harness_choose_back(self, bound);
}

sched_strategy harness_schedule_bytes(harness_choices *c)
{
	sched_strategy s = {
		.self = c,
		.steps_to_preemption = bytes_steps_to_preemption,
		.pick = bytes_pick,
		.choose = bytes_choose,
	};
	return s;
}
