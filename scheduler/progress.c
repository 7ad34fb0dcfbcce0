/*
 * scheduler/progress.c - spinning, livelock, obstruction-freedom and stalls:
 * what the scheduler does when a thread makes no progress.
 *
 * Why: a managed execution runs one thread at a time and switches only where the
 * schedule says.  A thread that spins on a flag (a spinlock, a ready bit) while
 * the thread that would set it is preempted would spin until the step budget:
 * a false bug, the most common complaint about loom and Lincheck.  So:
 *
 *   - every change of shared memory (a store or read-modify-write that changed
 *     the value, a lock taken or released, a post, a signal) bumps the
 *     execution's epoch;
 *   - a thread's `quiet` count is its switch points since the epoch last moved;
 *     past `spin_limit` it is a spinner: if another thread can run, it is
 *     descheduled (not a preemption: the schedule did not ask for it) until
 *     the epoch moves again;
 *   - under C11 a spinner is judged only once it has seen every store
 *     (memory_c11.c, sched_mem_catch_up): if its view was behind, it catches
 *     up and spins on, reading the newest; under TSO/PSO the buffers drain;
 *   - if nobody else can run, it goes on alone; past `livelock_limit` quiet
 *     steps with nobody able to change anything (nor any parked spinner able
 *     to see a store it has not seen), it can never finish: livelock;
 *   - for a target that claims obstruction-freedom, `solo` counts the switch
 *     points of one operation since its thread last resumed; past `solo_limit`
 *     the operation did not finish running alone: not obstruction-free.
 *
 * A stall (no runnable thread, some live) is resolved here first: a waiter
 * whose wait may end by itself (a timed wait, a spurious wake-up the target
 * allows) times out, else a descheduled spinner resumes; only then is it a
 * stall (exec.c).  Everything is deterministic: lowest-numbered thread first.
 */
#include "sched.h"

void sched_note_change(sched_thread *self)
{
	sched_exec *exec = self->exec;
	exec->epoch++;
	self->seen_epoch = exec->epoch;
	self->quiet = 0;
	if (exec->spinning) {
		exec->runnable |= exec->spinning & exec->live;
		exec->spinning = 0;
	}
}

void weft_impl_changed(struct weft_impl_thread *self)
{
	sched_note_change(self);
}

void sched_note_resumed(sched_thread *self)
{
	if (self->seen_epoch != self->exec->epoch) {
		self->seen_epoch = self->exec->epoch;
		self->quiet = 0;
	}
	self->solo = 0;
}

/* Take `self` off the runnable set until memory changes; another thread runs. */
static void deschedule_spinner(sched_thread *self)
{
	sched_exec *exec = self->exec;
	exec->spinning |= sched_bit(self->id);
	exec->runnable &= ~sched_bit(self->id);
	sched_trace_append(&exec->trace, SCHED_EV_SPIN, (uint8_t)self->id);
	sched_thread *next = sched_forced_next(exec, self);
	sched_hand_off(self, next, false);
}

/*
 * C11: parked spinners whose view fell behind a newer store (one that left
 * the value as it was, so no change woke them) run again before a livelock
 * is declared: they catch up when they next look (sched_progress_check).
 */
static bool resume_behind(sched_exec *exec)
{
	sched_mask behind = sched_mem_behind(exec, exec->spinning & exec->live);
	exec->spinning &= ~behind;
	exec->runnable |= behind;
	return behind != 0;
}

bool sched_progress_check(sched_thread *self)
{
	sched_exec *exec = self->exec;
	if (self->solo > exec->cfg.solo_limit)
		sched_stop_execution(self, SCHED_STOP_OBSTRUCTION);
	if (self->quiet <= exec->cfg.spin_limit)
		return false;
	if (exec->mem_buffered) {   /* store buffers drain before a spin is judged */
		sched_mem_drain_spinning(self);
		return false;
	}
	if (sched_mem_catch_up(self)) {   /* C11: it sees every store, and spins on */
		self->quiet = 0;
		return false;
	}
	if (exec->runnable & ~sched_bit(self->id)) {
		deschedule_spinner(self);
		return true;
	}
	if (self->quiet > exec->cfg.livelock_limit) {
		if (resume_behind(exec)) {   /* they may see what ends their spin */
			deschedule_spinner(self);
			return true;
		}
		sched_stop_execution(self, SCHED_STOP_LIVELOCK);
	}
	return false;
}

/* The lowest-numbered live thread whose wait may end by itself, or NULL. */
static sched_thread *timed_waiter(sched_exec *exec)
{
	for (unsigned i = 0; i < exec->n_started; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (sched_has(exec->live, i) && t->wait != SCHED_WAIT_NONE && t->timed)
			return t;
	}
	return NULL;
}

sched_thread *sched_resolve_stall(sched_exec *exec)
{
	sched_thread *t = timed_waiter(exec);
	if (t) {
		t->timed_out = true;
		sched_unblock(exec, t);
		return t;
	}
	sched_mask spinners = exec->spinning & exec->live;
	if (spinners) {
		t = sched_runnable_from(exec, spinners, 0);
		exec->spinning &= ~sched_bit(t->id);
		exec->runnable |= sched_bit(t->id);
		return t;
	}
	return NULL;
}
