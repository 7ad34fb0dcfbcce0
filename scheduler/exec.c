/*
 * scheduler/exec.c - one managed execution, from the first hand-off to the last.
 *
 * The controlling thread (the fuzzer's) resets the execution and transfers the
 * CPU to thread 0 (transfer.c: a baton hand-off or a fiber switch, whichever
 * the pool's backend is; nothing here depends on which).  Threads run, switch
 * at switch points (switch_point.c) and, when their body returns, transfer to
 * the lowest-numbered unfinished thread; the last one transfers back to the
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
	sched_access_destroy(exec);
	sched_mem_destroy(exec);
}

static void reset_thread(sched_thread *t, sched_exec *exec, bool started)
{
	t->exec = exec;
	t->atomic_depth = 0;
	t->finished = !started;
	t->call = 0;
	t->call_step = 0;
	t->pending_addr = NULL;   /* no access pending before its first instrumented one */
	t->preempt_at = UINT64_MAX;
	t->wait = SCHED_WAIT_NONE;
	t->timed = t->timed_out = false;
	t->wait_sync = -1;
	t->wait_site = NULL;
	t->quiet = t->seen_epoch = t->solo = 0;
	t->start = NULL;
	t->start_arg = t->retval = NULL;
}

#define SCHED_DEFAULT_SPIN_LIMIT 64
#define SCHED_DEFAULT_LIVELOCK_LIMIT 1000

static void reset_execution(sched_exec *exec, const sched_exec_config *cfg)
{
	exec->cfg = *cfg;
	if (!exec->cfg.spin_limit)
		exec->cfg.spin_limit = SCHED_DEFAULT_SPIN_LIMIT;
	if (!exec->cfg.livelock_limit)
		exec->cfg.livelock_limit = SCHED_DEFAULT_LIVELOCK_LIMIT;
	if (!exec->cfg.solo_limit)
		exec->cfg.solo_limit = UINT64_MAX;
	exec->current = NULL;
	exec->n_slots = cfg->max_threads > cfg->n_threads ? cfg->max_threads : cfg->n_threads;
	exec->n_started = cfg->n_threads;
	exec->runnable = exec->live = sched_first_n(cfg->n_threads);
	exec->spinning = 0;
	exec->stalled = 0;
	exec->steps = 0;
	exec->preemptions = 0;
	exec->switches = 0;
	exec->cut = false;
	exec->epoch = 0;
	exec->stop = SCHED_STOP_NONE;
	exec->stop_thread = 0;
	exec->stop_message[0] = 0;
	exec->n_sync = 0;
	exec->wait_counter = 0;
	sched_trace_reset(&exec->trace);
	sched_access_reset(exec);
	sched_mem_reset(exec);
	exec->n_choices = 0;
	for (unsigned i = 0; i < cfg->n_threads; i++)   /* spawned ones: sched_spawn_slot */
		reset_thread(exec->pool->threads[i], exec, true);
	if (cfg->races)
		sched_race_start(exec);
}

int sched_exec_run(sched_exec *exec, const sched_exec_config *cfg)
{
	if (cfg->n_threads == 0 || cfg->n_threads > SCHED_MAX_THREADS ||
	    cfg->max_threads > SCHED_MAX_THREADS)
		return -1;
	/* spawned threads' slots are made when spawned (sched_spawn_slot): 128 workers
	   for a program that starts two would cost 128 pthreads or stacks up front */
	if (sched_pool_reserve(exec->pool, cfg->n_threads) != 0)
		return -1;
	sched_pool_hold_controller(exec->pool);
	reset_execution(exec, cfg);
	sched_thread *first = exec->pool->threads[0];
	exec->current = first;
	sched_transfer(exec->pool, NULL, first);
	exec->current = NULL;
	if (exec->mem_buffered)
		sched_mem_drain_all(exec);   /* TSO/PSO: threads may end with stores buffered */
	sched_pool_release_controller(exec->pool);
	return 0;
}

uint64_t sched_choose(sched_exec *exec, uint64_t bound)
{
	const sched_strategy *s = &exec->cfg.strategy;
	uint64_t v = s->choose ? s->choose(s->self, bound) : 0;
	if (bound)
		v %= bound;
	if (exec->n_choices < SCHED_MAX_CHOICES)
		exec->choice[exec->n_choices] = (sched_choice){ bound, v };
	exec->n_choices++;
	return v;
}

sched_thread *sched_runnable_from(sched_exec *exec, sched_mask mask, unsigned wanted)
{
	unsigned n = exec->n_slots;
	for (unsigned i = 0; i < n; i++) {
		unsigned t = (wanted + i) % n;
		if (sched_has(mask, t))
			return exec->pool->threads[t];
	}
	return NULL;
}

sched_thread *sched_spawn_slot(sched_exec *exec, unsigned id)
{
	if (id >= exec->n_slots || sched_pool_reserve(exec->pool, id + 1) != 0)
		return NULL;
	sched_thread *t = exec->pool->threads[id];
	reset_thread(t, exec, true);
	return t;
}

sched_thread *sched_forced_next(sched_exec *exec, sched_thread *self)
{
	sched_mask mask = exec->runnable & ~sched_bit(self->id);
	if (mask == 0)
		return NULL;
	if ((mask & (mask - 1)) == 0)   /* one candidate: no question to ask */
		return sched_runnable_from(exec, mask, 0);
	const sched_strategy *s = &exec->cfg.strategy;
	unsigned wanted = s->pick(s->self, self->id, self->call, self->call_step, mask, true);
	return sched_runnable_from(exec, mask, wanted % exec->n_slots);
}

