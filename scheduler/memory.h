/*
 * scheduler/memory.h - the memory model behind the atomics' switch points.
 *
 * Models (WEFT_MEMORY, runner/runner.c; exec->cfg.memory):
 *   sc   every atomic reads the newest store: sequential consistency, weft's
 *        behaviour before issue 18;
 *   c11  C11's release/acquire/relaxed atomics and fences under a view-based
 *        operational semantics (memory_c11.c, design there): a load may read an
 *        older store it has no happens-before to a newer one of.  Which one is a
 *        data choice (strategy.h `choose`), 0 = the newest store, so an
 *        exhausted input is the sequentially consistent execution.
 *
 * The interface is what the atomics' macros (weft/atomic.h: weft_impl_mem_*)
 * and the blocking primitives (sync.c: sched_mem_sync) call; the report reads
 * the weak reads an execution made (sched_mem_weak_reads).
 */
#ifndef WEFT_SCHED_MEMORY_H
#define WEFT_SCHED_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/atomic.h"

enum sched_memory {
	SCHED_MEMORY_SC,
	SCHED_MEMORY_C11,
};

#define SCHED_MEM_MAX_LOCS 64     /* atomic locations one execution tracks; more: SC */
#define SCHED_MEM_HISTORY 8       /* stores per location a load may still read */
#define SCHED_MEM_MAX_WEAK 64     /* weak reads remembered for the report */

/*
 * A load that read an older store than the newest: which store, which newer
 * one it did not see, the trace event of the load.  Sites and threads only,
 * never addresses (the report prints them).
 */
typedef struct sched_weak_read {
	size_t event;                 /* the load's event in the trace */
	const weft_site *store_site;  /* the store it read from (NULL: the value before
					 weft tracked the location, see memory_c11.c) */
	size_t store_event;           /* the store's event (when store_site) */
	size_t newer_event;
	uint8_t store_thread;
	uint64_t store_value;         /* trace value (pointers: 0/1) */
	const weft_site *newer_site;  /* the newest store, which it did not see */
	uint8_t newer_thread;
	uint64_t newer_value;
	unsigned skipped;             /* stores newer than the one read (the choice) */
} sched_weak_read;

struct sched_exec;
struct weft_impl_thread;

/* Per execution: forget every location (exec.c, at the start). */
void sched_mem_reset(struct sched_exec *exec);
void sched_mem_destroy(struct sched_exec *exec);
/*
 * A synchronisation of a blocking primitive (lock, unlock, post, wait, spawn,
 * thread start, join): a sequentially consistent fence, so that what a lock or
 * a join orders in C11 is ordered here too.  Nothing while no location is tracked.
 */
void sched_mem_sync_slow(struct weft_impl_thread *self);
/* The weak reads of the last execution, in trace order. */
size_t sched_mem_weak_reads(const struct sched_exec *exec, const sched_weak_read **out);

#endif /* WEFT_SCHED_MEMORY_H */
