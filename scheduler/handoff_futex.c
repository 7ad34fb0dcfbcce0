/*
 * scheduler/handoff_futex.c - baton hand-off on Linux futexes.
 *
 * State machine of one baton word (owned by the thread that waits on it):
 *   IDLE      the owner does not hold the baton and is not asleep (running, or spinning)
 *   SLEEPING  the owner is (about to be) blocked in FUTEX_WAIT
 *   GO        someone passed the baton; the owner will reset it to IDLE
 * pass:  exchange(GO); if the old value was SLEEPING, FUTEX_WAKE.
 * wait:  spin a little watching for GO, then CAS IDLE->SLEEPING and FUTEX_WAIT.
 * A FUTEX_WAIT whose word is no longer SLEEPING returns at once (EAGAIN), so the
 * pass that races with falling asleep is never lost.
 *
 * No spin by default.  Measured on the 2-core development machine
 * (bench/README.md): with the controller and two workers on two CPUs, spinning
 * waiters take the CPU the baton holder needs, and a 2000-iteration spin made
 * libFuzzer runs slower (6k vs 9.5k executions/s); on one CPU any spin is a
 * disaster.  Workers are pinned to the controller's CPU instead (pool.c), where
 * a hand-off is a plain futex wake + wait.  WEFT_SPIN=<n> enables a spin for
 * machines where it pays (many idle CPUs).
 */
#define _GNU_SOURCE
#include "handoff.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { BATON_IDLE = 0, BATON_GO = 1, BATON_SLEEPING = 2 };

/* Spin iterations before sleeping; set once, before any worker exists. */
static _Atomic unsigned handoff_spin = 0;

static void futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_one(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

void sched_baton_pass(sched_baton *b)
{
	/* release: the next holder sees every scheduler write made before the pass */
	if (atomic_exchange_explicit(&b->state, BATON_GO, memory_order_acq_rel) == BATON_SLEEPING)
		futex_wake_one(&b->state);
}

static int spin_for_go(sched_baton *b)
{
	unsigned spin = atomic_load_explicit(&handoff_spin, memory_order_relaxed);
	for (unsigned i = 0; i < spin; i++) {
		/* acquire: pairs with the release in sched_baton_pass */
		if (atomic_load_explicit(&b->state, memory_order_acquire) == BATON_GO)
			return 1;
		cpu_relax();
	}
	return 0;
}

void sched_baton_wait(sched_baton *b)
{
	if (!spin_for_go(b)) {
		for (;;) {
			uint32_t seen = BATON_IDLE;
			if (atomic_compare_exchange_strong_explicit(&b->state, &seen, BATON_SLEEPING,
								    memory_order_acquire,
								    memory_order_acquire)) {
				futex_wait(&b->state, BATON_SLEEPING);
				continue;
			}
			if (seen == BATON_GO)
				break;
			futex_wait(&b->state, BATON_SLEEPING);  /* spurious return: sleep again */
		}
	}
	/* Only the owner writes IDLE, and nobody passes to it again before it hands off. */
	atomic_store_explicit(&b->state, BATON_IDLE, memory_order_relaxed);
}

static unsigned cpus_allowed(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

void sched_handoff_configure(void)
{
	const char *env = getenv("WEFT_SPIN");
	unsigned spin = 0;
	if (env && *env) {   /* a count of polls; anything else stops the process, like WEFT_BACKEND */
		char *end;
		errno = 0;
		unsigned long n = strtoul(env, &end, 10);
		if (errno || *end || *env == '-' || n > 1000000000ul) {
			fprintf(stderr, "weft: WEFT_SPIN=%s: use a number of polls, 0 to 1000000000\n", env);
			exit(2);
		}
		if (cpus_allowed() >= 2)
			spin = (unsigned)n;
	}
	atomic_store_explicit(&handoff_spin, spin, memory_order_relaxed);
}
