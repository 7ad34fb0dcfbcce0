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
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weft/run.h"
#include "../oracle/tool_files.h"

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
	X(json, "--json", 0, "print every input's report (passing ones too) as one JSON " \
				 "object per line on stdout")  \
	X(simplify, "--simplify", 1, "simplify the one failing input FILE (fewest preemptions, " \
				     "then switches, operations, threads), write it to VALUE, " \
				     "print the complexity before and after and its report") \
	X(stats, "--stats", 0, "after the inputs, print on stdout the distribution of " \
			       "threads, operations per thread, operation kinds and "  \
			       "arguments, preemptions, verdicts and unknown checks")   \
	X(html, "--html", 1, "also write the one input FILE's report (any verdict) as a " \
			     "self-contained web page to VALUE")                      \
	X(timeout, "--timeout", 1, "seconds one input may run before it is reported as a " \
				   "timeout (exit 1); 0: no limit (default 30)")          \
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
		"2 bad usage, an unreadable input or no input at all.\n\noptions:\n", argv0, name);
#define X(field, flag, takes_value, help) \
	fprintf(out, "  %-22s %s\n", takes_value ? flag "=VALUE" : flag, help);
	REPLAY_OPTIONS(X)
#undef X
}

/*
 * Parses one "--flag" or "--flag=value"; returns 0, -1 if unknown or malformed
 * (a value option without a value too), -2 if given before.
 */
static int parse_option(replay_options *o, const char *arg)
{
#define X(field, flag, takes_value, help)                                     \
	{                                                                     \
		size_t n = strlen(flag);                                      \
		if (strncmp(arg, flag, n) == 0 && (arg[n] == 0 || arg[n] == '=')) { \
			if ((arg[n] == '=') != (takes_value != 0) ||          \
			    (takes_value && !arg[n + 1]))                     \
				return -1;                                    \
			if (o->field)                                         \
				return -2;   /* the last one winning hides typos */ \
			o->field = takes_value ? arg + n + 1 : "1";           \
			return 0;                                             \
		}                                                             \
	}
	REPLAY_OPTIONS(X)
#undef X
	return -1;
}

/* Decimal seconds, 0..86400, nothing else. */
static int parse_seconds(const char *s, unsigned *out)
{
	unsigned long v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (unsigned long)(*s - '0')) > 86400)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* What the complexity's first count counts under the runner's memory model. */
static const char *weak_word(const weft_runner *r)
{
	const char *m = weft_runner_memory(r);
	return strcmp(m, "tso") == 0 || strcmp(m, "pso") == 0 ? "delayed commits" : "weak reads";
}

static int verdict_matches(const char *expect, weft_verdict v)
{
	if (strcmp(expect, "fail") == 0)
		return v != WEFT_PASS && v != WEFT_ERROR;
	return strcmp(expect, weft_verdict_name(v)) == 0;
}

/*
 * The verdicts, in enum order, up to the first value weft_verdict_name does
 * not know: a verdict added to the enum (and named there) joins --expect and
 * its error message with no edit here.
 */
static int verdict_known(int v)
{
	return strcmp(weft_verdict_name((weft_verdict)v), "?") != 0;
}

static int expect_is_valid(const char *expect)
{
	if (!strcmp(expect, "fail"))
		return 1;
	for (int v = WEFT_PASS; verdict_known(v); v++)
		if (v != WEFT_ERROR && !strcmp(expect, weft_verdict_name((weft_verdict)v)))
			return 1;
	return 0;
}

/* Every word --expect takes, from the verdict enum itself, so the list cannot go stale. */
static void print_expect_words(FILE *out)
{
	fputs("pass", out);
	for (int v = WEFT_PASS + 1; verdict_known(v); v++)
		if (v != WEFT_ERROR)
			fprintf(out, ", %s", weft_verdict_name((weft_verdict)v));
	fputs(" or fail (any failure)", out);
}

/* `s` on `out` with bytes outside printable ASCII as \xNN: arguments may be anything. */
static void print_quoted(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

/*
 * `s` as print_quoted prints it, in buf (n bytes; past 200 input bytes "..."):
 * every file name the tool echoes goes through it, a name may hold any byte.
 */
#define SHOWN_MAX 840
static const char *shown(char *buf, size_t n, const char *s)
{
	size_t k = 0, i = 0;
	for (; s[i] && i < 200 && k + 8 < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[k++] = (char)c;
		else
			k += (size_t)snprintf(buf + k, n - k, "\\x%02x", c);
	}
	if (s[i] && k + 3 < n)
		k += (size_t)snprintf(buf + k, n - k, "...");
	buf[k] = '\0';
	return buf;
}

/* Inputs: regular files of at most 64 MiB, the rule weft-check shares (oracle/tool_files.h). */
static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = oracle_tool_open_input(path, ORACLE_TOOL_MAX_INPUT);
	if (!f)
		return NULL;
	char *text = oracle_tool_read(f, ORACLE_TOOL_MAX_INPUT, size);
	int e = errno;
	fclose(f);
	errno = e;
	return (uint8_t *)text;
}

