/*
 * runner/program_env.c - the outside world of a whole program during an
 * execution: exit and abort, sleeps, the logical clock, a quiet stdout
 * (the contract is in <weft/program.h>; <weft/dropin.h> renames the calls).
 *
 * Why here: these decide how an execution ends (exit's verdict is the
 * runner's, runner.c: SCHED_STOP_EXIT) and what a program may observe of time
 * and output, which must not depend on anything but the input.  Each function
 * is the real call when no managed thread calls it.
 *
 * Sleeping is a timed wait on a private semaphore that is never posted: the
 * thread leaves the runnable set, and the scheduler ends its wait only when no
 * other thread can run (scheduler/progress.c: a stall times out the lowest
 * timed waiter) or when the input's data choice says so.  That moment is when
 * time passes: the logical clock moves to the sleeper's deadline if it is not
 * past it already.  State: the clock and the semaphore, one process-wide copy
 * (one execution runs at a time per process), reset at every execution's start
 * by the program glue (weft_program_env_reset), which also puts libc's
 * pseudo-random generators (rand, random, drand48) back to a fresh process's
 * state: the program's globals are restored per execution, libc's are not.
 * Real entropy (getrandom, arc4random, /dev/urandom) is not caught.
 *
 * That reset is lazy when it can be (issue 33: seeding glibc's random() twice
 * per execution was a third of a small program's execution, which mostly never
 * draws).  The interposer (harness/program_interpose.c) defines every function
 * that reads or writes the generators' hidden state and calls
 * weft_program_rand_touch before forwarding; it says so at load
 * (weft_program_rand_lazy).  Then the reset marks the state stale and the
 * first such call in the execution, by anyone, reseeds first: every call sees
 * what the eager reset would have left, and an execution that never draws pays
 * nothing.  Without the interposer (a program built with <weft/dropin.h>
 * alone), the reset is eager, as before.
 */
#define _GNU_SOURCE
#include "weft/program.h"

#include <errno.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../scheduler/sched.h"

static unsigned long long logical_ns;    /* since WEFT_LOGICAL_EPOCH, this execution */
static sem_t never_posted;
static int sem_ready;

static void sleep_setup(void)
{
	if (!sem_ready)
		sem_ready = sem_init(&never_posted, 0, 0) == 0;
}

static bool rand_lazy;    /* the interposer catches the generators: reset at first use */
static bool rand_stale;   /* lazy, and this execution has not reset them yet */

/* libc's generators as a fresh process has them, so a draw depends on this
 * execution alone: rand() and random() as if srand(1) (C11 7.22.2.2; one state
 * in glibc, both set), drand48() and its family at their documented initial
 * state 0x1234ABCD330E, which srand48(0x1234ABCD) sets. */
static void reset_generators(void)
{
	srand(1);
	srandom(1);
	srand48(0x1234ABCD);
}

void weft_program_env_reset(void)
{
	logical_ns = 0;
	sleep_setup();
	if (__atomic_load_n(&rand_lazy, __ATOMIC_RELAXED))
		__atomic_store_n(&rand_stale, true, __ATOMIC_RELAXED);
	else
		reset_generators();
}

void weft_program_rand_lazy(void)
{
	__atomic_store_n(&rand_lazy, true, __ATOMIC_RELAXED);
}

void weft_program_rand_touch(void)
{
	/* cleared first: the reset's own srand() comes back here through the interposer */
	if (__atomic_load_n(&rand_stale, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&rand_stale, false, __ATOMIC_ACQ_REL))
		reset_generators();
}

void weft_exit(int status)
{
	weft_exit_as("exit", status);
}

/* The real call by its name (runner/exit_guard.c defines _exit, _Exit, quick_exit). */
static void exit_for_real(const char *call, int status)
{
	if (strcmp(call, "quick_exit") == 0)
		quick_exit(status);
	if (strcmp(call, "_exit") == 0 || strcmp(call, "_Exit") == 0)
		_exit(status);
	exit(status);
}

void weft_exit_as(const char *call, int status)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		exit_for_real(call, status);
	self->exec->exit_status = status;
	snprintf(self->exec->stop_message, sizeof self->exec->stop_message, "%s(%d)", call, status);
	sched_stop_execution(self, SCHED_STOP_EXIT);
}

void weft_abort(void)
{
	if (!weft_impl_current)
		abort();
	weft_fail("abort() called");
	abort();   /* not reached: weft_fail stops the execution */
}

int weft_sleep_ns_at(unsigned long long ns, weft_site *site)
{
	if (!weft_impl_current) {
		struct timespec t = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
		return nanosleep(&t, NULL);
	}
	sleep_setup();
	unsigned long long deadline = logical_ns + ns;
	int saved = errno;
	weft_sem_wait_at(&never_posted, 2, site);   /* returns when the wait times out */
	errno = saved;
	if (logical_ns < deadline)
		logical_ns = deadline;
	return 0;
}

/* ---- the logical clock ---- */

int weft_clock_gettime(clockid_t clock, struct timespec *now)
{
	if (!weft_impl_current)
		return clock_gettime(clock, now);
	now->tv_sec = (time_t)(WEFT_LOGICAL_EPOCH + logical_ns / 1000000000ull);
	now->tv_nsec = (long)(logical_ns % 1000000000ull);
	return 0;
}

time_t weft_time(time_t *now)
{
	if (!weft_impl_current)
		return time(now);
	time_t t = (time_t)(WEFT_LOGICAL_EPOCH + logical_ns / 1000000000ull);
	if (now)
		*now = t;
	return t;
}

int weft_gettimeofday(struct timeval *now, void *zone)
{
	if (!weft_impl_current)
		return gettimeofday(now, zone);
	now->tv_sec = (time_t)(WEFT_LOGICAL_EPOCH + logical_ns / 1000000000ull);
	now->tv_usec = (suseconds_t)(logical_ns % 1000000000ull / 1000);
	return 0;
}

/* ---- stdout ---- */

/* WEFT_PROGRAM_STDOUT=1: the program's output is wanted (read once). */
static int program_stdout_wanted(void)
{
	static int wanted = -1;
	if (wanted < 0) {
		const char *e = getenv("WEFT_PROGRAM_STDOUT");
		if (e && *e && strcmp(e, "0") != 0 && strcmp(e, "1") != 0) {
			fprintf(stderr, "weft: WEFT_PROGRAM_STDOUT=%s: use 1 (the program's stdout "
				"shown) or 0 (quiet, default)\n", e);
			weft_impl_current = NULL;   /* weft's exit, not the program's: the process ends */
			exit(2);
		}
		wanted = e && strcmp(e, "1") == 0;
	}
	return wanted;
}

FILE *weft_program_stdout(void)
{
	static FILE *null_stream;
	if (!weft_impl_current || program_stdout_wanted())
		return stdout;
	if (!null_stream)
		null_stream = fopen("/dev/null", "w");
	return null_stream ? null_stream : stdout;
}

int weft_program_puts(const char *s)
{
	FILE *out = weft_program_stdout();
	if (fputs(s, out) == EOF || fputc('\n', out) == EOF)
		return EOF;
	return 1;
}