static void record_switch(sched_exec *exec, sched_thread *from, sched_thread *to, bool preemptive)
{
	sched_event *e = sched_trace_append(&exec->trace,
					    preemptive ? SCHED_EV_PREEMPT : SCHED_EV_SWITCH,
					    (uint8_t)from->id);
	e->other = (uint8_t)to->id;
	if (!preemptive)   /* why the thread let go: 0 finished, 1 blocked, 2 spinning */
		e->value = from->finished ? 0 : from->wait != SCHED_WAIT_NONE ? 1 : 2;
	exec->switches++;
	exec->preemptions += preemptive;
}

/* Threads blocked in pthread_join on `self` may go on. */
static void wake_joiners(sched_exec *exec, sched_thread *self)
{
	for (unsigned i = 0; i < exec->n_started; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (t->wait == SCHED_WAIT_JOIN && t->wait_sync == (int16_t)self->id)
			sched_unblock(exec, t);
	}
}

/*
 * Who runs after `self` left the set of runnable threads (finished or
 * blocked): the strategy's pick, else a waiter that times out or a spinner,
 * else nobody can run.  A stall with threads still live stops the execution.
 */
static sched_thread *next_after(sched_exec *exec, sched_thread *self)
{
	if (exec->cut)
		return sched_runnable_from(exec, exec->live, 0);
	sched_thread *next = sched_forced_next(exec, self);
	if (!next)
		next = sched_resolve_stall(exec);
	if (!next && exec->live) {
		exec->stop = SCHED_STOP_STALL;
		exec->stop_thread = (uint8_t)self->id;
		exec->stalled = exec->live;
		exec->cut = true;
		sched_trace_append(&exec->trace, SCHED_EV_STALL, (uint8_t)self->id);
		if (!self->finished)
			return self;   /* it unwinds first (sched_block) */
		next = sched_runnable_from(exec, exec->live, 0);
	}
	return next;
}

/* Worker side of sched_thread_run: the thread's body is over (returned or unwound). */
static void finish_thread(sched_thread *self)
{
	sched_exec *exec = self->exec;
	self->finished = true;
	exec->runnable &= ~sched_bit(self->id);
	exec->live &= ~sched_bit(self->id);
	if (!exec->cut)
		wake_joiners(exec, self);
	sched_thread *next = next_after(exec, self);
	if (next && !exec->cut)
		record_switch(exec, self, next, false);
	exec->current = next;
	/*
	 * After this the execution belongs to someone else: touch nothing.  It
	 * returns when the next execution (or the pool's shutdown) starts us.
	 */
	sched_transfer(exec->pool, self, next);
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

void sched_block(sched_thread *self)
{
	sched_exec *exec = self->exec;
	exec->runnable &= ~sched_bit(self->id);
	sched_event *e = sched_trace_append(&exec->trace, SCHED_EV_BLOCK, (uint8_t)self->id);
	e->value = (uint64_t)self->wait;
	e->site_id = (uint32_t)(self->wait_sync + 1);
	sched_thread *next = next_after(exec, self);
	if (exec->cut)
		longjmp(self->unwind, 1);
	if (next == self)
		return;   /* its own wait ended at once (a timeout) */
	sched_hand_off(self, next, false);
}

void sched_unblock(sched_exec *exec, sched_thread *t)
{
	t->wait = SCHED_WAIT_NONE;
	if (sched_has(exec->live, t->id))
		exec->runnable |= sched_bit(t->id);
}

__attribute__((noinline)) void sched_hand_off(sched_thread *self, sched_thread *next, bool preemptive)
{
	sched_exec *exec = self->exec;
	record_switch(exec, self, next, preemptive);
	exec->current = next;
	sched_transfer(exec->pool, self, next);
	if (exec->cut)
		longjmp(self->unwind, 1);
	sched_note_resumed(self);
}

void sched_stop_execution(sched_thread *self, enum sched_stop why)
{
	sched_exec *exec = self->exec;
	if (exec->stop == SCHED_STOP_NONE) {
		exec->stop = (uint8_t)why;
		exec->stop_thread = (uint8_t)self->id;
	}
	exec->cut = true;
	sched_event *e = sched_trace_append(&exec->trace, SCHED_EV_CUT, (uint8_t)self->id);
	e->value = why;
	longjmp(self->unwind, 1);
}

void sched_cut_execution(sched_thread *self)
{
	sched_stop_execution(self, SCHED_STOP_BUDGET);
}

void sched_call_begin(uint32_t call)
{
	sched_thread *self = weft_impl_current;
	self->call = call;
	self->call_step = 0;
	self->pending_addr = NULL;
	self->solo = 0;
	sched_arm_preemption(self->exec, self);
	sched_switch_point(self);   /* step 1 of the call: before it starts */
}

void sched_op_begin(uint32_t call)
{
	sched_thread *self = weft_impl_current;
	sched_call_begin(call);
	/*
	 * Operation boundaries are SC fences for the memory model: linearizability
	 * orders an operation after every one that ended before it began, so the
	 * harness's own bookkeeping synchronizes them (as a real test harness's
	 * would); weak behaviour is explored between overlapping operations.
	 * (Under TSO/PSO the end only marks the stores; see memory_tso.c.)
	 */
	sched_mem_op_begin(self);
	sched_event *e = sched_trace_append(&self->exec->trace, SCHED_EV_OP_BEGIN, (uint8_t)self->id);
	e->site_id = call;
	e->value = call;
}

void sched_op_end(uint32_t call, int64_t result)
{
	sched_thread *self = weft_impl_current;
	sched_mem_op_end(self);   /* see sched_op_begin */
	sched_event *e = sched_trace_append(&self->exec->trace, SCHED_EV_OP_END, (uint8_t)self->id);
	e->site_id = call;
	e->value = (uint64_t)result;
}
