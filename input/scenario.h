/*
 * input/scenario.h - choices -> scenario and schedule: who runs what, and
 * where each thread is preempted.
 *
 * Decoded from the front of the input, thread after thread (each a choice, see
 * choice.h):
 *   for each thread t, operations one after another:
 *     kind    choose(n)                     n: ops without WEFT_OP_FINAL_ONLY (no byte when 1);
 *                                           an op of a group another thread owns becomes
 *                                           the next op this thread may run (target.h);
 *                                           none at all ends the thread's list
 *     args    min + choose(max - min + 1)   (each argument, no byte when min == max)
 *     control bytes, until one of 0x00, 0x01, 0x02:
 *       0x00    this thread's list ends here, and so do the threads (once there
 *               are min_threads of them)
 *       0x01    the thread's next operation follows (the list ends anyway at
 *               max_ops_per_thread)
 *       0x02    this thread's list ends here, another thread follows (up to
 *               max_threads)
 *       other   a preemption of this operation: a LEB128 number v (7 bits per byte,
 *               low first, high bit = more) puts it at step max(v - 2, 1) of the
 *               operation (step 1 = its start, then each switch point of this
 *               thread in it); then one byte: the thread to switch to, modulo the
 *               thread count (strategy.h).  A step not after the operation's
 *               previous preemption, or past the step budget, is ignored.
 * A program target (WEFT_PROGRAM_TARGET) has one operation per thread and no
 * kind byte: thread 0's is main(), thread t's is the body of the t-th thread
 * main spawns, so its control bytes are that thread's preemptions.
 * Then, optionally, the sequential parts (Lincheck's init and post parts, run
 * on the controlling thread before and after the parallel part), only when
 * the next front byte is INPUT_PARTS_MARKER ('S'); any other byte, or none,
 * means no parts and is left unread (the input means what it meant before):
 *     'S'  n_init  n_post          each count modulo INPUT_MAX_PART_OPS + 1
 *     n_init operations, then n_post: each its kind and args as above
 *                                  (no control bytes; groups do not apply)
 * Not for program targets.  docs/input-format.md has a worked example.
 * All zeros: min_threads threads, one operation each, operation 0, minimal
 * arguments, no preemption.  Every operation, thread and preemption costs at
 * least one byte and owns its bytes, and none is counted from the start of the
 * input or of the execution, so erasing bytes (all the fuzzers' minimizers do)
 * removes them without moving the others.
 */
#ifndef WEFT_INPUT_SCENARIO_H
#define WEFT_INPUT_SCENARIO_H

#include "choice.h"
#include "weft/target.h"

#define INPUT_DEFAULT_MIN_THREADS 2
#define INPUT_DEFAULT_MAX_THREADS 3
#define INPUT_DEFAULT_MAX_OPS 3
#define INPUT_DEFAULT_STEP_BUDGET 10000
#define INPUT_MAX_STEP_BUDGET (1u << 20)   /* so a planned step fits 3 LEB128 bytes */
#define INPUT_MAX_CALLS (WEFT_MAX_THREADS * WEFT_MAX_OPS)
/* Threads a scenario can list: a program's every managed thread (one call each). */
#define INPUT_MAX_THREADS WEFT_MAX_PROGRAM_THREADS
_Static_assert(INPUT_MAX_CALLS >= INPUT_MAX_THREADS, "a program's threads have a call each");
#define INPUT_MAX_PREEMPTIONS 512   /* records past this are read and ignored */
#define INPUT_NO_CALL UINT32_MAX     /* a spawned thread the input gave no schedule */
#define INPUT_PARTS_MARKER 0x53      /* 'S': sequential parts follow the threads */
#define INPUT_MAX_PART_OPS WEFT_MAX_OPS   /* operations in the init part, and in the post part */

/* Bounds of a target with its defaults filled in and its limits clamped. */
typedef struct input_bounds {
	unsigned min_threads, max_threads, max_ops;
	unsigned step_budget;
	int program;                                 /* WEFT_TARGET_PROGRAM: thread 0 runs
							main, thread t > 0 is the t-th spawned */
	unsigned n_thread_ops;                       /* operations a thread may be given */
	unsigned thread_ops[WEFT_MAX_TARGET_OPS];    /* their indices in target->ops */
} input_bounds;

