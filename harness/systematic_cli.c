/*
 * harness/systematic_cli.c - `NAME_replay --systematic [options]`: the command
 * line of systematic mode (systematic.h), the glue that prints.
 *
 * Output.  stdout, deterministic (no times): a line naming the bounds, then
 * either "explored N executions (M scenarios): all N interleavings are fine",
 * followed on the same line by what cut the search, if anything did (", within
 * at most C preemptions: the bound cut K runs short"; data choices of more
 * than 32 answers),
 * or "FAIL after N executions ..." with the standard report and the failure
 * written as an input file, replayed here once to check it fails the same way
 * (same verdict, same trace hash) before saying so.  stderr: progress every
 * 10^5 runs and the rate at the end.  Options are defined once, in
 * SYSTEMATIC_OPTIONS, which generates the parser and --help.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "watchdog.h"
#include "../runner/runner_internal.h"
#include "../search/systematic.h"

enum systematic_exit {
	SYSTEMATIC_EXIT_FINE = 0,        /* every interleaving within the bounds passed */
	SYSTEMATIC_EXIT_FAILED = 1,      /* a failure was found (and written) */
	SYSTEMATIC_EXIT_USAGE = 2,       /* bad usage or an error */
	SYSTEMATIC_EXIT_INCOMPLETE = 3,  /* --max-executions reached, no failure so far */
};

#define PROGRESS_EVERY 100000
#define MAX_BOUND 64
#define DEFAULT_DEEPEN 3   /* bounds 0, 1, 2 before the unbounded pass (systematic.h) */
#define MAX_ARG_VALUES 16

/* X(field, flag, value name or "", help) */
#define SYSTEMATIC_OPTIONS(X)                                                           \
	X(help, "--help", "", "print this help and exit")                              \
	X(threads, "--threads", "A..B", "thread counts to explore, or one count A "        \
					"(default: the target's minimum)")                 \
	X(ops, "--ops", "N", "operations per thread: every count from 1 to N (default 2)") \
	X(args, "--args", "LO..HI", "clip every argument's range to LO..HI "               \
				    "(default: each range's two lowest values)")           \
	X(preemptions, "--preemptions", "C", "explore with at most c preemptions for "      \
					     "c = 0, 1, ..., C in turn (default: no bound)") \
	X(deepen, "--deepen", "D", "without --preemptions: bounds 0..D-1 first, then "   \
				  "no bound (default 3; 0: no bound at once)")           \
	X(no_reduction, "--no-reduction", "", "run every interleaving (no partial-order " \
						"reduction)")                              \
	X(max_executions, "--max-executions", "N", "stop after N executions (default: no limit)") \
	X(out, "--out", "FILE", "write the first failure there (default: NAME.VERDICT.bin)") \
	X(timeout, "--timeout", "S", "seconds one execution may run before the search ends " \
				     "with a timeout (exit 1); 0: no limit (default 30)")    \
	X(quiet, "--quiet", "", "no progress and rate lines on stderr")

typedef struct cli_options {
#define X(field, flag, value, help) const char *field;
	SYSTEMATIC_OPTIONS(X)
#undef X
} cli_options;

static const harness_cli_option cli_table[] = {
#define X(field, flag, value, help) HARNESS_CLI_ENTRY(cli_options, field, flag, value, help)
	SYSTEMATIC_OPTIONS(X)
#undef X
};

static void usage(FILE *out, const char *argv0, const weft_target *t)
{
	fprintf(out, "usage: %s --systematic [options]\n"
		"Explores every scenario and every interleaving of target '%s' within the\n"
		"bounds, checking each execution with the same oracles as fuzzing; stops at the\n"
		"first failure, prints its report and writes it as an input file that\n"
		"%s_fuzz and %s_replay replay.  Scenarios run smallest first; with\n"
		"--preemptions=C, bounds 0, 1, ..., C in turn, so a failure has the fewest\n"
		"preemptions; without it, bounds 0..D-1 (--deepen) and then no bound.  A bound\n"
		"that cut the search is named on the result line: fine within it only.\n"
		"Sleeps and timed waits are explored both ways (ending at once, or when no\n"
		"other thread can run); weak reads and store buffers are explored in full.\n"
		"Thread counts and operations are limited to the target's own bounds.\n"
		"At most 32 managed threads (a program: main and 31 it starts; fuzzing runs 128):\n"
		"an execution with more stops the search with an error (exit 2).\n"
		"Exit status: 0 all interleavings fine, 1 a failure found, 2 bad usage or\n"
		"error, 3 --max-executions reached first.\n\noptions:\n",
		argv0, t->name, t->name, t->name);
	harness_cli_print(out, cli_table, sizeof cli_table / sizeof *cli_table);
}

