/*
 * oracle/weft_check_main.c - weft-check, the standalone linearizability
 * checker: reads histories from files (weft's text format,
 * docs/history-format.md, Jepsen register logs, or Jepsen's map-style EDN
 * key-value histories) and says, per file,
 * whether a built-in model explains them.
 *
 *   $ weft-check tests/histories/queue_exercise_2.txt
 *   tests/histories/queue_exercise_2.txt: NOT linearizable (3 operations, cost 4)
 *     longest linearizable prefix: 2 of 3 operations
 *       1. thread 1  enq(1) = 0
 *       2. thread 2  enq(2) = 0
 *     cannot be placed next: thread 1  deq() = 2, but the model gives 1
 *
 * (the indented lines are weft_check_explain's, oracle/explain.c: of a long prefix
 * the last 20 operations, all with --full; --quiet drops them).
 *
 * The same glue as harness/replay_main.c: options defined once in
 * CHECK_OPTIONS, which generates the parser and --help; exit codes from one
 * enum.  All the work is elsewhere: the readers (history_*.c), the models
 * (models.c), the search (linearize.c) and its explanation (explain.c).  One
 * checker per model is kept across files, so its buffers are reused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_io.h"
#include "model_kv.h"
#include "models.h"
#include "tool_files.h"
#include "weft/check.h"

/* Precedence when files differ: BAD_INPUT, then NOT_LINEARIZABLE, then UNKNOWN. */
enum check_exit {
	EXIT_LINEARIZABLE = 0,       /* every file linearizable */
	EXIT_NOT_LINEARIZABLE = 1,   /* some file not linearizable */
	EXIT_BAD_INPUT = 2,          /* bad usage, unreadable or malformed file */
	EXIT_UNKNOWN = 3,            /* some file undecided within --max-cost, none refuted */
};

/* X(field, flag, takes_value, help) */
#define CHECK_OPTIONS(X)                                                                \
	X(help, "--help", 0, "print this help and exit")                                \
	X(format, "--format", 1, "text, jepsen, edn or auto (default: jepsen when the " \
				 "first line is 'INFO jepsen.util ...', edn when it "   \
				 "starts with '{', else text)")                         \
	X(model, "--model", 1, "the model of text files that name none (models below)") \
	X(max_cost, "--max-cost", 1, "search steps per file before the verdict is "     \
				     "'unknown' (default 10000000)")                    \
	X(max_memory, "--max-memory", 1, "megabytes one file's check may hold (the history, " \
					 "the search's buffers and memo) before the verdict " \
					 "is 'unknown' (default: no cap)")               \
	X(no_partition, "--no-partition", 0, "check set and map histories whole, not "  \
					     "key by key (slower; not for kv)")         \
	X(relaxed, "--relaxed", 1, "queue and stack histories: a deq (pop) may return any of " \
				   "the VALUE+1 oldest (newest) elements (k-relaxed)")  \
	X(quiet, "--quiet", 0, "one line per file: no explanation of failures")        \
	X(full, "--full", 0, "explain with the whole longest linearizable prefix (default: " \
			     "its last 20 operations, after '... N earlier operations')") \
	X(html, "--html", 1, "also write the one FILE's history and explanation as a " \
			     "self-contained web page to VALUE")

_Static_assert(WEFT_CHECK_DEFAULT_MAX_COST == 10000000u, "--help states the default cost cap");
_Static_assert(ORACLE_EXPLAIN_TAIL == 20, "--help states the operations --full adds to");

typedef struct check_options {
#define X(field, flag, takes_value, help) const char *field;
	CHECK_OPTIONS(X)
#undef X
} check_options;

typedef struct check_state {
	check_options opt;
	const oracle_builtin *model;     /* --model, or NULL */
	weft_check_options check;
	weft_checker *checkers[ORACLE_N_BUILTINS];   /* one per built-in, made on first use */
	weft_model relaxed_queue, relaxed_stack;     /* --relaxed=K: the queue's and stack's models */
	int relaxed;
	int bad, refuted, undecided;
} check_state;

static void usage(FILE *out, const char *argv0)
{
	fprintf(out, "usage: %s [options] FILE...\n"
		"Checks each history FILE ('-' = standard input) for linearizability against\n"
		"a built-in sequential model.  Formats: docs/history-format.md (text),\n"
		"Jepsen register logs, and Jepsen EDN key-value histories (one map a line:\n"
		"{:process 0, :type :invoke, :f :put, :key \"k\", :value \"v\"}; model kv).\n\n"
		"Exit status: 0 every file linearizable; 1 some file NOT linearizable;\n"
		"2 bad usage or bad input (unreadable or malformed file: FILE:LINE: message);\n"
		"3 some file unknown (search gave up at --max-cost or --max-memory) and none\n"
		"not linearizable.\n"
		"2 takes precedence over 1, and 1 over 3.\n\noptions:\n", argv0);
#define X(field, flag, takes_value, help) \
	fprintf(out, "  %-20s %s\n", takes_value ? flag "=VALUE" : flag, help);
	CHECK_OPTIONS(X)
#undef X
	fprintf(out, "\nmodels:\n");
	for (size_t i = 0; i < ORACLE_N_BUILTINS; i++)
		fprintf(out, "  %-20s %s\n", oracle_builtins[i].model->name,
			oracle_builtins[i].summary);
}