/*
 * The watchdog: an operation that loops without a switch point can never be
 * preempted, and the replay tool would hang for good (the fuzz binary has
 * libFuzzer's -timeout).  A per-input alarm names the input and what was
 * running, and ends the process.  Wall-clock time decides only whether this
 * fires, never a verdict or a report of a run that finishes.  The state is
 * process-wide on purpose: a signal handler can reach nothing else, and this
 * file is the process's main.
 */
#define REPLAY_DEFAULT_TIMEOUT 30
typedef struct replay_state replay_state;
static struct {
	const weft_runner *runner;
	const char *path;
	unsigned seconds;
	bool line_per_input;   /* --hash or --complexity: the input that hung gets its line too */
	bool json;             /* --json: the input that hung gets its object too */
	const replay_state *st;   /* the counts so far, carried over the restart */
	unsigned long seq, skip;  /* inputs met so far; inputs a restarted process skips */
	char **argv, **env;       /* the restart's command line and environment */
} watch;

/*
 * After a timeout the batch goes on (issue 30: a batch of 20,000 inputs stopped
 * at the one that hung): the process execs itself with the same arguments and
 * WEFT_REPLAY_RESUME="<inputs to skip> <runs> <unexpected> <unreadable>", so
 * every later input is replayed and gets its line, and the summary and the
 * exit status count the input that hung (unexpected).  --stats then covers the
 * inputs after it only.
 */
#define RESUME_VAR "WEFT_REPLAY_RESUME"
static char resume_value[96] = RESUME_VAR "=";

/* Decimal `v` at `p` (signal handlers have no snprintf they may call); returns the end. */
static char *put_number(char *p, unsigned long v)
{
	char digits[24];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

static void put_all(int fd, const char *line, int n, int cap)
{
	if (n > 0 && write(fd, line, (size_t)(n < cap ? n : cap - 1)) < 0)
		_exit(EXIT_UNEXPECTED);
}

static void resume_after_timeout(void);

static void on_timeout(int sig)
{
	(void)sig;
	char what[256], line[1024];
	weft_runner_describe_running(watch.runner, what, sizeof what);
	int n = snprintf(line, sizeof line, "==weft== TIMEOUT in %s: input %s ran longer than "
			 "%u s: %s; a loop without a switch point cannot be preempted (put "
			 "weft_yield() or an instrumented atomic in it)\n",
			 weft_fuzz_target()->name, watch.path, watch.seconds, what);
	put_all(STDERR_FILENO, line, n, (int)sizeof line);
	/* stdout is line-buffered (main): every earlier input's line is out; this one's too */
	n = watch.line_per_input ? snprintf(line, sizeof line, "- timeout - %s\n", watch.path) : 0;
	put_all(STDOUT_FILENO, line, n, (int)sizeof line);
	n = watch.json ? snprintf(line, sizeof line, "{\"target\": \"%s\", \"verdict\": "
				  "\"timeout\", \"message\": \"ran longer than %u s\"}\n",
				  weft_fuzz_target()->name, watch.seconds) : 0;
	put_all(STDOUT_FILENO, line, n, (int)sizeof line);
	resume_after_timeout();
	_exit(EXIT_UNEXPECTED);
}

/*
 * A crash of the input (SIGSEGV, SIGBUS) names the input; a fiber stack
 * overflow says so and how to get bigger stacks, instead of a bare "Segmentation
 * fault".  Then the fault repeats under the handler that was there before
 * (ASan's report, libc's default: a core), so nothing else changes.  The
 * handler runs on an alternate stack: the faulting one may have none left.
 */
static struct sigaction previous_segv, previous_bus;

static void on_crash(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	char line[600];
	size_t stack = weft_fault_fiber_stack_overflow(info->si_addr);
	const char *path = watch.path ? watch.path : "(none yet)";
	int n = stack ? snprintf(line, sizeof line, "==weft== CRASH in %s: input %s: a managed "
				 "thread overflowed its %zu KiB fiber stack (deep recursion or large "
				 "locals); run the target on pthreads for the system's stacks "
				 "(WEFT_BACKEND=pthread, or flag it WEFT_TARGET_REAL_THREADS)\n",
				 weft_fuzz_target()->name, path, stack / 1024)
		      : snprintf(line, sizeof line, "==weft== CRASH in %s: input %s: %s\n",
				 weft_fuzz_target()->name, path,
				 sig == SIGSEGV ? "segmentation fault" : "bus error");
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
		n = 0;
	sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, NULL);
}

