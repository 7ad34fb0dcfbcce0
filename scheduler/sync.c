/*
 * scheduler/sync.c - managed mutexes, condition variables, rwlocks, semaphores,
 * thread creation and join (the public side is <weft/sync.h>).
 *
 * Each call is a switch point first (so the schedule may run another thread
 * just before it), then acts on the execution's record of the object
 * (sched_sync in sched.h), never on the real object: the baton already makes
 * the thread alone, and the record dies with the execution.  A thread that
 * must wait records what for (thread.wait) and blocks (exec.c: another thread
 * runs); whoever releases the object makes its waiters runnable again and they
 * retry, so which waiter wins is decided by the schedule, like everything else.
 *
 * Misuse (unlocking a lock not held, waiting without the mutex) stops the
 * execution with a message instead of corrupting the record.
 */
#include "sync_record.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/sync.h"

/* Managed pthread_t values: recognisable, and the same in every run. */
#define HANDLE_BASE ((uint64_t)0x7765667400000000ull)   /* "weft" */

_Thread_local jmp_buf *sched_replay_jump;

static sched_thread *managed(void)
{
	return weft_impl_current;
}

/* In a sequential replay (sched_replay_jump), a call that would block never returns. */
int sched_sync_replay_blocks(int rc)
{
	if (rc != 0 && sched_replay_jump)
		longjmp(*sched_replay_jump, 1);
	return rc;
}

void sched_sync_misuse(sched_thread *self, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(self->exec->stop_message, sizeof self->exec->stop_message, fmt, ap);
	va_end(ap);
	sched_stop_execution(self, SCHED_STOP_ERROR);
}

/* The switch point of a call; returns its event's index (its value is set later). */
size_t sched_sync_point(sched_thread *self, weft_site *site, const void *addr)
{
	weft_impl_switch(self, site, addr);
	return self->exec->trace.n - 1;
}

/*
 * After a release (unlock, post, signal, broadcast, a thread's start or end): a switch
 * point, so that another thread may run in the window the release opened
 * (`unlock(m); free(obj)` against a thread that takes m and uses obj).  Only in
 * binaries with instrumented code (<weft/instrument.h>): elsewhere the step
 * counts, and so the schedules existing reproducers encode, stay as they were.
 * No event of its own: a preemption here is recorded as any other.
 */
void sched_sync_after_release(sched_thread *self)
{
	if (sched_instrumented_binary())
		sched_switch_point(self);
}

/* The event's object number and value (the outcome; a blocked call never gets one). */
void sched_sync_event(sched_thread *self, size_t ev, const sched_sync *o, uint64_t value)
{
	sched_event *e = &self->exec->trace.events[ev];
	e->value = value;
	e->other = o ? (uint8_t)o->number : 0;
}

