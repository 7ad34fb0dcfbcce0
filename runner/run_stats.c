/*
 * runner/run_stats.c - counting what was run: weft_run_stats (weft/run.h).
 *
 * After each execution the caller hands over the runner; its last scenario
 * (threads, each thread's calls with their arguments) and result (preemptions,
 * verdict, whether the check gave up) are added to plain counters, which the
 * report room prints (report/report_stats.c).  Counting is apart from printing
 * so a campaign can keep counting and print once, and so the counts can be
 * tested without parsing text.  Only the scenario is counted, not the final
 * operation: every execution runs it once.
 */
#include <stdlib.h>
#include <string.h>

#include "../report/report.h"
#include "runner_internal.h"

struct weft_run_stats {
	report_stats s;
};

weft_run_stats *weft_run_stats_new(const weft_target *target)
{
	weft_run_stats *st = calloc(1, sizeof *st);
	if (st)
		st->s.target = target;
	return st;
}

void weft_run_stats_free(weft_run_stats *st)
{
	free(st);
}

static int same_call(const weft_op *ops, const weft_op_record *a, const weft_op_record *b)
{
	if (a->op != b->op)
		return 0;
	for (int i = 0; i < ops[a->op].n_args && i < WEFT_MAX_ARGS; i++)
		if (a->args[i] != b->args[i])
			return 0;
	return 1;
}

/* Count one call by kind and by (kind, arguments); linear in the distinct calls kept. */
static void count_call(report_stats *s, const weft_op_record *c)
{
	if (c->op < WEFT_MAX_TARGET_OPS)
		s->kinds[c->op]++;
	for (unsigned i = 0; i < s->n_calls; i++) {
		if (same_call(s->target->ops, &s->calls[i], c)) {
			s->call_count[i]++;
			return;
		}
	}
	if (s->n_calls == REPORT_STATS_CALLS) {
		s->other_calls++;
		return;
	}
	s->calls[s->n_calls] = *c;
	s->call_count[s->n_calls++] = 1;
}

void weft_run_stats_add(weft_run_stats *st, const weft_runner *runner, const weft_result *r)
{
	report_stats *s = &st->s;
	const input_scenario *sc = runner_scenario(runner);
	s->executions++;
	s->threads[r->n_threads <= WEFT_MAX_THREADS ? r->n_threads : WEFT_MAX_THREADS]++;
	for (unsigned t = 0; t < sc->n_threads && t < WEFT_MAX_THREADS; t++) {
		unsigned n = sc->first_call[t + 1] - sc->first_call[t];
		s->ops_per_thread[n <= WEFT_MAX_OPS ? n : WEFT_MAX_OPS]++;
	}
	for (unsigned i = 0; i < sc->n_calls; i++)
		count_call(s, &sc->calls[i]);
	s->preemptions[r->preemptions < REPORT_STATS_PREEMPTIONS ? r->preemptions
								 : REPORT_STATS_PREEMPTIONS]++;
	if ((unsigned)r->verdict < REPORT_STATS_VERDICTS)
		s->verdicts[r->verdict]++;
	s->check_unknown += r->check_unknown != 0;
	unsigned ops;
	s->blind_ops += runner_count_blind(runner_trace(runner), &ops);
	s->ops += ops;
}

int weft_runner_warn_blind(const weft_runner *runner, FILE *out, const char *prefix)
{
	weft_runner_stats st = weft_runner_stats_get(runner);
	if (!st.blind_operations)
		return 0;
	report_print_blind(out, prefix, st.blind_operations, st.operations);
	return 1;
}

void weft_run_stats_print(const weft_run_stats *st, FILE *out)
{
	report_print_stats(out, &st->s);
}
