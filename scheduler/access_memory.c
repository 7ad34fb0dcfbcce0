/*
 * scheduler/access_memory.c - compiler-instrumented atomics under the memory
 * model (issue 18): the post-hooks instrument/weft_instrument.cpp inserts after
 * each atomic instruction, the pass's twin of what <weft/atomic.h>'s macros do
 * after their access.
 *
 * Design.  Before the instruction, weft_impl_access made the step (access.c:
 * the switch point, the trace event with the value the trace shows, progress)
 * and kept the bits the location held (sched_thread.atomic_old).  Right after
 * it, while no other managed thread can have run, the pass calls one of these
 * with the instruction's bits (integers zero-extended to 64 bits: LLVM's
 * integers have no sign; pointers whole) and they call the model's entry
 * points (weft_impl_mem_*, scheduler/memory.h), so whichever model WEFT_MEMORY
 * selects governs instrumented code too:
 *   load    returns the bits the model lets it read: the newest store's (what
 *           the instruction read) or an older one's; the pass replaces the
 *           load's result with them;
 *   store   the old bits (for a location tracked from here on, its first
 *           message) and the new ones;
 *   rmw     atomicrmw and cmpxchg: the old bits (the instruction's result), the
 *           new ones (read back here), whether it wrote (a failed cmpxchg only
 *           reads) and the order that applied (cmpxchg: success or failure);
 *   fence   a switch point of its own at weft_impl_fence_object (as the
 *           macros' fence) and the model's fence.
 * The trace value stays what the step recorded (a load's: what it read, now
 * possibly older), so reports of instrumented programs read as before; choice
 * 0 is the newest store, so every existing input replays as before.
 * Outside an execution the pass's guard skips these calls; they also return
 * the real value at once if the last event is not this access's (it always is:
 * an atomic is always a step).
 */
#include "sched.h"

#include "weft/instrument.h"

_Static_assert(WEFT_ACCESS_FENCE == 22, "kFence in instrument/weft_instrument.cpp");

/* The access whose step was just recorded is this site's, on this thread. */
static bool is_this_access(const sched_thread *self, const weft_access_site *site)
{
	const sched_trace *t = &self->exec->trace;
	return t->n && t->events[t->n - 1].site == &site->site &&
	       t->events[t->n - 1].thread == self->id;
}

uint64_t weft_impl_access_load(weft_access_site *site, uint64_t raw)
{
	sched_thread *self = weft_impl_current;
	if (!self || !is_this_access(self, site))
		return raw;
	return weft_impl_mem_load(self, raw, site->flags & WEFT_SITE_POINTER, site->order);
}

void weft_impl_access_store(weft_access_site *site, uint64_t raw)
{
	sched_thread *self = weft_impl_current;
	if (!self || !is_this_access(self, site))
		return;
	const sched_event *e = &self->exec->trace.events[self->exec->trace.n - 1];
	weft_impl_mem_store(self, self->atomic_old, raw, site->flags & WEFT_SITE_POINTER,
			    site->order, e->value, e->is_pointer, site->size);
}

void weft_impl_access_rmw(weft_access_site *site, void *addr, uint64_t old_raw, uint32_t wrote,
			  int mo)
{
	sched_thread *self = weft_impl_current;
	if (!self || !is_this_access(self, site))
		return;
	const sched_event *e = &self->exec->trace.events[self->exec->trace.n - 1];
	uint64_t raw = wrote ? sched_access_peek(addr, site->size) : old_raw;
	weft_impl_mem_rmw(self, old_raw, raw, site->flags & WEFT_SITE_POINTER, wrote != 0, mo,
			  e->value, e->is_pointer);
}

void weft_impl_access_fence(weft_access_site *site)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		return;
	if (!site->site.id)
		sched_site_id_cached(&self->exec->site_ids, &site->site, site->column);
	weft_impl_switch(self, &site->site, &weft_impl_fence_object);
	weft_impl_mem_fence(self, site->order);
	if (self->exec->cfg.races)   /* happens-before through fences (race.c) */
		sched_race_fence(self, site->order);
}