static int bad(const char *what)
{
	fprintf(stderr, "weft-systematic: %s (see --systematic --help)\n", what);
	return -1;
}

/* The options as the explorer takes them; -1 (after a message) when they do not fit. */
static int configure(search_systematic_options *o, const cli_options *c, const input_bounds *b)
{
	int64_t lo = b->min_threads, hi = b->min_threads;
	uint64_t v;
	memset(o, 0, sizeof *o);
	if (c->threads && (harness_cli_range(c->threads, &lo, &hi) != 0 || lo < b->min_threads ||
			   hi > b->max_threads)) {
		fprintf(stderr, "weft-systematic: the target runs %u..%u threads\n",
			b->min_threads, b->max_threads);
		return bad("--threads=A..B must be within them");
	}
	o->min_threads = (unsigned)lo;
	o->max_threads = (unsigned)hi;
	v = b->max_ops < 2 ? b->max_ops : 2;
	if (c->ops && harness_cli_count(c->ops, 1, b->max_ops, &v) != 0) {
		fprintf(stderr, "weft-systematic: the target runs at most %u operations per thread\n",
			b->max_ops);
		return bad("--ops=N must be 1 to that");
	}
	o->max_ops = (unsigned)v;
	o->clip_args = c->args != NULL;
	if (c->args && (harness_cli_range(c->args, &o->arg_lo, &o->arg_hi) != 0 ||
			(uint64_t)o->arg_hi - (uint64_t)o->arg_lo >= MAX_ARG_VALUES))   /* no signed overflow */
		return bad("--args=LO..HI must be a range of at most 16 values");
	o->preemptions = SEARCH_DFS_UNBOUNDED;
	o->deepen = DEFAULT_DEEPEN;
	if (c->deepen) {
		if (c->preemptions || harness_cli_count(c->deepen, 0, MAX_BOUND, &v) != 0)
			return bad("--deepen=D must be 0 to 64, without --preemptions");
		o->deepen = (unsigned)v;
	}
	if (c->preemptions) {
		if (harness_cli_count(c->preemptions, 0, MAX_BOUND, &v) != 0)
			return bad("--preemptions=C must be 0 to 64");
		o->preemptions = (unsigned)v;
	}
	if (c->max_executions) {
		if (harness_cli_count(c->max_executions, 1, UINT64_MAX, &v) != 0)
			return bad("--max-executions=N must be 1 to 18446744073709551615");
		o->max_executions = (uint64_t)v;
	}
	o->reduce = c->no_reduction == NULL;
	return 0;
}

static void print_bounds(const search_systematic_options *o, const weft_target *t)
{
	printf("weft-systematic: %s, %u..%u threads, 1..%u operations per thread, ", t->name,
	       o->min_threads, o->max_threads, o->max_ops);
	if (o->clip_args)
		printf("arguments within %" PRId64 "..%" PRId64 ", ", o->arg_lo, o->arg_hi);
	else
		printf("each argument's two lowest values, ");
	if (o->preemptions == SEARCH_DFS_UNBOUNDED && o->deepen > 0)
		printf("no preemption bound (bounds 0..%u first), ", o->deepen - 1);
	else if (o->preemptions == SEARCH_DFS_UNBOUNDED)
		printf("no preemption bound, ");
	else
		printf("at most %u preemption%s, ", o->preemptions, o->preemptions == 1 ? "" : "s");
	printf("partial-order reduction %s\n", o->reduce ? "on" : "off");
}