/*
 * `s` made printable into dst (n bytes): every byte outside printable ASCII, and
 * the backslash, as \xNN, cut at n-1 bytes.  File names and option values are
 * echoed through it: raw control bytes would reach the user's terminal.
 */
static const char *printable(char *dst, size_t n, const char *s)
{
	size_t k = 0;
	for (; *s && k + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 32 && c < 127 && c != '\\')
			dst[k++] = (char)c;
		else
			k += (size_t)snprintf(dst + k, n - k, "\\x%02x", c);
	}
	dst[k] = '\0';
	return dst;
}

/*
 * Parses one "--flag" or "--flag=value"; returns 0, -1 if unknown or malformed,
 * -2 if the option was already given (a second value must not silently win).
 */
static int parse_option(check_options *o, const char *arg)
{
#define X(field, flag, takes_value, help)                                     \
	{                                                                     \
		size_t n = strlen(flag);                                      \
		if (strncmp(arg, flag, n) == 0 && (arg[n] == 0 || arg[n] == '=')) { \
			if ((arg[n] == '=') != (takes_value != 0))            \
				return -1;                                    \
			if (o->field)                                         \
				return -2;                                    \
			o->field = takes_value ? arg + n + 1 : "1";           \
			return 0;                                             \
		}                                                             \
	}
	CHECK_OPTIONS(X)
#undef X
	return -1;
}

/* --relaxed=K: k-relaxed queue and stack models (oracle/model_relaxed.c) with param K. */
static int validate_relaxed(check_state *st)
{
	if (!st->opt.relaxed)
		return 0;
	char *end;
	errno = 0;
	unsigned long long k = strtoull(st->opt.relaxed, &end, 10);
	if (errno || *end || !*st->opt.relaxed || *st->opt.relaxed == '-' || k > 1000000) {
		fprintf(stderr, "weft-check: --relaxed needs a number 0..1000000\n");
		return -1;
	}
	st->relaxed_queue = (weft_model)WEFT_MODEL_QUEUE_RELAXED((int64_t)k);
	st->relaxed_stack = (weft_model)WEFT_MODEL_STACK_RELAXED((int64_t)k);
	st->relaxed = 1;
	return 0;
}

/* Checks the option values the table cannot; returns 0 or prints why not and -1. */
static int validate_options(check_state *st)
{
	const char *f = st->opt.format;
	if (f && strcmp(f, "text") && strcmp(f, "jepsen") && strcmp(f, "edn") && strcmp(f, "auto")) {
		fprintf(stderr, "weft-check: --format must be text, jepsen, edn or auto\n");
		return -1;
	}
	if (st->opt.model && !(st->model = oracle_builtin_find(st->opt.model))) {
		char shown[256];
		fprintf(stderr, "weft-check: unknown --model=%s (see --help)\n",
			printable(shown, sizeof shown, st->opt.model));
		return -1;
	}
	if (st->opt.max_cost) {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(st->opt.max_cost, &end, 10);
		if (errno || *end || !*st->opt.max_cost || *st->opt.max_cost == '-' || n == 0) {
			fprintf(stderr, "weft-check: --max-cost needs a number > 0\n");
			return -1;
		}
		st->check.max_cost = n;
	}
	if (st->opt.max_memory) {
		char *end;
		errno = 0;
		unsigned long long mb = strtoull(st->opt.max_memory, &end, 10);
		if (errno || *end || !*st->opt.max_memory || *st->opt.max_memory == '-' || mb == 0 ||
		    mb > UINT64_MAX / (1024 * 1024)) {
			fprintf(stderr, "weft-check: --max-memory needs a number of megabytes > 0\n");
			return -1;
		}
		st->check.max_memory = (uint64_t)mb * 1024 * 1024;
	}
	st->check.no_partition = st->opt.no_partition != NULL;
	return validate_relaxed(st);
}

/*
 * The whole of `path` ('-': stdin) in a malloc'd buffer, or NULL with errno set:
 * what the replay tool refuses is refused here too (oracle/tool_files.h).
 */
