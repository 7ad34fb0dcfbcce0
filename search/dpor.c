/*
 * search/dpor.c - steps, dependence and races (the rules and the algorithm
 * are in dpor.h).  Everything here is plain data over one execution's trace:
 * no scheduler state, no strategy, no allocation except the step arrays.
 *
 * Cost: dpor_races is O(n^2 * threads) for n steps (vector clocks make each
 * happens-before test O(1)); executions have tens to hundreds of steps, so it
 * costs less than the hand-offs of the execution itself.
 */
#include "dpor.h"

#include <stdlib.h>
#include <string.h>

/* Dependence; objects named `known` or later in `a` may be any such object of `b`. */
static bool dependent(const dpor_step *a, uint32_t known, const dpor_step *b)
{
	if (a->thread == b->thread)
		return true;
	if (a->n_access == DPOR_CONFLICTS_ALL || b->n_access == DPOR_CONFLICTS_ALL)
		return true;
	if ((a->ends && b->begins) || (a->begins && b->ends))
		return true;   /* the real-time order of the history */
	for (unsigned i = 0; i < a->n_access; i++)
		for (unsigned k = 0; k < b->n_access; k++) {
			uint32_t x = a->object[i], y = b->object[k];
			bool same = x == y || (x >= known && y >= known);
			if (same && (((a->writes >> i) | (b->writes >> k)) & 1))
				return true;
		}
	return false;
}

bool dpor_dependent(const dpor_step *a, const dpor_step *b)
{
	return dependent(a, UINT32_MAX, b);
}

bool dpor_dependent_later(const dpor_step *earlier, uint32_t known, const dpor_step *b)
{
	return dependent(earlier, known, b);
}

void dpor_steps_init(dpor_steps *s)
{
	memset(s, 0, sizeof *s);
	dpor_steps_reset(s);
}

void dpor_steps_free(dpor_steps *s)
{
	free(s->step);
	free(s->clock);
	free(s->objects);
	memset(s, 0, sizeof *s);
}

void dpor_steps_reset(dpor_steps *s)
{
	s->n = 0;
	s->n_objects = 0;
	s->parsed = 0;
	s->boundary = 0;
	s->marked = 0;
	for (unsigned t = 0; t < DPOR_MAX_THREADS; t++)
		s->last[t] = -1;
}

/*
 * The event that asked is the trace's last and not parsed yet (choices come
 * from inside an access, between switch points); if it was parsed already,
 * the thread's current step is marked at once.
 */
void dpor_steps_mark(dpor_steps *s, unsigned thread)
{
	if (thread >= DPOR_MAX_THREADS)
		return;
	if (!(s->boundary & (1u << thread)) && s->last[thread] >= 0)
		s->step[s->last[thread]].n_access = DPOR_CONFLICTS_ALL;
	s->marked |= 1u << thread;
}

void dpor_steps_boundary(dpor_steps *s, unsigned thread)
{
	s->boundary |= 1u << thread;
}

static dpor_step *new_step(dpor_steps *s, unsigned thread)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		dpor_step *more = realloc(s->step, cap * sizeof *more);
		if (!more)
			return NULL;
		s->step = more;
		s->cap = cap;
	}
	dpor_step *st = &s->step[s->n];
	memset(st, 0, sizeof *st);
	st->thread = (uint8_t)thread;
	s->last[thread] = (int32_t)s->n++;
	return st;
}

int dpor_steps_start(dpor_steps *s, unsigned thread)
{
	if (!s->weak || thread >= DPOR_MAX_THREADS || s->last[thread] >= 0)
		return 0;
	dpor_step *st = new_step(s, thread);
	if (!st)
		return -1;
	st->n_access = DPOR_CONFLICTS_ALL;
	s->boundary |= 1u << thread;
	return 0;
}

/* Does this access write its object?  Unknown kinds (locks, issue 5) do. */
static bool access_writes(const sched_event *e)
{
	switch (e->kind) {
	case WEFT_ACCESS_LOAD: return false;
	case WEFT_ACCESS_CAS: return sched_cas_wrote(e);   /* a failed CAS only reads */
	default: return true;
	}
}

/* The object's name: the order of its first access; UINT32_MAX when out of memory. */
static uint32_t object_name(dpor_steps *s, const void *addr)
{
	for (size_t i = s->n_objects; i-- > 0;)   /* few objects per execution */
		if (s->objects[i] == addr)
			return (uint32_t)i;
	if (s->n_objects == s->objects_cap) {
		size_t cap = s->objects_cap ? 2 * s->objects_cap : 64;
		const void **more = realloc(s->objects, cap * sizeof *more);
		if (!more)
			return UINT32_MAX;
		s->objects = more;
		s->objects_cap = cap;
	}
	s->objects[s->n_objects] = addr;
	return (uint32_t)s->n_objects++;
}

static void add_access(dpor_steps *s, dpor_step *st, const sched_event *e)
{
	if (st->n_access == DPOR_CONFLICTS_ALL)
		return;
	if (!e->addr) {   /* yield: no object; an unknown kind without one: anything */
		if (e->kind != WEFT_ACCESS_YIELD)
			st->n_access = DPOR_CONFLICTS_ALL;
		return;
	}
	uint32_t name = object_name(s, e->addr);
	if (st->n_access == DPOR_MAX_ACCESSES || name == UINT32_MAX) {
		st->n_access = DPOR_CONFLICTS_ALL;
		return;
	}
	st->object[st->n_access] = name;
	st->writes |= (uint8_t)(access_writes(e) << st->n_access);
	st->n_access++;
}

/* A barrier of the weak memory models: anything but an atomic access or a yield. */
static bool is_barrier(unsigned kind)
{
	return kind < WEFT_ACCESS_LOAD || kind > WEFT_ACCESS_YIELD;
}

