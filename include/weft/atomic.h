/*
 * weft/atomic.h - instrumented atomics: the switch points of a managed execution.
 *
 * Design.  Every operation here is a *switch point*: inside a managed execution
 * (a thread started by weft's scheduler) the calling thread may be paused just
 * before the access while another managed thread runs; the access itself then
 * happens while the caller holds the scheduler's baton, so it is atomic with
 * respect to every other managed thread.  Outside a managed execution the same
 * calls are plain C11 atomics with the memory order you gave, so one source runs
 * under weft and under real threads.  Define WEFT_NO_INSTRUMENT before including
 * this header (or with -D) and every macro becomes the plain C11 call: no switch
 * point, no call into libweft.
 *
 * Names mirror <stdatomic.h> so a drop-in header is a list of #defines:
 *   atomic_load_explicit(p, mo)   ->  weft_atomic_load_explicit(p, mo)
 * Objects are ordinary C11 `_Atomic T` of 8/16/32/64-bit integers or pointers.
 *
 * Limits of the model, stated loudly:
 *   - memory orders are modelled (issue 18): under WEFT_MEMORY=c11 (the
 *     default) a load that is not ordered by happens-before after a newer store
 *     may read an older one, chosen by the input (0 = the newest, sequential
 *     consistency); release/acquire/relaxed and fences follow a view-based
 *     semantics, seq_cst is modelled stronger than C11 (an SC fence around each
 *     SC access), modification order is execution order (no 2+2W), no load
 *     buffering, a failed compare-exchange reads the newest value
 *     (scheduler/memory_c11.c, ARCHITECTURE.md "Memory models");
 *     WEFT_MEMORY=tso|pso instead models x86-style store buffers (one FIFO
 *     per thread, or per thread and location): memory orders count only as
 *     x86 compiles them (a seq_cst store or fence and every read-modify-write
 *     drain the buffer, anything else is a plain mov), and a store's commit
 *     is delayed as the input says (scheduler/memory_tso.c);
 *   - compare_exchange_weak never fails spuriously under weft;
 *   - plain (non-atomic) shared memory is not a switch point: a data race on it
 *     is not explored, only the interleavings of the atomics around it;
 *   - pointer values are recorded in traces as NULL / non-NULL only (addresses
 *     differ between runs; weft's traces must not).
 *
 * Cost: outside a managed execution, one thread-local load and a branch on top of
 * the C11 access.  Inside, a call into libweft that records the step and, only
 * when the schedule says so, hands the baton to another thread (microseconds).
 *
 * Site identity: each call site gets a static weft_site holding __FILE__ and
 * __LINE__; its id is a hash of the file's basename, the line and the access
 * kind, so it is the same on every machine and in every build (never an address).
 */
#ifndef WEFT_ATOMIC_H
#define WEFT_ATOMIC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "weft/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of a switch point, as recorded in traces. */
typedef enum weft_access {
	WEFT_ACCESS_LOAD = 1,
	WEFT_ACCESS_STORE,
	WEFT_ACCESS_EXCHANGE,
	WEFT_ACCESS_CAS,       /* compare-exchange, strong or weak */
	WEFT_ACCESS_FETCH_ADD,
	WEFT_ACCESS_FETCH_SUB,
	WEFT_ACCESS_FETCH_AND,
	WEFT_ACCESS_FETCH_OR,
	WEFT_ACCESS_FETCH_XOR,
	WEFT_ACCESS_YIELD,
	/* blocking primitives (weft/sync.h): the object is a lock, condition or semaphore */
	WEFT_ACCESS_LOCK,        /* mutex lock, rwlock write lock */
	WEFT_ACCESS_TRYLOCK,     /* value: 1 acquired, 0 busy */
	WEFT_ACCESS_UNLOCK,
	WEFT_ACCESS_RDLOCK,      /* rwlock read lock (try: value 1/0) */
	WEFT_ACCESS_WAIT,        /* condition wait; value: 0 woken, 1 timed out */
	WEFT_ACCESS_SIGNAL,
	WEFT_ACCESS_BROADCAST,
	WEFT_ACCESS_SEM_WAIT,    /* value: 1 taken (0: trywait found none, 2: timed out) */
	WEFT_ACCESS_SEM_POST,
	WEFT_ACCESS_SPAWN,       /* pthread_create: value = the new thread */
	WEFT_ACCESS_JOIN,        /* value = the joined thread */
	WEFT_ACCESS_FENCE,       /* weft_atomic_thread_fence; value = the memory order */
	WEFT_ACCESS_BARRIER,     /* pthread_barrier_wait; value: 1 the last to arrive */
	WEFT_ACCESS_ONCE,        /* pthread_once; value: 1 this call runs the routine */
	WEFT_ACCESS_KIND_COUNT
} weft_access;

