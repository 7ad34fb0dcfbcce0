/*
 * weft/instrument.h - the runtime side of compiler instrumentation: what code
 * built with weft's pass plugin calls before each memory access.
 *
 * Nobody writes these calls by hand.  Build unmodified C with clang 14 and
 *
 *     -g -fpass-plugin=libweft_instrument.so -DWEFT_INSTRUMENTED
 *
 * (CMake: weft_add_program(NAME SOURCE INSTRUMENT); README, "Plain memory") and
 * the pass (instrument/weft_instrument.cpp) inserts, before every load and store
 * that may touch shared memory and every atomic instruction,
 *
 *     if (weft_impl_current) weft_impl_access(&site, addr, value);
 *
 * with one static weft_access_site per instruction, built at compile time from
 * its source location.  Outside a managed execution that is one thread-local
 * load and a branch.
 *
 * Which accesses are switch points (a step the schedule may preempt at) is the
 * run's choice, WEFT_ACCESSES (read when a runner is created; anything else
 * stops the process with exit 2):
 *   shared   (default) an atomic always; a plain access only if another managed
 *            thread touched the same 8-byte granule earlier in this execution
 *            (so a thread's own memory costs no steps, scheduler/access.c);
 *   all      every instrumented access;
 *   atomics  atomic instructions only (plain memory as before this header).
 * Limits of `shared`, stated loudly: a location two threads race on is a step
 * only from the second thread's first access on, so the very first access of
 * the first thread is never preempted (initialise shared data in main, as most
 * programs do, and it is: main is a managed thread too).  Granules are keyed by
 * address within one execution only; keys never reach a trace, a choice or a
 * report.  The table holds 12,288 granules per execution; past that every
 * plain access is a step.
 *
 * Atomic instructions follow the memory model (WEFT_MEMORY, default c11): a
 * relaxed or acquire load may read an older store, as through <weft/atomic.h>;
 * plain accesses are sequentially consistent.
 *
 * In binaries that contain instrumented code (the pass defines
 * weft_impl_instrumented_module), every release (unlock, sem_post, signal,
 * broadcast, a thread's end) is followed by a switch point too, so the window
 * right after an unlock can be explored.  Binaries without instrumented code
 * keep the schedules their reproducers encode.
 */
#ifndef WEFT_INSTRUMENT_H
#define WEFT_INSTRUMENT_H

#include <stdint.h>

#include "weft/atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_ORDER_PLAIN 0xff          /* not an atomic access */
#define WEFT_SITE_POINTER 1            /* the value is a pointer: recorded as NULL / non-NULL */
#define WEFT_SITE_RMW_OTHER 2          /* an atomic read-modify-write weft has no kind for */
#define WEFT_SITE_FREE 4               /* free() or delete (weft_impl_free_at) */
#define WEFT_SITE_GLOBAL 8             /* a plain access to a global or through a pointer
					  loaded from one: shared from its first access */

/*
 * One instrumented instruction, built by the pass as a private global.  `site`
 * comes first so the trace can point at it like at any other switch point; its
 * id hashes the file's basename, line, kind and column.  Without debug info,
 * `file` is the function's name and `line` the instruction's index in it.
 */
typedef struct weft_access_site {
	weft_site site;        /* file (basename), line, kind (weft_access), id (lazy) */
	uint32_t column;
	uint16_t size;         /* bytes accessed */
	uint8_t order;         /* memory_order of an atomic, WEFT_ORDER_PLAIN otherwise */
	uint8_t flags;         /* WEFT_SITE_* */
	const char *function;  /* the enclosing function */
} weft_access_site;

/*
 * Before the access at `site` to `addr`; `value` is what a store writes (0 for
 * loads).  Called by instrumented code only while weft_impl_current != NULL,
 * that is inside a managed execution; may switch threads (the access then
 * happens when this thread runs again, alone).  Cost when it is not a step: a
 * hash-table probe, a few ns (bench/bench_scheduler.c, row f).
 */
WEFT_API void weft_impl_access(weft_access_site *site, void *addr, uint64_t value);
/*
 * Before a memset, memcpy or memmove (the compiler's memory intrinsics, struct
 * copies and zeroing included) of `len` bytes at `addr`: one access to the whole
 * range, a load (source) or a store (destination) by site->site.kind, size 0.
 * Every granule of the range is recorded as touched (up to the first
 * WEFT_RANGE_GRANULES of it: 4 KiB); the call is one step if any of them was
 * touched by another thread (or in `all`).  So memory a thread fills with
 * memset counts as its own, and a later access by another thread is a step.
 */
#define WEFT_RANGE_GRANULES 512
WEFT_API void weft_impl_access_range(weft_access_site *site, void *addr, uint64_t len);
/*
 * Before free(ptr) or a C++ delete in instrumented code, at `site` (kind store):
 * with races checked, a write of the whole block (a use that does not happen
 * before it is a data race); then the block's granules are nobody's.
 * weft_impl_free is the same without a site (objects built by older passes).
 */
WEFT_API void weft_impl_free_at(weft_access_site *site, void *ptr);
WEFT_API void weft_impl_free(void *ptr);
/*
 * Right after malloc, calloc, realloc, aligned_alloc or a C++ new returned `ptr`
 * in instrumented code: with races checked, earlier accesses to these bytes
 * (of a block freed where the pass could not see it) are forgotten.
 */
WEFT_API void weft_impl_alloc(void *ptr);

/*
 * Right after an atomic instruction of 1-8 bytes, integer or pointer (issue 18):
 * the memory model (WEFT_MEMORY, scheduler/memory.h) sees it as it sees
 * <weft/atomic.h>'s calls (scheduler/access_memory.c).  Bits: integers
 * zero-extended, pointers whole.  A load's result is replaced by what
 * weft_impl_access_load returns (the newest store's bits or an older one's); a
 * store passes the bits it wrote; atomicrmw and cmpxchg their old bits,
 * whether they wrote, and the order that applied (cmpxchg's success or failure
 * order).  A `fence` (not singlethread) is one call before it: a switch point
 * and the model's fence.  Called only while weft_impl_current != NULL.
 * Floating-point, vector and wider atomics get none: they stay sequentially
 * consistent.
 */
WEFT_API uint64_t weft_impl_access_load(weft_access_site *site, uint64_t raw);
WEFT_API void weft_impl_access_store(weft_access_site *site, uint64_t raw);
WEFT_API void weft_impl_access_rmw(weft_access_site *site, void *addr, uint64_t old_raw,
				   uint32_t wrote, int mo);
WEFT_API void weft_impl_access_fence(weft_access_site *site);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_INSTRUMENT_H */