/* The control bytes that end an operation's record (format above). */
enum input_control {
	INPUT_CONTROL_END_THREADS,   /* 0x00 */
	INPUT_CONTROL_NEXT_OP,       /* 0x01 */
	INPUT_CONTROL_NEXT_THREAD,   /* 0x02; a preemption's LEB128 number starts above it */
};

#define INPUT_MAX_DATA 256   /* run-time data choices a scenario carries for the encoder */

/*
 * A run-time data choice (scheduler/strategy.h `choose`: which store a load
 * reads, whether a timed wait times out), in [0, bound).  Not decoded: the
 * back reader answers them while the input runs; a scenario carries them only
 * to be written back (input_scenario_encode), from the execution's log.
 */
typedef struct input_data {
	uint64_t bound, value;
} input_data;

/* One planned preemption: at `step` of its call, switch to (about) `to`. */
typedef struct input_preemption {
	uint64_t step;
	uint8_t to;
} input_preemption;

typedef struct input_scenario {
	unsigned n_threads;
	unsigned n_calls;
	unsigned first_call[INPUT_MAX_THREADS + 1];  /* thread t runs calls [first_call[t], first_call[t+1]) */
	weft_op_record calls[INPUT_MAX_CALLS];    /* thread, op and args filled; results after the run */
	/* call c's preemptions are plan[first_plan[c] .. first_plan[c+1]), steps increasing */
	unsigned first_plan[INPUT_MAX_CALLS + 1];
	unsigned n_plan;
	input_preemption plan[INPUT_MAX_PREEMPTIONS];
	/* the sequential parts: thread = n_threads, args drawn; results after the run */
	unsigned n_init, n_post;
	weft_op_record init[INPUT_MAX_PART_OPS], post[INPUT_MAX_PART_OPS];
	/* run-time data choices in the order they are asked (0 after the last);
	   the decoder leaves none, the encoder writes them at the back */
	unsigned n_data;
	input_data data[INPUT_MAX_DATA];
} input_scenario;

input_bounds input_bounds_of(const weft_target *target);
/*
 * The first_call entries a copy, a clear and explore's same_scenario touch:
 * the first WEFT_MAX_THREADS + 1 always (a draw may leave entries past
 * n_threads + 1 there, and same_scenario has always compared them: 68 bytes),
 * a program's up to n_threads + 1 (up to 129; only read by the counts).
 */
static inline unsigned input_scenario_first_call_span(const input_scenario *s)
{
	return (s->n_threads > WEFT_MAX_THREADS ? s->n_threads : WEFT_MAX_THREADS) + 1;
}
/*
 * *dst = *src, but only the parts `src` uses (its counts say which): a
 * scenario is ~22 KB of capacity and a few hundred bytes of content, and the
 * runner takes one per execution.  What lies past the counts in `dst` is left
 * as it was; nothing reads it (every reader goes by the counts); first_call
 * by its span (input_scenario_first_call_span).
 */
void input_scenario_copy(input_scenario *dst, const input_scenario *src);
/* An empty scenario (no threads, calls, plan, parts or data; first_call 0 over its span), cleared by its counts. */
void input_scenario_clear(input_scenario *s);
/*
 * List a program's threads up to `thread` (a program's thread k > 0 is one
 * call of operation 1, the spawned thread's body, whose control bytes are its
 * preemptions).  A thread the scenario does not list has no schedule
 * (INPUT_NO_CALL): the writers of a program's input (search_dfs_plan,
 * harness/death_record.c) list every thread that switched, or its preemptions
 * would be dropped and the input replay another interleaving.
 */
void input_scenario_list_program_threads(input_scenario *s, unsigned thread);
void input_scenario_decode(input_scenario *s, const weft_target *target,
			     const input_bounds *b, input_choices *c);
/*
 * The shortest bytes that decode to `s` (input/encode.c): returns their
 * length (0 for the simplest scenario: the empty input), or
 * INPUT_ENCODE_FAILED if `s` cannot be written (e.g. it exceeds `cap`).
 */
#define INPUT_ENCODE_FAILED ((size_t)-1)
size_t input_scenario_encode(const input_scenario *s, const weft_target *target,
			       const input_bounds *b, uint8_t *out, size_t cap);
/*
 * 1 when every non-parallel group (weft_op.group) of `s` is used by one
 * thread only, as the decoder admits it; the encoder refuses a scenario
 * without this (its bytes would decode to other operations).
 */
int input_scenario_groups_admissible(const input_scenario *s, const weft_target *t);

#endif /* WEFT_INPUT_SCENARIO_H */