/*
 * One source location that is a switch point.  Created by the macros below as a
 * block-scope static; `id` is filled in by libweft on first use (0 = not yet).
 */
typedef struct weft_site {
	const char *file;      /* __FILE__ as the compiler saw it; reports use the basename */
	int line;
	weft_access kind;
	uint32_t id;           /* stable hash of basename, line and kind; see above */
} weft_site;

#define WEFT_SITE_INIT(kind) { __FILE__, __LINE__, (kind), 0 }

/* ---- internals the macros need (not for direct use) ---------------------- */

struct weft_impl_thread;
/* The managed thread running on this pthread, or NULL outside an execution. */
extern WEFT_API _Thread_local struct weft_impl_thread *weft_impl_current;

/* Slow part of a switch point: record the step, maybe hand off.  May block. */
WEFT_API void weft_impl_switch(struct weft_impl_thread *self, weft_site *site,
			       const volatile void *addr);
/* Record the value the access just read or wrote (pointer: 1 = non-NULL). */
WEFT_API void weft_impl_note(struct weft_impl_thread *self, uint64_t value, bool is_pointer);
/* The access just made changed shared memory (progress: see scheduler/progress.c). */
WEFT_API void weft_impl_changed(struct weft_impl_thread *self);

/*
 * The memory model (scheduler/memory.h), called right after the real access
 * with its value's bits (`raw`: integers sign- or zero-extended, pointers
 * whole) and the memory order; each also records the trace value, so an access
 * costs the same two calls as before.  A load returns the bits it reads: the
 * newest store's (raw) or an older one's.  A store passes its object's size:
 * under TSO/PSO the model puts the old value back while the store is buffered
 * and writes the new one when it commits.
 */
WEFT_API uint64_t weft_impl_mem_load(struct weft_impl_thread *self, uint64_t raw,
				     bool is_pointer, int mo);
WEFT_API void weft_impl_mem_store(struct weft_impl_thread *self, uint64_t old_raw,
				  uint64_t raw, bool is_pointer, int mo,
				  uint64_t value, bool value_is_pointer, unsigned size);
WEFT_API void weft_impl_mem_rmw(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
				bool is_pointer, bool wrote, int mo,
				uint64_t value, bool value_is_pointer);
WEFT_API void weft_impl_mem_fence(struct weft_impl_thread *self, int mo);
/* The object every fence "accesses", so that search/dpor.c orders fences. */
extern WEFT_API const char weft_impl_fence_object;

static inline void weft_impl_point(weft_site *site, const volatile void *addr)
{
	struct weft_impl_thread *self = weft_impl_current;
	if (self)
		weft_impl_switch(self, site, addr);
}

static inline void weft_impl_value(uint64_t value, bool is_pointer)
{
	struct weft_impl_thread *self = weft_impl_current;
	if (self)
		weft_impl_note(self, value, is_pointer);
}

/* `changed` is computed only inside a managed execution (it costs extra loads). */
#define WEFT_IMPL_CHANGED(changed) do {                                       \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	if (weft_self_ && (changed))                                           \
		weft_impl_changed(weft_self_);                                 \
} while (0)

