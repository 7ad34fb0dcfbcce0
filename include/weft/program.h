/*
 * weft/program.h - what a whole program sees of the outside world while weft
 * runs it (issue 22): exit() and abort() end the execution, not the process;
 * sleeps do not sleep; clocks read a logical clock; stdout is quiet.
 *
 * <weft/dropin.h> renames the C and POSIX calls to these, so an unmodified
 * program needs nothing else.  Every function behaves exactly like the call it
 * replaces when it is not called from a managed thread (outside an execution),
 * so the program still runs as an ordinary process.  Inside an execution:
 *
 *   weft_exit(s)       ends the execution, never the process: the verdict is
 *                      pass for status 0 (the process would have succeeded),
 *                      else `validation` ("thread T called exit(S)").  The
 *                      program's other threads stop where they are.
 *   weft_exit_as(call, s)
 *                      the same for _exit, _Exit and quick_exit (their names in
 *                      the verdict): never a silent end of the process.
 *   weft_abort()       ends the execution with verdict `assertion`.
 *   weft_sleep, weft_usleep, weft_nanosleep (macros: the caller's site)
 *                      the thread waits (a switch point shown as a semaphore
 *                      wait on weft's own object), without real time passing, until no
 *                      other thread can run (a timed wait nobody ends: the
 *                      logical clock then moves on by the time asked) or until
 *                      the input says the sleep is over (a data choice).
 *   weft_clock_gettime, weft_time, weft_gettimeofday
 *                      the logical clock: it starts at WEFT_LOGICAL_EPOCH seconds
 *                      at every execution, every clock id reads it, and it moves
 *                      only when sleeps end, so readings are the same in every
 *                      run of the same input.
 *   weft_program_stdout()
 *                      the stream standing for stdout: a null stream during
 *                      executions unless WEFT_PROGRAM_STDOUT=1 (read once), so a
 *                      program's printf cannot flood or split the fuzzer's log.
 *
 * Who may call: anyone.  Cost: a thread-local test outside an execution.
 */
#ifndef WEFT_PROGRAM_H
#define WEFT_PROGRAM_H

#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "weft/export.h"
#include "weft/sync.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_LOGICAL_EPOCH 1000000000   /* 2001-09-09, the same for every clock id */

WEFT_API void weft_exit(int status) __attribute__((noreturn));
/* weft_exit for `call` ("_exit", "_Exit", "quick_exit"): its name in the verdict. */
WEFT_API void weft_exit_as(const char *call, int status) __attribute__((noreturn));
WEFT_API void weft_abort(void) __attribute__((noreturn));
/* A sleep of `ns` nanoseconds at the caller's site (the macros below pass it). */
WEFT_API int weft_sleep_ns_at(unsigned long long ns, weft_site *site);
#define WEFT_SLEEP_SITE WEFT_SYNC_SITE(WEFT_ACCESS_SEM_WAIT)
#define weft_sleep(s) ((unsigned)weft_sleep_ns_at(1000000000ull * (s), WEFT_SLEEP_SITE))
#define weft_usleep(us) weft_sleep_ns_at(1000ull * (us), WEFT_SLEEP_SITE)
#define weft_nanosleep(req, rem) \
	((void)(rem), weft_sleep_ns_at(1000000000ull * (unsigned long long)(req)->tv_sec + \
				       (unsigned long long)(req)->tv_nsec, WEFT_SLEEP_SITE))
WEFT_API int weft_clock_gettime(clockid_t clock, struct timespec *now);
WEFT_API time_t weft_time(time_t *now);
WEFT_API int weft_gettimeofday(struct timeval *now, void *zone);
WEFT_API FILE *weft_program_stdout(void);
WEFT_API int weft_program_puts(const char *s);
/* The glue (harness/program_main.c) at the start of every execution: clock to the epoch,
 * rand()/random()/drand48() to a fresh process's state (at once, or at their first
 * call in the execution once weft_program_rand_lazy was called). */
WEFT_API void weft_program_env_reset(void);
/* The interposer (harness/program_interpose.c), which catches every call of libc's
 * generators, at load: reset them at their first call, not at every execution's start. */
WEFT_API void weft_program_rand_lazy(void);
/* The interposer, before it forwards a call of rand & co.: the reset, if one is due. */
WEFT_API void weft_program_rand_touch(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_PROGRAM_H */
