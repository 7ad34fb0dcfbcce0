/*
 * scheduler/race.c - happens-before between managed threads, and the data-race
 * check on instrumented plain accesses (verdict `data-race`, WEFT_RACES=1).
 *
 * Design.  Vector clocks (Lamport, Fidge/Mattern), as in DJIT+/FastTrack but
 * with full read sets: each managed thread t has a clock vector VC_t (its own
 * entry starts at 1); each lock, semaphore and rwlock record (sched_sync) and
 * each atomic location has one too.  Release: the object's vector joins VC_t,
 * then t's own entry ticks.  Acquire: VC_t joins the object's vector.  The
 * edges: mutex and rwlock unlock -> lock (a condition wait releases and
 * re-acquires its mutex: that edge suffices), sem_post -> a successful wait,
 * pthread_create -> the child's start, a thread's end -> pthread_join, and
 * every atomic instruction as a release and an acquire of its location (all
 * orders treated as seq_cst: fewer races reported, never a false one).
 *
 * Shadow: per 8-byte granule (the slot access.c's table gives it), the last
 * write (thread, its clock then, site) and, per thread, its last read.  A
 * write races with an earlier write or read of another thread that does not
 * happen before it; a read races with an earlier write.  The first race stops
 * the execution (SCHED_STOP_RACE) with both accesses named: thread, file:line,
 * function, read or write; the runner makes it the verdict.  Deterministic:
 * clocks count synchronisation, which the schedule fixes.
 *
 * Cost: nothing unless the runner turned races on (one branch at each release
 * and acquire); then a join of SCHED_MAX_THREADS (128) entries per
 * synchronisation and a shadow update per instrumented plain access; the
 * shadow is about 2 KiB per table slot (33 MiB, allocated zeroed on first use
 * with races on).  Known cost of 128 threads: fine for an opt-in check.
 */
#include "sched.h"

#include <stdio.h>
#include <string.h>

#include "weft/instrument.h"

struct sched_shadow {
	const weft_access_site *write_site;
	uint32_t write_clock;                 /* 0 = no write yet */
	uint8_t write_thread;
	uint32_t read_clock[SCHED_MAX_THREADS];
	const weft_access_site *read_site[SCHED_MAX_THREADS];
	sched_vc sync;                        /* an atomic location: what its accesses published */
};

const size_t sched_shadow_size = sizeof(struct sched_shadow);

static void join(sched_vc *into, const sched_vc *from)
{
	for (unsigned i = 0; i < SCHED_MAX_THREADS; i++)
		if (from->c[i] > into->c[i])
			into->c[i] = from->c[i];
}

void sched_race_start(sched_exec *exec)
{
	for (unsigned i = 0; i < exec->n_slots; i++) {
		sched_thread *t = exec->pool->threads[i];
		if (!t)
			continue;   /* a slot made only when spawned: sched_race_fork_slow */
		memset(&t->vc, 0, sizeof t->vc);
		t->vc.c[i] = 1;
	}
}

void sched_race_release_slow(sched_thread *self, sched_vc *object)
{
	join(object, &self->vc);
	self->vc.c[self->id]++;
}

void sched_race_acquire_slow(sched_thread *self, const sched_vc *object)
{
	join(&self->vc, object);
}

void sched_race_fork_slow(sched_thread *self, sched_thread *child)
{
	memset(&child->vc, 0, sizeof child->vc);   /* its slot may be new or reused */
	child->vc.c[child->id] = 1;
	join(&child->vc, &self->vc);
	self->vc.c[self->id]++;
}

static const char *base(const char *file)
{
	const char *slash = strrchr(file, '/');
	return slash ? slash + 1 : file;
}

__attribute__((noreturn))
static void report_race(sched_thread *self, const weft_access_site *site, bool write,
			unsigned other, const weft_access_site *other_site, bool other_write)
{
	snprintf(self->exec->stop_message, sizeof self->exec->stop_message,
		 "thread %u %s %s:%d (%s), unordered with thread %u's %s at %s:%d (%s)",
		 self->id, write ? "writes" : "reads", base(site->site.file), site->site.line,
		 site->function, other, other_write ? "write" : "read",
		 base(other_site->site.file), other_site->site.line, other_site->function);
	sched_stop_execution(self, SCHED_STOP_RACE);
}

/* An atomic instruction: an acquire and a release of its location, whatever its order. */
void sched_race_atomic(sched_thread *self, sched_shadow *s)
{
	join(&self->vc, &s->sync);
	join(&s->sync, &self->vc);
	self->vc.c[self->id]++;
}

void sched_race_clear(sched_shadow *s)
{
	memset(s, 0, sizeof *s);
}

void sched_race_access(sched_thread *self, sched_shadow *s, const weft_access_site *site,
		       bool write)
{
	const sched_vc *vc = &self->vc;
	unsigned me = self->id;
	if (s->write_clock && s->write_thread != me && s->write_clock > vc->c[s->write_thread])
		report_race(self, site, write, s->write_thread, s->write_site, true);
	if (write) {
		for (unsigned u = 0; u < SCHED_MAX_THREADS; u++)
			if (u != me && s->read_clock[u] > vc->c[u])
				report_race(self, site, true, u, s->read_site[u], false);
		s->write_site = site;
		s->write_clock = vc->c[me];
		s->write_thread = (uint8_t)me;
		return;
	}
	s->read_clock[me] = vc->c[me];
	s->read_site[me] = site;
}
