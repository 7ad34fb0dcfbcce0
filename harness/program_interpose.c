/*
 * harness/program_interpose.c - the calls a whole program makes, caught by
 * symbol (issue 22), as sanitizer runtimes catch theirs: C++'s std::thread,
 * std::mutex and std::condition_variable (which call pthread_* from inline
 * headers and from libstdc++.so), code in other translation units, sleeps,
 * clocks and exits all go through weft without any header or macro.
 *
 * Design.  This object is linked only into the executables weft_add_program
 * makes (never into libweft, whose exported surface stays weft_* only), and
 * defines the POSIX and C symbols below.  The executable's definition wins
 * over libc's at link time (the program's own objects) and at load time
 * (libstdc++.so binds to the executable's exported copy; the link exports
 * them with --dynamic-list=cmake/weft_program_interpose.list).
 *
 * Each definition asks one question: is the caller a managed thread
 * (weft_impl_current set)?  Yes: the managed twin (<weft/sync.h>,
 * <weft/program.h>) with one fixed site per function (its name, line 0: the
 * caller's file and line are not known by symbol, and addresses may not reach
 * a trace).  No: the real function.  Code built with <weft/dropin.h> (C
 * programs) keeps calling the twins directly through its macros, with their
 * file and line: for it nothing changes.
 *
 * The real function: if a sanitizer runtime intercepts the symbol too
 * (clang's static ASan defines pthread_create and others as weak aliases of
 * __interceptor_pthread_create ...; gcc's libasan.so exports the same names),
 * the weak reference __interceptor_NAME is set and we call it, so ASan keeps
 * seeing every real thread and lock; else dlsym(RTLD_NEXT), i.e. libc's
 * (pthread_cond_* by version GLIBC_2.3.2: dlsym alone can give the old
 * LinuxThreads-compatible one).  Resolved once per function, lazily.
 *
 * weft's own calls: libweft is linked into the same executable, so its calls
 * bind here too.  Outside an execution they are forwarded.  Inside one, libweft
 * calls only the managed-twin-free functions, and the one real call it makes
 * for a managed thread (scheduler/pool.c starting a worker pthread when a
 * program spawns) runs with weft_impl_current cleared, so it is forwarded:
 * nothing recurses.
 *
 * Signal handlers are nobody's: a handler may run on the controlling thread
 * while a fiber is current (libFuzzer's SIGALRM timeout check reads
 * system_clock and would get the logical clock: a spurious "timeout after
 * -795605679 seconds"; its stack printer calls pthread_self).  So sigaction()
 * and signal() are caught too: every handler is installed behind a trampoline
 * that clears weft_impl_current while the handler runs, and the handler the
 * caller gave is what `old` reports back.  Handlers that end the process
 * (libFuzzer's timeout and crash paths) use _Exit, which is forwarded: they run
 * as nobody.
 *
 * Not caught: the init/destroy calls (libweft calls the real ones from the
 * twins, which would recurse here; std::mutex and std::condition_variable
 * use static initialisers; a barrier's count and a semaphore's value are read
 * from the real object).  A timed rwlock wait never times out (below).  libc's generators
 * (rand & co., below) are caught only to reset them lazily.  _exit, _Exit and
 * quick_exit are libweft's (runner/exit_guard.c: every executable, targets
 * too), not defined here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "weft/program.h"
#include "weft/sync.h"

/* ---- the real function ---- */

/* Resolve `name`: the sanitizer's interceptor if any, else the next definition. */
static void *real_function(const char *name, void *interceptor, const char *version)
{
	if (interceptor)
		return interceptor;
	void *f = version ? dlvsym(RTLD_NEXT, name, version) : NULL;
	if (!f)
		f = dlsym(RTLD_NEXT, name);
	if (!f) {
		static const char msg[] = "weft: a real function of the program's is missing\n";
		(void)!write(2, msg, sizeof msg - 1);
		_exit(2);
	}
	return f;
}

/*
 * REAL(type, name, version): a pointer to the real `name`, resolved on first
 * use.  A race between two first uses stores the same value twice: relaxed
 * atomics make that well defined.
 */
#define REAL(type, name, version) __extension__({                                  \
	static type real_;                                                         \
	type f_ = __atomic_load_n(&real_, __ATOMIC_RELAXED);                       \
	if (!f_) {                                                                 \
		f_ = (type)real_function(#name, (void *)__interceptor_##name, version); \
		__atomic_store_n(&real_, f_, __ATOMIC_RELAXED);                    \
	}                                                                          \
	f_; })