static void add_event(dpor_steps *s, dpor_step *st, const sched_event *e)
{
	if (s->weak && e->kind > 0 && e->kind < SCHED_EV_OP_BEGIN && is_barrier(e->kind))
		st->n_access = DPOR_CONFLICTS_ALL;
	if (e->kind == SCHED_EV_OP_BEGIN)
		st->begins = 1;
	else if (e->kind == SCHED_EV_OP_END)
		st->ends = 1;
	else if (e->kind > 0 && e->kind < SCHED_EV_OP_BEGIN)
		add_access(s, st, e);
	else if (e->kind != SCHED_EV_CUT)
		st->n_access = DPOR_CONFLICTS_ALL;   /* an event kind added later */
}

int dpor_steps_parse(dpor_steps *s, const sched_trace *t)
{
	for (; s->parsed < t->n; s->parsed++) {
		const sched_event *e = &t->events[s->parsed];
		if (e->kind == SCHED_EV_SWITCH || e->kind == SCHED_EV_PREEMPT)
			continue;
		unsigned th = e->thread;
		if (th >= DPOR_MAX_THREADS)
			return -2;
		dpor_step *st;
		if ((s->boundary & (1u << th)) || s->last[th] < 0) {
			bool start = s->last[th] < 0;
			s->boundary &= ~(1u << th);
			st = new_step(s, th);
			if (!st)
				return -1;
			if (start && s->weak)   /* the thread's start syncs (a barrier) */
				st->n_access = DPOR_CONFLICTS_ALL;
		} else {
			st = &s->step[s->last[th]];
		}
		add_event(s, st, e);
		if (s->marked & (1u << th)) {
			s->marked &= ~(1u << th);
			st->n_access = DPOR_CONFLICTS_ALL;
		}
	}
	return 0;
}

/* ---- happens-before and races ---- */

static void join(uint32_t *into, const uint32_t *from)
{
	for (unsigned t = 0; t < DPOR_MAX_THREADS; t++)
		if (from[t] > into[t])
			into[t] = from[t];
}

/* Does step i happen before the event whose clock is `c`?  (Components are index + 1.) */
static bool before(size_t i, unsigned thread_i, const uint32_t *c)
{
	return c[thread_i] >= i + 1;
}

/* clock[k]: the steps that happen before step k, per thread the latest index + 1. */
static int compute_clocks(dpor_steps *s)
{
	if (s->n > s->clock_cap) {
		void *more = realloc(s->clock, s->n * sizeof *s->clock);
		if (!more)
			return -1;
		s->clock = more;
		s->clock_cap = s->n;
	}
	int32_t prev[DPOR_MAX_THREADS];
	for (unsigned t = 0; t < DPOR_MAX_THREADS; t++)
		prev[t] = -1;
	for (size_t k = 0; k < s->n; k++) {
		uint32_t *c = s->clock[k];
		unsigned p = s->step[k].thread;
		memset(c, 0, sizeof s->clock[k]);
		if (prev[p] >= 0)
			join(c, s->clock[prev[p]]);
		for (size_t j = 0; j < k; j++)
			if (s->step[j].thread != p && !before(j, s->step[j].thread, c) &&
			    dpor_dependent(&s->step[j], &s->step[k]))
				join(c, s->clock[j]);
		c[p] = (uint32_t)k + 1;
		prev[p] = (int32_t)k;
	}
	return 0;
}

/*
 * Source-DPOR's initials of v = notdep(j).k: the steps after j that do not
 * happen after it, then k.  A thread is an initial when its first step in v
 * has no other step of v happening before it; checking the first step of each
 * other thread in v is enough (program order is part of happens-before).
 */
static uint32_t initials(const dpor_steps *s, size_t j, size_t k)
{
	unsigned tj = s->step[j].thread;
	int64_t first[DPOR_MAX_THREADS];
	for (unsigned t = 0; t < DPOR_MAX_THREADS; t++)
		first[t] = -1;
	for (size_t i = j + 1; i <= k; i++) {
		unsigned t = s->step[i].thread;
		if (first[t] < 0 && (i == k || !before(j, tj, s->clock[i])))
			first[t] = (int64_t)i;
	}
	uint32_t out = 0;
	for (unsigned q = 0; q < DPOR_MAX_THREADS; q++) {
		if (first[q] < 0)
			continue;
		bool initial = true;
		for (unsigned r = 0; r < DPOR_MAX_THREADS && initial; r++)
			if (r != q && first[r] >= 0 && first[r] < first[q] &&
			    before((size_t)first[r], r, s->clock[first[q]]))
				initial = false;
		if (initial)
			out |= 1u << q;
	}
	return out;
}

/* The races of step k, latest first: dependent, other thread, not ordered through a third step. */
static void races_of(const dpor_steps *s, size_t k, dpor_race_fn found, void *ctx)
{
	unsigned p = s->step[k].thread;
	uint32_t c[DPOR_MAX_THREADS] = { 0 };
	bool seen_previous = false;
	for (size_t j = k; j-- > 0;) {
		unsigned tj = s->step[j].thread;
		if (tj == p) {
			if (!seen_previous)   /* k's program-order predecessor */
				join(c, s->clock[j]);
			seen_previous = true;
			continue;
		}
		if (!dpor_dependent(&s->step[j], &s->step[k]) || before(j, tj, c))
			continue;
		found(ctx, j, k, initials(s, j, k));
		join(c, s->clock[j]);
	}
}

int dpor_races(dpor_steps *s, size_t from, size_t to, dpor_race_fn found, void *ctx)
{
	if (compute_clocks(s) != 0)
		return -1;
	for (size_t k = from; k < to && k < s->n; k++)
		races_of(s, k, found, ctx);
	return 0;
}