static void progress(void *ctx, const search_systematic_stats *st)
{
	(void)ctx;
	if (st->bound == SEARCH_DFS_UNBOUNDED)
		fprintf(stderr, "weft-systematic: %" PRIu64 " executions, scenario %" PRIu64 "\n",
			st->executions, st->scenario);
	else
		fprintf(stderr, "weft-systematic: %" PRIu64 " executions, bound %u, scenario %"
			PRIu64 "\n", st->executions, st->bound, st->scenario);
}

/* The second line: runs that are not counted interleavings, if any. */
static void print_runs(const search_systematic_stats *st)
{
	if (st->executions == st->interleavings)
		return;
	printf("ran %" PRIu64 " executions in all: %" PRIu64 " again (under a higher "
	       "preemption bound, or the search restarted past sequential consistency), %"
	       PRIu64 " redundant (equivalent to another, found by sleep sets)\n",
	       st->executions, st->reruns, st->redundant);
}

/* What "fine" covers, at the end of the summary line: the cuts, if any. */
static void print_cuts(const search_systematic_stats *st)
{
	if (st->bound_cut)
		printf(", within at most %u preemption%s: the bound cut %" PRIu64 " run%s short",
		       st->bound, st->bound == 1 ? "" : "s", st->bound_cut,
		       st->bound_cut == 1 ? "" : "s");
	if (st->choices_cut)
		printf("%s %" PRIu64 " run%s cut a data choice short (more than 32 answers, or a "
		       "timed wait ending early a third time or twice in a row)",
		       st->bound_cut ? ";" : ",", st->choices_cut, st->choices_cut == 1 ? "" : "s");
	printf("\n");
}

static int write_bytes(const char *path, const uint8_t *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t put = fwrite(data, 1, n, f);
	return fclose(f) != 0 || put != n ? -1 : 0;
}

/* Write the failure as an input, replay it, and say whether it fails the same way. */
static void write_failure(weft_runner *r, const search_systematic_failure *f, const char *path)
{
	const weft_target *t = weft_runner_target(r);
	uint8_t buf[8192];
	size_t n = input_scenario_encode(&f->scenario, t, runner_bounds(r), buf, sizeof buf);
	if (n == INPUT_ENCODE_FAILED) {
		printf("could not write the failure: the input format cannot express its scenario\n");
		return;
	}
	if (write_bytes(path, buf, n) != 0) {
		printf("could not write %s: %s\n", path, strerror(errno));
		return;
	}
	weft_result res;
	weft_verdict v = weft_runner_run(r, buf, n, &res);
	if (v == f->verdict && res.trace_hash == f->result.trace_hash) {
		printf("wrote %s (replays with %s_fuzz %s)\n", path, t->name, path);
		return;
	}
	printf("wrote %s, but it does not replay to this failure (it gives %s, trace %016" PRIx64
	       " instead of %016" PRIx64 ")%s\n", path, weft_verdict_name(v), res.trace_hash,
	       f->result.trace_hash, f->expressible ?
	       ": a forced switch to another thread than the lowest-numbered runnable one is "
	       "written as a preemption one step later, which the replay takes too if the thread "
	       "gets there" : ": the schedule has more switches than an input's plan holds");
}