static char *slurp(const char *path, size_t *size)
{
	int is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : oracle_tool_open_input(path, ORACLE_TOOL_MAX_INPUT);
	if (!f)
		return NULL;
	char *text = oracle_tool_read(f, ORACLE_TOOL_MAX_INPUT, size);
	int e = errno;
	if (!is_stdin)
		fclose(f);
	errno = e;
	return text;
}

/* Reads the history in `text` with the reader --format asks for (or auto picks). */
static int read_history(const check_state *st, const char *text, size_t len, const char *name,
			oracle_history *h, char *err)
{
	const char *f = st->opt.format ? st->opt.format : "auto";
	int automatic = strcmp(f, "auto") == 0;
	int jepsen = strcmp(f, "jepsen") == 0 || (automatic && oracle_looks_like_jepsen(text, len));
	int edn = strcmp(f, "edn") == 0 || (automatic && oracle_looks_like_edn(text, len));
	const char *implied = jepsen ? "register" : edn ? "kv" : NULL;
	if (implied && st->model && strcmp(st->model->model->name, implied) != 0) {
		snprintf(err, ORACLE_ERROR_MAX, "%s:0: a Jepsen %s is a %s history, not --model=%s",
			 name, jepsen ? "log" : "EDN file", implied, st->model->model->name);
		return -1;
	}
	if (edn && st->check.no_partition) {
		snprintf(err, ORACLE_ERROR_MAX, "%s:0: a kv history is checked key by key: "
			 "--no-partition does not apply", name);
		return -1;
	}
	if (!implied && st->model && st->model->strings) {
		snprintf(err, ORACLE_ERROR_MAX, "%s:0: model %s is read from Jepsen EDN files "
			 "(--format=edn), not the text format", name, st->model->model->name);
		return -1;
	}
	if (jepsen)
		return oracle_read_jepsen(text, len, name, h, err);
	return edn ? oracle_read_edn(text, len, name, h, err)
		   : oracle_read_text(text, len, name, st->model, h, err);
}

/* The model a history of built-in b is checked against: b's, or its --relaxed form. */
static const weft_model *model_for(check_state *st, const oracle_builtin *b)
{
	if (st->relaxed && b->model == &weft_model_queue)
		return &st->relaxed_queue;
	if (st->relaxed && b->model == &weft_model_stack)
		return &st->relaxed_stack;
	return b->model;
}

static weft_checker *checker_for(check_state *st, const oracle_builtin *b)
{
	size_t i = (size_t)(b - oracle_builtins);
	if (!st->checkers[i])
		st->checkers[i] = weft_checker_new(model_for(st, b));
	return st->checkers[i];
}

static void print_verdict(check_state *st, const char *name, const oracle_history *h,
			  const weft_check_result *res)
{
	weft_history view = oracle_history_view(h);
	switch (res->verdict) {
	case WEFT_CHECK_LINEARIZABLE:
		printf("%s: linearizable (%zu operations, cost %" PRIu64 ")\n", name, h->n_ops,
		       res->cost);
		break;
	case WEFT_CHECK_NOT_LINEARIZABLE:
		st->refuted = 1;
		printf("%s: NOT linearizable (%zu operations, cost %" PRIu64 ")\n", name,
		       h->n_ops, res->cost);
		if (!st->opt.quiet)
			oracle_explain(stdout, &view, h->builtin->ops, h->kv, res,
				       st->opt.full ? 0 : ORACLE_EXPLAIN_TAIL);
		break;
	default:
		st->undecided = 1;
		if (!res->memory_capped && res->cost < (st->check.max_cost ? st->check.max_cost
							   : WEFT_CHECK_DEFAULT_MAX_COST))   /* malloc failed */
			printf("%s: unknown (out of memory after %" PRIu64 " steps; give it a "
			       "--max-memory below the memory available)\n", name, res->cost);
		else if (res->memory_capped)
			printf("%s: unknown (the memo reached --max-memory after %" PRIu64
			       " steps; raise --max-memory)\n", name, res->cost);
		else
			printf("%s: unknown (gave up after %" PRIu64 " steps; raise --max-cost)\n",
			       name, res->cost);
	}
}

/* --html=PAGE: the history and its explanation as a web page (report/history_html.c). */
static void write_html(check_state *st, const char *name, const oracle_history *h,
		       const weft_check_result *res)
{
	weft_history view = oracle_history_view(h);
	const weft_op *ops = h->builtin ? h->builtin->ops : NULL;
	weft_check_result checked = *res;   /* its key and model result spelled too */
	weft_op_record *spelled = NULL;
	if (h->kv) {   /* the page shows the file's strings, not the ids they were read as */
		spelled = malloc((h->n_ops ? h->n_ops : 1) * sizeof *spelled);
		if (!spelled) {
			fprintf(stderr, "weft-check: %s: out of memory\n", name);
			st->bad = 1;
			return;
		}
		ops = oracle_kv_spelled(&view, h->kv, spelled, &checked);
		view.ops = spelled;
	}
	FILE *f = fopen(st->opt.html, "w");
	if (f)
		weft_check_report_html(f, name, &view, ops, &checked);
	free(spelled);
	if (!f || oracle_tool_close(f) != 0) {
		char shown[256];
		fprintf(stderr, "weft-check: cannot write %s: %s\n",
			printable(shown, sizeof shown, st->opt.html), strerror(errno));
		st->bad = 1;
	}
}