/* One site per function: its name as the file, line 0 (the caller is unknown). */
#define SITE(name, kind) __extension__({                                           \
	static weft_site site_ = { #name, 0, (kind), 0 }; &site_; })

#define INTERCEPTOR(ret, name, params) \
	extern ret __interceptor_##name params __attribute__((weak))

INTERCEPTOR(int, pthread_create, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *));
INTERCEPTOR(int, pthread_join, (pthread_t, void **));
INTERCEPTOR(int, pthread_detach, (pthread_t));
INTERCEPTOR(int, pthread_kill, (pthread_t, int));
INTERCEPTOR(void, pthread_exit, (void *));
INTERCEPTOR(pthread_t, pthread_self, (void));
INTERCEPTOR(int, pthread_mutex_lock, (pthread_mutex_t *));
INTERCEPTOR(int, pthread_mutex_trylock, (pthread_mutex_t *));
INTERCEPTOR(int, pthread_mutex_timedlock, (pthread_mutex_t *, const struct timespec *));
INTERCEPTOR(int, pthread_mutex_unlock, (pthread_mutex_t *));
INTERCEPTOR(int, pthread_cond_wait, (pthread_cond_t *, pthread_mutex_t *));
INTERCEPTOR(int, pthread_cond_timedwait, (pthread_cond_t *, pthread_mutex_t *,
					   const struct timespec *));
INTERCEPTOR(int, pthread_cond_signal, (pthread_cond_t *));
INTERCEPTOR(int, pthread_cond_broadcast, (pthread_cond_t *));
INTERCEPTOR(int, pthread_rwlock_rdlock, (pthread_rwlock_t *));
INTERCEPTOR(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t *));
INTERCEPTOR(int, pthread_rwlock_wrlock, (pthread_rwlock_t *));
INTERCEPTOR(int, pthread_rwlock_trywrlock, (pthread_rwlock_t *));
INTERCEPTOR(int, pthread_rwlock_timedrdlock, (pthread_rwlock_t *, const struct timespec *));
INTERCEPTOR(int, pthread_rwlock_timedwrlock, (pthread_rwlock_t *, const struct timespec *));
INTERCEPTOR(int, pthread_rwlock_unlock, (pthread_rwlock_t *));
INTERCEPTOR(int, pthread_barrier_wait, (pthread_barrier_t *));
INTERCEPTOR(int, pthread_spin_lock, (pthread_spinlock_t *));
INTERCEPTOR(int, pthread_spin_trylock, (pthread_spinlock_t *));
INTERCEPTOR(int, pthread_spin_unlock, (pthread_spinlock_t *));
INTERCEPTOR(int, pthread_once, (pthread_once_t *, void (*)(void)));
INTERCEPTOR(int, thrd_create, (thrd_t *, thrd_start_t, void *));
INTERCEPTOR(int, thrd_join, (thrd_t, int *));
INTERCEPTOR(int, thrd_detach, (thrd_t));
INTERCEPTOR(void, thrd_exit, (int));
INTERCEPTOR(thrd_t, thrd_current, (void));
INTERCEPTOR(void, thrd_yield, (void));
INTERCEPTOR(int, thrd_sleep, (const struct timespec *, struct timespec *));
INTERCEPTOR(int, mtx_lock, (mtx_t *));
INTERCEPTOR(int, mtx_trylock, (mtx_t *));
INTERCEPTOR(int, mtx_timedlock, (mtx_t *, const struct timespec *));
INTERCEPTOR(int, mtx_unlock, (mtx_t *));
INTERCEPTOR(int, cnd_wait, (cnd_t *, mtx_t *));
INTERCEPTOR(int, cnd_timedwait, (cnd_t *, mtx_t *, const struct timespec *));
INTERCEPTOR(int, cnd_signal, (cnd_t *));
INTERCEPTOR(int, cnd_broadcast, (cnd_t *));
INTERCEPTOR(void, call_once, (once_flag *, void (*)(void)));
INTERCEPTOR(int, sem_wait, (sem_t *));
INTERCEPTOR(int, sem_trywait, (sem_t *));
INTERCEPTOR(int, sem_timedwait, (sem_t *, const struct timespec *));
INTERCEPTOR(int, sem_clockwait, (sem_t *, clockid_t, const struct timespec *));
INTERCEPTOR(int, sem_post, (sem_t *));
INTERCEPTOR(int, sem_getvalue, (sem_t *, int *));
INTERCEPTOR(int, sched_yield, (void));
INTERCEPTOR(unsigned, sleep, (unsigned));
INTERCEPTOR(int, usleep, (useconds_t));
INTERCEPTOR(int, nanosleep, (const struct timespec *, struct timespec *));
INTERCEPTOR(int, clock_nanosleep, (clockid_t, int, const struct timespec *, struct timespec *));
INTERCEPTOR(int, clock_gettime, (clockid_t, struct timespec *));
INTERCEPTOR(time_t, time, (time_t *));
INTERCEPTOR(int, gettimeofday, (struct timeval *, void *));
INTERCEPTOR(void, exit, (int));
INTERCEPTOR(void, abort, (void));
INTERCEPTOR(int, sigaction, (int, const struct sigaction *, struct sigaction *));

