/*
 * runner/call_values.c - what the runner does to one call outside the managed
 * threads' loop: its drawn arguments made into values (weft/value.h), and a
 * call of a sequential part (input/scenario.h: Lincheck's init and post
 * parts) run on the controlling thread at given logical times.  Split from
 * runner.c, which owns the execution and its verdict.
 */
#include <string.h>

#include "runner_internal.h"
#include "../oracle/value_arena.h"

/* Whether any operation's argument is made from the drawn integer (weft/value.h). */
int runner_makes_args(const weft_target *t)
{
	for (unsigned i = 0; i < t->n_ops; i++)
		for (int a = 0; a < t->ops[i].n_args && a < WEFT_MAX_ARGS; a++)
			if (t->ops[i].arg_types[a] && t->ops[i].arg_types[a]->make)
				return 1;
	return 0;
}

/* A record's drawn arguments -> the values its run saw (weft/value.h; int64: unchanged). */
void runner_make_args(const weft_op *op, weft_op_record *rec)
{
	int64_t made[WEFT_MAX_ARGS];
	if (oracle_value_args(op, rec->args, made) == made)
		memcpy(rec->args, made, sizeof made);
}

/*
 * One sequential-part operation (Lincheck's init and post parts: input/scenario.h),
 * run on this, the controlling thread, outside the execution (its atomics are
 * plain ones), invoked at logical time `at`, returning at `at` + 1.
 */
void runner_run_part_call(const weft_target *t, void *instance, int makes_args,
			  weft_op_record *call, uint32_t at)
{
	const weft_op *op = &t->ops[call->op];
	if (makes_args)
		runner_make_args(op, call);
	call->invoked_at = at;
	call->result = op->run(instance, call->args);
	call->returned_at = at + 1;
	call->pending = 0;
}