static inline uint64_t weft_impl_u64_of_signed(long long v) { return (uint64_t)v; }
static inline uint64_t weft_impl_u64_of_unsigned(unsigned long long v) { return v; }
static inline uint64_t weft_impl_u64_of_pointer(const volatile void *p) { return p != 0; }
static inline uint64_t weft_impl_raw_of_pointer(const volatile void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* The integer types' conversions to a trace value, for the two selections below. */
#define WEFT_IMPL_U64_OF_INTEGERS                                              \
	_Bool: weft_impl_u64_of_unsigned, char: weft_impl_u64_of_signed,      \
	signed char: weft_impl_u64_of_signed,                                  \
	unsigned char: weft_impl_u64_of_unsigned,                              \
	short: weft_impl_u64_of_signed, unsigned short: weft_impl_u64_of_unsigned, \
	int: weft_impl_u64_of_signed, unsigned int: weft_impl_u64_of_unsigned, \
	long: weft_impl_u64_of_signed, unsigned long: weft_impl_u64_of_unsigned, \
	long long: weft_impl_u64_of_signed,                                    \
	unsigned long long: weft_impl_u64_of_unsigned

/* A value's bits for the memory model: integers as in traces, pointers whole. */
#define WEFT_IMPL_RAW(v) _Generic((v),                                        \
	WEFT_IMPL_U64_OF_INTEGERS, default: weft_impl_raw_of_pointer)(v)

/* Value of any integer or pointer as a trace value; selects a function, then calls it. */
#define WEFT_IMPL_U64(v) _Generic((v),                                        \
	WEFT_IMPL_U64_OF_INTEGERS, default: weft_impl_u64_of_pointer)(v)

#define WEFT_IMPL_IS_POINTER(v) _Generic((v),                                 \
	_Bool: 0, char: 0, signed char: 0, unsigned char: 0, short: 0,         \
	unsigned short: 0, int: 0, unsigned int: 0, long: 0, unsigned long: 0, \
	long long: 0, unsigned long long: 0, default: 1)

/*
 * The shapes of an instrumented access.  Operands are evaluated first (they may
 * contain weft atomics themselves), then the switch point, then the real access,
 * then its value is recorded: the event it belongs to is the last one appended.
 */
#define WEFT_IMPL_NOTE(v) weft_impl_value(WEFT_IMPL_U64(v), WEFT_IMPL_IS_POINTER(v))

#define WEFT_IMPL_SITE(kind, addr) \
	static weft_site weft_site_ = WEFT_SITE_INIT(kind); weft_impl_point(&weft_site_, (addr))

/*
 * The raw accesses the shapes make, by family.  C11: `_Atomic` objects, through
 * the compiler's own builtins (clang's __c11_*; gcc's __atomic_* accept
 * `_Atomic` objects).  GNU: plain objects through __atomic_* (what the drop-in
 * header <weft/dropin.h> maps __atomic_* and __sync_* calls to).  Every builtin
 * name is parenthesized so that a function-like macro of the same name (the
 * drop-in header's) is not expanded here: the shapes must reach the real
 * builtin, not themselves.
 */
