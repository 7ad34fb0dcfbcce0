/*
 * weft/dropin.h - run unmodified pthread and C11-atomics code under weft, by a
 * compile flag alone:
 *
 *     cc -include weft/dropin.h -I<weft>/include ...
 *
 * Design.  Every synchronisation call a small concurrent C program makes is
 * renamed, by the preprocessor, to its managed twin: pthread mutexes,
 * condition variables, rwlocks, POSIX semaphores, sched_yield, pthread_create
 * and pthread_join (<weft/sync.h>); C11 atomic_* (the generic functions of
 * <stdatomic.h>); and the GCC/Clang __atomic_* and __sync_* builtins on plain
 * objects (<weft/atomic.h>'s GNU family).  Each becomes a switch point with the
 * caller's file and line as its site.  Outside a managed execution they are
 * the real calls, so the program still runs normally.
 *
 * To fuzz a whole program, also rename its main (-Dmain=weft_program_main) and
 * link harness/program_main.c: see README "Fuzzing an existing pthread program".
 *
 * Also exit, _Exit, _exit, quick_exit, abort, sleep, usleep, nanosleep, clock_gettime, time,
 * gettimeofday and the program's stdout (printf, puts, putchar, vprintf and
 * any use of `stdout`): <weft/program.h> says what each does in an execution.
 * These renames give each call its file and line as its site.  Programs built
 * by weft_add_program also get the same calls by symbol
 * (harness/program_interpose.c), so libraries, objects built without this
 * header and C++ go through weft too, with one site per function.
 *
 * atomic_thread_fence, __atomic_thread_fence and __sync_synchronize are renamed
 * too (a fence orders weak memory, issue 18), and the flag builtins
 * __atomic_test_and_set and __atomic_clear on a bool or char.
 * Not covered: atomic_flag_*, atomic_signal_fence, the generic (non-_n)
 * __atomic_load/store/exchange/compare_exchange, function pointers to the renamed
 * functions (taking &pthread_mutex_lock gets the real one), plain memory accesses.
 *
 * With WEFT_INSTRUMENTED (code built with weft's pass plugin, <weft/instrument.h>)
 * only the blocking calls are renamed: the pass makes every atomic instruction
 * and every shared plain access a switch point itself, with its memory order.
 */
#ifndef WEFT_DROPIN_H
#define WEFT_DROPIN_H

#ifdef __cplusplus
/*
 * C++: no renames at all (they would break std::exit, std::time and the
 * standard headers' own declarations).  std::thread, std::mutex,
 * std::condition_variable, sleeps, clocks and exits reach weft by symbol
 * (harness/program_interpose.c, linked by weft_add_program); std::atomic is a
 * switch point through the pass (WEFT_INSTRUMENTED).  The one thing the header
 * does is give the renamed main C linkage, so the glue finds it: `int
 * main(int, char **)` matches the declaration below; `int main()` is another
 * overload, which harness/program_main.c finds by its mangled name.
 */
extern "C" int weft_program_main(int argc, char **argv);
#else

#ifdef WEFT_NO_INSTRUMENT
#error "weft/dropin.h instruments code; do not combine it with WEFT_NO_INSTRUMENT"
#endif

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>   /* before the pthread_kill rename: its declaration */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "weft/atomic.h"
#include "weft/program.h"
#include "weft/sync.h"

