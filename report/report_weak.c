/*
 * report/report_weak.c - why a load read an old value (issue 18): for each
 * weak read of the execution (scheduler/memory.h), the store it read from,
 * the newest store of its location, which it did not see, and the reason the
 * C11 model allowed it (no happens-before from that store to the load).
 */
#include "report.h"

#include <inttypes.h>

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

/*
 * Loads that read an older store than the newest (issue 18, WEFT_MEMORY=c11):
 * which store each read, which newer one it did not see, and why that was
 * allowed.  Printed only when there are some: reports of executions without
 * weak reads are unchanged.
 */
void report_print_weak_reads(FILE *out, const report_case *c)
{
	if (!c->n_weak)
		return;
	fprintf(out, "weak reads (C11 memory model: a load may read an older store when no "
		"happens-before orders a newer one before it):\n");
	for (size_t i = 0; i < c->n_weak; i++) {
		const sched_weak_read *w = &c->weak[i];
		char load[128], read[160], newer[160];
		report_format_event(load, sizeof load, c, &c->events[w->event]);
		format_store(read, sizeof read, w->store_site, w->store_thread, w->store_value,
			     w->store_event);
		format_store(newer, sizeof newer, w->newer_site, w->newer_thread, w->newer_value,
			     w->newer_event);
		fprintf(out, "  step %zu, thread %u: %s\n    read from %s,\n"
			"    not from the newest, %s: no happens-before from it to this load"
			" (%u newer store%s not seen)\n",
			w->event + 1, c->events[w->event].thread, load, read, newer, w->skipped,
			w->skipped == 1 ? "" : "s");
	}
}