#if defined(__clang__)
#define WEFT_RAW_LOAD(o, mo) (__c11_atomic_load)((o), (mo))
#define WEFT_RAW_STORE(o, v, mo) (__c11_atomic_store)((o), (v), (mo))
#define WEFT_RAW_EXCHANGE(o, v, mo) (__c11_atomic_exchange)((o), (v), (mo))
#define WEFT_RAW_CAS(o, e, d, s, f) (__c11_atomic_compare_exchange_strong)((o), (e), (d), (s), (f))
#define WEFT_RAW_FETCH_ADD(o, v, mo) (__c11_atomic_fetch_add)((o), (v), (mo))
#define WEFT_RAW_FETCH_SUB(o, v, mo) (__c11_atomic_fetch_sub)((o), (v), (mo))
#define WEFT_RAW_FETCH_AND(o, v, mo) (__c11_atomic_fetch_and)((o), (v), (mo))
#define WEFT_RAW_FETCH_OR(o, v, mo) (__c11_atomic_fetch_or)((o), (v), (mo))
#define WEFT_RAW_FETCH_XOR(o, v, mo) (__c11_atomic_fetch_xor)((o), (v), (mo))
#else
#define WEFT_RAW_LOAD WEFT_GNU_LOAD
#define WEFT_RAW_STORE WEFT_GNU_STORE
#define WEFT_RAW_EXCHANGE WEFT_GNU_EXCHANGE
#define WEFT_RAW_CAS WEFT_GNU_CAS
#define WEFT_RAW_FETCH_ADD WEFT_GNU_FETCH_ADD
#define WEFT_RAW_FETCH_SUB WEFT_GNU_FETCH_SUB
#define WEFT_RAW_FETCH_AND WEFT_GNU_FETCH_AND
#define WEFT_RAW_FETCH_OR WEFT_GNU_FETCH_OR
#define WEFT_RAW_FETCH_XOR WEFT_GNU_FETCH_XOR
#endif
#define WEFT_GNU_LOAD(o, mo) (__atomic_load_n)((o), (mo))
#define WEFT_GNU_STORE(o, v, mo) (__atomic_store_n)((o), (v), (mo))
#define WEFT_GNU_EXCHANGE(o, v, mo) (__atomic_exchange_n)((o), (v), (mo))
#define WEFT_GNU_CAS(o, e, d, s, f) (__atomic_compare_exchange_n)((o), (e), (d), 0, (s), (f))
#define WEFT_GNU_FETCH_ADD(o, v, mo) (__atomic_fetch_add)((o), (v), (mo))
#define WEFT_GNU_FETCH_SUB(o, v, mo) (__atomic_fetch_sub)((o), (v), (mo))
#define WEFT_GNU_FETCH_AND(o, v, mo) (__atomic_fetch_and)((o), (v), (mo))
#define WEFT_GNU_FETCH_OR(o, v, mo) (__atomic_fetch_or)((o), (v), (mo))
#define WEFT_GNU_FETCH_XOR(o, v, mo) (__atomic_fetch_xor)((o), (v), (mo))

#define WEFT_IMPL_LOAD(LOAD, obj, mo) __extension__({                         \
	__auto_type weft_obj_ = (obj);                                         \
	WEFT_IMPL_SITE(WEFT_ACCESS_LOAD, weft_obj_);                           \
	__auto_type weft_result_ = LOAD(weft_obj_, (mo));                      \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	if (weft_self_)                                                        \
		weft_result_ = (__typeof__(weft_result_))weft_impl_mem_load(   \
			weft_self_, WEFT_IMPL_RAW(weft_result_),               \
			WEFT_IMPL_IS_POINTER(weft_result_), (mo));             \
	weft_result_; })

/*
 * A store has no result: record the value written.  Inside an execution the
 * old value is read first, so that a store that changes nothing is not taken
 * for progress (a spinning thread, scheduler/progress.c).
 */
#define WEFT_IMPL_STORE(LOAD, STORE, obj, desired, mo) __extension__({        \
	__auto_type weft_obj_ = (obj);                                         \
	__auto_type weft_arg_ = (desired);                                     \
	WEFT_IMPL_SITE(WEFT_ACCESS_STORE, weft_obj_);                          \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	__typeof__(LOAD(weft_obj_, memory_order_relaxed)) weft_old_ = 0;       \
	if (weft_self_)                                                        \
		weft_old_ = LOAD(weft_obj_, memory_order_relaxed);             \
	STORE(weft_obj_, weft_arg_, (mo));                                     \
	if (weft_self_) {                                                      \
		__typeof__(weft_old_) weft_new_ = (__typeof__(weft_old_))weft_arg_; \
		weft_impl_mem_store(weft_self_, WEFT_IMPL_RAW(weft_old_),      \
				    WEFT_IMPL_RAW(weft_new_),                  \
				    WEFT_IMPL_IS_POINTER(weft_old_), (mo),     \
				    WEFT_IMPL_U64(weft_arg_),                  \
				    WEFT_IMPL_IS_POINTER(weft_arg_),           \
				    (unsigned)sizeof(weft_old_));              \
		if (weft_old_ != weft_new_)                                    \
			weft_impl_changed(weft_self_);                         \
	}                                                                      \
	(void)0; })

