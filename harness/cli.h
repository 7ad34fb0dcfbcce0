/*
 * harness/cli.h - the option parsing the replay tool's modes share
 * (systematic_cli.c, explore_cli.c).
 *
 * Each mode lists its options once, as an X-macro, and turns the list into a
 * table of harness_cli_option; the table gives both the parser and --help, so
 * the two cannot disagree.  An option is "--flag" (value "") or
 * "--flag=VALUE"; its text is stored, unparsed, in a `const char *` field of
 * the mode's own struct (NULL = not given, "1" = a flag given), and the mode
 * checks and converts it with the number parsers below, which accept decimal
 * digits only and nothing after them.
 */
#ifndef WEFT_HARNESS_CLI_H
#define WEFT_HARNESS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct harness_cli_option {
	const char *flag;     /* "--threads" */
	const char *value;    /* "A..B", or "" for a flag without a value */
	const char *help;
	size_t offset;        /* of its `const char *` field in the mode's struct */
} harness_cli_option;

/* The table entry X(field, flag, value, help) of a struct `type`. */
#define HARNESS_CLI_ENTRY(type, field, flag, value, help) \
	{ flag, value, help, offsetof(type, field) },

enum { HARNESS_CLI_BAD = -1, HARNESS_CLI_REPEATED = -2 };

/*
 * Store `arg` in `values` if the table knows it: 0; HARNESS_CLI_BAD if unknown
 * or malformed ("--ops", "--ops=", "--quiet=1"); HARNESS_CLI_REPEATED if the
 * option was already given.
 */
int harness_cli_parse(const harness_cli_option *table, size_t n, void *values, const char *arg);
/* `s` with every byte outside printable ASCII (and backslash) as \xNN, at most 200 bytes. */
void harness_cli_quote(FILE *out, const char *s);
/* "TOOL: unknown or malformed option 'ARG' (see MODE --help)" on stderr, ARG quoted. */
void harness_cli_reject(const char *tool, const char *mode, const char *arg, int why);
/* One line per option, "  --flag=VALUE  help", aligned. */
void harness_cli_print(FILE *out, const harness_cli_option *table, size_t n);
/* A decimal count in [min, max]; 0, or -1. */
int harness_cli_count(const char *s, uint64_t min, uint64_t max, uint64_t *v);
/* "A..B" or "A" (then B = A), each an optionally negative decimal; -1 if malformed or A > B. */
int harness_cli_range(const char *s, int64_t *lo, int64_t *hi);
/*
 * For a mode that runs many executions (--explore, --systematic): a death in
 * one of them (runner/death.c) prints weft's report, then "TOOL: the process
 * died in execution N" and writes the execution's bytes, when known, as
 * crash-<sha1> in the working directory (harness/crash_file.c), which the
 * replay tool replays.  `runner` is a weft_runner.
 */
struct weft_runner;
void harness_death_leaves_input(struct weft_runner *runner, const char *tool);
/*
 * Under a mode's own strategies (--explore's, --systematic's), the schedule of
 * each run is written down as it goes (harness/death_record.c), so that a
 * death leaves its bytes too; explore and systematic explore as before.
 */
void harness_death_record(struct weft_runner *runner);

#endif /* WEFT_HARNESS_CLI_H */