#define GLIBC_COND "GLIBC_2.3.2"   /* the NPTL condition variables (x86-64) */

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*cond_fn)(pthread_cond_t *);
typedef int (*rwlock_fn)(pthread_rwlock_t *);

/* ---- threads ---- */

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	if (weft_impl_current)
		return weft_thread_create_at(t, attr, start, arg, SITE(pthread_create, WEFT_ACCESS_SPAWN));
	typedef int (*fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	return REAL(fn, pthread_create, NULL)(t, attr, start, arg);
}

int pthread_join(pthread_t t, void **retval)
{
	if (weft_impl_current)
		return weft_thread_join_at(t, retval, SITE(pthread_join, WEFT_ACCESS_JOIN));
	typedef int (*fn)(pthread_t, void **);
	return REAL(fn, pthread_join, NULL)(t, retval);
}

int pthread_detach(pthread_t t)
{
	if (weft_impl_current)
		return weft_thread_detach(t);
	typedef int (*fn)(pthread_t);
	return REAL(fn, pthread_detach, NULL)(t);
}

int pthread_kill(pthread_t t, int sig)
{
	if (weft_impl_current)
		return weft_thread_kill(t, sig);
	typedef int (*fn)(pthread_t, int);
	return REAL(fn, pthread_kill, NULL)(t, sig);
}

void pthread_exit(void *retval)
{
	if (weft_impl_current)
		weft_thread_exit(retval);
	typedef void (*fn)(void *) __attribute__((noreturn));
	REAL(fn, pthread_exit, NULL)(retval);
}

pthread_t pthread_self(void)
{
	if (weft_impl_current)
		return weft_thread_self();
	typedef pthread_t (*fn)(void);
	return REAL(fn, pthread_self, NULL)();
}

int sched_yield(void)
{
	if (weft_impl_current)
		return weft_sched_yield_at(SITE(sched_yield, WEFT_ACCESS_YIELD));
	typedef int (*fn)(void);
	return REAL(fn, sched_yield, NULL)();
}

/* ---- mutexes ---- */

int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (weft_impl_current)
		return weft_mutex_lock_at(m, SITE(pthread_mutex_lock, WEFT_ACCESS_LOCK));
	return REAL(mutex_fn, pthread_mutex_lock, NULL)(m);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	if (weft_impl_current)
		return weft_mutex_trylock_at(m, SITE(pthread_mutex_trylock, WEFT_ACCESS_TRYLOCK));
	return REAL(mutex_fn, pthread_mutex_trylock, NULL)(m);
}

int pthread_mutex_timedlock(pthread_mutex_t *restrict m, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return weft_mutex_timedlock_at(m, abstime, SITE(pthread_mutex_timedlock, WEFT_ACCESS_TRYLOCK));
	typedef int (*fn)(pthread_mutex_t *, const struct timespec *);
	return REAL(fn, pthread_mutex_timedlock, NULL)(m, abstime);
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (weft_impl_current)
		return weft_mutex_unlock_at(m, SITE(pthread_mutex_unlock, WEFT_ACCESS_UNLOCK));
	return REAL(mutex_fn, pthread_mutex_unlock, NULL)(m);
}

