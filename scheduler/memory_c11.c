/*
 * scheduler/memory_c11.c - C11 atomics under a view-based operational semantics.
 *
 * The model (the "view" machine of Kang et al., "A promising semantics for
 * relaxed-memory concurrency", POPL 2017, without promises; C11Tester and
 * GenMC implement the same release/acquire rules):
 *   - each atomic location keeps its stores as messages with timestamps; the
 *     modification order is the order in which stores execute (so real memory
 *     always holds the newest message, and every read-modify-write reads it);
 *   - each thread has a view (per location, the oldest timestamp it may still
 *     read), an acquire view (what an acquire fence would add) and a release
 *     view (what its last release fence published);
 *   - a store appends a message; its message view is the thread's view for a
 *     release store, its release view for a relaxed one; a read-modify-write
 *     also carries the view of the message it read (release sequences);
 *   - a load reads any message at or after its view of the location: the
 *     choice (strategy.h `choose`, bound = the readable messages) counts back
 *     from the newest, so 0 = the newest = sequential consistency;  an acquire
 *     load joins the message view into its view, a relaxed one into its
 *     acquire view;  fences: acquire = view := acquire view, release =
 *     release view := view;
 *   - seq_cst is made strong, not exact: a global SC view, and an SC fence
 *     joins the thread's view with it both ways; an SC load is an SC fence then
 *     an acquire load, an SC store a release store then an SC fence, an SC
 *     read-modify-write both.  So SB, IRIW and friends are forbidden among SC
 *     accesses, and an SC load of a location only SC stores wrote always reads
 *     the newest.  This forbids some executions RC11 allows (a stale SC read
 *     of a relaxed store's location is still allowed; see ARCHITECTURE.md).
 * Stores become visible eventually (C11 6.17.3p18 asks it of implementations):
 * a thread past the spin limit (progress.c: quiet steps, no change to shared
 * memory) reads the newest store, so a spin loop cannot read a stale flag
 * forever and be called a livelock; its first spin_limit reads may be stale.
 * And a spinner is judged only once it has seen everything: before progress.c
 * parks it or calls it a livelock, sched_c11_catch_up raises its view of every
 * location to the newest store (as TSO's buffers drain for a spinner); if that
 * changed anything it spins on, reading the newest, and a parked spinner whose
 * view fell behind is resumed before a livelock is declared
 * (sched_c11_behind).  Under SC a thread sees a change when it resumes after
 * it; here only when a load reads a store it had not seen, so such a load
 * restarts its quiet count: a spinner that read stale values, then the one
 * that ends its loop, is not parked at its next step as if it still spun.  Raising a view only removes behaviours, each of which
 * C11 allows, and depends on the execution so far alone.
 * Without promises a load cannot read a store that has not executed, so load
 * buffering is forbidden, as RC11's acyclic po U rf requires.  Because
 * modification order follows execution order, 2+2W's mo cycle is forbidden too
 * (RC11 allows it with relaxed stores): a known limit.
 *
 * Cost: a location is tracked from its first access that is not seq_cst; until
 * then (and for code that never uses another order) an access only tests
 * exec->mem_locs, and a seq_cst access of an untracked location costs one SC
 * fence over the tracked ones.  A location tracked late starts with one message,
 * its current value, whose view is the SC view (everything SC so far was
 * ordered before it): fewer behaviours, never a false one.  Past
 * SCHED_MEM_MAX_LOCS locations the rest stay sequentially consistent; a load
 * reads at most SCHED_MEM_HISTORY stores back.
 */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

#include "sched.h"

typedef uint32_t mem_ts;

typedef struct mem_view {
	mem_ts t[SCHED_MEM_MAX_LOCS];
} mem_view;

typedef struct mem_msg {
	uint64_t raw;                /* the value's bits (pointers whole: loads return them) */
	mem_view view;
	const weft_site *site;       /* NULL: the value the location had when tracked */
	size_t event;                /* the store's event in the trace */
	uint8_t thread;
	bool is_pointer;
} mem_msg;

typedef struct mem_loc {
	const void *addr;
	mem_ts latest;               /* timestamp of the newest message (0 = the first) */
	mem_msg msg[SCHED_MEM_HISTORY];   /* message ts at msg[ts % SCHED_MEM_HISTORY] */
} mem_loc;