static int glibc_recursive(const pthread_mutex_t *m)
{
#ifdef __GLIBC__
	return (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE;
#else
	(void)m;
	return 0;
#endif
}

/*
 * A semaphore's value as sem_init left it, from the real object (weft's
 * posts and waits never touch it).  The call runs as nobody: in a program the
 * interposer catches sem_getvalue by symbol (harness/program_interpose.c) and
 * would hand a managed caller weft's twin, which asks this very record.
 */
static int64_t sem_initial_value(const void *addr)
{
	struct weft_impl_thread *caller = weft_impl_current;
	int v = 0;
	weft_impl_current = NULL;
	sem_getvalue((sem_t *)addr, &v);
	weft_impl_current = caller;
	return v;
}

/* Fill a fresh record from the real object's initial state. */
static void sync_fresh(sched_sync *o, const void *addr, uint8_t kind, const weft_site *site)
{
	unsigned number = o->number;
	memset(o, 0, sizeof *o);
	o->addr = addr;
	o->kind = kind;
	o->number = number;
	o->first_site = site;
	if (kind == SCHED_SYNC_MUTEX)
		o->recursive = (uint8_t)glibc_recursive(addr);
	if (kind == SCHED_SYNC_SEM)
		o->count = sem_initial_value(addr);
	if (kind == SCHED_SYNC_BARRIER)
		o->count = sched_sync_barrier_count(addr);
}

/* The execution's record of the object at `addr`, created on first use. */
sched_sync *sched_sync_of(sched_thread *self, const void *addr, uint8_t kind, const weft_site *site)
{
	sched_exec *exec = self->exec;
	for (unsigned i = 0; i < exec->n_sync; i++) {
		sched_sync *o = &exec->sync[i];
		if (o->addr == addr) {
			if (o->kind != kind)   /* memory reused for another kind of object */
				sync_fresh(o, addr, kind, site);
			return o;
		}
	}
	if (exec->n_sync == SCHED_MAX_SYNC)
		sched_sync_misuse(self, "more than %d locks, conditions and semaphores in one execution",
		       SCHED_MAX_SYNC);
	sched_sync *o = &exec->sync[exec->n_sync++];
	o->number = exec->n_sync;
	sync_fresh(o, addr, kind, site);
	return o;
}

static int16_t index_of(const sched_exec *exec, const sched_sync *o)
{
	return (int16_t)(o - exec->sync);
}

/* Block `self` until woken for `why` on `o`; returns 1 if the wait timed out. */
int sched_sync_wait(sched_thread *self, sched_sync *o, enum sched_wait why, weft_site *site, bool timed)
{
	sched_exec *exec = self->exec;
	self->wait = (uint8_t)why;
	self->wait_sync = index_of(exec, o);
	self->wait_site = site;
	self->timed = timed;
	self->timed_out = false;
	self->wait_order = ++exec->wait_counter;
	sched_block(self);
	self->wait = SCHED_WAIT_NONE;
	self->timed = false;
	return self->timed_out;
}

/* Every thread waiting for `why` on `o` becomes runnable (and retries). */
void sched_sync_wake_all(sched_exec *exec, const sched_sync *o, enum sched_wait why)
{
	int16_t idx = index_of(exec, o);
	for (unsigned i = 0; i < exec->n_started; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (t->wait == why && t->wait_sync == idx)
			sched_unblock(exec, t);
	}
}

/* The data choice "does this wait end early?" (0 = no: the simplest answer). */
static bool ends_early(sched_thread *self)
{
	return sched_choose(self->exec, 2) == 1;
}

/* ---- mutexes ---- */

void sched_sync_lock(sched_thread *self, sched_sync *o, weft_site *site)
{
	uint8_t me = (uint8_t)(self->id + 1);
	for (;;) {
		if (o->owner == 0)
			break;
		if (o->owner == me && o->recursive) {
			o->depth++;
			return;
		}
		/* held by another, or relocked by its owner: wait (the latter forever) */
		sched_sync_wait(self, o, SCHED_WAIT_MUTEX, site, false);
	}
	o->owner = me;
	o->depth = 1;
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	sched_note_change(self);
}

void sched_sync_unlock(sched_thread *self, sched_sync *o)
{
	if (o->owner != self->id + 1)
		sched_sync_misuse(self, "thread %u unlocks %s %u, which %s", self->id,
				  o->kind == SCHED_SYNC_SPIN ? "spin lock" : "mutex", o->number,
		       o->owner ? "another thread holds" : "is not locked");
	if (o->recursive && --o->depth > 0)
		return;
	sched_mem_sync(self);
	sched_race_release(self, &o->vc);
	o->owner = 0;
	sched_note_change(self);
	sched_sync_wake_all(self->exec, o, SCHED_WAIT_MUTEX);
}

int weft_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	int rc = pthread_mutex_init(m, attr);
	sched_thread *self = managed();
	if (self && rc == 0)
		sync_fresh(sched_sync_of(self, m, SCHED_SYNC_MUTEX, NULL), m, SCHED_SYNC_MUTEX, NULL);
	return rc;
}

int weft_mutex_destroy(pthread_mutex_t *m)
{
	return pthread_mutex_destroy(m);
}

