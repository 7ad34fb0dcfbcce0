/*
 * report/report.h - the only code that prints what happened in an execution.
 *
 * Input is plain data (the target, its calls with results, the event trace and
 * the verdict), so the report depends on nothing upstream but the trace format.
 * Output is stable: no addresses, times or pids; sites as basename:line.
 * Three renderings of one report_case: text for people (report.c), JSON for
 * tools (report_json.c) and a web page (report_html.c); they share the naming
 * helpers declared at the end.
 */
#ifndef WEFT_REPORT_H
#define WEFT_REPORT_H

#include <stdio.h>

#include "weft/check.h"
#include "weft/run.h"
#include "../scheduler/trace.h"
#include "../scheduler/memory.h"

struct sched_exec;

typedef struct report_case {
	const weft_target *target;
	const weft_result *result;
	const weft_op_record *calls;   /* the scenario in thread order, results filled */
	unsigned n_calls;
	const sched_event *events;
	size_t n_events;
	const weft_op_record *final_call;  /* weft_target.final_op as run, or NULL */
	const weft_op_record *init, *post; /* the sequential parts as run (input/scenario.h) */
	unsigned n_init, n_post;
	const weft_op_record *history;     /* what the oracle checked */
	size_t n_history;
	const weft_check_result *check;    /* non-NULL when not linearizable */
	const char *first_run;             /* verdict nondeterministic: the failing first
					      run's whole report, or NULL */
	const char *fresh_run;             /* verdict nondeterministic: the passing run of
					      the same input in a fresh process (runner/
					      fresh.h), its whole report, or NULL */
	const sched_weak_read *weak;       /* loads that read an older store (issue 18), or
					      under tso/pso delayed commits */
	size_t n_weak;
	const char *memory;                /* the memory model's name (weft_runner_memory),
					      or NULL */
} report_case;

/*
 * Summary line, scenario, interleaving (one column per thread), the final
 * operation, the history as intervals (one line per thread), and for a
 * linearizability failure the oracle's explanation.
 */
void report_print(FILE *out, const report_case *c);

/* The weak reads of c (report_weak.c): nothing when there are none. */
void report_print_weak_reads(FILE *out, const report_case *c);
/* Their section's title, and why one was allowed (the JSON and HTML reports too). */
const char *report_weak_title(const report_case *c);
void report_format_weak_why(char *buf, size_t cap, const report_case *c,
			    const sched_weak_read *w, const char *sep);

/*
 * The same case as one JSON object (format in report_json.c's comment):
 * verdict, counts, trace hash, scenario, history, interleaving, and the
 * oracle's explanation (null unless c->check).  Stable, like report_print.
 */
void report_print_json(FILE *out, const report_case *c);

/*
 * The same case as one self-contained HTML page (report_html.c; the page and
 * its data format: html_page.c): scenario, lanes, history, explanation, linked.
 */
void report_print_html(FILE *out, const report_case *c);

/*
 * The failure's symptom, one stable line (symptom.c): the verdict, plus for an
 * assertion or misuse its message without thread numbers, for a data race its
 * two sites sorted.  What reducers keep equal; "symptom" in the JSON report.
 * Returns strlen(buf), truncated to cap - 1.
 */
size_t report_symptom(char *buf, size_t cap, weft_verdict v, const char *message);

/* ---- one operation as text (report_call.c) ---- */
/* "name(1, "ab")"; drawn: a scenario record (typed arguments made first), else a history one. */
void report_format_call(char *buf, size_t cap, const weft_target *t, const weft_op_record *call,
			int drawn);
/* "call = result"; `type` prints a value result (NULL: an int64_t, none, blocked). */
void report_format_returned(char *buf, size_t cap, const char *call, int64_t result,
			    const weft_value_type *type);
/* "  init: enq(1); enq(2)" (nothing when n is 0). */
void report_print_part(FILE *out, const report_case *c, const char *name,
		       const weft_op_record *calls, unsigned n);
/* "before all threads: enq(1) = 0", one line per operation (`when`: "before", "after"). */
void report_print_part_results(FILE *out, const report_case *c, const char *when,
			       const weft_op_record *calls, unsigned n);

