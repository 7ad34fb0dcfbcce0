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
 *   tso  x86's total store order: one FIFO store buffer per thread
 *        (memory_tso.c, design there): a store other than seq_cst waits in its
 *        thread's buffer; when another thread accesses its location, a data
 *        choice says how many of the stores stay buffered, 0 = none (commit
 *        them first), so again an exhausted input is SC;
 *   pso  partial store order: the same with one FIFO per thread and location.
 *
 * The interface is what the atomics' macros (weft/atomic.h: weft_impl_mem_*),
 * the switch point (switch_point.c: sched_mem_observe) and the blocking
 * primitives (sync.c: sched_mem_sync) call; memory.c dispatches to the model;
 * the report reads the weak reads an execution made (sched_mem_weak_reads).
 */
#ifndef WEFT_SCHED_MEMORY_H
#define WEFT_SCHED_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/atomic.h"
#include "mask.h"

enum sched_memory {
	SCHED_MEMORY_SC,
	SCHED_MEMORY_C11,
	SCHED_MEMORY_TSO,
	SCHED_MEMORY_PSO,
};

#define SCHED_MEM_MAX_LOCS 64     /* atomic locations one execution tracks; more: SC */
#define SCHED_MEM_HISTORY 8       /* stores per location a load may still read */
#define SCHED_MEM_MAX_WEAK 64     /* weak reads remembered for the report */
#define SCHED_MEM_BUFFER 16       /* TSO/PSO: stores one thread's buffer holds; more:
				     the oldest commits */

/*
 * A load that read an older store than the newest: which store, which newer
 * one it did not see, the trace event of the load.  Sites and threads only,
 * never addresses (the report prints them).  Under TSO/PSO (`buffered`): an
 * access of another thread that came before a buffered store committed; the
 * newer_* fields name the newest store left in the buffer, `skipped` how many
 * of that thread's stores to the location stayed buffered (the choice), and
 * store_* are unused.
 */
typedef struct sched_weak_read {
	size_t event;                 /* the load's event in the trace */
	bool buffered;                /* TSO/PSO: a delayed commit (see above) */
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
struct sched_event;
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
/* A join of `child` (sync.c): under TSO/PSO its buffered stores commit first. */
void sched_mem_joined_slow(struct weft_impl_thread *self, struct weft_impl_thread *child);
/*
 * TSO/PSO, from the switch point when some store is buffered: the access of
 * event e is about to happen; commit what the input says, drain the thread's
 * own buffer before a read-modify-write.
 */
void sched_mem_observe(struct weft_impl_thread *self, const struct sched_event *e);
/* TSO/PSO: commit every store of self's buffer (a full barrier). */
void sched_mem_drain(struct weft_impl_thread *self);
/* TSO/PSO: a block is freed (access.c): its buffered stores commit first. */
void sched_mem_freed(struct weft_impl_thread *self, const void *block, size_t size);
/* TSO/PSO: the execution is over: every buffer commits. */
void sched_mem_drain_all(struct sched_exec *exec);
/* A spinner's turn: every buffer commits (memory_tso.c; progress.c calls it). */
void sched_mem_drain_spinning(struct weft_impl_thread *self);
/*
 * C11, for progress.c: a spinner's view of every location becomes the newest
 * store (stores become visible eventually); true if it was behind, so it may
 * read something new.  false under the other models (their spinners drain).
 */
bool sched_mem_catch_up(struct weft_impl_thread *self);
/* C11: the threads of `spinners` whose view is behind some newest store. */
sched_mask sched_mem_behind(const struct sched_exec *exec, sched_mask spinners);
/* Commit every store of `owner`'s buffer, `self` committing (memory_tso.c). */
void sched_mem_drain_of(struct weft_impl_thread *self, struct weft_impl_thread *owner);
/*
 * The start and end of an operation (exec.c): SC fences under c11; under
 * tso/pso an end marks the thread's stores, which commit when any operation
 * begins (memory_tso.c).  Nothing while nothing is tracked or buffered.
 */
void sched_mem_op_begin_slow(struct weft_impl_thread *self);
void sched_mem_op_end_slow(struct weft_impl_thread *self);
/* The weak reads of the last execution, in trace order. */
size_t sched_mem_weak_reads(const struct sched_exec *exec, const sched_weak_read **out);

/*
 * Between memory.c (the entry points, which pick the model) and the models;
 * nothing else calls these.  The C11 model is called only for an access it
 * models (not seq_cst, or some location tracked); TSO/PSO loads only while
 * some store is buffered.
 */
void sched_c11_reset(struct sched_exec *exec);
void sched_c11_destroy(struct sched_exec *exec);
size_t sched_c11_weak_reads(const struct sched_exec *exec, const sched_weak_read **out);
void sched_c11_sync(struct weft_impl_thread *self);
uint64_t sched_c11_load(struct weft_impl_thread *self, uint64_t raw, bool is_pointer, int mo);
void sched_c11_store(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
		     bool is_pointer, int mo);
void sched_c11_rmw(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
		   bool is_pointer, bool wrote, int mo);
void sched_c11_fence(struct weft_impl_thread *self, int mo);
bool sched_c11_catch_up(struct weft_impl_thread *self);
bool sched_c11_behind(const struct sched_exec *exec, unsigned id);

void sched_tso_reset(struct sched_exec *exec);
void sched_tso_destroy(struct sched_exec *exec);
size_t sched_tso_weak_reads(const struct sched_exec *exec, const sched_weak_read **out);
uint64_t sched_tso_load(struct weft_impl_thread *self, uint64_t raw);
void sched_tso_op_begin(struct weft_impl_thread *self);
void sched_tso_op_end(struct weft_impl_thread *self);
void sched_tso_store(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
		     unsigned size, int mo);
bool sched_pso_store_store(const struct sched_exec *exec, int mo);

#endif /* WEFT_SCHED_MEMORY_H */