int weft_mutex_lock_at(pthread_mutex_t *m, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return sched_replay_jump ? sched_sync_replay_blocks(pthread_mutex_trylock(m)) : pthread_mutex_lock(m);
	size_t ev = sched_sync_point(self, site, m);
	sched_sync *o = sched_sync_of(self, m, SCHED_SYNC_MUTEX, site);
	sched_sync_event(self, ev, o, 1);
	sched_sync_lock(self, o, site);
	return 0;
}

int weft_mutex_trylock_at(pthread_mutex_t *m, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_mutex_trylock(m);
	size_t ev = sched_sync_point(self, site, m);
	sched_sync *o = sched_sync_of(self, m, SCHED_SYNC_MUTEX, site);
	bool free_now = o->owner == 0 || (o->recursive && o->owner == self->id + 1);
	sched_sync_event(self, ev, o, free_now);
	if (!free_now)
		return EBUSY;
	sched_sync_lock(self, o, site);
	return 0;
}

/*
 * A timed lock: taken at once when free; else the input chooses whether the
 * deadline passes now (ends_early), and a wait that no thread can end times
 * out (as a timed condition wait does).  The event's value: 1 taken, 0 timed
 * out (printed as a busy trylock).  The deadline itself is never read.
 */
int weft_mutex_timedlock_at(pthread_mutex_t *m, const struct timespec *abstime, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return sched_replay_jump ? sched_sync_replay_blocks(pthread_mutex_trylock(m))
					 : pthread_mutex_timedlock(m, abstime);
	size_t ev = sched_sync_point(self, site, m);
	sched_sync *o = sched_sync_of(self, m, SCHED_SYNC_MUTEX, site);
	uint8_t me = (uint8_t)(self->id + 1);
	bool timed_out = false;
	sched_sync_event(self, ev, o, 1);
	if (o->owner != 0 && !(o->recursive && o->owner == me))
		timed_out = ends_early(self);
	while (!timed_out && o->owner != 0 && !(o->recursive && o->owner == me))
		timed_out = sched_sync_wait(self, o, SCHED_WAIT_MUTEX, site, true);
	if (timed_out) {
		sched_sync_event(self, ev, o, 0);
		return ETIMEDOUT;
	}
	sched_sync_lock(self, o, site);
	return 0;
}

int weft_mutex_unlock_at(pthread_mutex_t *m, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_mutex_unlock(m);
	size_t ev = sched_sync_point(self, site, m);
	sched_sync *o = sched_sync_of(self, m, SCHED_SYNC_MUTEX, site);
	sched_sync_event(self, ev, o, 0);
	sched_sync_unlock(self, o);
	sched_sync_after_release(self);
	return 0;
}

/* ---- condition variables ---- */

int weft_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	int rc = pthread_cond_init(c, attr);
	sched_thread *self = managed();
	if (self && rc == 0)
		sync_fresh(sched_sync_of(self, c, SCHED_SYNC_COND, NULL), c, SCHED_SYNC_COND, NULL);
	return rc;
}

int weft_cond_destroy(pthread_cond_t *c)
{
	return pthread_cond_destroy(c);
}

int weft_cond_wait_at(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime,
		      weft_site *site)
{
	sched_thread *self = managed();
	if (!self && sched_replay_jump)   /* alone: nobody will signal */
		return abstime ? ETIMEDOUT : sched_sync_replay_blocks(EDEADLK);
	if (!self)
		return abstime ? pthread_cond_timedwait(c, m, abstime) : pthread_cond_wait(c, m);
	size_t ev = sched_sync_point(self, site, c);
	sched_sync *oc = sched_sync_of(self, c, SCHED_SYNC_COND, site);
	sched_sync *om = sched_sync_of(self, m, SCHED_SYNC_MUTEX, site);
	sched_sync_event(self, ev, oc, 0);
	if (om->owner != self->id + 1)
		sched_sync_misuse(self, "thread %u waits on condition %u without holding mutex %u",
		       self->id, oc->number, om->number);
	bool may_end = abstime || self->exec->cfg.spurious_wakeups;
	uint32_t depth = om->depth;
	om->depth = 1;
	sched_sync_unlock(self, om);
	bool early = may_end && ends_early(self);
	int timed_out = early;
	if (!early)
		timed_out = sched_sync_wait(self, oc, SCHED_WAIT_COND, site, may_end);
	if (!timed_out)   /* woken: the signal's edge (race.c), besides the mutex's */
		sched_race_acquire(self, &oc->vc);
	sched_sync_event(self, ev, oc, (uint64_t)timed_out);
	sched_sync_lock(self, om, site);
	om->depth = depth;
	return timed_out && abstime ? ETIMEDOUT : 0;
}

