/*
 * weft/sync.h - managed blocking primitives: mutexes, condition variables,
 * read-write locks, semaphores, barriers, spin locks, once, thread creation
 * and join.
 *
 * Design.  The objects are the ordinary POSIX ones (pthread_mutex_t, sem_t, ...),
 * so a program needs no new types.  Inside a managed execution each call is a
 * switch point, and the scheduler keeps the object's state itself (who holds
 * it, who waits): a thread that would block is taken off the runnable set and
 * another runs; it becomes runnable again when the object is released.  No
 * real lock is ever taken, so exactly one thread runs at a time as always, and
 * nothing leaks from one execution to the next.  Outside a managed execution
 * every call is the real POSIX call.
 *
 * Choices: a timed wait (pthread_cond_timedwait, sem_timedwait) times out when
 * the input says so (a data choice, 0 = no) or when no thread could wake it
 * (time passes when everyone waits); a spurious wake-up of a condition wait is
 * possible only if the target allows it (weft_target.spurious_wakeups), then it
 * is the same kind of choice.  The deadline value itself is never read: weft
 * has no clock.  pthread_cond_signal wakes the longest-waiting thread.
 *
 * The macros record the caller's file and line as the switch point's site; the
 * drop-in header <weft/dropin.h> maps the POSIX names onto them.
 */
#ifndef WEFT_SYNC_H
#define WEFT_SYNC_H

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "weft/atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

WEFT_API int weft_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
WEFT_API int weft_mutex_destroy(pthread_mutex_t *m);
WEFT_API int weft_mutex_lock_at(pthread_mutex_t *m, weft_site *site);
WEFT_API int weft_mutex_trylock_at(pthread_mutex_t *m, weft_site *site);
WEFT_API int weft_mutex_timedlock_at(pthread_mutex_t *m, const struct timespec *abstime,
				     weft_site *site);
WEFT_API int weft_mutex_unlock_at(pthread_mutex_t *m, weft_site *site);

WEFT_API int weft_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
WEFT_API int weft_cond_destroy(pthread_cond_t *c);
/* abstime NULL: an untimed wait. */
WEFT_API int weft_cond_wait_at(pthread_cond_t *c, pthread_mutex_t *m,
			       const struct timespec *abstime, weft_site *site);
WEFT_API int weft_cond_signal_at(pthread_cond_t *c, weft_site *site);
WEFT_API int weft_cond_broadcast_at(pthread_cond_t *c, weft_site *site);

WEFT_API int weft_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr);
WEFT_API int weft_rwlock_destroy(pthread_rwlock_t *l);
WEFT_API int weft_rwlock_rdlock_at(pthread_rwlock_t *l, int try_only, weft_site *site);
WEFT_API int weft_rwlock_wrlock_at(pthread_rwlock_t *l, int try_only, weft_site *site);
WEFT_API int weft_rwlock_unlock_at(pthread_rwlock_t *l, weft_site *site);

WEFT_API int weft_sem_init(sem_t *s, int pshared, unsigned value);
WEFT_API int weft_sem_destroy(sem_t *s);
/* mode: 0 wait, 1 trywait, 2 timed wait.  Errors as POSIX: -1 and errno. */
WEFT_API int weft_sem_wait_at(sem_t *s, int mode, weft_site *site);
WEFT_API int weft_sem_post_at(sem_t *s, weft_site *site);
WEFT_API int weft_sem_getvalue(sem_t *s, int *value);

WEFT_API int weft_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
				unsigned count);
WEFT_API int weft_barrier_destroy(pthread_barrier_t *b);
WEFT_API int weft_barrier_wait_at(pthread_barrier_t *b, weft_site *site);
WEFT_API int weft_spin_init(pthread_spinlock_t *s, int pshared);
WEFT_API int weft_spin_destroy(pthread_spinlock_t *s);
WEFT_API int weft_spin_lock_at(pthread_spinlock_t *s, int try_only, weft_site *site);
WEFT_API int weft_spin_unlock_at(pthread_spinlock_t *s, weft_site *site);
/* Inside an execution the routine runs once per execution; the real object is untouched. */
WEFT_API int weft_once_at(pthread_once_t *once, void (*routine)(void), weft_site *site);

WEFT_API int weft_thread_create_at(pthread_t *t, const pthread_attr_t *attr,
				   void *(*start)(void *), void *arg, weft_site *site);
WEFT_API int weft_thread_join_at(pthread_t t, void **retval, weft_site *site);
WEFT_API pthread_t weft_thread_self(void);
WEFT_API void weft_thread_exit(void *retval) __attribute__((noreturn));
WEFT_API int weft_thread_detach(pthread_t t);
/* pthread_kill: signal 0 checks the thread; any other signal to a managed thread is misuse. */
WEFT_API int weft_thread_kill(pthread_t t, int sig);
WEFT_API int weft_sched_yield_at(weft_site *site);