/* ---- pthreads ---- */
#define pthread_mutex_init(m, a) weft_mutex_init((m), (a))
#define pthread_mutex_destroy(m) weft_mutex_destroy(m)
#define pthread_mutex_lock(m) weft_pthread_mutex_lock(m)
#define pthread_mutex_trylock(m) weft_pthread_mutex_trylock(m)
#define pthread_mutex_timedlock(m, t) weft_pthread_mutex_timedlock((m), (t))
#define pthread_mutex_unlock(m) weft_pthread_mutex_unlock(m)
#define pthread_cond_init(c, a) weft_cond_init((c), (a))
#define pthread_cond_destroy(c) weft_cond_destroy(c)
#define pthread_cond_wait(c, m) weft_pthread_cond_wait((c), (m))
#define pthread_cond_timedwait(c, m, t) weft_pthread_cond_timedwait((c), (m), (t))
#define pthread_cond_signal(c) weft_pthread_cond_signal(c)
#define pthread_cond_broadcast(c) weft_pthread_cond_broadcast(c)
#define pthread_rwlock_init(l, a) weft_rwlock_init((l), (a))
#define pthread_rwlock_destroy(l) weft_rwlock_destroy(l)
#define pthread_rwlock_rdlock(l) weft_pthread_rwlock_rdlock(l)
#define pthread_rwlock_tryrdlock(l) weft_pthread_rwlock_tryrdlock(l)
#define pthread_rwlock_wrlock(l) weft_pthread_rwlock_wrlock(l)
#define pthread_rwlock_trywrlock(l) weft_pthread_rwlock_trywrlock(l)
#define pthread_rwlock_unlock(l) weft_pthread_rwlock_unlock(l)
#define sem_init(s, p, v) weft_sem_init((s), (p), (v))
#define sem_destroy(s) weft_sem_destroy(s)
#define sem_wait(s) weft_sem_wait(s)
#define sem_trywait(s) weft_sem_trywait(s)
#define sem_timedwait(s, t) weft_sem_timedwait((s), (t))
#define sem_post(s) weft_sem_post(s)
#define sem_getvalue(s, v) weft_sem_getvalue((s), (v))
#define pthread_barrier_init(b, a, n) weft_barrier_init((b), (a), (n))
#define pthread_barrier_destroy(b) weft_barrier_destroy(b)
#define pthread_barrier_wait(b) weft_pthread_barrier_wait(b)
#define pthread_spin_init(s, p) weft_spin_init((s), (p))
#define pthread_spin_destroy(s) weft_spin_destroy(s)
#define pthread_spin_lock(s) weft_pthread_spin_lock(s)
#define pthread_spin_trylock(s) weft_pthread_spin_trylock(s)
#define pthread_spin_unlock(s) weft_pthread_spin_unlock(s)
#define pthread_once(o, f) weft_pthread_once((o), (f))
#define sched_yield() weft_sched_yield()
#define pthread_create(t, a, f, arg) weft_pthread_create((t), (a), (f), (arg))
#define pthread_join(t, r) weft_pthread_join((t), (r))
#define pthread_self() weft_thread_self()
#define pthread_exit(r) weft_thread_exit(r)
#define pthread_detach(t) weft_thread_detach(t)
#define pthread_kill(t, s) weft_thread_kill((t), (s))

/* ---- the outside world: exits, sleeps, clocks, stdout (<weft/program.h>) ---- */
#define exit(s) weft_exit(s)
#define _Exit(s) weft_exit_as("_Exit", s)
#define _exit(s) weft_exit_as("_exit", s)
#define quick_exit(s) weft_exit_as("quick_exit", s)
#define abort() weft_abort()
#define sleep(s) weft_sleep(s)
#define usleep(us) weft_usleep(us)
#define nanosleep(req, rem) weft_nanosleep((req), (rem))
#define clock_gettime(c, t) weft_clock_gettime((c), (t))
#define time(t) weft_time(t)
#define gettimeofday(tv, tz) weft_gettimeofday((tv), (tz))
#undef stdout
#define stdout (weft_program_stdout())
#define printf(...) fprintf(stdout, __VA_ARGS__)
#define vprintf(f, ap) vfprintf(stdout, (f), (ap))
#define puts(s) weft_program_puts(s)
#define putchar(c) fputc((c), stdout)