/*
 * A thread's views hold entries [0, valid) for this execution (its `epoch`);
 * thread_of brings them up to the locations tracked so far, zeroes (the first
 * message), when the thread next accesses memory.  Tracking a location thus
 * touches no thread: clearing entry i of 128 threads' three views at every
 * track was most of the cost of a relaxed atomic (issue 33).
 */
typedef struct mem_thread {
	mem_view cur, acq, rel;
	unsigned valid;
	uint32_t epoch;
} mem_thread;

struct sched_mem {
	unsigned n_locs;
	uint32_t epoch;   /* the execution: a thread's views from an older one are stale */
	mem_view sc;
	mem_loc loc[SCHED_MEM_MAX_LOCS];
	mem_thread th[SCHED_MAX_THREADS];
	size_t n_weak;
	sched_weak_read weak[SCHED_MEM_MAX_WEAK];
};

_Static_assert(SCHED_MEM_HISTORY <= 32, "a choice's alternatives must fit a 32-bit set");
_Static_assert(SCHED_MEM_MAX_LOCS <= 255, "locations are numbered by bytes");

void sched_c11_reset(sched_exec *exec)
{
	exec->mem_locs = 0;
	if (exec->mem) {
		exec->mem->n_locs = 0;
		exec->mem->n_weak = 0;
		exec->mem->epoch++;   /* wraps after 2^32 executions: a stale thread then
					 needs 2^32 executions without an access */
	}
}

void sched_c11_destroy(sched_exec *exec)
{
	free(exec->mem);
	exec->mem = NULL;
}

size_t sched_c11_weak_reads(const sched_exec *exec, const sched_weak_read **out)
{
	*out = exec->mem ? exec->mem->weak : NULL;
	return exec->mem ? exec->mem->n_weak : 0;
}

/* ---- views ---- */

/* Thread `id`'s views, every entry below n_locs valid (see mem_thread). */
static mem_thread *thread_of(struct sched_mem *m, unsigned id)
{
	mem_thread *th = &m->th[id];
	if (th->epoch != m->epoch) {
		th->epoch = m->epoch;
		th->valid = 0;
	}
	for (unsigned i = th->valid; i < m->n_locs; i++)
		th->cur.t[i] = th->acq.t[i] = th->rel.t[i] = 0;
	th->valid = m->n_locs;
	return th;
}

static void join(mem_view *into, const mem_view *from, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (from->t[i] > into->t[i])
			into->t[i] = from->t[i];
}

static void raise_to(mem_ts *t, mem_ts ts)
{
	if (ts > *t)
		*t = ts;
}

/* Sequentially consistent fence: acquire and release, and one with the SC view. */
static void sc_fence(struct sched_mem *m, mem_thread *th)
{
	unsigned n = m->n_locs;
	join(&th->cur, &th->acq, n);
	join(&th->cur, &m->sc, n);
	m->sc = th->cur;
	th->acq = th->cur;
	th->rel = th->cur;
}

void sched_c11_sync(sched_thread *self)
{
	struct sched_mem *m = self->exec->mem;
	sc_fence(m, thread_of(m, self->id));
}

static bool is_acquire(int mo)
{
	return mo == memory_order_acquire || mo == memory_order_acq_rel ||
	       mo == memory_order_seq_cst || mo == memory_order_consume;
}

static bool is_release(int mo)
{
	return mo == memory_order_release || mo == memory_order_acq_rel ||
	       mo == memory_order_seq_cst;
}

/* ---- locations ---- */

static struct sched_mem *mem_of(sched_exec *exec)
{
	if (!exec->mem) {
		exec->mem = calloc(1, sizeof *exec->mem);
		if (!exec->mem)
			abort();   /* 250 KiB once per runner; no way to go on without it */
	}
	return exec->mem;
}

static int find(const struct sched_mem *m, const void *addr)
{
	for (unsigned i = 0; i < m->n_locs; i++)
		if (m->loc[i].addr == addr)
			return (int)i;
	return -1;
}