static void catch_crashes(void)
{
	static char alt[1 << 16];
	stack_t old;
	if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE)) {
		stack_t ours = { .ss_sp = alt, .ss_size = sizeof alt };
		sigaltstack(&ours, NULL);
	}
	struct sigaction sa = { .sa_sigaction = on_crash, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &previous_segv);
	sigaction(SIGBUS, &sa, &previous_bus);
}

static void watch_input(const weft_runner *r, const char *path)
{
	watch.runner = r;
	watch.path = path;
	alarm(watch.seconds);   /* 0 cancels: no limit */
}

/* The death hooks forget the runner first: a death at exit (LeakSanitizer, a
 * destructor) must not read a freed one. */
static void free_runner(weft_runner *r)
{
	weft_runner_on_death(NULL, NULL, NULL);
	weft_runner_free(r);
}

struct replay_state {
	weft_runner *runner;
	weft_run_stats *stats;   /* --stats, else NULL */
	replay_options opt;
	unsigned runs, unexpected;
	int io_error;
};

/* From the SIGALRM handler: the batch goes on in a new image of this process. */
static void resume_after_timeout(void)
{
	const replay_state *st = watch.st;
	if (!st || !watch.argv || !watch.env)
		return;
	char *p = resume_value + sizeof RESUME_VAR;
	p = put_number(p, watch.seq);
	*p++ = ' ';
	p = put_number(p, st->runs + 1UL);   /* the input that hung: run, and unexpected */
	*p++ = ' ';
	p = put_number(p, st->unexpected + 1UL);
	*p++ = ' ';
	p = put_number(p, (unsigned long)st->io_error);
	*p = '\0';
	execve("/proc/self/exe", watch.argv, watch.env);
}

/* The restart's environment, made at start-up: ours without RESUME_VAR, plus its slot. */
static char **resume_environment(void)
{
	extern char **environ;
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = malloc((n + 2) * sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], RESUME_VAR "=", sizeof RESUME_VAR) != 0)
			env[k++] = environ[i];
	env[k++] = resume_value;
	env[k] = NULL;
	return env;
}

/* A restarted batch: what the process before it counted (RESUME_VAR), then forgotten. */
static void resume_counts(replay_state *st)
{
	const char *v = getenv(RESUME_VAR);
	unsigned long skip, runs, unexpected, io;
	if (v && sscanf(v, "%lu %lu %lu %lu", &skip, &runs, &unexpected, &io) == 4) {
		watch.skip = skip;
		st->runs = (unsigned)runs;
		st->unexpected = (unsigned)unexpected;
		st->io_error = io != 0;
	}
	unsetenv(RESUME_VAR);   /* a fresh-process check's child must not skip its input */
}

/* The last execution's report: text on stderr, or one JSON line on stdout. */
static void print_report(replay_state *st, const char *path)
{
	if (st->opt.json) {
		weft_runner_report_json(st->runner, stdout);   /* one line, newline included */
		fflush(stdout);
		return;
	}
	fprintf(stderr, "==weft== input %s\n", path);
	weft_runner_report(st->runner, stderr);
}

static void complain_unreadable(const char *path)
{
	int e = errno;
	fputs("weft-replay: cannot read ", stderr);
	print_quoted(stderr, path);
	fprintf(stderr, ": %s\n", e == EINVAL ? "not a regular file" :
		e == EFBIG ? "larger than 64 MiB, not a weft input" : strerror(e));
}

/* --html=PAGE: the last execution as a web page. */
static int write_html(replay_state *st)
{
	char page[SHOWN_MAX];
	shown(page, sizeof page, st->opt.html);
	FILE *f = fopen(st->opt.html, "w");
	if (!f) {
		fprintf(stderr, "weft-replay: cannot write %s: %s\n", page, strerror(errno));
		return -1;
	}
	weft_runner_report_html(st->runner, f);
	if (oracle_tool_close(f) != 0) {   /* a full disk: the page is lost, say so */
		fprintf(stderr, "weft-replay: cannot write %s: %s\n", page, strerror(errno));
		return -1;
	}
	fprintf(stderr, "weft-replay: wrote %s\n", page);
	return 0;
}