int weft_cond_signal_at(pthread_cond_t *c, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_cond_signal(c);
	sched_exec *exec = self->exec;
	size_t ev = sched_sync_point(self, site, c);
	sched_sync *o = sched_sync_of(self, c, SCHED_SYNC_COND, site);
	int16_t idx = index_of(exec, o);
	sched_thread *first = NULL;
	for (unsigned i = 0; i < exec->n_started; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (t->wait == SCHED_WAIT_COND && t->wait_sync == idx &&
		    (!first || t->wait_order < first->wait_order))
			first = t;
	}
	sched_sync_event(self, ev, o, first ? first->id + 1 : 0);
	sched_race_release(self, &o->vc);
	if (first) {
		sched_unblock(exec, first);
		sched_note_change(self);
	}
	sched_sync_after_release(self);
	return 0;
}

int weft_cond_broadcast_at(pthread_cond_t *c, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_cond_broadcast(c);
	size_t ev = sched_sync_point(self, site, c);
	sched_sync *o = sched_sync_of(self, c, SCHED_SYNC_COND, site);
	sched_sync_event(self, ev, o, 0);
	sched_race_release(self, &o->vc);
	sched_sync_wake_all(self->exec, o, SCHED_WAIT_COND);
	sched_note_change(self);
	sched_sync_after_release(self);
	return 0;
}

/* ---- read-write locks ---- */

int weft_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr)
{
	int rc = pthread_rwlock_init(l, attr);
	sched_thread *self = managed();
	if (self && rc == 0)
		sync_fresh(sched_sync_of(self, l, SCHED_SYNC_RWLOCK, NULL), l, SCHED_SYNC_RWLOCK, NULL);
	return rc;
}

int weft_rwlock_destroy(pthread_rwlock_t *l)
{
	return pthread_rwlock_destroy(l);
}

int weft_rwlock_rdlock_at(pthread_rwlock_t *l, int try_only, weft_site *site)
{
	sched_thread *self = managed();
	if (!self && sched_replay_jump)
		return try_only ? pthread_rwlock_tryrdlock(l) : sched_sync_replay_blocks(pthread_rwlock_tryrdlock(l));
	if (!self)
		return try_only ? pthread_rwlock_tryrdlock(l) : pthread_rwlock_rdlock(l);
	size_t ev = sched_sync_point(self, site, l);
	sched_sync *o = sched_sync_of(self, l, SCHED_SYNC_RWLOCK, site);
	sched_sync_event(self, ev, o, o->owner == 0);
	if (try_only && o->owner)
		return EBUSY;
	while (o->owner)
		sched_sync_wait(self, o, SCHED_WAIT_READ, site, false);
	o->readers |= sched_bit(self->id);
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	sched_note_change(self);
	return 0;
}

int weft_rwlock_wrlock_at(pthread_rwlock_t *l, int try_only, weft_site *site)
{
	sched_thread *self = managed();
	if (!self && sched_replay_jump)
		return try_only ? pthread_rwlock_trywrlock(l) : sched_sync_replay_blocks(pthread_rwlock_trywrlock(l));
	if (!self)
		return try_only ? pthread_rwlock_trywrlock(l) : pthread_rwlock_wrlock(l);
	size_t ev = sched_sync_point(self, site, l);
	sched_sync *o = sched_sync_of(self, l, SCHED_SYNC_RWLOCK, site);
	sched_sync_event(self, ev, o, o->owner == 0 && o->readers == 0);
	if (try_only && (o->owner || o->readers))
		return EBUSY;
	while (o->owner || o->readers)   /* a reader upgrading waits forever: a deadlock */
		sched_sync_wait(self, o, SCHED_WAIT_WRITE, site, false);
	o->owner = (uint8_t)(self->id + 1);
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	sched_note_change(self);
	return 0;
}

