/*
 * scheduler/exec.c - one managed execution, from the first hand-off to the last.
 *
 * The controlling thread (the fuzzer's) resets the execution, passes the baton to
 * thread 0 and sleeps on its own baton.  Threads run, switch at switch points
 * (switch_point.c) and, when their body returns, hand the baton to the
 * lowest-numbered unfinished thread; the last one hands it back to the
 * controller.  Nothing here allocates per execution except the trace's growth.
 *
 * Cutting (step budget): the thread that exhausts the budget marks the execution
 * cut and longjmps to its worker loop; every other unfinished thread is then
 * resumed in turn and, finding the execution cut, unwinds the same way (threads
 * parked in sched_hand_off) or skips its body (threads not yet started).  The
 * operation each was in stays pending in the history.
 */
#include "sched.h"

#include <string.h>

_Thread_local struct weft_impl_thread *weft_impl_current;

void sched_exec_init(sched_exec *exec, sched_pool *pool)
{
	memset(exec, 0, sizeof *exec);
	exec->pool = pool;
}

void sched_exec_destroy(sched_exec *exec)
{
	sched_trace_free(&exec->trace);
}

static void reset_execution(sched_exec *exec, const sched_exec_config *cfg)
{
	exec->cfg = *cfg;
	exec->current = NULL;
	exec->runnable = (uint32_t)((1ull << cfg->n_threads) - 1);
	exec->steps = 0;
	exec->preemptions = 0;
	exec->switches = 0;
	exec->cut = false;
	sched_trace_reset(&exec->trace);
	for (unsigned i = 0; i < cfg->n_threads; i++) {
		sched_thread *t = exec->pool->threads[i];
		t->exec = exec;
		t->atomic_depth = 0;
		t->finished = false;
		t->call = 0;
		t->call_step = 0;
		t->preempt_at = UINT64_MAX;
	}
}

int sched_exec_run(sched_exec *exec, const sched_exec_config *cfg)
{
	if (cfg->n_threads == 0 || cfg->n_threads > SCHED_MAX_THREADS)
		return -1;
	if (sched_pool_reserve(exec->pool, cfg->n_threads) != 0)
		return -1;
	sched_pool_hold_controller(exec->pool);
	reset_execution(exec, cfg);
	sched_thread *first = exec->pool->threads[0];
	exec->current = first;
	sched_baton_pass(&first->baton);
	sched_baton_wait(&exec->controller);
	exec->current = NULL;
	sched_pool_release_controller(exec->pool);
	return 0;
}

sched_thread *sched_runnable_from(sched_exec *exec, uint32_t mask, unsigned wanted)
{
	unsigned n = exec->cfg.n_threads;
	for (unsigned i = 0; i < n; i++) {
		unsigned t = (wanted + i) % n;
		if (mask & (1u << t))
			return exec->pool->threads[t];
	}
	return NULL;
}

sched_thread *sched_forced_next(sched_exec *exec, sched_thread *self)
{
	uint32_t mask = exec->runnable & ~(1u << self->id);
	if (mask == 0)
		return NULL;
	if ((mask & (mask - 1)) == 0)   /* one candidate: no question to ask */
		return sched_runnable_from(exec, mask, 0);
	const sched_strategy *s = &exec->cfg.strategy;
	unsigned wanted = s->pick(s->self, self->id, self->call, self->call_step, mask, true);
	return sched_runnable_from(exec, mask, wanted % exec->cfg.n_threads);
}

static void record_switch(sched_exec *exec, sched_thread *from, sched_thread *to, bool preemptive)
{
	sched_event *e = sched_trace_append(&exec->trace,
					    preemptive ? SCHED_EV_PREEMPT : SCHED_EV_SWITCH,
					    (uint8_t)from->id);
	e->other = (uint8_t)to->id;
	exec->switches++;
	exec->preemptions += preemptive;
}

/* Worker side of sched_thread_run: the thread's body is over (returned or unwound). */
static void finish_thread(sched_thread *self)
{
	sched_exec *exec = self->exec;
	self->finished = true;
	exec->runnable &= ~(1u << self->id);
	sched_thread *next = exec->cut ? sched_runnable_from(exec, exec->runnable, 0)
				       : sched_forced_next(exec, self);
	if (next && !exec->cut)
		record_switch(exec, self, next, false);
	exec->current = next;
	/* After this pass the execution belongs to someone else: touch nothing. */
	sched_baton_pass(next ? &next->baton : &exec->controller);
}

void sched_thread_run(sched_thread *self)
{
	sched_exec *exec = self->exec;
	weft_impl_current = self;
	if (!exec->cut) {
		if (setjmp(self->unwind) == 0)
			exec->cfg.body(exec->cfg.body_ctx, self->id);
	}
	weft_impl_current = NULL;
	finish_thread(self);
}

__attribute__((noinline)) void sched_hand_off(sched_thread *self, sched_thread *next, bool preemptive)
{
	sched_exec *exec = self->exec;
	record_switch(exec, self, next, preemptive);
	exec->current = next;
	sched_baton_pass(&next->baton);
	sched_baton_wait(&self->baton);
	if (exec->cut)
		longjmp(self->unwind, 1);
}

void sched_cut_execution(sched_thread *self)
{
	sched_exec *exec = self->exec;
	exec->cut = true;
	sched_trace_append(&exec->trace, SCHED_EV_CUT, (uint8_t)self->id);
	longjmp(self->unwind, 1);
}

void sched_op_begin(uint32_t call)
{
	sched_thread *self = weft_impl_current;
	self->call = call;
	self->call_step = 0;
	sched_arm_preemption(self->exec, self);
	sched_switch_point(self);   /* step 1 of the call: before it starts */
	sched_event *e = sched_trace_append(&self->exec->trace, SCHED_EV_OP_BEGIN, (uint8_t)self->id);
	e->site_id = call;
	e->value = call;
}

void sched_op_end(uint32_t call, int64_t result)
{
	sched_thread *self = weft_impl_current;
	sched_event *e = sched_trace_append(&self->exec->trace, SCHED_EV_OP_END, (uint8_t)self->id);
	e->site_id = call;
	e->value = (uint64_t)result;
}
