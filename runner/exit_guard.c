/*
 * runner/exit_guard.c - exit() called inside an execution ends that
 * execution, never the process (issue 20: no verdict decided by a target's
 * side effects).
 *
 * Why: a data-structure target's operation (or any code it calls, in any
 * translation unit, C or C++) that calls exit(0) used to end the replay tool,
 * --systematic and --explore with status 0, which reads as "all fine", and
 * exit(3) read as "--max-executions reached".  Programs built with the drop-in
 * header reach weft_exit by a macro (program_env.c); this guard catches every
 * other exit() by the C library's own hook, so no source needs a rename.
 *
 * How: once per process, on_exit() registers exit_hook.  glibc runs exit
 * handlers in reverse order of registration, and the guard registers at the
 * first runner's creation, after libFuzzer's and the sanitizers' own handlers,
 * so it runs first.  When the thread calling exit() is a managed thread of a
 * running execution (weft_impl_current), the hook registers itself again (the
 * C library has just consumed the entry) and stops the execution with
 * SCHED_STOP_EXIT: sched_stop_execution longjmps to the thread's unwind point,
 * so exit() never returns to the C library, which released its handler lock
 * before calling us.  The runner judges the stop (runner.c judge_stop): for a
 * program, exit(0) is success as the process would report it; for an operation
 * of a data-structure target, any exit is a failure.  On any other thread the
 * hook returns and the process exits as asked.
 *
 * Limits: _exit(), _Exit() and quick_exit() bypass exit handlers and still end
 * the process; exit() on a thread the target made itself is not caught.
 * Destructors of the calling thread's C++ thread_locals have already run when
 * the hook is called (the C library runs them first).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../scheduler/sched.h"
#include "runner_internal.h"

static void exit_hook(int status, void *unused);

static void exit_hook_register(void)
{
	if (on_exit(exit_hook, NULL) != 0)
		fprintf(stderr, "==weft== warning: on_exit failed: an exit() inside an execution "
				"will end the process\n");
}

static void exit_hook(int status, void *unused)
{
	(void)unused;
	sched_thread *self = weft_impl_current;
	if (!self)
		return;
	exit_hook_register();
	self->exec->exit_status = status;
	snprintf(self->exec->stop_message, sizeof self->exec->stop_message, "exit(%d)", status);
	sched_stop_execution(self, SCHED_STOP_EXIT);
}

void runner_exit_guard_install(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, exit_hook_register);
}