static int report_outcome(weft_runner *r, search_systematic_outcome out,
			  const search_systematic_stats *st, const search_systematic_failure *f,
			  const cli_options *c, const char *message)
{
	char path[512];
	switch (out) {
	case SEARCH_SYSTEMATIC_FINE:
		printf("explored %" PRIu64 " executions (%" PRIu64 " scenarios): all %" PRIu64
		       " interleavings are fine", st->interleavings, st->scenarios, st->interleavings);
		print_cuts(st);
		weft_runner_warn_blind(r, stdout, "note: ");   /* fine, but blind there */
		print_runs(st);
		return SYSTEMATIC_EXIT_FINE;
	case SEARCH_SYSTEMATIC_FAILED:
		printf("FAIL after %" PRIu64 " executions (scenario %" PRIu64 "): %s with %u "
		       "preemption%s\n", st->executions, st->scenario, weft_verdict_name(f->verdict),
		       f->result.preemptions, f->result.preemptions == 1 ? "" : "s");
		weft_runner_report(r, stdout);
		snprintf(path, sizeof path, "%s.%s.bin", weft_runner_target(r)->name,
			 weft_verdict_name(f->verdict));
		write_failure(r, f, c->out ? c->out : path);
		return SYSTEMATIC_EXIT_FAILED;
	case SEARCH_SYSTEMATIC_LIMIT:
		printf("stopped after %" PRIu64 " executions (--max-executions, %" PRIu64
		       " scenarios begun): no failure so far, the exploration is incomplete\n",
		       st->executions, st->scenarios);
		return SYSTEMATIC_EXIT_INCOMPLETE;
	default:
		fprintf(stderr, "weft-systematic: error: %s\n", message);
		return SYSTEMATIC_EXIT_USAGE;
	}
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(weft_runner *r, const cli_options *c)
{
	search_systematic_options o;
	if (configure(&o, c, runner_bounds(r)) != 0)
		return SYSTEMATIC_EXIT_USAGE;
	if ((weft_runner_target(r)->flags & WEFT_TARGET_PROGRAM) && o.max_threads > o.min_threads) {
		/* a program starts its own threads: every count is the same program, counted once */
		fprintf(stderr, "weft-systematic: a program starts its own threads: --threads "
			"changes nothing, it is explored once\n");
		o.max_threads = o.min_threads;
	}
	o.progress = c->quiet ? NULL : progress;
	o.progress_every = PROGRESS_EVERY;
	print_bounds(&o, weft_runner_target(r));
	fflush(stdout);
	search_systematic_stats st;
	search_systematic_failure *f = malloc(sizeof *f);
	char message[256] = "out of memory";
	double t0 = seconds_now();
	search_systematic_outcome out = f ? search_systematic_explore(r, &o, &st, f, message,
									 sizeof message)
					   : SEARCH_SYSTEMATIC_ERROR;
	double dt = seconds_now() - t0;
	if (!c->quiet && f)
		fprintf(stderr, "weft-systematic: %" PRIu64 " executions in %.2f s (%.0f executions/s)\n",
			st.executions, dt, dt > 0 ? st.executions / dt : 0.0);
	int rc = report_outcome(r, out, &st, f, c, message);
	free(f);
	return rc;
}

static int harness_systematic_main(int argc, char **argv, int skip, const weft_target *target)
{
	cli_options c = { 0 };
	int why;
	for (int i = 1; i < argc; i++)
		if (i != skip && (why = harness_cli_parse(cli_table, sizeof cli_table / sizeof *cli_table, &c, argv[i])) != 0) {
			harness_cli_reject("weft-systematic", "--systematic", argv[i], why);
			return SYSTEMATIC_EXIT_USAGE;
		}
	if (c.help) {
		usage(stdout, argv[0], target);
		return SYSTEMATIC_EXIT_FINE;
	}
	const char *problem = weft_target_problem(target);
	if (problem) {
		fprintf(stderr, "weft-systematic: target is malformed: %s\n", problem);
		return SYSTEMATIC_EXIT_USAGE;
	}
	uint64_t timeout = HARNESS_WATCHDOG_DEFAULT;
	if (c.timeout && harness_cli_count(c.timeout, 0, 86400, &timeout) != 0)
		return bad("--timeout=S takes 0 to 86400"), SYSTEMATIC_EXIT_USAGE;
	weft_runner *r = weft_runner_new(target);
	if (!r) {
		fprintf(stderr, "weft-systematic: out of memory creating the runner\n");
		return SYSTEMATIC_EXIT_USAGE;
	}
	harness_death_leaves_input(r, "weft-systematic");   /* a dying execution: report, count, input */
	harness_death_record(r);   /* ... under every strategy, not only bytes */
	harness_watchdog_start(r, (unsigned)timeout, "--systematic");
	int rc = run(r, &c);
	harness_watchdog_stop();
	weft_runner_free(r);
	return rc;
}

/* The public entry point (weft/run.h): replay_main.c is installed and must not need internal headers. */
int weft_systematic_main(int argc, char **argv, int skip, const weft_target *target)
{
	return harness_systematic_main(argc, argv, skip, target);
}