/* ---- condition variables ---- */

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	if (weft_impl_current)
		return weft_cond_wait_at(c, m, NULL, SITE(pthread_cond_wait, WEFT_ACCESS_WAIT));
	typedef int (*fn)(pthread_cond_t *, pthread_mutex_t *);
	return REAL(fn, pthread_cond_wait, GLIBC_COND)(c, m);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	if (weft_impl_current)
		return weft_cond_wait_at(c, m, abstime, SITE(pthread_cond_timedwait, WEFT_ACCESS_WAIT));
	typedef int (*fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	return REAL(fn, pthread_cond_timedwait, GLIBC_COND)(c, m, abstime);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	if (weft_impl_current)
		return weft_cond_signal_at(c, SITE(pthread_cond_signal, WEFT_ACCESS_SIGNAL));
	return REAL(cond_fn, pthread_cond_signal, GLIBC_COND)(c);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (weft_impl_current)
		return weft_cond_broadcast_at(c, SITE(pthread_cond_broadcast, WEFT_ACCESS_BROADCAST));
	return REAL(cond_fn, pthread_cond_broadcast, GLIBC_COND)(c);
}

/* ---- read-write locks (std::shared_mutex) ---- */

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	if (weft_impl_current)
		return weft_rwlock_rdlock_at(l, 0, SITE(pthread_rwlock_rdlock, WEFT_ACCESS_RDLOCK));
	return REAL(rwlock_fn, pthread_rwlock_rdlock, NULL)(l);
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	if (weft_impl_current)
		return weft_rwlock_rdlock_at(l, 1, SITE(pthread_rwlock_tryrdlock, WEFT_ACCESS_RDLOCK));
	return REAL(rwlock_fn, pthread_rwlock_tryrdlock, NULL)(l);
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	if (weft_impl_current)
		return weft_rwlock_wrlock_at(l, 0, SITE(pthread_rwlock_wrlock, WEFT_ACCESS_LOCK));
	return REAL(rwlock_fn, pthread_rwlock_wrlock, NULL)(l);
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	if (weft_impl_current)
		return weft_rwlock_wrlock_at(l, 1, SITE(pthread_rwlock_trywrlock, WEFT_ACCESS_TRYLOCK));
	return REAL(rwlock_fn, pthread_rwlock_trywrlock, NULL)(l);
}

/*
 * Timed read-write locks: managed as untimed ones (weft has no timed rwlock
 * twin), so such a lock never times out under weft: a program that relies on
 * the timeout to get out of a deadlock is reported as deadlocked.  Taking the
 * real lock instead (before) let a thread in while another held weft's.
 */
int pthread_rwlock_timedrdlock(pthread_rwlock_t *restrict l, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return weft_rwlock_rdlock_at(l, 0, SITE(pthread_rwlock_timedrdlock, WEFT_ACCESS_RDLOCK));
	typedef int (*fn)(pthread_rwlock_t *, const struct timespec *);
	return REAL(fn, pthread_rwlock_timedrdlock, NULL)(l, abstime);
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t *restrict l, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return weft_rwlock_wrlock_at(l, 0, SITE(pthread_rwlock_timedwrlock, WEFT_ACCESS_LOCK));
	typedef int (*fn)(pthread_rwlock_t *, const struct timespec *);
	return REAL(fn, pthread_rwlock_timedwrlock, NULL)(l, abstime);
}

int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	if (weft_impl_current)
		return weft_rwlock_unlock_at(l, SITE(pthread_rwlock_unlock, WEFT_ACCESS_UNLOCK));
	return REAL(rwlock_fn, pthread_rwlock_unlock, NULL)(l);
}

/* ---- barriers, spin locks, once (their init and destroy stay libc's) ---- */

int pthread_barrier_wait(pthread_barrier_t *b)
{
	if (weft_impl_current)
		return weft_barrier_wait_at(b, SITE(pthread_barrier_wait, WEFT_ACCESS_BARRIER));
	typedef int (*fn)(pthread_barrier_t *);
	return REAL(fn, pthread_barrier_wait, NULL)(b);
}

typedef int (*spin_fn)(pthread_spinlock_t *);

int pthread_spin_lock(pthread_spinlock_t *l)
{
	if (weft_impl_current)
		return weft_spin_lock_at(l, 0, SITE(pthread_spin_lock, WEFT_ACCESS_LOCK));
	return REAL(spin_fn, pthread_spin_lock, NULL)(l);
}

int pthread_spin_trylock(pthread_spinlock_t *l)
{
	if (weft_impl_current)
		return weft_spin_lock_at(l, 1, SITE(pthread_spin_trylock, WEFT_ACCESS_TRYLOCK));
	return REAL(spin_fn, pthread_spin_trylock, NULL)(l);
}