int weft_rwlock_unlock_at(pthread_rwlock_t *l, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_rwlock_unlock(l);
	size_t ev = sched_sync_point(self, site, l);
	sched_sync *o = sched_sync_of(self, l, SCHED_SYNC_RWLOCK, site);
	sched_sync_event(self, ev, o, 0);
	sched_mem_sync(self);
	sched_race_release(self, &o->vc);
	if (o->owner == self->id + 1)
		o->owner = 0;
	else if (sched_has(o->readers, self->id))
		o->readers &= ~sched_bit(self->id);
	else
		sched_sync_misuse(self, "thread %u unlocks rwlock %u, which it does not hold", self->id, o->number);
	sched_note_change(self);
	sched_sync_wake_all(self->exec, o, SCHED_WAIT_READ);
	sched_sync_wake_all(self->exec, o, SCHED_WAIT_WRITE);
	sched_sync_after_release(self);
	return 0;
}

/* ---- semaphores ---- */

int weft_sem_init(sem_t *s, int pshared, unsigned value)
{
	int rc = sem_init(s, pshared, value);
	sched_thread *self = managed();
	if (self && rc == 0)
		sync_fresh(sched_sync_of(self, s, SCHED_SYNC_SEM, NULL), s, SCHED_SYNC_SEM, NULL);
	return rc;
}

int weft_sem_destroy(sem_t *s)
{
	return sem_destroy(s);
}

int weft_sem_wait_at(sem_t *s, int mode, weft_site *site)
{
	sched_thread *self = managed();
	if (!self && sched_replay_jump) {
		int rc = sem_trywait(s);
		if (rc != 0 && mode == 0)
			sched_sync_replay_blocks(rc);
		if (rc != 0 && mode == 2)
			errno = ETIMEDOUT;
		return rc;
	}
	if (!self)
		return mode == 1 ? sem_trywait(s) : sem_wait(s);   /* no clock: timed = untimed */
	size_t ev = sched_sync_point(self, site, s);
	sched_sync *o = sched_sync_of(self, s, SCHED_SYNC_SEM, site);
	bool timed = mode == 2;
	int outcome = 1;   /* taken */
	sched_sync_event(self, ev, o, 0);
	if (o->count == 0 && mode == 1)
		outcome = 0;
	else if (o->count == 0 && timed && ends_early(self))
		outcome = 2;
	while (outcome == 1 && o->count == 0)
		if (sched_sync_wait(self, o, SCHED_WAIT_SEM, site, timed))
			outcome = 2;
	sched_sync_event(self, ev, o, (uint64_t)outcome);
	if (outcome != 1) {
		errno = outcome == 0 ? EAGAIN : ETIMEDOUT;
		return -1;
	}
	o->count--;
	sched_mem_sync(self);
	sched_race_acquire(self, &o->vc);
	sched_note_change(self);
	return 0;
}

int weft_sem_post_at(sem_t *s, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return sem_post(s);
	size_t ev = sched_sync_point(self, site, s);
	sched_sync *o = sched_sync_of(self, s, SCHED_SYNC_SEM, site);
	o->count++;
	sched_mem_sync(self);
	sched_race_release(self, &o->vc);
	sched_sync_event(self, ev, o, (uint64_t)o->count);
	sched_note_change(self);
	sched_sync_wake_all(self->exec, o, SCHED_WAIT_SEM);
	sched_sync_after_release(self);
	return 0;
}

int weft_sem_getvalue(sem_t *s, int *value)
{
	sched_thread *self = managed();
	if (!self)
		return sem_getvalue(s, value);
	*value = (int)sched_sync_of(self, s, SCHED_SYNC_SEM, NULL)->count;
	return 0;
}

/* ---- threads ---- */

static pthread_t handle_of(unsigned id)
{
	return (pthread_t)(HANDLE_BASE + id);
}

