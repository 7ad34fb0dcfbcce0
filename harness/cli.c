/*
 * harness/cli.c - option parsing shared by the replay tool's modes (cli.h).
 * Strict on purpose: "--ops=3x", "--ops=" and "--quiet=1" are errors, never
 * silently read as something else.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int harness_cli_parse(const harness_cli_option *table, size_t n, void *values, const char *arg)
{
	for (size_t i = 0; i < n; i++) {
		const harness_cli_option *o = &table[i];
		size_t len = strlen(o->flag);
		if (strncmp(arg, o->flag, len) != 0 || (arg[len] != 0 && arg[len] != '='))
			continue;
		int wants_value = o->value[0] != 0;
		if ((arg[len] == '=') != wants_value || (wants_value && !arg[len + 1]))
			return HARNESS_CLI_BAD;
		const char **field = (const char **)((char *)values + o->offset);
		if (*field)
			return HARNESS_CLI_REPEATED;   /* the last one silently winning hides typos */
		*field = wants_value ? arg + len + 1 : "1";
		return 0;
	}
	return HARNESS_CLI_BAD;
}

void harness_cli_quote(FILE *out, const char *s)
{
	for (size_t i = 0; s[i] && i < 200; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	if (strlen(s) > 200)
		fputs("...", out);
}

void harness_cli_reject(const char *tool, const char *mode, const char *arg, int why)
{
	fprintf(stderr, "%s: %s option '", tool,
		why == HARNESS_CLI_REPEATED ? "repeated" : "unknown or malformed");
	harness_cli_quote(stderr, arg);
	fprintf(stderr, "' (%ssee %s --help)\n",
		why == HARNESS_CLI_REPEATED ? "give each option once; " : "", mode);
}

void harness_cli_print(FILE *out, const harness_cli_option *table, size_t n)
{
	int width = 0;
	for (size_t i = 0; i < n; i++) {
		int w = (int)(strlen(table[i].flag) + (table[i].value[0] ? strlen(table[i].value) + 1 : 0));
		width = w > width ? w : width;
	}
	for (size_t i = 0; i < n; i++) {
		const harness_cli_option *o = &table[i];
		int w = fprintf(out, "  %s%s%s", o->flag, o->value[0] ? "=" : "", o->value) - 2;
		fprintf(out, "%*s  %s\n", width - w, "", o->help);
	}
}

/* Decimal digits from s, at least one; *end after them. */
static int parse_digits(const char *s, const char **end, uint64_t *v)
{
	char *e;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 10);
	if (errno)
		return -1;
	*v = x;
	*end = e;
	return 0;
}

int harness_cli_count(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	const char *e;
	uint64_t x;
	if (parse_digits(s, &e, &x) != 0 || *e || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

static int parse_signed(const char *s, const char **end, int64_t *v)
{
	int negative = *s == '-';
	uint64_t x;
	if (parse_digits(s + negative, end, &x) != 0 || x > (uint64_t)INT64_MAX + negative)
		return -1;
	*v = negative ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

int harness_cli_range(const char *s, int64_t *lo, int64_t *hi)
{
	const char *e;
	if (parse_signed(s, &e, lo) != 0)
		return -1;
	if (*e == 0) {
		*hi = *lo;
		return 0;
	}
	if (strncmp(e, "..", 2) != 0 || parse_signed(e + 2, &e, hi) != 0 || *e)
		return -1;
	return *lo <= *hi ? 0 : -1;
}
