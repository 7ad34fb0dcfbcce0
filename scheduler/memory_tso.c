/*
 * scheduler/memory_tso.c - store buffers: x86's TSO and SPARC's PSO
 * (WEFT_MEMORY=tso|pso), the second model behind memory.h.
 *
 * The model (the store-buffer machine of Sewell et al., "x86-TSO", CACM 2010;
 * PSO as dejafu models it, one buffer per thread and location):
 *   - each thread has a FIFO of stores that are not yet visible to the others;
 *     memory holds only committed stores.  Under TSO a commit takes the oldest
 *     store of the thread's buffer; under PSO the oldest store of one location
 *     (stores to different locations may commit out of program order);
 *   - a load reads its own thread's newest buffered store to the location if
 *     there is one, else memory;
 *   - memory orders count only as x86 compiles them, for code written for x86:
 *     a seq_cst store (xchg) or fence (mfence), every read-modify-write and
 *     compare-exchange (lock-prefixed), every blocking primitive, operation
 *     boundary, thread start and end drain the thread's buffer; every other
 *     store is buffered, every other load and fence is a plain one.  So release
 *     and acquire give nothing more under TSO (x86 plain accesses already are);
 *   - under PSO a release (or acq_rel) store and a release fence are what
 *     SPARC compiles them to, a StoreStore barrier (membar #StoreStore) before
 *     the store: the stores before it commit first.  Without that, correct
 *     C11 release publication failed under pso (issue 30).  Committing them
 *     at the barrier, rather than only before the release store commits, is
 *     stricter than the hardware: it never adds a behaviour, it may hide one
 *     in which both stay buffered past another thread's reads.
 * Allowed: store buffering (SB's 0,0) under both, a thread reading its own
 * store early; under PSO also the stores of one thread seen out of order (MP's
 * stale read, 2+2W's 1,1).  Forbidden: load buffering, IRIW's disagreement
 * (memory is one, multi-copy atomic), and under TSO MP and 2+2W.
 *
 * The choice.  A buffered store commits lazily, when it matters: when another
 * thread is about to access its location (load, store, RMW), the switch point
 * (sched_mem_observe) asks, for each thread with buffered stores to it, a data
 * choice k in [0, m] (m = its buffered stores there): the k newest stay
 * buffered, the older ones commit (under TSO with every store before them in
 * the FIFO).  k = 0 commits them all before the access, so an exhausted input
 * sees every store at once: the sequentially consistent execution.  A store no
 * other thread looks at commits when its thread drains.  Every nonzero choice
 * is a delayed commit, remembered for the report and counted first by the
 * simplifier (dejafu's tuple, commits first).  The commit order of two
 * threads' buffered stores to one location is decided only at such accesses
 * and at drains (a drain commits without asking): a limit, not a false
 * behaviour.
 *
 * Memory itself: the atomic macros write real memory, then call here; a store
 * that is buffered puts the old (committed) value back and a commit writes the
 * new one, so real memory is always committed memory and a read-modify-write
 * works on it directly.  Addresses stay inside the model: what the trace and
 * the report see are sites, threads, steps and trace values.
 *
 * Cost: nothing is buffered by code that uses only seq_cst stores and RMWs,
 * so exec->mem_buffered stays 0 and every access costs one compare.
 */
#include "memory.h"

#include <stdlib.h>

#include "sched.h"

typedef struct tso_store {
	const volatile void *addr;
	uint64_t raw;               /* the bits memory gets when it commits */
	const weft_site *site;
	size_t event;               /* the store's event in the trace */
	uint8_t size;               /* 1, 2, 4 or 8 bytes */
} tso_store;

typedef struct tso_buffer {
	unsigned n;
	unsigned ended;             /* the first `ended` stores were made by operations
				       that have ended: they commit when any operation
				       begins (linearizability's real-time order) */
	tso_store s[SCHED_MEM_BUFFER];   /* program order, oldest first */
} tso_buffer;

struct sched_tso {
	tso_buffer buf[SCHED_MAX_THREADS];
	bool store_first;           /* the next store goes before others' buffered ones */
	size_t n_weak;
	sched_weak_read weak[SCHED_MEM_MAX_WEAK];
};

void sched_tso_reset(sched_exec *exec)
{
	exec->mem_buffered = 0;
	if (!exec->tso)
		return;
	for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
		exec->tso->buf[t].n = exec->tso->buf[t].ended = 0;
	exec->tso->n_weak = 0;
	exec->tso->store_first = false;
}

void sched_tso_destroy(sched_exec *exec)
{
	free(exec->tso);
	exec->tso = NULL;
}

size_t sched_tso_weak_reads(const sched_exec *exec, const sched_weak_read **out)
{
	*out = exec->tso ? exec->tso->weak : NULL;
	return exec->tso ? exec->tso->n_weak : 0;
}

static struct sched_tso *tso_of(sched_exec *exec)
{
	if (!exec->tso) {
		exec->tso = calloc(1, sizeof *exec->tso);
		if (!exec->tso)
			abort();   /* 100 KiB once per runner; no way to go on without it */
	}
	return exec->tso;
}

/* ---- memory ---- */

