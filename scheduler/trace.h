/*
 * scheduler/trace.h - the event log of one execution.
 *
 * Every step a managed execution takes is one event, appended by the baton
 * holder: operation begin/end, each instrumented access with its site and value,
 * and each switch between threads.  The index of an event is its logical time.
 * The trace is the ground truth from which the runner builds the history, the
 * report prints the interleaving, and determinism is checked (sched_trace_hash:
 * stable ids and values only, never the site pointers).
 */
#ifndef WEFT_SCHED_TRACE_H
#define WEFT_SCHED_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "weft/atomic.h"

enum sched_event_kind {
	/* 1..WEFT_ACCESS_KIND_COUNT-1: an access of that weft_access kind */
	SCHED_EV_OP_BEGIN = 32,  /* value = call index */
	SCHED_EV_OP_END,         /* value = result, site_id = call index */
	SCHED_EV_SWITCH,         /* thread -> other, not a preemption (thread finished) */
	SCHED_EV_PREEMPT,        /* thread -> other, while thread could have gone on */
	SCHED_EV_CUT,            /* execution stopped here; value = enum sched_stop */
	SCHED_EV_BLOCK,          /* thread blocks; value = enum sched_wait, site_id = object + 1 */
	SCHED_EV_SPIN,           /* thread descheduled: it spins and nothing changes */
	SCHED_EV_STALL,          /* no thread can run */
};

typedef struct sched_event {
	uint8_t kind;
	uint8_t thread;
	uint8_t other;           /* switch target; a sync object's number; a
				    compare-exchange: 1 if it succeeded (sched_cas_wrote) */
	uint8_t is_pointer;      /* value is 0/1 for NULL/non-NULL */
	uint32_t site_id;        /* stable site id (accesses), call index (op end) */
	const weft_site *site;   /* for printing file:line only; never hashed */
	const void *addr;        /* the object accessed (NULL: none); compared within
				    one execution only (dependence), never hashed or printed */
	uint64_t value;
} sched_event;

/*
 * Did the access write its object?  A compare-exchange records the value it
 * read (like every read) and its success apart, in `other`: the instrumented
 * path knows the value before the instruction, the success only after it.
 */
static inline bool sched_cas_wrote(const sched_event *e)
{
	return e->other != 0;
}

typedef struct sched_trace {
	sched_event *events;
	size_t n, cap;
} sched_trace;

void sched_trace_reset(sched_trace *t);
void sched_trace_free(sched_trace *t);
/* Make room for one more event (out of line: rare). */
void sched_trace_grow(sched_trace *t);
/*
 * Append an event and return it (the log grows as needed).  Inline: every
 * step appends one, and the call was a fifth of the trace's cost (issue 33).
 */
static inline sched_event *sched_trace_append(sched_trace *t, uint8_t kind, uint8_t thread)
{
	if (__builtin_expect(t->n == t->cap, 0))
		sched_trace_grow(t);
	sched_event *e = &t->events[t->n++];
	*e = (sched_event){ .kind = kind, .thread = thread };
	return e;
}
/* A 64-bit hash of kind, thread, other, site id and value of every event. */
uint64_t sched_trace_hash(const sched_trace *t);
/* The stable id of a site (computed once, cached in the site). */
uint32_t sched_site_id(weft_site *site);
/* The same with a column (instrumented sites: two accesses on one line differ). */
uint32_t sched_site_id_column(weft_site *site, uint32_t column);

/*
 * Ids already computed, by where a site is and what it holds (one per
 * execution context, used by the baton holder only).  Why: a whole program's
 * globals are restored before each of its executions (harness/program_main.c),
 * its sites' cached ids with them, so each of its sites was hashed again every
 * execution: a fifth of a small program's execution (issue 33).  An entry is
 * used only while the site holds the same file pointer, line, kind and column,
 * so the id is the one the hash gives; the address is a key, never output.
 */
#define SCHED_SITE_CACHE 256
typedef struct sched_site_cache_entry {
	const weft_site *site;
	const char *file;
	int line;
	weft_access kind;
	uint32_t column, id;
} sched_site_cache_entry;
typedef struct sched_site_cache {
	sched_site_cache_entry entry[SCHED_SITE_CACHE];
} sched_site_cache;
/* sched_site_id_column, through the cache when the site's own id was reset. */
uint32_t sched_site_id_cached(sched_site_cache *c, weft_site *site, uint32_t column);

#endif /* WEFT_SCHED_TRACE_H */