int pthread_spin_unlock(pthread_spinlock_t *l)
{
	if (weft_impl_current)
		return weft_spin_unlock_at(l, SITE(pthread_spin_unlock, WEFT_ACCESS_UNLOCK));
	return REAL(spin_fn, pthread_spin_unlock, NULL)(l);
}

int pthread_once(pthread_once_t *once, void (*routine)(void))
{
	if (weft_impl_current)
		return weft_once_at(once, routine, SITE(pthread_once, WEFT_ACCESS_ONCE));
	typedef int (*fn)(pthread_once_t *, void (*)(void));
	return REAL(fn, pthread_once, NULL)(once, routine);
}

/*
 * ---- C11 threads (<threads.h>) ----
 * glibc implements them on its internal pthread functions, which no
 * interposer reaches: without these a thrd_create made a real thread that
 * ran outside every execution.  The types are glibc's pthread ones under
 * other names (mtx_t, cnd_t and once_flag share pthread_mutex_t's,
 * pthread_cond_t's and pthread_once_t's layouts; mtx_init, cnd_init and
 * tss_* stay libc's: a mutex's kind is read from the real object).  A C11
 * start function returns int: a small box carries it and its argument to a
 * trampoline, which frees the box (like std::thread's state, a thread that
 * never starts leaves it behind).
 */
typedef struct c11_start {
	thrd_start_t start;
	void *arg;
} c11_start;

static void *c11_trampoline(void *p)
{
	c11_start box = *(c11_start *)p;
	free(p);
	return (void *)(intptr_t)box.start(box.arg);
}

/* errno-style results of weft's twins as thrd_* codes. */
static int c11_code(int rc)
{
	return rc == 0 ? thrd_success : rc == EBUSY ? thrd_busy :
	       rc == ETIMEDOUT ? thrd_timedout : rc == ENOMEM ? thrd_nomem : thrd_error;
}

int thrd_create(thrd_t *t, thrd_start_t start, void *arg)
{
	if (weft_impl_current) {
		c11_start *box = malloc(sizeof *box);
		if (!box)
			return thrd_nomem;
		*box = (c11_start){ start, arg };
		pthread_t p;
		int rc = weft_thread_create_at(&p, NULL, c11_trampoline, box, SITE(thrd_create, WEFT_ACCESS_SPAWN));
		if (rc != 0) {
			free(box);
			return c11_code(rc);
		}
		*t = (thrd_t)p;
		return thrd_success;
	}
	typedef int (*fn)(thrd_t *, thrd_start_t, void *);
	return REAL(fn, thrd_create, NULL)(t, start, arg);
}

int thrd_join(thrd_t t, int *result)
{
	if (weft_impl_current) {
		void *value = NULL;
		int rc = weft_thread_join_at((pthread_t)t, &value, SITE(thrd_join, WEFT_ACCESS_JOIN));
		if (rc == 0 && result)
			*result = (int)(intptr_t)value;
		return c11_code(rc);
	}
	typedef int (*fn)(thrd_t, int *);
	return REAL(fn, thrd_join, NULL)(t, result);
}

int thrd_detach(thrd_t t)
{
	if (weft_impl_current)
		return c11_code(weft_thread_detach((pthread_t)t));
	typedef int (*fn)(thrd_t);
	return REAL(fn, thrd_detach, NULL)(t);
}

void thrd_exit(int result)
{
	if (weft_impl_current)
		weft_thread_exit((void *)(intptr_t)result);
	typedef void (*fn)(int) __attribute__((noreturn));
	REAL(fn, thrd_exit, NULL)(result);
}

thrd_t thrd_current(void)
{
	if (weft_impl_current)
		return (thrd_t)weft_thread_self();
	typedef thrd_t (*fn)(void);
	return REAL(fn, thrd_current, NULL)();
}

void thrd_yield(void)
{
	if (weft_impl_current) {
		weft_sched_yield_at(SITE(thrd_yield, WEFT_ACCESS_YIELD));
		return;
	}
	typedef void (*fn)(void);
	REAL(fn, thrd_yield, NULL)();
}