/*
 * A failed check inside a managed execution: the execution stops with verdict
 * "assertion" and `message` in the report.  Outside one: prints and aborts.
 */
WEFT_API void weft_fail(const char *message) __attribute__((noreturn));

#define WEFT_SYNC_SITE(kind) __extension__({ static weft_site weft_sync_site_ = WEFT_SITE_INIT(kind); &weft_sync_site_; })

#define weft_pthread_mutex_lock(m) weft_mutex_lock_at((m), WEFT_SYNC_SITE(WEFT_ACCESS_LOCK))
#define weft_pthread_mutex_trylock(m) weft_mutex_trylock_at((m), WEFT_SYNC_SITE(WEFT_ACCESS_TRYLOCK))
#define weft_pthread_mutex_timedlock(m, t) \
	weft_mutex_timedlock_at((m), (t), WEFT_SYNC_SITE(WEFT_ACCESS_TRYLOCK))
#define weft_pthread_mutex_unlock(m) weft_mutex_unlock_at((m), WEFT_SYNC_SITE(WEFT_ACCESS_UNLOCK))
#define weft_pthread_cond_wait(c, m) weft_cond_wait_at((c), (m), 0, WEFT_SYNC_SITE(WEFT_ACCESS_WAIT))
#define weft_pthread_cond_timedwait(c, m, t) \
	weft_cond_wait_at((c), (m), (t), WEFT_SYNC_SITE(WEFT_ACCESS_WAIT))
#define weft_pthread_cond_signal(c) weft_cond_signal_at((c), WEFT_SYNC_SITE(WEFT_ACCESS_SIGNAL))
#define weft_pthread_cond_broadcast(c) weft_cond_broadcast_at((c), WEFT_SYNC_SITE(WEFT_ACCESS_BROADCAST))
#define weft_pthread_rwlock_rdlock(l) weft_rwlock_rdlock_at((l), 0, WEFT_SYNC_SITE(WEFT_ACCESS_RDLOCK))
#define weft_pthread_rwlock_tryrdlock(l) weft_rwlock_rdlock_at((l), 1, WEFT_SYNC_SITE(WEFT_ACCESS_RDLOCK))
#define weft_pthread_rwlock_wrlock(l) weft_rwlock_wrlock_at((l), 0, WEFT_SYNC_SITE(WEFT_ACCESS_LOCK))
#define weft_pthread_rwlock_trywrlock(l) weft_rwlock_wrlock_at((l), 1, WEFT_SYNC_SITE(WEFT_ACCESS_TRYLOCK))
#define weft_pthread_rwlock_unlock(l) weft_rwlock_unlock_at((l), WEFT_SYNC_SITE(WEFT_ACCESS_UNLOCK))
#define weft_sem_wait(s) weft_sem_wait_at((s), 0, WEFT_SYNC_SITE(WEFT_ACCESS_SEM_WAIT))
#define weft_sem_trywait(s) weft_sem_wait_at((s), 1, WEFT_SYNC_SITE(WEFT_ACCESS_SEM_WAIT))
#define weft_sem_timedwait(s, t) ((void)(t), weft_sem_wait_at((s), 2, WEFT_SYNC_SITE(WEFT_ACCESS_SEM_WAIT)))
#define weft_sem_post(s) weft_sem_post_at((s), WEFT_SYNC_SITE(WEFT_ACCESS_SEM_POST))
#define weft_pthread_barrier_wait(b) weft_barrier_wait_at((b), WEFT_SYNC_SITE(WEFT_ACCESS_BARRIER))
#define weft_pthread_spin_lock(s) weft_spin_lock_at((s), 0, WEFT_SYNC_SITE(WEFT_ACCESS_LOCK))
#define weft_pthread_spin_trylock(s) weft_spin_lock_at((s), 1, WEFT_SYNC_SITE(WEFT_ACCESS_TRYLOCK))
#define weft_pthread_spin_unlock(s) weft_spin_unlock_at((s), WEFT_SYNC_SITE(WEFT_ACCESS_UNLOCK))
#define weft_pthread_once(o, f) weft_once_at((o), (f), WEFT_SYNC_SITE(WEFT_ACCESS_ONCE))
#define weft_pthread_create(t, a, f, arg) \
	weft_thread_create_at((t), (a), (f), (arg), WEFT_SYNC_SITE(WEFT_ACCESS_SPAWN))
#define weft_pthread_join(t, r) weft_thread_join_at((t), (r), WEFT_SYNC_SITE(WEFT_ACCESS_JOIN))
#define weft_sched_yield() weft_sched_yield_at(WEFT_SYNC_SITE(WEFT_ACCESS_YIELD))

#ifdef __cplusplus
}
#endif
#endif /* WEFT_SYNC_H */
