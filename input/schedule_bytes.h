/*
 * input/schedule_bytes.h - the schedule decoded from the fuzzer's bytes, as a strategy.
 *
 * The preemptions come from the scenario's plan (scenario.h: each operation's
 * control bytes say at which of its steps it is preempted and to whom), decoded
 * before the execution; a data choice (strategy.h `choose`) reads the back of
 * the input.  Steps of a call are answered from its plan in order.
 */
#ifndef WEFT_INPUT_SCHEDULE_BYTES_H
#define WEFT_INPUT_SCHEDULE_BYTES_H

#include "choice.h"
#include "scenario.h"
#include "../scheduler/strategy.h"

typedef struct input_plan_reader {
	const input_scenario *scenario;
	input_choices *choices;   /* for choose() */
	unsigned n_slots;           /* thread numbers a `to` byte ranges over (modulo) */
} input_plan_reader;

/* A strategy reading `p` (which, with its scenario and choices, must outlive the execution). */
sched_strategy input_schedule_bytes(input_plan_reader *p);

#endif /* WEFT_INPUT_SCHEDULE_BYTES_H */
