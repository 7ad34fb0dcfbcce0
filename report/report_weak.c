/*
 * report/report_weak.c - why a load read an old value (issue 18): for each
 * weak read of the execution (scheduler/memory.h), the store it read from,
 * the newest store of its location, which it did not see, and the reason the
 * C11 model allowed it (no happens-before from that store to the load); under
 * TSO/PSO, each delayed commit: the access that came before another thread's
 * buffered store became visible, and that store.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* A store as "thread T's store FILE:LINE <- V (step S)". */
static void format_store(char *buf, size_t cap, const weft_site *site, unsigned thread,
			 uint64_t value, size_t event)
{
	if (!site) {
		snprintf(buf, cap, "the value %" PRIu64 " it held before any store weft tracked", value);
		return;
	}
	snprintf(buf, cap, "thread %u's store %s:%d <- %" PRIu64 " (step %zu)", thread,
		 report_base_name(site->file), site->line, value, event + 1);
}

const char *report_weak_title(const report_case *c)
{
	if (!c->n_weak || !c->weak[0].buffered)   /* one model per execution: all or none are */
		return "weak reads (C11 memory model: a load may read an older store when no "
		       "happens-before orders a newer one before it)";
	if (c->memory && strcmp(c->memory, "pso") == 0)
		return "delayed commits (PSO store buffers: a store stays invisible to other "
		       "threads until it commits; a seq_cst fence or store, an RMW or a lock "
		       "commits it)";
	return "delayed commits (TSO store buffers: a store stays invisible to other "
	       "threads until it commits; a seq_cst fence or store, an RMW or a lock "
	       "commits it)";
}

/*
 * Why: under C11, the store a load read and the newest one it did not see
 * (no happens-before from it); under TSO/PSO, the access that another
 * thread's buffered store did not reach yet (a load read memory, a store or
 * RMW went before it in the location's order).  `sep` breaks the C11 text
 * (the text report's "\n    ", one space elsewhere).
 */
void report_format_weak_why(char *buf, size_t cap, const report_case *c,
			    const sched_weak_read *w, const char *sep)
{
	char read[160], newer[160];
	format_store(newer, sizeof newer, w->newer_site, w->newer_thread, w->newer_value,
		     w->newer_event);
	const char *s = w->skipped == 1 ? "" : "s";
	if (w->buffered) {
		snprintf(buf, cap, "%s before %s committed: it was still in thread %u's store "
			 "buffer (%u buffered store%s to this location not yet visible)",
			 c->events[w->event].kind == WEFT_ACCESS_LOAD ? "read memory" : "went",
			 newer, w->newer_thread, w->skipped, s);
		return;
	}
	format_store(read, sizeof read, w->store_site, w->store_thread, w->store_value,
		     w->store_event);
	snprintf(buf, cap, "read from %s,%snot from the newest, %s: no happens-before from it "
		 "to this load (%u newer store%s not seen)", read, sep, newer, w->skipped, s);
}

/*
 * Loads that read an older store than the newest (issue 18, WEFT_MEMORY=c11),
 * or accesses before a buffered store committed (tso, pso): which, and why
 * that was allowed.  Printed only when there are some: reports of executions
 * without weak reads are unchanged.
 */
void report_print_weak_reads(FILE *out, const report_case *c)
{
	if (!c->n_weak)
		return;
	fprintf(out, "%s:\n", report_weak_title(c));
	for (size_t i = 0; i < c->n_weak; i++) {
		const sched_weak_read *w = &c->weak[i];
		char access[128], why[512];
		report_format_event(access, sizeof access, c, &c->events[w->event]);
		report_format_weak_why(why, sizeof why, c, w, "\n    ");
		fprintf(out, "  step %zu, thread %u: %s\n    %s\n", w->event + 1,
			c->events[w->event].thread, access, why);
	}
}