/* Start tracking addr: one message, its value now, which every thread sees. */
static int track(struct sched_mem *m, const void *addr, uint64_t raw, bool is_pointer)
{
	if (m->n_locs == SCHED_MEM_MAX_LOCS)
		return -1;
	unsigned i = m->n_locs++;
	mem_loc *l = &m->loc[i];
	l->addr = addr;
	l->latest = 0;
	/* every view gets entry i: 0, the message below (views hold stale entries
	   past n_locs from earlier executions, never read until now); the
	   threads' when they next access memory (thread_of) */
	m->sc.t[i] = 0;
	for (unsigned j = 0; j < i; j++)
		for (unsigned k = 0; k < SCHED_MEM_HISTORY; k++)
			m->loc[j].msg[k].view.t[i] = 0;
	mem_msg *msg = &l->msg[0];
	msg->raw = raw;
	msg->view = m->sc;
	msg->site = NULL;
	msg->event = 0;
	msg->thread = 0;
	msg->is_pointer = is_pointer;
	return (int)i;
}

/*
 * The location of this access, tracked if the access is not seq_cst; -1 for a
 * seq_cst access of an untracked location (or past the limit): it then only
 * fences.
 */
static int location(sched_thread *self, uint64_t old_raw, bool is_pointer, int mo)
{
	sched_exec *exec = self->exec;
	const sched_trace *t = &exec->trace;
	const void *addr = t->events[t->n - 1].addr;   /* this access, appended by the switch */
	struct sched_mem *m = mem_of(exec);
	int i = find(m, addr);
	if (i < 0 && mo != memory_order_seq_cst) {
		i = track(m, addr, old_raw, is_pointer);
		exec->mem_locs = m->n_locs;
	}
	return i;
}

static mem_msg *message(mem_loc *l, mem_ts ts)
{
	return &l->msg[ts % SCHED_MEM_HISTORY];
}

/* ---- loads ---- */

static void remember_weak(sched_thread *self, const mem_loc *l, const mem_msg *read,
			  unsigned skipped)
{
	struct sched_mem *m = self->exec->mem;
	if (m->n_weak == SCHED_MEM_MAX_WEAK)
		return;
	const mem_msg *newest = message((mem_loc *)l, l->latest);
	sched_weak_read *w = &m->weak[m->n_weak++];
	w->buffered = false;
	w->event = self->exec->trace.n - 1;
	w->store_site = read->site;
	w->store_event = read->event;
	w->newer_event = newest->event;
	w->store_thread = read->thread;
	w->store_value = read->is_pointer ? read->raw != 0 : read->raw;
	w->newer_site = newest->site;
	w->newer_thread = newest->thread;
	w->newer_value = newest->is_pointer ? newest->raw != 0 : newest->raw;
	w->skipped = skipped;
}

/* Read location i: choose a readable message, take its view. */
static uint64_t load(sched_thread *self, int i, int mo)
{
	struct sched_mem *m = self->exec->mem;
	mem_thread *th = thread_of(m, self->id);
	mem_loc *l = &m->loc[i];
	mem_ts oldest = l->latest >= SCHED_MEM_HISTORY ? l->latest - (SCHED_MEM_HISTORY - 1) : 0;
	if (th->cur.t[i] > oldest)
		oldest = th->cur.t[i];
	uint64_t n = (uint64_t)(l->latest - oldest) + 1;
	if (self->quiet > self->exec->cfg.spin_limit)
		n = 1;   /* a spinner sees the newest store: stores become visible eventually */
	uint64_t back = n > 1 ? sched_choose(self->exec, n) : 0;
	mem_ts ts = l->latest - (mem_ts)back;
	const mem_msg *msg = message(l, ts);
	if (ts > th->cur.t[i])
		self->quiet = 0;   /* it sees a store it had not seen: not spinning (progress.c) */
	raise_to(&th->cur.t[i], ts);
	raise_to(&th->acq.t[i], ts);
	join(&th->acq, &msg->view, m->n_locs);
	if (is_acquire(mo))
		join(&th->cur, &msg->view, m->n_locs);
	if (back)
		remember_weak(self, l, msg, (unsigned)back);
	return msg->raw;
}

/* ---- stores ---- */

/* Append a message to location i; `carried`: the view of the message an RMW read. */
static void store(sched_thread *self, int i, uint64_t raw, bool is_pointer, int mo,
		  const mem_view *carried, const weft_site *site)
{
	struct sched_mem *m = self->exec->mem;
	mem_thread *th = thread_of(m, self->id);
	mem_loc *l = &m->loc[i];
	mem_ts ts = ++l->latest;
	raise_to(&th->cur.t[i], ts);
	raise_to(&th->acq.t[i], ts);
	mem_msg *msg = message(l, ts);
	msg->view = is_release(mo) ? th->cur : th->rel;
	msg->view.t[i] = ts;
	if (carried)
		join(&msg->view, carried, m->n_locs);
	msg->raw = raw;
	msg->site = site;
	msg->event = self->exec->trace.n - 1;
	msg->thread = (uint8_t)self->id;
	msg->is_pointer = is_pointer;
}

