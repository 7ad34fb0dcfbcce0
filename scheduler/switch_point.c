/*
 * scheduler/switch_point.c - the hot path: what every instrumented access costs.
 *
 * A switch point that does not switch: count the step, check the budget, tick
 * the strategy's countdown if another thread could run, append one event.  No
 * lock (only the baton holder runs), no system call, no indirect call.  The
 * hand-off itself (exec.c, sched_hand_off) is out of line and happens only when
 * the countdown reaches zero and the chosen thread differs from the caller.
 */
#include "sched.h"

/* The k-th runnable thread other than `self`, in thread-number order. */
static sched_thread *kth_other_runnable(sched_exec *exec, sched_thread *self, unsigned k)
{
	for (unsigned i = 0; i < exec->cfg.n_threads; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (t == self || t->finished)
			continue;
		if (k-- == 0)
			return t;
	}
	return NULL;   /* unreachable while n_runnable counts correctly */
}

static __attribute__((noinline)) void preempt(sched_thread *self)
{
	sched_exec *exec = self->exec;
	const sched_strategy *s = &exec->cfg.strategy;
	unsigned k = s->pick(s->self, exec->n_runnable - 1);
	sched_thread *next = kth_other_runnable(exec, self, k);
	sched_rearm_countdown(exec);
	sched_hand_off(self, next, true);
}

/* Returns true when the thread was preempted (and has been resumed since). */
bool sched_switch_point(sched_thread *self)
{
	sched_exec *exec = self->exec;
	if (__builtin_expect(++exec->steps > exec->cfg.step_budget, 0))
		sched_cut_execution(self);
	if (self->atomic_depth || exec->n_runnable < 2)
		return false;
	if (__builtin_expect(--exec->countdown != 0, 1))
		return false;
	preempt(self);
	return true;
}

void weft_impl_switch(struct weft_impl_thread *self, weft_site *site)
{
	sched_switch_point(self);
	sched_event *e = sched_trace_append(&self->exec->trace, (uint8_t)site->kind, (uint8_t)self->id);
	e->site_id = sched_site_id(site);
	e->site = site;
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