/* ---- the HTML pages' parts (html_page.c, history_html.c) ---- */
void report_html_begin(FILE *out, const char *title);  /* up to the data's opening */
void report_html_end(FILE *out);                       /* the data's end, the script */
void report_html_text(FILE *out, const char *s);       /* HTML-escaped text */
void report_html_string(FILE *out, const char *s);     /* a JSON string safe in <script> */
/* Bytes of the well-formed UTF-8 sequence at p, 0 if none starts there (report_json.c). */
size_t report_utf8_len(const unsigned char *p);
void report_html_value(FILE *out, int64_t v,             /* a result: "none", "blocked", "3" */
		       const weft_value_type *type);
void report_html_call(char *buf, size_t cap, const weft_op *ops, const weft_op_record *r,
		      int drawn);
/* "history": [...], "lin": ... of `h`; times shifted by time_base (1: steps from 1). */
void report_html_history(FILE *out, const weft_history *h, const weft_op *ops,
			 const weft_check_result *check, unsigned time_base);

/* Shared by the renderings. */
/* One step as the interleaving table shows it, e.g. "load counter.c:26 -> 0". */
void report_format_event(char *buf, size_t cap, const report_case *c, const sched_event *e);
const char *report_access_name(unsigned kind);   /* "load", "cas", ...; "?" if unknown */
const char *report_base_name(const char *path);  /* the part after the last '/' */

/* ---- report_stats.c: what a corpus or a campaign ran, as distributions ---- */
#define REPORT_STATS_PREEMPTIONS 16  /* the last row: this many or more */
#define REPORT_STATS_CALLS 64        /* distinct calls (operation + arguments) kept */
#define REPORT_STATS_VERDICTS (WEFT_FAIL_MISUSE + 1)

/* Plain counts, filled by the runner room (runner/run_stats.c), printed here. */
typedef struct report_stats {
	const weft_target *target;
	uint64_t executions;
	uint64_t threads[WEFT_MAX_THREADS + 1];      /* executions by number of threads */
	uint64_t ops_per_thread[WEFT_MAX_OPS + 1];   /* threads by number of operations */
	uint64_t kinds[WEFT_MAX_TARGET_OPS];         /* operations by kind (weft_target.ops) */
	uint64_t preemptions[REPORT_STATS_PREEMPTIONS + 1];  /* executions by preemptions */
	uint64_t verdicts[REPORT_STATS_VERDICTS];    /* executions by verdict */
	uint64_t check_unknown;                      /* executions whose check gave up */
	uint64_t ops, blind_ops;                     /* operations; those without a switch point */
	weft_op_record calls[REPORT_STATS_CALLS];    /* distinct calls, in order first seen */
	uint64_t call_count[REPORT_STATS_CALLS];
	unsigned n_calls;
	uint64_t other_calls;                        /* operations past the distinct calls kept */
} report_stats;

/* The distributions as an aligned table; rows in a fixed order, so it is golden-testable. */
void report_print_stats(FILE *out, const report_stats *s);
/* "N of M operations ran without a switch point: build with the pass ..." (blind > 0). */
void report_print_blind(FILE *out, const char *prefix, uint64_t blind, uint64_t ops);

/* ---- report_stall.c: blocked threads, for the trace and for deadlock messages ---- */
/* Why an execution stopped (enum sched_stop): "step budget exhausted", "livelock", ... */
const char *report_stop_name(unsigned stop);
/* WEFT_RACES=warn: one line for a race not seen before (report_race.c). */
void report_print_race_warning(FILE *out, const char *target, const char *message);
/* "==weft== WARNING: state drifts between executions in TARGET: MESSAGE" (report_drift.c). */
void report_print_drift_warning(FILE *out, const char *target, const char *message);
/* A blocked thread's wait (enum sched_wait, object number or joined thread + 1). */
void report_format_wait(char *buf, size_t cap, unsigned wait, unsigned object);
/*
 * One line: each blocked thread, what it waits for, where, in which operation
 * (`op_names[t]`, NULL for none), and who holds that object.
 */
void report_describe_stall(char *buf, size_t cap, const struct sched_exec *exec,
			   const char *const *op_names);

#endif /* WEFT_REPORT_H */
