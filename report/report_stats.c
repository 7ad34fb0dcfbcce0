/*
 * report/report_stats.c - what a corpus or a campaign ran, as distributions
 * (QuickCheck's `label`/`collect`, Hypothesis' statistics).
 *
 *   ==weft== statistics of 3 executions of counter_buggy
 *   threads per execution                       count       %
 *     2                                             2    66.7  #############
 *     3                                             1    33.3  #######
 *   operations per thread                       count       %
 *     1                                             7   100.0  ####################
 *   operation kinds                             count       %  (every kind the threads ...)
 *     increment                                     7   100.0  ####################
 *   calls with their arguments                  count       %  (in order first seen)
 *     increment()                                   7   100.0  ####################
 *   preemptions per execution                   count       %
 *     0                                             2    66.7  #############
 *     1                                             1    33.3  #######
 *   verdicts                                    count       %
 *     pass                                          2    66.7  #############
 *     linearizability                               1    33.3  #######
 *   linearizability checks that gave up (unknown): 0 of 3 executions
 *
 * Why this shape: a user asks "did my inputs ever make the scenario my bug
 * needs?"; a zero in "operation kinds" or a missing row in "threads" answers
 * it at a glance.  Rows with no count are left out, except operation kinds,
 * where a kind never run is the news.  Percentages are of the section's total
 * (executions, threads or operations); bars are 20 characters at 100%.
 * Nothing but counts: equal inputs print equal tables.
 */
#include <inttypes.h>

#include "report.h"

#define STATS_LABEL 36
#define STATS_BAR 20

static void row(FILE *out, const char *label, uint64_t n, uint64_t total)
{
	double pct = total ? 100.0 * (double)n / (double)total : 0.0;
	int bar = total ? (int)((n * STATS_BAR + total / 2) / total) : 0;
	fprintf(out, "  %-*s %10" PRIu64 "  %6.1f  %.*s\n", STATS_LABEL, label, n, pct, bar,
		"####################");
}

static void heading(FILE *out, const char *title, const char *note)
{
	fprintf(out, "%-*s %10s  %6s%s%s\n", STATS_LABEL + 2, title, "count", "%",
		note ? "  " : "", note ? note : "");
}

static uint64_t sum(const uint64_t *v, size_t n)
{
	uint64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += v[i];
	return t;
}

/* A histogram over 0..n-1; the last row reads "N or more" when `open_end`. */
static void histogram(FILE *out, const char *title, const uint64_t *v, size_t n, int open_end)
{
	char label[32];
	uint64_t total = sum(v, n);
	heading(out, title, NULL);
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		snprintf(label, sizeof label, "%zu%s", i, open_end && i + 1 == n ? " or more" : "");
		row(out, label, v[i], total);
	}
}

static void kinds(FILE *out, const report_stats *s)
{
	const weft_target *t = s->target;
	uint64_t total = sum(s->kinds, WEFT_MAX_TARGET_OPS);
	heading(out, "operation kinds", "(every kind the threads may run, 0 too)");
	for (unsigned k = 0; k < t->n_ops && k < WEFT_MAX_TARGET_OPS; k++)
		if (!(t->ops[k].flags & WEFT_OP_FINAL_ONLY))
			row(out, t->ops[k].name, s->kinds[k], total);
}

static void calls(FILE *out, const report_stats *s)
{
	char call[128];
	uint64_t total = sum(s->call_count, s->n_calls) + s->other_calls;
	heading(out, "calls with their arguments", "(in order first seen)");
	for (unsigned i = 0; i < s->n_calls; i++) {
		report_html_call(call, sizeof call, s->target->ops, &s->calls[i], 1);
		row(out, call, s->call_count[i], total);
	}
	if (s->other_calls)
		row(out, "(other calls, past the first 64)", s->other_calls, total);
}

static void verdicts(FILE *out, const report_stats *s)
{
	heading(out, "verdicts", NULL);
	for (int v = 0; v < REPORT_STATS_VERDICTS; v++)
		if (s->verdicts[v])
			row(out, weft_verdict_name((weft_verdict)v), s->verdicts[v], s->executions);
}

void report_print_blind(FILE *out, const char *prefix, uint64_t blind, uint64_t ops)
{
	fprintf(out, "%s%" PRIu64 " of %" PRIu64 " operations ran without a switch point: build "
		"with the pass (weft cannot see their accesses; no interleaving reaches inside them)\n",
		prefix, blind, ops);
}

void report_print_stats(FILE *out, const report_stats *s)
{
	fprintf(out, "==weft== statistics of %" PRIu64 " execution%s of %s\n", s->executions,
		s->executions == 1 ? "" : "s", s->target->name);
	histogram(out, "threads per execution", s->threads, WEFT_MAX_THREADS + 1, 0);
	histogram(out, "operations per thread", s->ops_per_thread, WEFT_MAX_OPS + 1, 0);
	kinds(out, s);
	calls(out, s);
	histogram(out, "preemptions per execution", s->preemptions, REPORT_STATS_PREEMPTIONS + 1, 1);
	verdicts(out, s);
	fprintf(out, "linearizability checks that gave up (unknown): %" PRIu64 " of %" PRIu64
		" executions\n", s->check_unknown, s->executions);
	fprintf(out, "operations without a switch point: %" PRIu64 " of %" PRIu64 "\n",
		s->blind_ops, s->ops);
	if (s->blind_ops)
		report_print_blind(out, "note: ", s->blind_ops, s->ops);
}
