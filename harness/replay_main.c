/*
 * harness/replay_main.c - the standalone replay binary: no fuzzer, builds with gcc.
 *
 * Runs each file named on the command line (directories: their regular files,
 * sorted by name) through the same runner as the fuzz binary and prints the
 * report of every failing input.  Options are defined once, in REPLAY_OPTIONS,
 * which generates both the parser and --help.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "weft/run.h"

enum replay_exit { EXIT_AS_EXPECTED = 0, EXIT_UNEXPECTED = 1, EXIT_BAD_USAGE = 2 };

/* X(field, flag, takes_value, help) */
#define REPLAY_OPTIONS(X)                                                              \
	X(help, "--help", 0, "print this help and exit")                                \
	X(systematic, "--systematic", 0, "explore every interleaving within bounds instead " \
					 "(options: --systematic --help)")              \
	X(explore, "--explore", 1, "search with a baseline strategy instead: random, pct, " \
				   "uniform, bytes, stress (options: --explore --help)") \
	X(trace, "--trace", 0, "print the report of every input, passing ones too")     \
	X(hash, "--hash", 0, "print '<trace hash> <verdict> <preemptions> <file>' per input") \
	X(complexity, "--complexity", 0, "print '(preemptions, switches, operations, threads) "  \
					 "<verdict> <file>' per input")                 \
	X(quiet, "--quiet", 0, "print no reports")                                      \
	X(json, "--json", 0, "print reports as JSON objects on stdout, one per line")  \
	X(simplify, "--simplify", 1, "simplify the one failing input FILE (fewest preemptions, " \
				     "then switches, operations, threads), write it to VALUE, " \
				     "print the complexity before and after and its report") \
	X(expect, "--expect", 1, "verdict every input must have: pass (default), "     \
				 "linearizability, validation, step-budget, nondeterministic, " \
				 "deadlock, livelock, obstruction, assertion, misuse, " \
				 "fail (any failure)")

typedef struct replay_options {
#define X(field, flag, takes_value, help) const char *field;
	REPLAY_OPTIONS(X)
#undef X
} replay_options;

static void usage(FILE *out, const char *argv0)
{
	const char *name = weft_fuzz_target()->name;
	fprintf(out, "usage: %s [options] FILE|DIR...\n"
		"Replays weft inputs on target '%s' and reports failing executions.\n"
		"Exit status: 0 every input had the expected verdict, 1 some did not,\n"
		"2 bad usage or an unreadable input.\n\noptions:\n", argv0, name);
#define X(field, flag, takes_value, help) \
	fprintf(out, "  %-22s %s\n", takes_value ? flag "=VALUE" : flag, help);
	REPLAY_OPTIONS(X)
#undef X
}

/* Parses one "--flag" or "--flag=value"; returns 0, or -1 if unknown or malformed. */
static int parse_option(replay_options *o, const char *arg)
{
#define X(field, flag, takes_value, help)                                     \
	{                                                                     \
		size_t n = strlen(flag);                                      \
		if (strncmp(arg, flag, n) == 0 && (arg[n] == 0 || arg[n] == '=')) { \
			if ((arg[n] == '=') != (takes_value != 0))            \
				return -1;                                    \
			o->field = takes_value ? arg + n + 1 : "1";           \
			return 0;                                             \
		}                                                             \
	}
	REPLAY_OPTIONS(X)
#undef X
	return -1;
}

static int verdict_matches(const char *expect, weft_verdict v)
{
	if (strcmp(expect, "fail") == 0)
		return v != WEFT_PASS && v != WEFT_ERROR;
	return strcmp(expect, weft_verdict_name(v)) == 0;
}

static int expect_is_valid(const char *expect)
{
	if (!strcmp(expect, "fail"))
		return 1;
	for (int v = WEFT_PASS; v <= WEFT_FAIL_DATA_RACE; v++)
		if (v != WEFT_ERROR && !strcmp(expect, weft_verdict_name((weft_verdict)v)))
			return 1;
	return 0;
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	int failed = ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
}

typedef struct replay_state {
	weft_runner *runner;
	replay_options opt;
	unsigned runs, unexpected;
	int io_error;
} replay_state;

/* The last execution's report: text on stderr, or one JSON line on stdout. */
static void print_report(replay_state *st, const char *path)
{
	if (st->opt.json) {
		weft_runner_report_json(st->runner, stdout);
		fputc('\n', stdout);
		fflush(stdout);
		return;
	}
	fprintf(stderr, "==weft== input %s\n", path);
	weft_runner_report(st->runner, stderr);
}

static void replay_file(replay_state *st, const char *path)
{
	size_t size = 0;
	uint8_t *data = read_file(path, &size);
	if (!data) {
		fprintf(stderr, "weft-replay: cannot read %s: %s\n", path, strerror(errno));
		st->io_error = 1;
		return;
	}
	weft_result res;
	weft_verdict v = weft_runner_run(st->runner, data, size, &res);
	free(data);
	st->runs++;
	int as_expected = verdict_matches(st->opt.expect, v);
	st->unexpected += !as_expected;
	if (st->opt.hash)
		printf("%016" PRIx64 " %s %u %s\n", res.trace_hash, weft_verdict_name(v),
		       res.preemptions, path);
	if (st->opt.complexity) {
		weft_complexity c = weft_complexity_of(&res);
		printf("(%u, %u, %u, %u) %s %s\n", c.preemptions, c.switches, c.operations,
		       c.threads, weft_verdict_name(v), path);
	}
	if (!st->opt.quiet && (st->opt.trace || v != WEFT_PASS))
		print_report(st, path);
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t put = fwrite(data, 1, size, f);
	return (fclose(f) != 0 || put != size) ? -1 : 0;
}