#ifndef WEFT_INSTRUMENTED   /* else the pass instruments the atomics */
/* ---- C11 <stdatomic.h> generic functions ---- */
#undef atomic_load
#undef atomic_load_explicit
#undef atomic_store
#undef atomic_store_explicit
#undef atomic_exchange
#undef atomic_exchange_explicit
#undef atomic_compare_exchange_strong
#undef atomic_compare_exchange_strong_explicit
#undef atomic_compare_exchange_weak
#undef atomic_compare_exchange_weak_explicit
#undef atomic_fetch_add
#undef atomic_fetch_add_explicit
#undef atomic_fetch_sub
#undef atomic_fetch_sub_explicit
#undef atomic_fetch_and
#undef atomic_fetch_and_explicit
#undef atomic_fetch_or
#undef atomic_fetch_or_explicit
#undef atomic_fetch_xor
#undef atomic_fetch_xor_explicit
#define atomic_load(p) weft_atomic_load(p)
#define atomic_load_explicit(p, mo) weft_atomic_load_explicit((p), (mo))
#define atomic_store(p, v) weft_atomic_store((p), (v))
#define atomic_store_explicit(p, v, mo) weft_atomic_store_explicit((p), (v), (mo))
#define atomic_exchange(p, v) weft_atomic_exchange((p), (v))
#define atomic_exchange_explicit(p, v, mo) weft_atomic_exchange_explicit((p), (v), (mo))
#define atomic_compare_exchange_strong(p, e, d) weft_atomic_compare_exchange_strong((p), (e), (d))
#define atomic_compare_exchange_strong_explicit(p, e, d, s, f) \
	weft_atomic_compare_exchange_strong_explicit((p), (e), (d), (s), (f))
#define atomic_compare_exchange_weak(p, e, d) weft_atomic_compare_exchange_weak((p), (e), (d))
#define atomic_compare_exchange_weak_explicit(p, e, d, s, f) \
	weft_atomic_compare_exchange_weak_explicit((p), (e), (d), (s), (f))
#define atomic_fetch_add(p, v) weft_atomic_fetch_add((p), (v))
#define atomic_fetch_add_explicit(p, v, mo) weft_atomic_fetch_add_explicit((p), (v), (mo))
#define atomic_fetch_sub(p, v) weft_atomic_fetch_sub((p), (v))
#define atomic_fetch_sub_explicit(p, v, mo) weft_atomic_fetch_sub_explicit((p), (v), (mo))
#define atomic_fetch_and(p, v) weft_atomic_fetch_and((p), (v))
#define atomic_fetch_and_explicit(p, v, mo) weft_atomic_fetch_and_explicit((p), (v), (mo))
#define atomic_fetch_or(p, v) weft_atomic_fetch_or((p), (v))
#define atomic_fetch_or_explicit(p, v, mo) weft_atomic_fetch_or_explicit((p), (v), (mo))
#define atomic_fetch_xor(p, v) weft_atomic_fetch_xor((p), (v))
#define atomic_fetch_xor_explicit(p, v, mo) weft_atomic_fetch_xor_explicit((p), (v), (mo))
#undef atomic_thread_fence
#define atomic_thread_fence(mo) weft_atomic_thread_fence(mo)

/* ---- GNU builtins on plain objects ---- */
#define WEFT_DROPIN_SEQ __ATOMIC_SEQ_CST
#define __atomic_load_n(p, mo) WEFT_IMPL_LOAD(WEFT_GNU_LOAD, (p), (mo))
#define __atomic_store_n(p, v, mo) WEFT_IMPL_STORE(WEFT_GNU_LOAD, WEFT_GNU_STORE, (p), (v), (mo))
#define __atomic_exchange_n(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_EXCHANGE, WEFT_GNU_LOAD, WEFT_GNU_EXCHANGE, (p), (v), (mo))
/* `weak` is not evaluated: under weft a weak compare-exchange never fails spuriously */
#define __atomic_compare_exchange_n(p, e, d, weak, s, f) \
	WEFT_IMPL_CAS(WEFT_GNU_CAS, (p), (e), (d), (s), (f))