int weft_thread_create_at(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *),
			  void *arg, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_create(t, attr, start, arg);
	sched_exec *exec = self->exec;
	size_t ev = sched_sync_point(self, site, NULL);
	if (exec->n_started == exec->n_slots)
		sched_sync_misuse(self, "more than %u threads (the target's max_threads)", exec->n_slots);
	sched_thread *child = sched_spawn_slot(exec, exec->n_started);
	if (!child)
		sched_sync_misuse(self, "could not start managed thread %u", exec->n_started);
	unsigned id = exec->n_started++;
	child->start = start;
	child->start_arg = arg;
	if (exec->cfg.races)
		sched_race_fork_slow(self, child);
	sched_mem_sync(self);   /* the child starts from its parent's view */
	exec->live |= sched_bit(id);
	exec->runnable |= sched_bit(id);
	sched_sync_event(self, ev, NULL, id);
	sched_note_change(self);
	*t = handle_of(id);
	sched_sync_after_release(self);   /* the child may run before its parent goes on */
	return 0;
}

void sched_run_start_routine(void)
{
	sched_thread *self = managed();
	sched_mem_sync(self);
	self->retval = self->start(self->start_arg);
	sched_mem_thread_end(self);   /* what a join acquires */
	sched_sync_after_release(self);
}

int weft_thread_join_at(pthread_t t, void **retval, weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_join(t, retval);
	sched_exec *exec = self->exec;
	uint64_t id = (uint64_t)t - HANDLE_BASE;
	size_t ev = sched_sync_point(self, site, NULL);
	if ((uint64_t)t < HANDLE_BASE || id >= exec->n_started || id == self->id)
		return id == self->id ? EDEADLK : ESRCH;
	sched_sync_event(self, ev, NULL, id);
	sched_thread *child = exec->pool->threads[id];
	while (!child->finished) {
		self->wait = SCHED_WAIT_JOIN;
		self->wait_sync = (int16_t)id;
		self->wait_site = site;
		self->timed = false;
		sched_block(self);
	}
	sched_mem_joined(self, child);
	sched_race_acquire(self, &child->vc);
	if (retval)
		*retval = child->retval;
	return 0;
}

pthread_t weft_thread_self(void)
{
	sched_thread *self = managed();
	return self ? handle_of(self->id) : pthread_self();
}

void weft_thread_exit(void *retval)
{
	sched_thread *self = managed();
	if (!self)
		pthread_exit(retval);
	self->retval = retval;
	longjmp(self->unwind, 2);
}

int weft_thread_detach(pthread_t t)
{
	return managed() ? 0 : pthread_detach(t);
}

/*
 * pthread_kill on a managed thread (issue 29): its handle is weft's, not a
 * pthread_t glibc can dereference (the real call segfaulted inside glibc),
 * and weft cannot deliver an asynchronous signal at a chosen step.  Signal 0
 * (the existence check) answers as POSIX says; any other signal is misuse,
 * named, so the program's use of signals between threads is visible.
 */
int weft_thread_kill(pthread_t t, int sig)
{
	sched_thread *self = managed();
	if (!self)
		return pthread_kill(t, sig);
	uint64_t id = (uint64_t)t - HANDLE_BASE;
	if ((uint64_t)t < HANDLE_BASE || id >= self->exec->n_started)
		return ESRCH;
	if (sig == 0)
		return 0;
	if (sig < 0 || sig >= NSIG)
		return EINVAL;
	sched_sync_misuse(self, "thread %u sends signal %d (%s) to thread %u with pthread_kill: "
			  "weft cannot deliver a signal to a managed thread", self->id, sig,
			  strsignal(sig), (unsigned)id);
}

int weft_sched_yield_at(weft_site *site)
{
	sched_thread *self = managed();
	if (!self)
		return sched_yield();
	sched_sync_point(self, site, NULL);
	return 0;
}

void weft_fail(const char *message)
{
	sched_thread *self = managed();
	if (!self) {
		fprintf(stderr, "weft: %s\n", message);
		abort();
	}
	snprintf(self->exec->stop_message, sizeof self->exec->stop_message, "%s", message);
	sched_stop_execution(self, SCHED_STOP_ASSERTION);
}
