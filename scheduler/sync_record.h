/*
 * scheduler/sync_record.h - what the blocking primitives share (internal):
 * the execution's record of an object, its switch point, waiting and waking.
 *
 * sync.c owns the records and the common primitives (mutexes, conditions,
 * rwlocks, semaphores, threads); sync_barrier.c adds the rarer ones (barriers,
 * spin locks, once) on the same helpers, so that every blocking call follows
 * the same rules: a switch point first, then the record, never the real object.
 */
#ifndef WEFT_SCHED_SYNC_RECORD_H
#define WEFT_SCHED_SYNC_RECORD_H

#include "sched.h"

/* In a sequential replay (sched_replay_jump), a call that would block never returns. */
int sched_sync_replay_blocks(int rc);
/* Stop the execution with verdict misuse and this message. */
__attribute__((noreturn, format(printf, 2, 3)))
void sched_sync_misuse(sched_thread *self, const char *fmt, ...);
/* The switch point of a call; returns its event's index (its value is set later). */
size_t sched_sync_point(sched_thread *self, weft_site *site, const void *addr);
/* After a release: a switch point in binaries with instrumented code. */
void sched_sync_after_release(sched_thread *self);
/* The event's object number and value (the outcome). */
void sched_sync_event(sched_thread *self, size_t ev, const sched_sync *o, uint64_t value);
/* The execution's record of the object at `addr`, created on first use. */
sched_sync *sched_sync_of(sched_thread *self, const void *addr, uint8_t kind,
			  const weft_site *site);
/* Block until woken for `why` on `o`; returns 1 if the wait timed out. */
int sched_sync_wait(sched_thread *self, sched_sync *o, enum sched_wait why, weft_site *site,
		    bool timed);
/* Every thread waiting for `why` on `o` becomes runnable (and retries). */
void sched_sync_wake_all(sched_exec *exec, const sched_sync *o, enum sched_wait why);
/* Take / give back a lock record (mutex or spin lock): memory sync, races, progress. */
void sched_sync_lock(sched_thread *self, sched_sync *o, weft_site *site);
void sched_sync_unlock(sched_thread *self, sched_sync *o);
/* A barrier's thread count, read from the real object (sync_barrier.c). */
int64_t sched_sync_barrier_count(const void *barrier);

#endif /* WEFT_SCHED_SYNC_RECORD_H */
