/*
 * report/report_stall.c - words for threads that cannot go on: what a blocked
 * thread waits for, who holds it, and why an execution stopped.
 *
 * The deadlock message names objects by number, in order of first use in the
 * execution ("mutex 2"), with the site that first used them, and threads by
 * number: never addresses, so the text is the same on every run.
 */
#include "report.h"

#include <stdarg.h>
#include <string.h>

#include "../scheduler/sched.h"

const char *report_stop_name(unsigned stop)
{
	switch (stop) {
	case SCHED_STOP_BUDGET: return "step budget exhausted";
	case SCHED_STOP_STALL: return "no thread can run";
	case SCHED_STOP_LIVELOCK: return "livelock: spinning, and nothing can change";
	case SCHED_STOP_OBSTRUCTION: return "ran alone too long";
	case SCHED_STOP_ASSERTION: return "assertion failed";
	case SCHED_STOP_ERROR: return "misuse";
	case SCHED_STOP_EXIT: return "exit() called";
	case SCHED_STOP_RACE: return "data race";
	}
	return "stopped";
}

static const char *kind_name(unsigned kind)
{
	switch (kind) {
	case SCHED_SYNC_MUTEX: return "mutex";
	case SCHED_SYNC_COND: return "condition";
	case SCHED_SYNC_RWLOCK: return "rwlock";
	case SCHED_SYNC_SEM: return "semaphore";
	case SCHED_SYNC_BARRIER: return "barrier";
	case SCHED_SYNC_SPIN: return "spin lock";
	case SCHED_SYNC_ONCE: return "once";
	}
	return "object";
}

void report_format_wait(char *buf, size_t cap, unsigned wait, unsigned object)
{
	switch (wait) {
	case SCHED_WAIT_MUTEX: snprintf(buf, cap, "|| waits for #%u", object); break;
	case SCHED_WAIT_COND: snprintf(buf, cap, "|| waits on #%u", object); break;
	case SCHED_WAIT_READ: snprintf(buf, cap, "|| waits to read #%u", object); break;
	case SCHED_WAIT_WRITE: snprintf(buf, cap, "|| waits to write #%u", object); break;
	case SCHED_WAIT_SEM: snprintf(buf, cap, "|| waits on #%u", object); break;
	case SCHED_WAIT_JOIN: snprintf(buf, cap, "|| waits for thread %u", object - 1); break;
	case SCHED_WAIT_BARRIER: snprintf(buf, cap, "|| waits at #%u", object); break;
	case SCHED_WAIT_ONCE: snprintf(buf, cap, "|| waits for #%u", object); break;
	default: snprintf(buf, cap, "|| waits"); break;
	}
}

/* Append to buf (which holds *len characters) without overflowing it. */
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	if (*len >= cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

static void append_site(char *buf, size_t cap, size_t *len, const weft_site *site)
{
	if (site)
		append(buf, cap, len, " (%s:%d)", report_base_name(site->file), site->line);
}

/* ", held by thread 1" / ", read-held by threads 0 1" / "" */
static void append_holders(char *buf, size_t cap, size_t *len, const sched_sync *o)
{
	if (o->owner)
		append(buf, cap, len, ", held by thread %u", o->owner - 1u);
	if (o->kind == SCHED_SYNC_RWLOCK && o->readers) {
		append(buf, cap, len, ", read-held by thread");
		for (unsigned t = 0; t < SCHED_MAX_THREADS; t++)
			if (sched_has(o->readers, t))
				append(buf, cap, len, " %u", t);
	}
	if (o->kind == SCHED_SYNC_SEM)
		append(buf, cap, len, ", value %lld", (long long)o->count);
	if (o->kind == SCHED_SYNC_BARRIER)
		append(buf, cap, len, ", %u of %lld arrived", o->depth, (long long)o->count);
}

static const char *wait_verb(unsigned wait)
{
	switch (wait) {
	case SCHED_WAIT_MUTEX: return "to lock";
	case SCHED_WAIT_COND: return "on";
	case SCHED_WAIT_READ: return "to read-lock";
	case SCHED_WAIT_WRITE: return "to write-lock";
	case SCHED_WAIT_SEM: return "on";
	case SCHED_WAIT_BARRIER: return "at";
	}
	return "for";
}

static void describe_thread(char *buf, size_t cap, size_t *len, const sched_exec *exec,
			    const sched_thread *t, const char *op)
{
	append(buf, cap, len, "; thread %u", t->id);
	if (op)
		append(buf, cap, len, " in %s()", op);
	if (t->wait == SCHED_WAIT_JOIN) {
		append(buf, cap, len, " waits for thread %d to finish", t->wait_sync);
		append_site(buf, cap, len, t->wait_site);
		return;
	}
	const sched_sync *o = &exec->sync[t->wait_sync];
	append(buf, cap, len, " waits %s %s %u", wait_verb(t->wait), kind_name(o->kind), o->number);
	append_site(buf, cap, len, t->wait_site);
	append_holders(buf, cap, len, o);
}

void report_describe_stall(char *buf, size_t cap, const sched_exec *exec, const char *const *op_names)
{
	size_t len = 0;
	buf[0] = 0;
	append(buf, cap, &len, "no thread can run");
	for (unsigned i = 0; i < exec->n_started; i++) {
		const sched_thread *t = exec->pool->threads[i];
		if (sched_has(exec->stalled, i) && t->wait != SCHED_WAIT_NONE)
			describe_thread(buf, cap, &len, exec, t, op_names[i]);
	}
}