#define __atomic_fetch_add(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_ADD, WEFT_GNU_LOAD, WEFT_GNU_FETCH_ADD, (p), (v), (mo))
#define __atomic_fetch_sub(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_SUB, WEFT_GNU_LOAD, WEFT_GNU_FETCH_SUB, (p), (v), (mo))
#define __atomic_fetch_and(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_AND, WEFT_GNU_LOAD, WEFT_GNU_FETCH_AND, (p), (v), (mo))
#define __atomic_fetch_or(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_OR, WEFT_GNU_LOAD, WEFT_GNU_FETCH_OR, (p), (v), (mo))
#define __atomic_fetch_xor(p, v, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_XOR, WEFT_GNU_LOAD, WEFT_GNU_FETCH_XOR, (p), (v), (mo))
#define WEFT_DROPIN_OP_FETCH(fetch, op, p, v, mo) __extension__({              \
	__auto_type weft_v_ = (v);                                             \
	fetch((p), weft_v_, (mo)) op weft_v_; })
#define __atomic_add_fetch(p, v, mo) WEFT_DROPIN_OP_FETCH(__atomic_fetch_add, +, p, v, mo)
#define __atomic_sub_fetch(p, v, mo) WEFT_DROPIN_OP_FETCH(__atomic_fetch_sub, -, p, v, mo)
#define __atomic_and_fetch(p, v, mo) WEFT_DROPIN_OP_FETCH(__atomic_fetch_and, &, p, v, mo)
#define __atomic_or_fetch(p, v, mo) WEFT_DROPIN_OP_FETCH(__atomic_fetch_or, |, p, v, mo)
#define __atomic_xor_fetch(p, v, mo) WEFT_DROPIN_OP_FETCH(__atomic_fetch_xor, ^, p, v, mo)
#define __sync_fetch_and_add(p, v) __atomic_fetch_add((p), (v), WEFT_DROPIN_SEQ)
#define __sync_fetch_and_sub(p, v) __atomic_fetch_sub((p), (v), WEFT_DROPIN_SEQ)
#define __sync_fetch_and_and(p, v) __atomic_fetch_and((p), (v), WEFT_DROPIN_SEQ)
#define __sync_fetch_and_or(p, v) __atomic_fetch_or((p), (v), WEFT_DROPIN_SEQ)
#define __sync_fetch_and_xor(p, v) __atomic_fetch_xor((p), (v), WEFT_DROPIN_SEQ)
#define __sync_add_and_fetch(p, v) __atomic_add_fetch((p), (v), WEFT_DROPIN_SEQ)
#define __sync_sub_and_fetch(p, v) __atomic_sub_fetch((p), (v), WEFT_DROPIN_SEQ)
#define __sync_lock_test_and_set(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#define __sync_lock_release(p) __atomic_store_n((p), 0, __ATOMIC_RELEASE)
#define __sync_bool_compare_and_swap(p, old, new) __extension__({              \
	__typeof__(*(p)) weft_expected_old_ = (old);                           \
	__atomic_compare_exchange_n((p), &weft_expected_old_, (new), 0,        \
				    WEFT_DROPIN_SEQ, WEFT_DROPIN_SEQ); })
#define __sync_val_compare_and_swap(p, old, new) __extension__({               \
	__typeof__(*(p)) weft_expected_old_ = (old);                           \
	__atomic_compare_exchange_n((p), &weft_expected_old_, (new), 0,        \
				    WEFT_DROPIN_SEQ, WEFT_DROPIN_SEQ);         \
	weft_expected_old_; })
/* the flag builtins, on a bool or char object (test-and-set spin locks are written
 * with them; unrenamed, a spinner would have no switch point), and the fences */
#define __atomic_test_and_set(p, mo) \
	((_Bool)__atomic_exchange_n((unsigned char *)(p), (unsigned char)1, (mo)))
#define __atomic_clear(p, mo) __atomic_store_n((unsigned char *)(p), (unsigned char)0, (mo))
#define __atomic_thread_fence(mo) weft_atomic_thread_fence(mo)
#define __sync_synchronize() weft_atomic_thread_fence(__ATOMIC_SEQ_CST)

#endif /* WEFT_INSTRUMENTED */

#endif /* __cplusplus */

#endif /* WEFT_DROPIN_H */