/* exchange and fetch-op: record the old value (the result). */
#define WEFT_IMPL_RMW(kind, LOAD, OP, obj, arg, mo) __extension__({           \
	__auto_type weft_obj_ = (obj);                                         \
	__auto_type weft_arg_ = (arg);                                         \
	WEFT_IMPL_SITE(kind, weft_obj_);                                       \
	__auto_type weft_result_ = OP(weft_obj_, weft_arg_, (mo));             \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	if (weft_self_) {                                                      \
		__typeof__(weft_result_) weft_new_ = LOAD(weft_obj_, memory_order_relaxed); \
		weft_impl_mem_rmw(weft_self_, WEFT_IMPL_RAW(weft_result_),     \
				  WEFT_IMPL_RAW(weft_new_),                    \
				  WEFT_IMPL_IS_POINTER(weft_result_), 1, (mo), \
				  WEFT_IMPL_U64(weft_result_),                 \
				  WEFT_IMPL_IS_POINTER(weft_result_));         \
		if (weft_new_ != weft_result_)                                 \
			weft_impl_changed(weft_self_);                         \
	}                                                                      \
	weft_result_; })

/*
 * compare-exchange: record the value it read (*expected holds it either way),
 * and whether it succeeded (weft_impl_mem_rmw's `wrote`).
 */
#define WEFT_IMPL_CAS(CAS, obj, expected, desired, succ, fail) __extension__({ \
	__auto_type weft_obj_ = (obj);                                         \
	__auto_type weft_expected_ = (expected);                               \
	__auto_type weft_arg_ = (desired);                                     \
	WEFT_IMPL_SITE(WEFT_ACCESS_CAS, weft_obj_);                            \
	_Bool weft_ok_ = CAS(weft_obj_, weft_expected_, weft_arg_, (succ), (fail)); \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	if (weft_self_) {                                                      \
		__typeof__(*weft_expected_) weft_new_ =                        \
			(__typeof__(*weft_expected_))weft_arg_;                \
		weft_impl_mem_rmw(weft_self_, WEFT_IMPL_RAW(*weft_expected_),  \
				  WEFT_IMPL_RAW(weft_new_),                    \
				  WEFT_IMPL_IS_POINTER(weft_new_), weft_ok_,   \
				  weft_ok_ ? (succ) : (fail),                  \
				  WEFT_IMPL_U64(*weft_expected_),              \
				  WEFT_IMPL_IS_POINTER(*weft_expected_));      \
		if (weft_ok_ && *weft_expected_ != weft_new_)                  \
			weft_impl_changed(weft_self_);                         \
	}                                                                      \
	weft_ok_; })

/* ---- the public atomics ---------------------------------------------------- */

#ifndef WEFT_NO_INSTRUMENT

#define weft_atomic_load_explicit(obj, mo) WEFT_IMPL_LOAD(WEFT_RAW_LOAD, (obj), (mo))
#define weft_atomic_store_explicit(obj, desired, mo) \
	WEFT_IMPL_STORE(WEFT_RAW_LOAD, WEFT_RAW_STORE, (obj), (desired), (mo))
#define weft_atomic_exchange_explicit(obj, desired, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_EXCHANGE, WEFT_RAW_LOAD, WEFT_RAW_EXCHANGE, (obj), (desired), (mo))
#define weft_atomic_compare_exchange_strong_explicit(obj, expected, desired, succ, fail) \
	WEFT_IMPL_CAS(WEFT_RAW_CAS, (obj), (expected), (desired), (succ), (fail))
/* Under weft a weak compare-exchange never fails spuriously (see the header comment). */
#define weft_atomic_compare_exchange_weak_explicit(obj, expected, desired, succ, fail) \
	WEFT_IMPL_CAS(WEFT_RAW_CAS, (obj), (expected), (desired), (succ), (fail))
#define weft_atomic_fetch_add_explicit(obj, arg, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_ADD, WEFT_RAW_LOAD, WEFT_RAW_FETCH_ADD, (obj), (arg), (mo))
#define weft_atomic_fetch_sub_explicit(obj, arg, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_SUB, WEFT_RAW_LOAD, WEFT_RAW_FETCH_SUB, (obj), (arg), (mo))
#define weft_atomic_fetch_and_explicit(obj, arg, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_AND, WEFT_RAW_LOAD, WEFT_RAW_FETCH_AND, (obj), (arg), (mo))
#define weft_atomic_fetch_or_explicit(obj, arg, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_OR, WEFT_RAW_LOAD, WEFT_RAW_FETCH_OR, (obj), (arg), (mo))
#define weft_atomic_fetch_xor_explicit(obj, arg, mo) \
	WEFT_IMPL_RMW(WEFT_ACCESS_FETCH_XOR, WEFT_RAW_LOAD, WEFT_RAW_FETCH_XOR, (obj), (arg), (mo))