static void print_complexity(const char *label, const weft_complexity *c)
{
	fprintf(stderr, "%s(%u, %u, %u, %u)", label, c->preemptions, c->switches, c->operations,
		c->threads);
}

/* --simplify=OUT FILE: weft_runner_simplify, write the result, print its report. */
static int simplify_file(replay_state *st, const char *in, const char *out)
{
	size_t size = 0;
	uint8_t *data = read_file(in, &size);
	if (!data) {
		fprintf(stderr, "weft-replay: cannot read %s: %s\n", in, strerror(errno));
		return EXIT_BAD_USAGE;
	}
	uint8_t *room = realloc(data, size + 4096);   /* the result may be longer */
	if (!room) {
		free(data);
		fprintf(stderr, "weft-replay: out of memory\n");
		return EXIT_BAD_USAGE;
	}
	data = room;
	weft_complexity before, after;
	size_t n = weft_runner_simplify(st->runner, data, size, size + 4096, &before, &after);
	weft_result res;
	weft_verdict v = weft_runner_run(st->runner, data, n, &res);
	if (v == WEFT_PASS || v == WEFT_ERROR) {
		free(data);
		fprintf(stderr, "weft-replay: %s does not fail (%s): nothing to simplify\n", in,
			weft_verdict_name(v));
		return EXIT_UNEXPECTED;
	}
	int bad = write_file(out, data, n);
	free(data);
	if (bad) {
		fprintf(stderr, "weft-replay: cannot write %s: %s\n", out, strerror(errno));
		return EXIT_BAD_USAGE;
	}
	if (!st->opt.quiet)
		print_report(st, out);
	fprintf(stderr, "weft-replay: simplified %s (%zu bytes) to %s (%zu bytes), %s\n", in,
		size, out, n, weft_verdict_name(v));
	print_complexity("weft-replay: complexity (preemptions, switches, operations, threads) ",
			 &before);
	print_complexity(" -> ", &after);
	fputc('\n', stderr);
	return EXIT_AS_EXPECTED;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_dir(replay_state *st, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "weft-replay: cannot open %s: %s\n", dir, strerror(errno));
		st->io_error = 1;
		return;
	}
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char **more = realloc(names, (n + 1) * sizeof *names);
		if (!more)
			break;
		names = more;
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (names[n])
			sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode))
			replay_file(st, names[i]);
		free(names[i]);
	}
	free(names);
}

static void replay_path(replay_state *st, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		replay_dir(st, path);
	else
		replay_file(st, path);
}

int main(int argc, char **argv)
{
	replay_state st = { .opt = { .expect = "pass" } };
	int first_path = argc;
	for (int i = 1; i < argc; i++)   /* systematic mode has its own options */
		if (strcmp(argv[i], "--systematic") == 0)
			return weft_systematic_main(argc, argv, i, weft_fuzz_target());
	for (int i = 1; i < argc; i++)   /* so has explore mode */
		if (strncmp(argv[i], "--explore", 9) == 0 && (argv[i][9] == '=' || !argv[i][9]))
			return weft_explore_main(argc, argv, i, weft_fuzz_target());
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == 0) {
			first_path = i + (strcmp(argv[i], "--") == 0);
			break;
		}
		if (parse_option(&st.opt, argv[i]) != 0) {
			fprintf(stderr, "weft-replay: unknown or malformed option '%s' (see --help)\n", argv[i]);
			return EXIT_BAD_USAGE;
		}
	}
	if (st.opt.help) {
		usage(stdout, argv[0]);
		return EXIT_AS_EXPECTED;
	}
	if (!expect_is_valid(st.opt.expect)) {
		fprintf(stderr, "weft-replay: --expect must be pass, linearizability, validation, "
			"step-budget or fail\n");
		return EXIT_BAD_USAGE;
	}
	if (first_path >= argc) {
		usage(stderr, argv[0]);
		return EXIT_BAD_USAGE;
	}
	const char *problem = weft_target_problem(weft_fuzz_target());
	if (problem) {
		fprintf(stderr, "weft-replay: target is malformed: %s\n", problem);
		return EXIT_BAD_USAGE;
	}
	st.runner = weft_runner_new(weft_fuzz_target());
	if (!st.runner) {
		fprintf(stderr, "weft-replay: out of memory creating the runner\n");
		return EXIT_BAD_USAGE;
	}
	weft_runner_report_on_death(st.runner);   /* ASan: weft's report after ASan's */
	if (st.opt.simplify) {
		int rc = first_path + 1 == argc ? simplify_file(&st, argv[first_path], st.opt.simplify)
						: EXIT_BAD_USAGE;
		if (first_path + 1 != argc)
			fprintf(stderr, "weft-replay: --simplify takes exactly one input FILE\n");
		weft_runner_free(st.runner);
		return rc;
	}
	for (int i = first_path; i < argc; i++)
		replay_path(&st, argv[i]);
	weft_runner_stats stats = weft_runner_stats_get(st.runner);
	const char *backend = weft_runner_backend(st.runner);   /* a static string */
	weft_runner_free(st.runner);
	fprintf(stderr, "weft-replay: %u inputs, %u with an unexpected verdict (expected: %s)\n",
		st.runs, st.unexpected, st.opt.expect);
	fprintf(stderr, "weft-replay: scheduler backend %s (WEFT_BACKEND=pthread|fiber)\n", backend);
	if (stats.check_unknown)
		fprintf(stderr, "weft-replay: %" PRIu64 " inputs had an unknown linearizability "
			"verdict (the checker's cost cap was reached; counted as pass)\n",
			stats.check_unknown);
	if (st.io_error)
		return EXIT_BAD_USAGE;
	return st.unexpected ? EXIT_UNEXPECTED : EXIT_AS_EXPECTED;
}
