/*
 * report/symptom.c - what a failure is, as one stable line: the key that
 * reducers and the campaign compare (issue 29).
 *
 * Why: a reducer that keeps any candidate with the same verdict swaps one bug
 * for another (an assertion crash "reduced" to the other bug's lost update
 * when both are assertions of different lines, or a minimizer that accepts
 * any crash).  A candidate is smaller only if it fails *the same way*: same
 * verdict and same site.  What counts as the site, by verdict:
 *   assertion, misuse   the message with every "thread N" made "thread": the
 *                       assert's text and file:line stay, the thread that hit
 *                       it may change when the simplifier renumbers threads;
 *   data-race           the two racing sites ("file:line (function)"),
 *                       sorted: which thread came first is the interleaving's;
 *   anything else       the verdict alone: linearizability, deadlock,
 *                       validation, ... messages carry values and counts that
 *                       a reduction changes while the bug stays.
 * A sanitizer's death has no verdict: its symptom is the sanitizer's error
 * kind and first frame in the program (reduce/judge_child.c; the shell
 * scripts read the same from the replay tool's output).
 *   Example: "assertion: thread 1: assertion `x == 1' failed at a.c:9"
 *            -> "assertion: thread: assertion `x == 1' failed at a.c:9".
 */
#include "report.h"

#include <string.h>

/* Append s to buf (size cap, used *n), "thread <digits>" shortened to "thread". */
static void put_unthreaded(char *buf, size_t cap, size_t *n, const char *s)
{
	while (*s && *n + 1 < cap) {
		if (!strncmp(s, "thread ", 7) && s[7] >= '0' && s[7] <= '9') {
			for (const char *w = "thread"; *w && *n + 1 < cap; w++)
				buf[(*n)++] = *w;
			for (s += 7; *s >= '0' && *s <= '9'; s++)
				;
			continue;
		}
		buf[(*n)++] = *s++;
	}
	buf[*n] = 0;
}

/* The i-th (0 or 1) "file:line (function)" of a race message: after " %s " verbs, up to ')'. */
static size_t race_site(const char *msg, int i, const char **at)
{
	const char *p = msg;
	for (int k = 0; k <= i; k++) {
		const char *s = strchr(p, ':');
		while (s && s > msg && s[-1] != ' ')   /* back to the file name's start */
			s--;
		if (!s)
			return 0;
		*at = s;
		const char *close = strchr(s, ')');
		if (!close)
			return 0;
		p = close + 1;
	}
	return (size_t)(strchr(*at, ')') + 1 - *at);
}

static void put_race(char *buf, size_t cap, size_t *n, const char *msg)
{
	const char *a = NULL, *b = NULL;
	size_t la = race_site(msg, 0, &a), lb = race_site(msg, 1, &b);
	if (!la || !lb) {
		put_unthreaded(buf, cap, n, msg);
		return;
	}
	size_t m = la < lb ? la : lb;
	int c = memcmp(a, b, m);
	if (c > 0 || (c == 0 && la > lb)) {
		const char *t = a; a = b; b = t;
		size_t l = la; la = lb; lb = l;
	}
	*n += (size_t)snprintf(buf + *n, cap - *n, "%.*s and %.*s", (int)la, a, (int)lb, b);
	if (*n >= cap)
		*n = cap - 1;
}

size_t report_symptom(char *buf, size_t cap, weft_verdict v, const char *message)
{
	if (!cap)
		return 0;
	size_t n = (size_t)snprintf(buf, cap, "%s", weft_verdict_name(v));
	if (n >= cap)
		return cap - 1;
	if (v != WEFT_FAIL_ASSERTION && v != WEFT_FAIL_MISUSE && v != WEFT_FAIL_DATA_RACE)
		return n;
	n += (size_t)snprintf(buf + n, cap - n, ": ");
	if (n >= cap)
		return cap - 1;
	if (v == WEFT_FAIL_DATA_RACE)
		put_race(buf, cap, &n, message ? message : "");
	else
		put_unthreaded(buf, cap, &n, message ? message : "");
	return n;
}