/*
 * A fence: the real one, and for the memory model a switch point (an SC
 * fence's place among other threads' SC fences is part of the schedule).
 */
#define weft_atomic_thread_fence(mo) __extension__({                            \
	int weft_mo_ = (mo);                                                   \
	WEFT_IMPL_SITE(WEFT_ACCESS_FENCE, &weft_impl_fence_object);            \
	(__atomic_thread_fence)(weft_mo_);                                     \
	struct weft_impl_thread *weft_self_ = weft_impl_current;               \
	if (weft_self_)                                                        \
		weft_impl_mem_fence(weft_self_, weft_mo_);                     \
	(void)0; })

#else /* WEFT_NO_INSTRUMENT: the plain C11 calls, nothing else */

#define weft_atomic_load_explicit atomic_load_explicit
#define weft_atomic_store_explicit atomic_store_explicit
#define weft_atomic_exchange_explicit atomic_exchange_explicit
#define weft_atomic_compare_exchange_strong_explicit atomic_compare_exchange_strong_explicit
#define weft_atomic_compare_exchange_weak_explicit atomic_compare_exchange_weak_explicit
#define weft_atomic_fetch_add_explicit atomic_fetch_add_explicit
#define weft_atomic_fetch_sub_explicit atomic_fetch_sub_explicit
#define weft_atomic_fetch_and_explicit atomic_fetch_and_explicit
#define weft_atomic_fetch_or_explicit atomic_fetch_or_explicit
#define weft_atomic_fetch_xor_explicit atomic_fetch_xor_explicit
#define weft_atomic_thread_fence atomic_thread_fence

#endif /* WEFT_NO_INSTRUMENT */

/* The sequentially consistent shorthands, as in <stdatomic.h>. */
#define weft_atomic_load(obj) weft_atomic_load_explicit((obj), memory_order_seq_cst)
#define weft_atomic_store(obj, v) weft_atomic_store_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_exchange(obj, v) weft_atomic_exchange_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_compare_exchange_strong(obj, e, d) \
	weft_atomic_compare_exchange_strong_explicit((obj), (e), (d), memory_order_seq_cst, memory_order_seq_cst)
#define weft_atomic_compare_exchange_weak(obj, e, d) \
	weft_atomic_compare_exchange_weak_explicit((obj), (e), (d), memory_order_seq_cst, memory_order_seq_cst)
#define weft_atomic_fetch_add(obj, v) weft_atomic_fetch_add_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_fetch_sub(obj, v) weft_atomic_fetch_sub_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_fetch_and(obj, v) weft_atomic_fetch_and_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_fetch_or(obj, v) weft_atomic_fetch_or_explicit((obj), (v), memory_order_seq_cst)
#define weft_atomic_fetch_xor(obj, v) weft_atomic_fetch_xor_explicit((obj), (v), memory_order_seq_cst)

/* ---- yield and atomic blocks ---------------------------------------------- */

/*
 * weft_yield(): a switch point with no memory access; the place to let other
 * threads run (spin-wait loops, back-off).  Outside an execution: sched_yield()
 * is not called, it is a no-op, so unmanaged code is unchanged.
 *
 * weft_atomic_begin() / weft_atomic_end(): no switch happens between them (the
 * seeds' ATOMIC).  Accesses inside are still recorded in the trace.  Blocks nest.
 * Call both on the same thread; inside a managed thread only (no-ops outside).
 */
WEFT_API void weft_atomic_begin(void);
WEFT_API void weft_atomic_end(void);

#ifndef WEFT_NO_INSTRUMENT
#define weft_yield() __extension__({ WEFT_IMPL_SITE(WEFT_ACCESS_YIELD, 0); })
#else
#define weft_yield() ((void)0)
#endif

#ifdef __cplusplus
}
#endif
#endif /* WEFT_ATOMIC_H */