static void write_bits(const volatile void *addr, unsigned size, uint64_t raw)
{
	switch (size) {
	case 1: __atomic_store_n((volatile uint8_t *)addr, (uint8_t)raw, __ATOMIC_RELAXED); break;
	case 2: __atomic_store_n((volatile uint16_t *)addr, (uint16_t)raw, __ATOMIC_RELAXED); break;
	case 4: __atomic_store_n((volatile uint32_t *)addr, (uint32_t)raw, __ATOMIC_RELAXED); break;
	default: __atomic_store_n((volatile uint64_t *)addr, raw, __ATOMIC_RELAXED); break;
	}
}

/* Store j of a thread's buffer b becomes visible; self: the running thread (or NULL). */
static void commit(sched_exec *exec, sched_thread *self, tso_buffer *b, unsigned j)
{
	const tso_store *s = &b->s[j];
	write_bits(s->addr, s->size, s->raw);
	for (unsigned i = j + 1; i < b->n; i++)
		b->s[i - 1] = b->s[i];
	b->n--;
	b->ended -= j < b->ended;
	exec->mem_buffered--;
	if (self)
		sched_note_change(self);   /* a spinner may see it now (progress.c) */
}

void sched_mem_drain(sched_thread *self)
{
	sched_exec *exec = self->exec;
	if (!exec->tso)
		return;
	tso_buffer *b = &exec->tso->buf[self->id];
	while (b->n)
		commit(exec, self, b, 0);
}

/*
 * A thread spins (progress.c: quiet past the spin limit) while stores are
 * buffered: real store buffers drain on their own, so by the time a spin
 * could be judged, every buffer has committed.  Without this a spinner that
 * waits for another thread's buffered store (or its own, which only its own
 * reads see) would be declared a livelock.  The commits are changes: the
 * spinner and the descheduled ones look again.
 */
void sched_mem_drain_spinning(sched_thread *self)
{
	sched_exec *exec = self->exec;
	for (unsigned t = 0; t < exec->n_slots && exec->mem_buffered; t++)
		while (exec->tso->buf[t].n)
			commit(exec, self, &exec->tso->buf[t], 0);
}

void sched_mem_drain_of(sched_thread *self, sched_thread *owner)
{
	sched_exec *exec = self->exec;
	if (!exec->tso)
		return;
	tso_buffer *b = &exec->tso->buf[owner->id];
	while (b->n)
		commit(exec, self, b, 0);
}

/* The execution is over (or cut): everything commits, thread by thread. */
void sched_mem_drain_all(sched_exec *exec)
{
	for (unsigned t = 0; t < SCHED_MAX_THREADS && exec->mem_buffered; t++)
		while (exec->tso->buf[t].n)
			commit(exec, NULL, &exec->tso->buf[t], 0);
}

/*
 * Operation boundaries.  An operation's end leaves its stores buffered (a
 * thread may end with a full buffer, as in the litmus tests) but marks them:
 * an operation that begins later, on any thread, must see them
 * (linearizability orders it after this one), so each begin commits every
 * ended operation's stores and drains its own thread's buffer.
 */
void sched_tso_op_end(sched_thread *self)
{
	tso_buffer *b = &self->exec->tso->buf[self->id];
	b->ended = b->n;
}

void sched_tso_op_begin(sched_thread *self)
{
	sched_exec *exec = self->exec;
	sched_mem_drain(self);
	for (unsigned t = 0; t < exec->n_slots && exec->mem_buffered; t++) {
		tso_buffer *b = &exec->tso->buf[t];
		while (b->ended)
			commit(exec, self, b, 0);
	}
}

/*
 * Commit the oldest `n` of b's stores to addr: under TSO with every store
 * before them (FIFO), under PSO only those (one FIFO per location).
 */
static void commit_oldest(sched_thread *self, tso_buffer *b, const volatile void *addr,
			  unsigned n)
{
	bool pso = self->exec->cfg.memory == SCHED_MEMORY_PSO;
	for (unsigned j = 0; n && j < b->n;) {
		bool here = b->s[j].addr == addr;
		if (here || !pso)
			commit(self->exec, self, b, j);   /* the next store moved down to j */
		else
			j++;
		n -= here;
	}
}

static unsigned count_at(const tso_buffer *b, const volatile void *addr)
{
	unsigned m = 0;
	for (unsigned j = 0; j < b->n; j++)
		m += b->s[j].addr == addr;
	return m;
}

/* The newest store to addr in b, or NULL. */
static const tso_store *newest_at(const tso_buffer *b, const volatile void *addr)
{
	for (unsigned j = b->n; j-- > 0;)
		if (b->s[j].addr == addr)
			return &b->s[j];
	return NULL;
}

/* ---- the report's record ---- */

static void remember(sched_thread *self, unsigned thread, const tso_store *s, unsigned left)
{
	struct sched_tso *m = self->exec->tso;
	if (m->n_weak == SCHED_MEM_MAX_WEAK)
		return;
	const sched_trace *t = &self->exec->trace;
	sched_weak_read *w = &m->weak[m->n_weak++];
	*w = (sched_weak_read){ 0 };
	w->event = t->n - 1;
	w->buffered = true;
	w->newer_site = s->site;
	w->newer_event = s->event;
	w->newer_thread = (uint8_t)thread;
	w->newer_value = t->events[s->event].value;
	w->skipped = left;
}

