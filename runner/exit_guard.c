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
 * _exit(), _Exit() and quick_exit() bypass exit handlers (issue 29): they are
 * caught by symbol instead.  libweft is a static library, so its definitions
 * (hidden: never exported to shared libraries) bind every call the executable's
 * own code makes, target and program, C and C++, in place of libc's; on a
 * managed thread they end the execution as exit() does (weft_exit_as, the
 * call's name in the verdict), elsewhere they are the real calls (the
 * sanitizer's interceptor or the system call for _exit, libc's quick_exit by
 * dlsym).  A signal handler's _exit (libFuzzer's timeout and crash paths, weft's
 * own sinks) is the process's even while a fiber is current: a handler is
 * known by its blocked signal (in_signal_handler).
 *
 * Limits: exit() on a thread the target made itself is not caught; a
 * shared library's own _exit binds to libc's.  A program that blocks some of
 * SIGALRM, SIGINT, SIGTERM, SIGUSR1, SIGUSR2 (not all) or a synchronous
 * signal has its _exit taken as a handler's: the process ends.  Destructors
 * of the calling thread's C++ thread_locals have already run when the hook is
 * called (the C library runs them first).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "weft/program.h"

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

/* ---- _exit, _Exit, quick_exit: by symbol ---- */

/*
 * A signal handler (libFuzzer's timeout and crash handlers, the replay tool's
 * timeout, death.c's sink) may call _exit while a fiber is current: that exit
 * is the process's, never the execution's.  A handler runs with its signal
 * blocked (no handler here uses SA_NODEFER); a managed thread runs with none
 * of the synchronous signals blocked, and either all or none of the
 * asynchronous ones the pool blocks in its workers (scheduler/pool.c).
 */
static bool in_signal_handler(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
	static const int pool_blocked[] = { SIGALRM, SIGINT, SIGTERM, SIGUSR1, SIGUSR2 };
	sigset_t now;
	if (pthread_sigmask(SIG_BLOCK, NULL, &now) != 0)
		return true;
	for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++)
		if (sigismember(&now, faults[i]))
			return true;
	unsigned blocked = 0, n = sizeof pool_blocked / sizeof pool_blocked[0];
	for (unsigned i = 0; i < n; i++)
		blocked += sigismember(&now, pool_blocked[i]) == 1;
	return blocked != 0 && blocked != n;
}

static bool exit_is_executions(void)
{
	return weft_impl_current && !in_signal_handler();
}

/*
 * The real _exit: the sanitizer's interceptor if one is linked (ASan checks
 * leaks there), else the system call, as glibc's _exit makes it.
 */
extern void __interceptor__exit(int status) __attribute__((weak, noreturn));

static __attribute__((noreturn)) void real__exit(int status)
{
	if (__interceptor__exit)
		__interceptor__exit(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

static __attribute__((noreturn)) void real_quick_exit(int status)
{
	typedef void (*fn)(int) __attribute__((noreturn));
	fn real = (fn)dlsym(RTLD_NEXT, "quick_exit");
	if (real)
		real(status);
	real__exit(status);   /* the at_quick_exit handlers are lost, the status is not */
}

void _exit(int status)
{
	if (exit_is_executions())
		weft_exit_as("_exit", status);
	real__exit(status);
}

void _Exit(int status)
{
	if (exit_is_executions())
		weft_exit_as("_Exit", status);
	real__exit(status);
}

void quick_exit(int status)
{
	if (exit_is_executions())
		weft_exit_as("quick_exit", status);
	real_quick_exit(status);
}
