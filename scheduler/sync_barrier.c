/*
 * scheduler/sync_barrier.c - the rarer POSIX primitives a whole program may
 * use: barriers, spin locks and pthread_once (public side <weft/sync.h>).
 *
 * Why managed twins at all: a managed thread that calls the real one blocks
 * in the kernel (or spins in libc) while it holds the baton, so the thread
 * that would release it never runs - the run hangs instead of failing.  Each
 * twin follows sync.c's rules (sync_record.h): a switch point first, then the
 * execution's record of the object, never the real object.
 *
 *   - A barrier keeps its thread count (read once from the real object, which
 *     pthread_barrier_init filled: glibc's layout), how many arrived and who
 *     waits; the last to arrive releases the round and gets
 *     PTHREAD_BARRIER_SERIAL_THREAD.  Arrivals publish, departures acquire.
 *   - A spin lock is a lock record of its own kind: a thread that would spin
 *     blocks instead, which is equivalent for every interleaving (spinning
 *     changes nothing) and costs no steps.  Relocking it deadlocks, as it does.
 *   - pthread_once runs the routine on the first caller of the execution (the
 *     real once_control is never touched, so the next execution runs it
 *     again, as a fresh process would); later callers wait until it returned.
 */
#include "sync_record.h"

#include <errno.h>

#include "weft/sync.h"

/* ---- barriers ---- */

int64_t sched_sync_barrier_count(const void *barrier)
{
#ifdef __GLIBC__
	/* glibc's struct pthread_barrier: in, current_round, count, shared, out */
	return ((const unsigned *)barrier)[2];
#else
	(void)barrier;
	return 0;
#endif
}

int weft_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr, unsigned count)
{
	int rc = pthread_barrier_init(b, attr, count);
	sched_thread *self = weft_impl_current;
	if (self && rc == 0) {   /* a fresh round, even where an old barrier's record is */
		sched_sync *o = sched_sync_of(self, b, SCHED_SYNC_BARRIER, NULL);
		o->count = count;
		o->depth = 0;
		o->readers = 0;
	}
	return rc;
}

int weft_barrier_destroy(pthread_barrier_t *b)
{
	return pthread_barrier_destroy(b);
}

/* Outside an execution, in a sequential replay: only a barrier of one passes. */
static int barrier_replay(pthread_barrier_t *b)
{
	if (sched_sync_barrier_count(b) <= 1)
		return PTHREAD_BARRIER_SERIAL_THREAD;
	return sched_sync_replay_blocks(EAGAIN);
}

int weft_barrier_wait_at(pthread_barrier_t *b, weft_site *site)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		return sched_replay_jump ? barrier_replay(b) : pthread_barrier_wait(b);
	size_t ev = sched_sync_point(self, site, b);
	sched_sync *o = sched_sync_of(self, b, SCHED_SYNC_BARRIER, site);
	if (o->count < 1)
		sched_sync_misuse(self, "thread %u waits at barrier %u, which has no thread count "
				  "(not initialised by pthread_barrier_init)", self->id, o->number);
	sched_mem_sync(self);
	sched_race_release(self, &o->vc);
	bool last = ++o->depth >= o->count;
	sched_sync_event(self, ev, o, last);
	if (last) {
		o->depth = 0;
		o->readers = 0;
		sched_note_change(self);
		sched_sync_wake_all(self->exec, o, SCHED_WAIT_BARRIER);
	} else {
		o->readers |= sched_bit(self->id);
		while (sched_has(o->readers, self->id))
			sched_sync_wait(self, o, SCHED_WAIT_BARRIER, site, false);
	}
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	return last ? PTHREAD_BARRIER_SERIAL_THREAD : 0;
}

/* ---- spin locks ---- */

/* pthread_spinlock_t is a volatile int: the record is keyed by its address only. */
static const void *spin_key(pthread_spinlock_t *s)
{
	return (const void *)(uintptr_t)s;
}

int weft_spin_init(pthread_spinlock_t *s, int pshared)
{
	int rc = pthread_spin_init(s, pshared);
	sched_thread *self = weft_impl_current;
	if (self && rc == 0)   /* free, whatever the record said */
		sched_sync_of(self, spin_key(s), SCHED_SYNC_SPIN, NULL)->owner = 0;
	return rc;
}

int weft_spin_destroy(pthread_spinlock_t *s)
{
	return pthread_spin_destroy(s);
}

int weft_spin_lock_at(pthread_spinlock_t *s, int try_only, weft_site *site)
{
	sched_thread *self = weft_impl_current;
	if (!self && try_only)
		return pthread_spin_trylock(s);
	if (!self)
		return sched_replay_jump ? sched_sync_replay_blocks(pthread_spin_trylock(s))
					 : pthread_spin_lock(s);
	size_t ev = sched_sync_point(self, site, spin_key(s));
	sched_sync *o = sched_sync_of(self, spin_key(s), SCHED_SYNC_SPIN, site);
	bool free_now = o->owner == 0;
	sched_sync_event(self, ev, o, try_only ? free_now : 1);
	if (try_only && !free_now)
		return EBUSY;
	sched_sync_lock(self, o, site);
	return 0;
}

int weft_spin_unlock_at(pthread_spinlock_t *s, weft_site *site)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		return pthread_spin_unlock(s);
	size_t ev = sched_sync_point(self, site, spin_key(s));
	sched_sync *o = sched_sync_of(self, spin_key(s), SCHED_SYNC_SPIN, site);
	sched_sync_event(self, ev, o, 0);
	sched_sync_unlock(self, o);
	sched_sync_after_release(self);
	return 0;
}

/* ---- once ---- */

int weft_once_at(pthread_once_t *once, void (*routine)(void), weft_site *site)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		return pthread_once(once, routine);
	size_t ev = sched_sync_point(self, site, once);
	sched_sync *o = sched_sync_of(self, once, SCHED_SYNC_ONCE, site);
	bool run = o->owner == 0 && o->depth == 0;   /* depth 1: the routine returned */
	sched_sync_event(self, ev, o, run);
	if (run) {
		o->owner = (uint8_t)(self->id + 1);
		routine();
		o->owner = 0;
		o->depth = 1;
		sched_mem_sync(self);
		sched_race_release(self, &o->vc);
		sched_note_change(self);
		sched_sync_wake_all(self->exec, o, SCHED_WAIT_ONCE);
		return 0;
	}
	while (o->depth == 0)   /* another thread runs it (or this one, recursively: a deadlock) */
		sched_sync_wait(self, o, SCHED_WAIT_ONCE, site, false);
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	return 0;
}