static void replay_file(replay_state *st, const char *name)
{
	char path[SHOWN_MAX];   /* the name as shown: any byte may be in it */
	shown(path, sizeof path, name);
	if (watch.seq++ < watch.skip)   /* replayed before a timeout restarted the batch */
		return;
	size_t size = 0;
	uint8_t *data = read_file(name, &size);
	if (!data) {
		complain_unreadable(name);
		st->io_error = 1;
		return;
	}
	weft_result res;
	watch_input(st->runner, path);
	weft_verdict v = weft_runner_run(st->runner, data, size, &res);
	alarm(0);
	free(data);
	st->runs++;
	if (st->stats)
		weft_run_stats_add(st->stats, st->runner, &res);
	int as_expected = verdict_matches(st->opt.expect, v);
	st->unexpected += !as_expected;
	if (st->opt.hash)
		printf("%016" PRIx64 " %s %u %s\n", res.trace_hash, weft_verdict_name(v),
		       res.preemptions, path);
	if (st->opt.complexity) {
		weft_complexity c = weft_complexity_of(&res);
		if (c.weak_reads)
			printf("(%u %s, ", c.weak_reads, weak_word(st->runner));
		else
			printf("(");
		printf("%u, %u, %u, %u) %s %s\n", c.preemptions, c.switches, c.operations,
		       c.threads, weft_verdict_name(v), path);
	}
	if (!st->opt.quiet && (st->opt.trace || st->opt.json || v != WEFT_PASS))
		print_report(st, path);   /* JSON: one object per input, in argument order */
	if (st->opt.html && write_html(st) != 0)
		st->io_error = 1;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(data, 1, size, f);   /* a short write sets the error flag oracle_tool_close checks */
	return oracle_tool_close(f);
}

static void print_complexity(const char *label, const weft_complexity *c, const weft_runner *r)
{
	fprintf(stderr, "%s(", label);
	if (c->weak_reads)   /* only then: every report without weak reads reads as before */
		fprintf(stderr, "%u %s, ", c->weak_reads, weak_word(r));
	fprintf(stderr, "%u, %u, %u, %u)", c->preemptions, c->switches, c->operations, c->threads);
}

