/*
 * harness/explore_cli.c - `NAME_replay --explore=STRATEGY [options]`: the command
 * line of explore mode (explore.h), the glue that prints.
 *
 * Output (stdout): one machine-readable line,
 *   explore: target=T strategy=S seed=N executions=N scenarios=N seconds=F
 *            verdict=V preemptions=N trace=H digest=H unknown=N
 * (one line; `seconds` is the only field that varies between runs with the
 * same seed, `trace` is the last execution's trace hash, `digest` a hash of
 * every execution's verdict and trace hash in order, `unknown` the executions
 * whose linearizability check gave up), then, on a failure and unless
 * --quiet, the failure's report.  Options are defined once, in
 * EXPLORE_OPTIONS, which generates the parser and --help.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../search/explore.h"
#include "cli.h"
#include "watchdog.h"
#include "../runner/runner_internal.h"
#include "../search/strategy_baselines.h"

enum explore_exit {
	EXPLORE_EXIT_NONE = 0,          /* no failure within --max-executions */
	EXPLORE_EXIT_FAILED = 1,        /* a failure was found */
	EXPLORE_EXIT_USAGE = 2,         /* bad usage or an error */
	EXPLORE_EXIT_UNSUPPORTED = 3,   /* the strategy cannot run this target */
};

#define DEFAULT_MAX_EXECUTIONS 100000
#define DEFAULT_DEPTH 3
#define DEFAULT_SCHEDULES 1
#define DEFAULT_BYTES 64
#define MAX_SCHEDULES 1000000
#define MAX_BYTES 65536

/* X(field, flag, value name or "", help) */
#define EXPLORE_OPTIONS(X)                                                               \
	X(help, "--help", "", "print this help and exit")                               \
	X(explore, "--explore", "STRATEGY", "random, pct, uniform, pos, bytes or stress")     \
	X(seed, "--seed", "N", "seed of every random choice (default 1); the same seed "  \
			       "and options run the same executions (not stress)")       \
	X(depth, "--depth", "D", "pct only: bug depth d, 1 to 16 (default 3): d-1 "       \
				 "priority change points")                               \
	X(max_executions, "--max-executions", "N", "stop after N executions (default "   \
						    "100000)")                           \
	X(threads, "--threads", "A..B", "thread counts, or one count A (default: the "    \
					"target's range; not bytes)")                     \
	X(ops, "--ops", "N", "operations per thread: 1 to N, uniformly (default: the "     \
			     "target's maximum; not bytes)")                             \
	X(schedules, "--schedules", "R", "executions of each scenario before the next "   \
					 "is drawn (default 1; not bytes)")              \
	X(bytes, "--bytes", "L", "bytes only: inputs of 0 to L random bytes, the length "  \
				 "uniform (default 64)")                                 \
	X(timeout, "--timeout", "S", "seconds one execution may run before the search ends " \
				     "with a timeout (exit 1); 0: no limit (default 30)")    \
	X(quiet, "--quiet", "", "print the result line only, no report")

typedef struct cli_options {
#define X(field, flag, value, help) const char *field;
	EXPLORE_OPTIONS(X)
#undef X
} cli_options;

static const harness_cli_option cli_table[] = {
#define X(field, flag, value, help) HARNESS_CLI_ENTRY(cli_options, field, flag, value, help)
	EXPLORE_OPTIONS(X)
#undef X
};

static void usage(FILE *out, const char *argv0, const weft_target *t)
{
	fprintf(out, "usage: %s --explore=STRATEGY [options]\n"
		"Searches target '%s' for a failure with a baseline strategy instead of a\n"
		"fuzzer, through the same runner and oracles, until the first failure or\n"
		"--max-executions.  Strategies:\n"
		"  random   random scenarios; at every switch point the next thread uniformly\n"
		"           among the runnable ones (a random walk)\n"
		"  pct      random scenarios; PCT (Burckhardt et al. 2010) with depth --depth:\n"
		"           random thread priorities, d-1 random priority change points over\n"
		"           the estimated steps, the highest-priority runnable thread runs\n"
		"  uniform  random scenarios; the next step goes to a thread with probability\n"
		"           proportional to its estimated remaining steps (uniform over\n"
		"           interleavings when step counts are fixed)\n"
		"  pos      random scenarios; partial-order sampling (Yuan et al. 2018): random\n"
		"           priorities per event, re-drawn for events racing with each step\n"
		"  bytes    random byte strings run as inputs (the fuzzer's encoding, no fuzzer)\n"
		"  stress   random scenarios on real parallel threads, no scheduler (not\n"
		"           deterministic; n/a for targets whose operations wait for each other)\n"
		"Prints one line: explore: target= strategy= seed= executions= scenarios=\n"
		"seconds= verdict= preemptions= trace= digest= unknown=, then the failure's\n"
		"report unless --quiet.\n"
		"Exit status: 0 no failure within the cap, 1 a failure found, 2 bad usage or\n"
		"error, 3 the strategy cannot run this target (n/a, the reason on stdout).\n\n"
		"options:\n", argv0, t->name);
	harness_cli_print(out, cli_table, sizeof cli_table / sizeof *cli_table);
}

