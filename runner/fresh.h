/*
 * runner/fresh.h - run one input in a fresh process and hear its verdict.
 *
 * A verdict must not depend on the executions that ran before it in the same
 * process (issue 30).  Globals of the program and its constructors are reset
 * per execution, but state weft cannot see survives: heap a global owns, a
 * static inside a library built without weft's sections, a file descriptor,
 * the libc's internal state.  So a failure seen after earlier executions is
 * confirmed in a new process (runner.c, confirm_fresh): the executable itself,
 * /proc/self/exe, run on the input written to a temporary file.
 *
 * The protocol.  The child runs with WEFT_FRESH_FD=<fd> and WEFT_FRESH_CHECK=0
 * in its environment and its standard streams on /dev/null; its first
 * weft_runner_run answers on <fd> with one line "weft-fresh <verdict> <trace
 * hash in hex>" and then its report, and ends the child (_exit(0)).  Any
 * executable that runs a file given as its only argument through
 * weft_runner_run can be the child: NAME_fuzz under libFuzzer, NAME_replay.
 */
#ifndef WEFT_RUNNER_FRESH_H
#define WEFT_RUNNER_FRESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/run.h"

typedef struct runner_fresh_run {
	bool answered;         /* false: the child died or could not start (`why` says) */
	weft_verdict verdict;
	uint64_t trace_hash;
	char *report;          /* the child's report text (malloc'd), or NULL */
	char why[160];         /* when not answered: what happened */
} runner_fresh_run;

/*
 * In a child: the descriptor to answer on; else -1.  Read once per process,
 * and the variable removed, so that nothing the child starts answers too.
 */
int runner_fresh_child_fd(void);
/* WEFT_FRESH_CHECK: 0 turns the check off; unset, empty or 1 leave it on;
 * anything else stops the process (exit 2).  Read once per process. */
bool runner_fresh_allowed(void);
/*
 * Run `data` in a fresh process and wait for it; fills *out (free out->report).
 * Returns 0 when the child answered, -1 otherwise.  Cost: one process start
 * and one execution; called only for failures.
 */
int runner_fresh_run_input(const uint8_t *data, size_t size, runner_fresh_run *out);

#endif /* WEFT_RUNNER_FRESH_H */