int thrd_sleep(const struct timespec *duration, struct timespec *remaining)
{
	if (weft_impl_current) {   /* nanosleep below: the logical clock */
		unsigned long long ns = 1000000000ull * (unsigned long long)duration->tv_sec +
					(unsigned long long)duration->tv_nsec;
		return weft_sleep_ns_at(ns, SITE(thrd_sleep, WEFT_ACCESS_SEM_WAIT));
	}
	typedef int (*fn)(const struct timespec *, struct timespec *);
	return REAL(fn, thrd_sleep, NULL)(duration, remaining);
}

int mtx_lock(mtx_t *m)
{
	if (weft_impl_current)
		return c11_code(weft_mutex_lock_at((pthread_mutex_t *)m, SITE(mtx_lock, WEFT_ACCESS_LOCK)));
	typedef int (*fn)(mtx_t *);
	return REAL(fn, mtx_lock, NULL)(m);
}

int mtx_trylock(mtx_t *m)
{
	if (weft_impl_current)
		return c11_code(weft_mutex_trylock_at((pthread_mutex_t *)m, SITE(mtx_trylock, WEFT_ACCESS_TRYLOCK)));
	typedef int (*fn)(mtx_t *);
	return REAL(fn, mtx_trylock, NULL)(m);
}

int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return c11_code(weft_mutex_timedlock_at((pthread_mutex_t *)m, abstime,
							SITE(mtx_timedlock, WEFT_ACCESS_TRYLOCK)));
	typedef int (*fn)(mtx_t *, const struct timespec *);
	return REAL(fn, mtx_timedlock, NULL)(m, abstime);
}

int mtx_unlock(mtx_t *m)
{
	if (weft_impl_current)
		return c11_code(weft_mutex_unlock_at((pthread_mutex_t *)m, SITE(mtx_unlock, WEFT_ACCESS_UNLOCK)));
	typedef int (*fn)(mtx_t *);
	return REAL(fn, mtx_unlock, NULL)(m);
}

int cnd_wait(cnd_t *c, mtx_t *m)
{
	if (weft_impl_current)
		return c11_code(weft_cond_wait_at((pthread_cond_t *)c, (pthread_mutex_t *)m, NULL,
						  SITE(cnd_wait, WEFT_ACCESS_WAIT)));
	typedef int (*fn)(cnd_t *, mtx_t *);
	return REAL(fn, cnd_wait, NULL)(c, m);
}

int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return c11_code(weft_cond_wait_at((pthread_cond_t *)c, (pthread_mutex_t *)m, abstime,
						  SITE(cnd_timedwait, WEFT_ACCESS_WAIT)));
	typedef int (*fn)(cnd_t *, mtx_t *, const struct timespec *);
	return REAL(fn, cnd_timedwait, NULL)(c, m, abstime);
}

int cnd_signal(cnd_t *c)
{
	if (weft_impl_current)
		return c11_code(weft_cond_signal_at((pthread_cond_t *)c, SITE(cnd_signal, WEFT_ACCESS_SIGNAL)));
	typedef int (*fn)(cnd_t *);
	return REAL(fn, cnd_signal, NULL)(c);
}

int cnd_broadcast(cnd_t *c)
{
	if (weft_impl_current)
		return c11_code(weft_cond_broadcast_at((pthread_cond_t *)c, SITE(cnd_broadcast, WEFT_ACCESS_BROADCAST)));
	typedef int (*fn)(cnd_t *);
	return REAL(fn, cnd_broadcast, NULL)(c);
}

void call_once(once_flag *flag, void (*routine)(void))
{
	if (weft_impl_current) {
		weft_once_at((pthread_once_t *)flag, routine, SITE(call_once, WEFT_ACCESS_ONCE));
		return;
	}
	typedef void (*fn)(once_flag *, void (*)(void));
	REAL(fn, call_once, NULL)(flag, routine);
}

/*
 * ---- semaphores (sem_init and sem_destroy stay libc's: weft's record of a
 * semaphore takes its value from the real object at its first use in an
 * execution, scheduler/sync.c) ----
 * A timed wait's deadline is not read: whether it times out is the input's
 * choice, as for pthread_cond_timedwait.
 */

int sem_wait(sem_t *s)
{
	if (weft_impl_current)
		return weft_sem_wait_at(s, 0, SITE(sem_wait, WEFT_ACCESS_SEM_WAIT));
	typedef int (*fn)(sem_t *);
	return REAL(fn, sem_wait, NULL)(s);
}