/* ---- the entry points (memory.c, switch_point.c, exec.c) ---- */

static bool is_rmw(unsigned kind)
{
	return kind >= WEFT_ACCESS_EXCHANGE && kind <= WEFT_ACCESS_FETCH_XOR;
}

/*
 * The access of event e is next: an RMW drains its own buffer (lock prefix);
 * then, unless a load reads its own buffered store, for each other thread
 * with stores to the location still buffered, the input says how many of the
 * newest stay there (a spinner finds them drained: sched_mem_drain_spinning).
 * A store that leaves some there comes before them in
 * the location's order: it commits at once (sched_tso_store), so that the
 * ones left overwrite it when they commit (2+2W under PSO).
 */
void sched_mem_observe(sched_thread *self, const sched_event *e)
{
	sched_exec *exec = self->exec;
	unsigned kind = e->kind;
	if (kind < WEFT_ACCESS_LOAD || kind > WEFT_ACCESS_FETCH_XOR)
		return;   /* a yield, fence or blocking primitive touches no location */
	struct sched_tso *m = exec->tso;
	m->store_first = false;   /* a plain store's (access.c) is never used */
	if (is_rmw(kind))
		sched_mem_drain(self);
	else if (kind == WEFT_ACCESS_LOAD && newest_at(&m->buf[self->id], e->addr))
		return;   /* it reads its own store, whatever the others' buffers hold */
	for (unsigned t = 0; t < exec->n_slots && exec->mem_buffered; t++) {
		tso_buffer *b = &m->buf[t];
		unsigned n = t == self->id ? 0 : count_at(b, e->addr);
		if (!n)
			continue;
		unsigned left = (unsigned)sched_choose(exec, (uint64_t)n + 1);
		if (left)
			remember(self, t, newest_at(b, e->addr), left);
		commit_oldest(self, b, e->addr, n - left);
		m->store_first |= left && kind == WEFT_ACCESS_STORE;
	}
}

/*
 * A block is about to be freed (access.c, code built with the pass): its
 * buffered stores commit now, while it is still memory (a TSO machine may
 * commit them any time; later they would write into a freed block).
 */
void sched_mem_freed(sched_thread *self, const void *block, size_t size)
{
	sched_exec *exec = self->exec;
	uintptr_t lo = (uintptr_t)block, hi = lo + size;
	for (unsigned t = 0; t < exec->n_slots && exec->mem_buffered; t++) {
		tso_buffer *b = &exec->tso->buf[t];
		for (unsigned j = b->n; j-- > 0;) {
			uintptr_t a = (uintptr_t)b->s[j].addr;
			if (a >= lo && a < hi) {
				commit_oldest(self, b, b->s[j].addr, count_at(b, b->s[j].addr));
				j = b->n;   /* the buffer moved: look again from its end */
			}
		}
	}
}

uint64_t sched_tso_load(sched_thread *self, uint64_t raw)
{
	const sched_trace *t = &self->exec->trace;
	const tso_store *s = newest_at(&self->exec->tso->buf[self->id], t->events[t->n - 1].addr);
	return s ? s->raw : raw;
}

/* Under PSO a release-or-stronger store or fence is a StoreStore barrier. */
bool sched_pso_store_store(const sched_exec *exec, int mo)
{
	return exec->cfg.memory == SCHED_MEMORY_PSO &&
	       (mo == memory_order_release || mo == memory_order_acq_rel);
}

/*
 * A store just wrote memory.  A seq_cst store with nothing buffered is an
 * xchg: done.  Anything else goes to the buffer (memory gets the committed
 * value back); a seq_cst one then drains it (the stores before it first).
 */
void sched_tso_store(sched_thread *self, uint64_t old_raw, uint64_t raw, unsigned size, int mo)
{
	sched_exec *exec = self->exec;
	struct sched_tso *m = tso_of(exec);
	tso_buffer *b = &m->buf[self->id];
	bool first = m->store_first;   /* set by sched_mem_observe for this store */
	m->store_first = false;
	if (mo == memory_order_seq_cst && b->n == 0)
		return;   /* and before the stores left buffered: it is in memory already */
	if (sched_pso_store_store(exec, mo))
		sched_mem_drain(self);   /* membar #StoreStore: the earlier stores first */
	const sched_trace *t = &exec->trace;
	const sched_event *e = &t->events[t->n - 1];
	write_bits(e->addr, size, old_raw);
	if (b->n == SCHED_MEM_BUFFER)
		commit(exec, self, b, 0);   /* full: the oldest commits (a TSO machine may, any time) */
	b->s[b->n++] = (tso_store){ e->addr, raw, e->site, t->n - 1, (uint8_t)size };
	exec->mem_buffered++;
	if (mo == memory_order_seq_cst)
		sched_mem_drain(self);
	else if (first)
		commit_oldest(self, b, e->addr, count_at(b, e->addr));
}