static const weft_site *current_site(const sched_thread *self)
{
	const sched_trace *t = &self->exec->trace;
	return t->events[t->n - 1].site;
}

/* ---- the atomics' entry points (memory.c calls them when the access is modelled) ---- */

uint64_t sched_c11_load(sched_thread *self, uint64_t raw, bool is_pointer, int mo)
{
	struct sched_mem *m = mem_of(self->exec);
	int i = location(self, raw, is_pointer, mo);
	if (mo == memory_order_seq_cst)
		sc_fence(m, thread_of(m, self->id));
	if (i >= 0)
		raw = load(self, i, mo);
	return raw;
}

void sched_c11_store(sched_thread *self, uint64_t old_raw, uint64_t raw, bool is_pointer, int mo)
{
	struct sched_mem *m = mem_of(self->exec);
	int i = location(self, old_raw, is_pointer, mo);
	if (i >= 0)
		store(self, i, raw, is_pointer, mo, NULL, current_site(self));
	if (mo == memory_order_seq_cst)
		sc_fence(m, thread_of(m, self->id));
}

/*
 * A read-modify-write read old_raw, the newest message (no choice: atomicity),
 * and wrote raw if `wrote` (a failed compare-exchange only reads, under `mo`
 * = its failure order).
 */
void sched_c11_rmw(sched_thread *self, uint64_t old_raw, uint64_t raw, bool is_pointer,
		   bool wrote, int mo)
{
	struct sched_mem *m = mem_of(self->exec);
	int i = location(self, old_raw, is_pointer, mo);
	mem_thread *th = thread_of(m, self->id);   /* after the track: entry i too */
	if (mo == memory_order_seq_cst)
		sc_fence(m, th);
	if (i >= 0) {
		mem_loc *l = &m->loc[i];
		const mem_msg *read = message(l, l->latest);
		raise_to(&th->cur.t[i], l->latest);
		raise_to(&th->acq.t[i], l->latest);
		join(&th->acq, &read->view, m->n_locs);
		if (is_acquire(mo))
			join(&th->cur, &read->view, m->n_locs);
		if (wrote) {
			mem_view carried = read->view;
			store(self, i, raw, is_pointer, mo, &carried, current_site(self));
		}
	}
	if (mo == memory_order_seq_cst)
		sc_fence(m, th);
}

/* A fence, once some location is tracked (before that every view is everything). */
void sched_c11_fence(sched_thread *self, int mo)
{
	struct sched_mem *m = self->exec->mem;
	mem_thread *th = thread_of(m, self->id);
	if (mo == memory_order_seq_cst) {
		sc_fence(m, th);
		return;
	}
	if (is_acquire(mo))
		join(&th->cur, &th->acq, m->n_locs);
	if (is_release(mo))
		th->rel = th->cur;
}

/* ---- fair visibility (progress.c, through memory.c) ---- */

/* Does thread `id` have an older view than the newest store of some location? */
bool sched_c11_behind(const sched_exec *exec, unsigned id)
{
	struct sched_mem *m = exec->mem;
	if (!m)
		return false;
	const mem_thread *th = thread_of(m, id);
	for (unsigned i = 0; i < m->n_locs; i++)
		if (th->cur.t[i] < m->loc[i].latest)
			return true;
	return false;
}

/*
 * A spinner sees every store: its view of each location becomes the newest
 * message's, so its next load of it reads that one (and, acquire, takes its
 * view).  True if some view moved: the spinner may now read something new.
 */
bool sched_c11_catch_up(sched_thread *self)
{
	struct sched_mem *m = self->exec->mem;
	if (!sched_c11_behind(self->exec, self->id))
		return false;
	mem_thread *th = thread_of(m, self->id);
	for (unsigned i = 0; i < m->n_locs; i++) {
		raise_to(&th->cur.t[i], m->loc[i].latest);
		raise_to(&th->acq.t[i], m->loc[i].latest);
	}
	return true;
}