int sem_trywait(sem_t *s)
{
	if (weft_impl_current)
		return weft_sem_wait_at(s, 1, SITE(sem_trywait, WEFT_ACCESS_SEM_WAIT));
	typedef int (*fn)(sem_t *);
	return REAL(fn, sem_trywait, NULL)(s);
}

int sem_timedwait(sem_t *restrict s, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return weft_sem_wait_at(s, 2, SITE(sem_timedwait, WEFT_ACCESS_SEM_WAIT));
	typedef int (*fn)(sem_t *, const struct timespec *);
	return REAL(fn, sem_timedwait, NULL)(s, abstime);
}

int sem_clockwait(sem_t *restrict s, clockid_t clock, const struct timespec *restrict abstime)
{
	if (weft_impl_current)
		return weft_sem_wait_at(s, 2, SITE(sem_clockwait, WEFT_ACCESS_SEM_WAIT));
	typedef int (*fn)(sem_t *, clockid_t, const struct timespec *);
	return REAL(fn, sem_clockwait, NULL)(s, clock, abstime);
}

int sem_post(sem_t *s)
{
	if (weft_impl_current)
		return weft_sem_post_at(s, SITE(sem_post, WEFT_ACCESS_SEM_POST));
	typedef int (*fn)(sem_t *);
	return REAL(fn, sem_post, NULL)(s);
}

int sem_getvalue(sem_t *restrict s, int *restrict value)
{
	if (weft_impl_current)
		return weft_sem_getvalue(s, value);
	typedef int (*fn)(sem_t *, int *);
	return REAL(fn, sem_getvalue, NULL)(s, value);
}

/* ---- sleeps and clocks (the logical clock of <weft/program.h>) ---- */

unsigned sleep(unsigned s)
{
	if (weft_impl_current)
		return (unsigned)weft_sleep_ns_at(1000000000ull * s, SITE(sleep, WEFT_ACCESS_SEM_WAIT));
	typedef unsigned (*fn)(unsigned);
	return REAL(fn, sleep, NULL)(s);
}

int usleep(useconds_t us)
{
	if (weft_impl_current)
		return weft_sleep_ns_at(1000ull * us, SITE(usleep, WEFT_ACCESS_SEM_WAIT));
	typedef int (*fn)(useconds_t);
	return REAL(fn, usleep, NULL)(us);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (weft_impl_current) {
		unsigned long long ns = 1000000000ull * (unsigned long long)req->tv_sec +
					(unsigned long long)req->tv_nsec;
		return weft_sleep_ns_at(ns, SITE(nanosleep, WEFT_ACCESS_SEM_WAIT));
	}
	typedef int (*fn)(const struct timespec *, struct timespec *);
	return REAL(fn, nanosleep, NULL)(req, rem);
}

/* A relative sleep, or one until an absolute time of the logical clock. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
	if (weft_impl_current) {
		long long ns = 1000000000ll * (long long)req->tv_sec + req->tv_nsec;
		if (flags & TIMER_ABSTIME) {
			struct timespec now;
			weft_clock_gettime(clock, &now);
			ns -= 1000000000ll * (long long)now.tv_sec + now.tv_nsec;
		}
		return weft_sleep_ns_at(ns > 0 ? (unsigned long long)ns : 0,
					SITE(clock_nanosleep, WEFT_ACCESS_SEM_WAIT));
	}
	typedef int (*fn)(clockid_t, int, const struct timespec *, struct timespec *);
	return REAL(fn, clock_nanosleep, NULL)(clock, flags, req, rem);
}

int clock_gettime(clockid_t clock, struct timespec *now)
{
	if (weft_impl_current)
		return weft_clock_gettime(clock, now);
	typedef int (*fn)(clockid_t, struct timespec *);
	return REAL(fn, clock_gettime, NULL)(clock, now);
}

time_t time(time_t *now)
{
	if (weft_impl_current)
		return weft_time(now);
	typedef time_t (*fn)(time_t *);
	return REAL(fn, time, NULL)(now);
}

int gettimeofday(struct timeval *restrict now, void *restrict zone)
{
	if (weft_impl_current)
		return weft_gettimeofday(now, zone);
	typedef int (*fn)(struct timeval *, void *);
	return REAL(fn, gettimeofday, NULL)(now, zone);
}

/* ---- exits ---- */

void exit(int status)
{
	if (weft_impl_current)
		weft_exit(status);
	typedef void (*fn)(int) __attribute__((noreturn));
	REAL(fn, exit, NULL)(status);
}

