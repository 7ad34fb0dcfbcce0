/*
 * scheduler/switch_point.c - the hot path: what every instrumented access costs.
 *
 * A switch point that does not switch: count the step, check the budget, count
 * the thread's step in its call and compare it with the strategy's next
 * preemption, count its quiet and solo steps (progress.c), append one event.  No
 * lock (only the baton holder runs), no system call, no indirect call.  The
 * hand-off itself (exec.c, sched_hand_off) is out of line and happens only when
 * the preemption is due and another thread can run.
 */
#include "sched.h"

/* Past a progress limit (progress.c): one branch for both. */
static inline bool over_limits(const sched_thread *self, const sched_exec *exec)
{
	return (self->quiet > exec->cfg.spin_limit) | (self->solo > exec->cfg.solo_limit);
}

/*
 * The strategy's preemption is due: switch if another thread can run.  When
 * the thread goes on instead, the step counts as quiet and solo like any
 * other: a strategy that is asked at every step (systematic mode) must not
 * switch the spin and livelock checks off, or a spinner behind a preempted
 * thread runs to the step budget, and the input written for that execution
 * replays differently under the byte strategy, which is asked rarely.
 */
static __attribute__((noinline)) bool preempt(sched_thread *self)
{
	sched_exec *exec = self->exec;
	const sched_strategy *s = &exec->cfg.strategy;
	sched_thread *next = NULL;
	sched_mask others = exec->runnable & ~sched_bit(self->id);
	if (others) {
		unsigned wanted = s->pick(s->self, self->id, self->call, self->call_step,
					  others, false);
		if (wanted != self->id)
			next = sched_runnable_from(exec, others, wanted % exec->n_slots);
	}
	sched_arm_preemption(exec, self);
	if (next) {
		sched_hand_off(self, next, true);
		return true;
	}
	self->quiet++;
	self->solo++;
	return over_limits(self, exec) ? sched_progress_check(self) : false;
}

/* Returns true when the thread was preempted (and has been resumed since). */
bool sched_switch_point(sched_thread *self)
{
	sched_exec *exec = self->exec;
	if (__builtin_expect(++exec->steps > exec->cfg.step_budget, 0))
		sched_cut_execution(self);
	if (self->atomic_depth)
		return false;
	if (__builtin_expect(++self->call_step == self->preempt_at, 0))
		return preempt(self);
	self->quiet++;
	self->solo++;
	if (__builtin_expect(over_limits(self, exec), 0))
		return sched_progress_check(self);
	return false;
}

void weft_impl_switch(struct weft_impl_thread *self, weft_site *site, const volatile void *addr)
{
	self->pending_addr = (const void *)addr;   /* what a strategy deciding now sees */
	self->pending_kind = (uint8_t)site->kind;
	sched_switch_point(self);
	sched_event *e = sched_trace_append(&self->exec->trace, (uint8_t)site->kind, (uint8_t)self->id);
	e->site_id = sched_site_id_cached(&self->exec->site_ids, site, 0);
	e->site = site;
	e->addr = (const void *)addr;
	/* TSO/PSO: commits the input delays are decided before the access (memory_tso.c) */
	if (__builtin_expect(self->exec->mem_buffered != 0, 0))
		sched_mem_observe(self, e);
}

void weft_impl_note(struct weft_impl_thread *self, uint64_t value, bool is_pointer)
{
	sched_trace *t = &self->exec->trace;
	sched_event *e = &t->events[t->n - 1];   /* this thread's access, appended just now */
	e->value = value;
	e->is_pointer = is_pointer;
}

void weft_atomic_begin(void)
{
	if (weft_impl_current)
		weft_impl_current->atomic_depth++;
}

void weft_atomic_end(void)
{
	if (weft_impl_current && weft_impl_current->atomic_depth)
		weft_impl_current->atomic_depth--;
}