static int bad(const char *what)
{
	fprintf(stderr, "weft-explore: %s (see --explore --help)\n", what);
	return -1;
}

static int parse_kind(const char *s, search_explore_kind *k)
{
	static const char *const names[] = { "random", "pct", "uniform", "bytes", "stress",
					       "pos" };
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(s, names[i]) == 0) {
			*k = (search_explore_kind)i;
			return 0;
		}
	return -1;
}

/* The options as the explorer takes them; -1 (after a message) when they do not fit. */
static int configure(search_explore_options *o, const cli_options *c, const input_bounds *b)
{
	uint64_t v;
	int64_t lo, hi;
	memset(o, 0, sizeof *o);
	if (!c->explore || parse_kind(c->explore, &o->kind) != 0)
		return bad("--explore=STRATEGY must be random, pct, uniform, pos, bytes or stress");
	o->seed = 1;
	if (c->seed && harness_cli_count(c->seed, 0, UINT64_MAX, &o->seed) != 0)
		return bad("--seed=N must be a number from 0 to 2^64-1");
	o->depth = DEFAULT_DEPTH;
	if (c->depth && o->kind != SEARCH_EXPLORE_PCT)
		return bad("--depth is for --explore=pct only");
	if (c->depth) {
		if (harness_cli_count(c->depth, 1, SEARCH_PCT_MAX_DEPTH, &v) != 0)
			return bad("--depth=D must be 1 to 16");
		o->depth = (unsigned)v;
	}
	o->max_executions = DEFAULT_MAX_EXECUTIONS;
	if (c->max_executions && harness_cli_count(c->max_executions, 1, UINT64_MAX,
					     &o->max_executions) != 0)
		return bad("--max-executions=N must be a positive number");
	int bytes = o->kind == SEARCH_EXPLORE_BYTES;
	if (bytes && (c->threads || c->ops || c->schedules))
		return bad("--threads, --ops and --schedules do not apply to --explore=bytes "
			   "(the bytes decide the scenario)");
	if (!bytes && c->bytes)
		return bad("--bytes is for --explore=bytes only");
	lo = b->min_threads;
	hi = b->max_threads;
	if (c->threads && (harness_cli_range(c->threads, &lo, &hi) != 0 || lo < b->min_threads ||
			   hi > b->max_threads)) {
		fprintf(stderr, "weft-explore: the target runs %u..%u threads\n", b->min_threads,
			b->max_threads);
		return bad("--threads=A..B must be within them");
	}
	o->min_threads = (unsigned)lo;
	o->max_threads = (unsigned)hi;
	o->max_ops = b->max_ops;
	if (c->ops) {
		if (harness_cli_count(c->ops, 1, b->max_ops, &v) != 0) {
			fprintf(stderr, "weft-explore: the target runs at most %u operations per "
				"thread\n", b->max_ops);
			return bad("--ops=N must be 1 to that");
		}
		o->max_ops = (unsigned)v;
	}
	o->schedules = DEFAULT_SCHEDULES;
	if (c->schedules) {
		if (harness_cli_count(c->schedules, 1, MAX_SCHEDULES, &v) != 0)
			return bad("--schedules=R must be 1 to 1000000");
		o->schedules = (unsigned)v;
	}
	o->max_bytes = DEFAULT_BYTES;
	if (c->bytes) {
		if (harness_cli_count(c->bytes, 0, MAX_BYTES, &v) != 0)
			return bad("--bytes=L must be 0 to 65536");
		o->max_bytes = (unsigned)v;
	}
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * PCT with depth d places d - 1 priority changes: it is built for bugs that
 * need about d preemptions and silently misses deeper ones.  Say so on stderr
 * (the one stdout line stays the same) when the failure it found took more
 * preemptions than d, and when it found nothing.
 */
static void pct_depth_note(const search_explore_options *o, search_explore_outcome out,
			   const search_explore_stats *st)
{
	unsigned d = o->depth, p = st->result.preemptions;
	if (out == SEARCH_EXPLORE_FAILED && p > d)
		fprintf(stderr, "weft-explore: note: this failure took %u preemptions, more than "
			"PCT's depth %u is built for; bugs that need more than %u are found by "
			"chance at this depth: try --depth=%u, or --explore=random or pos\n",
			p, d, d, p + 1 < SEARCH_PCT_MAX_DEPTH ? p + 1 : SEARCH_PCT_MAX_DEPTH);
	else if (out == SEARCH_EXPLORE_NONE)
		fprintf(stderr, "weft-explore: note: PCT with depth %u finds bugs that need up to "
			"about %u preemptions; bugs that need more are missed at this depth: try "
			"--depth=%u, or --explore=random or pos\n", d, d,
			d < SEARCH_PCT_MAX_DEPTH ? d + 1 : d);
}

static int run(weft_runner *r, const cli_options *c)
{
	search_explore_options o;
	if (configure(&o, c, runner_bounds(r)) != 0)
		return EXPLORE_EXIT_USAGE;
	search_explorer *x = search_explorer_new(r);
	if (!x) {
		fprintf(stderr, "weft-explore: out of memory\n");
		return EXPLORE_EXIT_USAGE;
	}
	char name[32], message[512];
	search_explore_name(name, sizeof name, &o);
	search_explore_stats st;
	double start = now_seconds();   /* printed, never decides anything */
	search_explore_outcome out = search_explore(x, &o, &st, message, sizeof message);
	double seconds = now_seconds() - start;
	int rc;
	const char *verdict;
	switch (out) {
	case SEARCH_EXPLORE_FAILED:
		verdict = weft_verdict_name(st.verdict);
		rc = EXPLORE_EXIT_FAILED;
		break;
	case SEARCH_EXPLORE_NONE:
		verdict = "pass";
		rc = EXPLORE_EXIT_NONE;
		break;
	case SEARCH_EXPLORE_UNSUPPORTED:
		verdict = "n/a";
		rc = EXPLORE_EXIT_UNSUPPORTED;
		break;
	default:
		fprintf(stderr, "weft-explore: error: %s\n", message);
		search_explorer_free(x);
		return EXPLORE_EXIT_USAGE;
	}
	printf("explore: target=%s strategy=%s seed=%" PRIu64 " executions=%" PRIu64
	       " scenarios=%" PRIu64 " seconds=%.4f verdict=%s preemptions=%u trace=%016" PRIx64
	       " digest=%016" PRIx64 " unknown=%" PRIu64 "\n",
	       weft_runner_target(r)->name, name, o.seed, st.executions, st.scenarios, seconds,
	       verdict, st.executions ? st.result.preemptions : 0,
	       st.executions ? st.result.trace_hash : 0, st.digest, st.check_unknown);
	if (out == SEARCH_EXPLORE_UNSUPPORTED)
		printf("explore: n/a: %s\n", message);
	if (out == SEARCH_EXPLORE_NONE)   /* no failure, but none could be found inside these */
		weft_runner_warn_blind(r, stdout, "explore: note: ");
	if (o.kind == SEARCH_EXPLORE_PCT)
		pct_depth_note(&o, out, &st);
	if (out == SEARCH_EXPLORE_FAILED && !c->quiet)
		search_explorer_report(x, stdout);
	fflush(stdout);
	search_explorer_free(x);
	return rc;
}

static int harness_explore_main(int argc, char **argv, int skip, const weft_target *target)
{
	cli_options c = { 0 };
	int why;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0) {   /* whatever else is there */
			usage(stdout, argv[0], target);
			return EXPLORE_EXIT_NONE;
		}
	for (int i = 1; i < argc; i++)
		if ((why = harness_cli_parse(cli_table, sizeof cli_table / sizeof *cli_table, &c, argv[i])) != 0) {
			harness_cli_reject("weft-explore", "--explore", argv[i], why);
			return EXPLORE_EXIT_USAGE;
		}
	(void)skip;   /* --explore=STRATEGY is one of the options */
	const char *problem = weft_target_problem(target);
	if (problem) {
		fprintf(stderr, "weft-explore: target is malformed: %s\n", problem);
		return EXPLORE_EXIT_USAGE;
	}
	uint64_t timeout = HARNESS_WATCHDOG_DEFAULT;
	if (c.timeout && harness_cli_count(c.timeout, 0, 86400, &timeout) != 0)
		return bad("--timeout=S takes 0 to 86400"), EXPLORE_EXIT_USAGE;
	weft_runner *r = weft_runner_new(target);
	if (!r) {
		fprintf(stderr, "weft-explore: out of memory creating the runner\n");
		return EXPLORE_EXIT_USAGE;
	}
	harness_death_leaves_input(r, "weft-explore");   /* a dying execution: report, count, input */
	harness_death_record(r);   /* ... under every strategy, not only bytes */
	/* stress runs real threads outside the runner's count: no watchdog */
	if (!c.explore || strcmp(c.explore, "stress") != 0)
		harness_watchdog_start(r, (unsigned)timeout, "--explore");
	int rc = run(r, &c);
	harness_watchdog_stop();
	weft_runner_free(r);
	return rc;
}

/* The public entry point (weft/run.h): replay_main.c is installed and must not need internal headers. */
int weft_explore_main(int argc, char **argv, int skip, const weft_target *target)
{
	return harness_explore_main(argc, argv, skip, target);
}