void abort(void)
{
	if (weft_impl_current)
		weft_abort();
	typedef void (*fn)(void) __attribute__((noreturn));
	REAL(fn, abort, NULL)();
}

/* ---- libc's pseudo-random generators: reset lazily ---- */

/*
 * Every function that reads or writes the hidden state of rand(), random() or
 * drand48() (erand48, nrand48 and jrand48 too: they read lcong48's
 * parameters) lets runner/program_env.c reset that state first if this
 * execution has not yet, then is the real one: the program sees what the
 * eager reset at the execution's start gave it, and one that never draws
 * skips the reset (issue 33).  Anyone's call, managed or not, and weft's own.
 */
__attribute__((constructor)) static void generators_reset_lazily(void)
{
	weft_program_rand_lazy();
}

#define GENERATOR(ret, name, params, args)                                          \
	INTERCEPTOR(ret, name, params);                                             \
	ret name params                                                             \
	{                                                                           \
		weft_program_rand_touch();                                          \
		typedef ret (*fn) params;                                           \
		return REAL(fn, name, NULL) args;                                   \
	}
#define GENERATOR_VOID(name, params, args)                                          \
	INTERCEPTOR(void, name, params);                                            \
	void name params                                                            \
	{                                                                           \
		weft_program_rand_touch();                                          \
		typedef void (*fn) params;                                          \
		REAL(fn, name, NULL) args;                                          \
	}

GENERATOR(int, rand, (void), ())
GENERATOR_VOID(srand, (unsigned seed), (seed))
GENERATOR(long, random, (void), ())
GENERATOR_VOID(srandom, (unsigned seed), (seed))
GENERATOR(char *, initstate, (unsigned seed, char *state, size_t n), (seed, state, n))
GENERATOR(char *, setstate, (char *state), (state))
GENERATOR(double, drand48, (void), ())
GENERATOR(double, erand48, (unsigned short x[3]), (x))
GENERATOR(long, lrand48, (void), ())
GENERATOR(long, nrand48, (unsigned short x[3]), (x))
GENERATOR(long, mrand48, (void), ())
GENERATOR(long, jrand48, (unsigned short x[3]), (x))
GENERATOR_VOID(srand48, (long seed), (seed))
GENERATOR(unsigned short *, seed48, (unsigned short seed[3]), (seed))
GENERATOR_VOID(lcong48, (unsigned short param[7]), (param))

/* ---- signal handlers run as nobody ---- */

static struct sigaction handlers[NSIG];   /* what each signal's installer asked for */

/*
 * A fault (SIGSEGV, SIGBUS) is the managed thread's own: its handler (weft's,
 * runner/death.c and the replay tool's) asks weft_fault_fiber_stack_overflow
 * whether the running fiber overflowed its stack, which needs
 * weft_impl_current; the process is ending, so no clock or thread call of the
 * handler's can mislead anything (issue 29).
 */
static void run_as_nobody(int sig, siginfo_t *info, void *context)
{
	struct weft_impl_thread *self = weft_impl_current;
	bool fault = (sig == SIGSEGV || sig == SIGBUS) && info && info->si_code > 0;
	weft_impl_current = fault ? self : NULL;
	const struct sigaction *h = &handlers[sig];
	if (h->sa_flags & SA_SIGINFO)
		h->sa_sigaction(sig, info, context);
	else
		h->sa_handler(sig);
	weft_impl_current = self;
}

static int is_handler(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) ||
	       (a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	typedef int (*fn)(int, const struct sigaction *, struct sigaction *);
	fn real = REAL(fn, sigaction, NULL);
	if (sig <= 0 || sig >= NSIG)
		return real(sig, act, old);
	struct sigaction before = handlers[sig], wrapped;
	if (act && is_handler(act)) {
		handlers[sig] = *act;   /* before the trampoline can run */
		wrapped = *act;
		wrapped.sa_flags |= SA_SIGINFO;
		wrapped.sa_sigaction = run_as_nobody;
		act = &wrapped;
	}
	int rc = real(sig, act, old);
	if (rc != 0)
		handlers[sig] = before;
	else if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction == run_as_nobody)
		*old = before;          /* the caller sees its own handler, not ours */
	return rc;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;
	memset(&act, 0, sizeof act);
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;   /* glibc's signal(): BSD semantics */
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void (*)(void))old.sa_sigaction
					    : old.sa_handler;
}