/* --simplify=OUT FILE: weft_runner_simplify, write the result, print its report. */
static int simplify_file(replay_state *st, const char *in_name, const char *out_name)
{
	char in[SHOWN_MAX], out[SHOWN_MAX];   /* as shown */
	shown(in, sizeof in, in_name);
	shown(out, sizeof out, out_name);
	size_t size = 0;
	uint8_t *data = read_file(in_name, &size);
	if (!data) {
		complain_unreadable(in_name);
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
	watch.path = in;   /* for a crash message; no time limit on the whole simplification */
	uint64_t runs = weft_runner_stats_get(st->runner).executions;
	size_t n = weft_runner_simplify(st->runner, data, size, size + 4096, &before, &after);
	runs = weft_runner_stats_get(st->runner).executions - runs;
	/* written before its run: a target that dies there (simplified in children) keeps it */
	if (write_file(out_name, data, n) != 0) {
		free(data);
		fprintf(stderr, "weft-replay: cannot write %s: %s\n", out, strerror(errno));
		return EXIT_BAD_USAGE;
	}
	weft_result res;
	weft_verdict v = weft_runner_run(st->runner, data, n, &res);
	free(data);
	if (v == WEFT_PASS || v == WEFT_ERROR) {
		remove(out_name);
		fprintf(stderr, "weft-replay: %s does not fail (%s): nothing to simplify\n", in,
			weft_verdict_name(v));
		return EXIT_UNEXPECTED;
	}
	if (!st->opt.quiet)
		print_report(st, out);
	fprintf(stderr, "weft-replay: simplified %s (%zu bytes) to %s (%zu bytes), %s\n", in,
		size, out, n, weft_verdict_name(v));
	print_complexity("weft-replay: complexity (preemptions, switches, operations, threads) ",
			 &before, st->runner);
	print_complexity(" -> ", &after, st->runner);
	fprintf(stderr, " in %llu runs\n", (unsigned long long)runs);
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
		char name[SHOWN_MAX];
		fprintf(stderr, "weft-replay: cannot open %s: %s\n",
			shown(name, sizeof name, dir), strerror(errno));
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
	if (n)   /* an empty directory: names is NULL, which qsort must not get */
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
	replay_state st = { 0 };   /* options NULL until given: a repeat is detectable */
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
		int why = parse_option(&st.opt, argv[i]);
		if (why != 0) {
			fprintf(stderr, "weft-replay: %s option '", why == -2 ? "repeated" :
				"unknown or malformed");
			print_quoted(stderr, argv[i]);
			fprintf(stderr, "' (see --help)\n");
			return EXIT_BAD_USAGE;
		}
	}
	if (st.opt.help) {
		usage(stdout, argv[0]);
		return EXIT_AS_EXPECTED;
	}
	if (!st.opt.expect)
		st.opt.expect = "pass";
	watch.seconds = REPLAY_DEFAULT_TIMEOUT;
	if (st.opt.timeout && parse_seconds(st.opt.timeout, &watch.seconds) != 0) {
		fputs("weft-replay: --timeout=SECONDS takes 0 to 86400\n", stderr);
		return EXIT_BAD_USAGE;
	}
	signal(SIGALRM, on_timeout);
	/* a batch restarted by on_timeout inherits the handler's mask: SIGALRM blocked */
	sigset_t alarm_set;
	sigemptyset(&alarm_set);
	sigaddset(&alarm_set, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alarm_set, NULL);
	/* a batch's lines survive a timeout's _exit (issue 30: 3,025 inputs' lines were lost) */
	setvbuf(stdout, NULL, _IOLBF, 0);
	watch.line_per_input = st.opt.hash || st.opt.complexity;
	watch.json = st.opt.json != NULL;
	watch.st = &st;
	watch.argv = argv;
	watch.env = resume_environment();
	resume_counts(&st);
	catch_crashes();
	if (!expect_is_valid(st.opt.expect)) {
		fputs("weft-replay: --expect must be ", stderr);
		print_expect_words(stderr);
		fputc('\n', stderr);
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
	/* weft's report of a dying execution after ASan's, UBSan's or a signal's (SIGSEGV in
	   the program: before the CRASH line); no sink: the input is already a file */
	weft_runner_on_death(st.runner, NULL, NULL);
	if (st.opt.simplify) {
		int rc = first_path + 1 == argc ? simplify_file(&st, argv[first_path], st.opt.simplify)
						: EXIT_BAD_USAGE;
		if (first_path + 1 != argc)
			fprintf(stderr, "weft-replay: --simplify takes exactly one input FILE\n");
		free_runner(st.runner);
		return rc;
	}
	/* a failure after other inputs is confirmed in a fresh process (weft/run.h) */
	weft_runner_set_fresh_check(st.runner, 1);
	struct stat sb;
	if (st.opt.html && (first_path + 1 != argc || (stat(argv[first_path], &sb) == 0 &&
						       S_ISDIR(sb.st_mode)))) {
		fprintf(stderr, "weft-replay: --html takes exactly one input FILE\n");
		free_runner(st.runner);
		return EXIT_BAD_USAGE;
	}
	if (st.opt.stats && !(st.stats = weft_run_stats_new(weft_fuzz_target()))) {
		fprintf(stderr, "weft-replay: out of memory\n");
		free_runner(st.runner);
		return EXIT_BAD_USAGE;
	}
	for (int i = first_path; i < argc; i++)
		replay_path(&st, argv[i]);
	if (st.stats) {
		weft_run_stats_print(st.stats, stdout);
		weft_run_stats_free(st.stats);
	}
	weft_runner_stats stats = weft_runner_stats_get(st.runner);
	const char *backend = weft_runner_backend(st.runner);   /* a static string */
	char why[220] = "";
	if (weft_runner_backend_why(st.runner))
		snprintf(why, sizeof why, ": %s", weft_runner_backend_why(st.runner));
	free_runner(st.runner);
	fprintf(stderr, "weft-replay: %u inputs, %u with an unexpected verdict (expected: %s)\n",
		st.runs, st.unexpected, st.opt.expect);
	fprintf(stderr, "weft-replay: scheduler backend %s%s (WEFT_BACKEND=pthread|fiber)\n", backend,
		why);
	if (stats.check_unknown)
		fprintf(stderr, "weft-replay: %" PRIu64 " inputs had an unknown linearizability "
			"verdict (the checker's cost cap was reached; counted as pass)\n",
			stats.check_unknown);
	if (oracle_tool_stdout_ok() != 0) {   /* --json, --hash, --stats lost: exit 2 */
		fprintf(stderr, "weft-replay: cannot write <stdout>: %s\n", strerror(errno));
		return EXIT_BAD_USAGE;
	}
	if (st.io_error)
		return EXIT_BAD_USAGE;
	if (st.runs == 0) {   /* an empty directory checks nothing: never a silent pass */
		fprintf(stderr, "weft-replay: no input files found: nothing was checked\n");
		return EXIT_BAD_USAGE;
	}
	return st.unexpected ? EXIT_UNEXPECTED : EXIT_AS_EXPECTED;
}
