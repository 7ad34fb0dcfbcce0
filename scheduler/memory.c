/*
 * scheduler/memory.c - the atomics' entry points into the memory model: which
 * model (exec->cfg.memory, WEFT_MEMORY) handles an access, and the trace value
 * every access records whatever the model.
 *
 * Why a file of its own: two models (memory_c11.c, memory_tso.c) sit behind
 * one interface, and the cheap tests that let code using only seq_cst pay
 * nothing stay here, before any call into a model: under c11 a seq_cst access
 * while no location is tracked, under tso/pso a load while no store is
 * buffered, costs one compare.
 */
#include "memory.h"

#include "sched.h"

void sched_mem_reset(sched_exec *exec)
{
	sched_c11_reset(exec);
	sched_tso_reset(exec);
}

void sched_mem_destroy(sched_exec *exec)
{
	sched_c11_destroy(exec);
	sched_tso_destroy(exec);
}

size_t sched_mem_weak_reads(const sched_exec *exec, const sched_weak_read **out)
{
	if (exec->cfg.memory == SCHED_MEMORY_TSO || exec->cfg.memory == SCHED_MEMORY_PSO)
		return sched_tso_weak_reads(exec, out);
	return sched_c11_weak_reads(exec, out);
}

void sched_mem_sync_slow(sched_thread *self)
{
	if (self->exec->cfg.memory == SCHED_MEMORY_C11)
		sched_c11_sync(self);
	else
		sched_mem_drain(self);   /* a blocking primitive is a full barrier */
}

void sched_mem_joined_slow(sched_thread *self, sched_thread *child)
{
	if (self->exec->cfg.memory != SCHED_MEMORY_C11)
		sched_mem_drain_of(self, child);
	sched_mem_sync_slow(self);
}

void sched_mem_op_begin_slow(sched_thread *self)
{
	if (self->exec->cfg.memory == SCHED_MEMORY_C11)
		sched_c11_sync(self);
	else
		sched_tso_op_begin(self);
}

void sched_mem_op_end_slow(sched_thread *self)
{
	if (self->exec->cfg.memory == SCHED_MEMORY_C11)
		sched_c11_sync(self);
	else
		sched_tso_op_end(self);
}

bool sched_mem_catch_up(sched_thread *self)
{
	const sched_exec *exec = self->exec;
	return exec->cfg.memory == SCHED_MEMORY_C11 && exec->mem_locs && sched_c11_catch_up(self);
}

sched_mask sched_mem_behind(const sched_exec *exec, sched_mask spinners)
{
	sched_mask behind = 0;
	if (exec->cfg.memory != SCHED_MEMORY_C11 || !exec->mem_locs)
		return 0;
	for (; spinners; spinners &= spinners - 1) {
		unsigned t = sched_lowest(spinners);
		if (sched_c11_behind(exec, t))
			behind |= sched_bit(t);
	}
	return behind;
}

static bool c11_models(const sched_exec *exec, int mo)
{
	return exec->cfg.memory == SCHED_MEMORY_C11 &&
	       (mo != memory_order_seq_cst || exec->mem_locs);
}

static bool store_buffers(const sched_exec *exec)
{
	return exec->cfg.memory >= SCHED_MEMORY_TSO;
}

static void note(sched_thread *self, uint64_t value, bool is_pointer)
{
	sched_trace *t = &self->exec->trace;
	sched_event *e = &t->events[t->n - 1];   /* this access, appended by the switch */
	e->value = value;
	e->is_pointer = is_pointer;
}

uint64_t weft_impl_mem_load(struct weft_impl_thread *self, uint64_t raw, bool is_pointer, int mo)
{
	sched_exec *exec = self->exec;
	if (c11_models(exec, mo))
		raw = sched_c11_load(self, raw, is_pointer, mo);
	else if (exec->mem_buffered)
		raw = sched_tso_load(self, raw);
	note(self, is_pointer ? raw != 0 : raw, is_pointer);
	return raw;
}

void weft_impl_mem_store(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
			 bool is_pointer, int mo, uint64_t value, bool value_is_pointer,
			 unsigned size)
{
	sched_exec *exec = self->exec;
	note(self, value, value_is_pointer);
	if (c11_models(exec, mo))
		sched_c11_store(self, old_raw, raw, is_pointer, mo);
	else if (store_buffers(exec))
		sched_tso_store(self, old_raw, raw, size, mo);
}

void weft_impl_mem_rmw(struct weft_impl_thread *self, uint64_t old_raw, uint64_t raw,
		       bool is_pointer, bool wrote, int mo, uint64_t value, bool value_is_pointer)
{
	sched_exec *exec = self->exec;
	note(self, value, value_is_pointer);
	sched_trace *t = &exec->trace;
	if (t->events[t->n - 1].kind == WEFT_ACCESS_CAS)   /* value: what it read */
		t->events[t->n - 1].other = wrote;
	/* under tso/pso nothing here: the thread's buffer was drained before the
	   access (sched_mem_observe), and an RMW is never buffered */
	if (c11_models(exec, mo))
		sched_c11_rmw(self, old_raw, raw, is_pointer, wrote, mo);
}

const char weft_impl_fence_object;

void weft_impl_mem_fence(struct weft_impl_thread *self, int mo)
{
	sched_exec *exec = self->exec;
	note(self, (uint64_t)mo, false);
	if (exec->cfg.memory == SCHED_MEMORY_C11 && exec->mem_locs)
		sched_c11_fence(self, mo);
	else if (store_buffers(exec) &&
		 (mo == memory_order_seq_cst || sched_pso_store_store(exec, mo)))
		sched_mem_drain(self);   /* x86's mfence, PSO's membar; others compile to nothing */
}