/* An empty history with no model named is trivially linearizable: no checker needed. */
static void check_history(check_state *st, const char *name, const oracle_history *h)
{
	weft_check_result res = { .verdict = WEFT_CHECK_LINEARIZABLE, .n_partitions = 1 };
	if (h->builtin && st->relaxed && model_for(st, h->builtin) == h->builtin->model) {
		fprintf(stderr, "weft-check: %s: --relaxed is for queue and stack histories, not %s\n",
			name, h->builtin->model->name);
		st->bad = 1;
		return;
	}
	if (h->builtin) {
		weft_checker *c = checker_for(st, h->builtin);
		weft_history view = oracle_history_view(h);
		weft_check_options opts = st->check;
		uint64_t held = h->bytes + h->n_ops * sizeof *h->ops;   /* counted against the cap */
		if (opts.max_memory)
			opts.max_memory = opts.max_memory > held ? opts.max_memory - held : 1;
		if (!c) {
			fprintf(stderr, "weft-check: %s: out of memory\n", name);
			st->bad = 1;
			return;
		}
		oracle_kv_bind(h->kv);
		weft_check(c, &view, &opts, &res);
		oracle_kv_bind(NULL);
	}
	print_verdict(st, name, h, &res);
	if (st->opt.html)
		write_html(st, name, h, &res);
}

static void check_file(check_state *st, const char *path)
{
	char shown[512];
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : printable(shown, sizeof shown, path);
	size_t len = 0;
	char *text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "weft-check: cannot read %s: %s\n", name, oracle_tool_why(errno));
		st->bad = 1;
		return;
	}
	oracle_history h;
	char err[ORACLE_ERROR_MAX];
	int read = read_history(st, text, len, strcmp(path, "-") == 0 ? "<stdin>" : path, &h, err);
	free(text);   /* the history holds what it needs: the text's memory is the search's */
	h.bytes = len;   /* what the kv table's strings may hold, at most */
	if (read == 0) {
		check_history(st, name, &h);
		oracle_history_free(&h);
	} else {
		char line[4 * ORACLE_ERROR_MAX + 1];   /* the reader may quote the file's bytes */
		fprintf(stderr, "%s\n", printable(line, sizeof line, err));
		st->bad = 1;
	}
}

/* Options first, then files ("--" ends the options; "-" is a file: stdin). */
static int parse_args(check_state *st, int argc, char **argv, int *first_path)
{
	*first_path = argc;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == 0) {
			*first_path = i + (strcmp(argv[i], "--") == 0);
			break;
		}
		int why = parse_option(&st->opt, argv[i]);
		if (why != 0) {
			char shown[256];
			fprintf(stderr, "weft-check: %s option '%s' (see --help)\n",
				why == -2 ? "repeated" : "unknown or malformed",
				printable(shown, sizeof shown, argv[i]));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	check_state st = { 0 };
	int first_path;
	if (parse_args(&st, argc, argv, &first_path) != 0)
		return EXIT_BAD_INPUT;
	if (st.opt.help) {
		usage(stdout, argv[0]);
		return EXIT_LINEARIZABLE;
	}
	if (validate_options(&st) != 0)
		return EXIT_BAD_INPUT;
	if (first_path >= argc) {
		usage(stderr, argv[0]);
		return EXIT_BAD_INPUT;
	}
	if (st.opt.html && first_path + 1 != argc) {
		fprintf(stderr, "weft-check: --html takes exactly one history FILE\n");
		return EXIT_BAD_INPUT;
	}
	for (int i = first_path; i < argc; i++)
		check_file(&st, argv[i]);
	for (size_t i = 0; i < ORACLE_N_BUILTINS; i++)
		if (st.checkers[i])
			weft_checker_free(st.checkers[i]);
	if (oracle_tool_stdout_ok() != 0) {   /* verdicts lost: never a success status */
		fprintf(stderr, "weft-check: cannot write <stdout>: %s\n", strerror(errno));
		return EXIT_BAD_INPUT;
	}
	return st.bad ? EXIT_BAD_INPUT : st.refuted ? EXIT_NOT_LINEARIZABLE
		     : st.undecided ? EXIT_UNKNOWN : EXIT_LINEARIZABLE;
}
