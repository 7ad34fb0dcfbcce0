/*
 * scheduler/handoff.h - the baton: how one managed thread gives the CPU to another.
 *
 * Design.  Exactly one thread (a managed worker or the controlling thread) holds
 * the baton at any moment.  Handing off is pass(next) then wait(self): each
 * thread sleeps on its own word, so a wake-up is never lost and never wakes the
 * wrong thread.  pass() publishes everything the passer wrote (release) to the
 * waiter (acquire): scheduler state needs no other lock, because only the baton
 * holder touches it.
 *
 * One backend, handoff_futex.c: Linux futexes with an optional bounded spin
 * before sleeping.  Spinning only pays when the passer and the waiter are on
 * different CPUs; when the process may use a single CPU (afl-fuzz pins its
 * target) a spinning waiter would keep the CPU from the very thread it waits
 * for.  It is off unless asked for.  See sched_handoff_configure().
 *
 * Neither function is instrumented for coverage (libweft is built without
 * -fsanitize=fuzzer): spin counts vary run to run and must not read as features.
 */
#ifndef WEFT_SCHED_HANDOFF_H
#define WEFT_SCHED_HANDOFF_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct sched_baton {
	_Atomic uint32_t state;   /* BATON_IDLE, BATON_GO or BATON_SLEEPING */
} sched_baton;

/* Give the baton to the owner of `b` (wakes it if it sleeps). */
void sched_baton_pass(sched_baton *b);
/* Block until someone passes this thread's baton `b`. */
void sched_baton_wait(sched_baton *b);
/*
 * Choose the spin length once per process: WEFT_SPIN=<n> from the environment
 * when the affinity mask has two or more CPUs, else 0 (see handoff_futex.c).
 */
void sched_handoff_configure(void);

#endif /* WEFT_SCHED_HANDOFF_H */
