/*
 * reduce/judge.c - one candidate of the simplifier, judged by its symptom,
 * here or in a child process (issue 29).
 *
 * Why a child: a target whose bug is a sanitizer report (a use-after-free
 * under ASan) or a signal ends the process at the failing execution, so an
 * in-process simplifier dies on its first run.  The simplifier (simplify.c)
 * runs its first execution in a child; if that child died, every candidate
 * runs in a child of its own, and a child that dies is judged from its
 * stderr: the sanitizer's error kind and first frame in the program (the
 * symptom), and weft's own dying report ("==weft== 2 threads, 2 operations,
 * 1 preemption, 3 switches, ...", runner.c's weft_runner_report_dying) for
 * the complexity.  A child that survives sends its judgement through a pipe.
 * Pthread workers do not survive fork(); the pool recreates them (pool.c).
 */
#include "judge.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../report/report.h"
#include "../runner/runner_internal.h"

#define JUDGE_TEXT_MAX (256u << 10)   /* of a dying child's stderr: its reports fit */

void reduce_judge_here(weft_runner *r, const uint8_t *bytes, size_t size, reduce_judgement *j)
{
	weft_result res;
	input_data data[INPUT_MAX_DATA];
	j->verdict = weft_runner_run(r, bytes, size, &res);
	j->died = 0;
	j->counted = 1;
	j->c = weft_complexity_of(&res);
	j->n_data = runner_data_choices(r, data, INPUT_MAX_DATA);
	memcpy(j->data, data, j->n_data * sizeof data[0]);
	report_symptom(j->symptom, sizeof j->symptom, j->verdict, res.message);
}

/* ---- a death, read from what the child printed ---- */

static const char *base_name(const char *path, const char *end)
{
	const char *b = path;
	for (const char *p = path; p < end; p++)
		if (*p == '/')
			b = p + 1;
	return b;
}

/* "in FUNC /path/file.c:59:2" -> "FUNC file.c:59"; 0 if the frame has no source line. */
static int frame_site(const char *line, char *out, size_t cap)
{
	const char *in = strstr(line, " in ");
	if (!in)
		return 0;
	const char *fn = in + 4, *sp = strchr(fn, ' ');
	if (!sp || !strncmp(fn, "__interceptor_", 14) || !strncmp(fn, "__asan", 6) ||
	    !strncmp(fn, "__sanitizer", 11) || !strncmp(fn, "__ubsan", 7))
		return 0;
	const char *loc = sp + 1, *end = loc + strcspn(loc, " \n");
	const char *colon = memchr(loc, ':', (size_t)(end - loc));
	if (*loc == '(' || !colon || colon[1] < '0' || colon[1] > '9')
		return 0;
	const char *b = base_name(loc, colon);
	size_t digits = strspn(colon + 1, "0123456789");
	snprintf(out, cap, "%.*s %.*s", (int)(sp - fn), fn, (int)(colon + 1 + digits - b), b);
	return 1;
}

/* UBSan's "/path/file.c:12:5: runtime error: ..." -> "file.c:12". */
static int ubsan_site(const char *line, char *out, size_t cap)
{
	const char *rt = strstr(line, ": runtime error:");
	if (!rt)
		return 0;
	const char *colon = memchr(line, ':', (size_t)(rt - line));
	if (!colon)
		return 0;
	const char *b = base_name(line, colon);
	size_t digits = strspn(colon + 1, "0123456789");
	snprintf(out, cap, "%.*s", (int)(colon + 1 + digits - b), b);
	return 1;
}

void reduce_death_symptom(const char *text, int status, char *buf, size_t cap)
{
	char kind[128] = "", site[256] = "";
	int in_stack = 0, stack_over = 0;
	for (const char *line = text; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char l[1024];
		snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), line);
		const char *s = strstr(l, "SUMMARY: "), *san = s ? strstr(s, "Sanitizer: ") : NULL;
		if (san && !kind[0])
			snprintf(kind, sizeof kind, "%.*s", (int)strcspn(san + 11, " "), san + 11);
		if (strncmp(l, "    #", 5) == 0) {   /* the first stack: the error's own */
			in_stack = 1;
			if (!site[0] && !stack_over)
				frame_site(l, site, sizeof site);
		} else if (in_stack) {
			stack_over = 1;
		}
		if (!site[0])
			ubsan_site(l, site, sizeof site);
		line += len + (nl != NULL);
	}
	if (!kind[0] && WIFSIGNALED(status))
		snprintf(kind, sizeof kind, "signal %d", WTERMSIG(status));
	else if (!kind[0])
		snprintf(kind, sizeof kind, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	snprintf(buf, cap, "died: %s%s%s", kind, site[0] ? " at " : "", site);
}

/* weft's dying report header: the execution's counts so far. */
static int death_counts(const char *text, weft_complexity *c)
{
	const char *h = strstr(text, "==weft== ");
	for (; h; h = strstr(h + 1, "==weft== ")) {
		unsigned threads, ops, pre, sw;
		const char *p = h + 9;
		if (sscanf(p, "%u threads, %u operations, %u preemption", &threads, &ops, &pre) != 3)
			continue;
		const char *s = strstr(p, "preemption");
		if (!s || sscanf(strchr(s, ',') ? strchr(s, ',') + 1 : s, " %u switches", &sw) != 1)
			continue;
		weft_complexity k = { .preemptions = pre, .switches = sw - (sw >= pre ? pre : sw),
				      .operations = ops, .threads = threads };
		*c = k;
		return 1;
	}
	return 0;
}

/* ---- the child ---- */

static int write_all(int fd, const void *p, size_t n)
{
	for (const char *c = p; n;) {
		ssize_t w = write(fd, c, n);
		if (w <= 0)
			return -1;
		c += w, n -= (size_t)w;
	}
	return 0;
}

static size_t read_all(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static void judge_death(FILE *err, int status, reduce_judgement *j)
{
	char *text = calloc(1, JUDGE_TEXT_MAX + 1);
	size_t got = 0;
	if (text && fseek(err, 0, SEEK_SET) == 0)
		got = fread(text, 1, JUDGE_TEXT_MAX, err);
	if (text)
		text[got] = 0;
	j->verdict = WEFT_ERROR;
	j->died = 1;
	j->n_data = 0;
	reduce_death_symptom(text ? text : "", status, j->symptom, sizeof j->symptom);
	j->counted = text && death_counts(text, &j->c);
	free(text);
}

int reduce_judge_child(weft_runner *r, const uint8_t *bytes, size_t size, reduce_judgement *j)
{
	int fds[2];
	FILE *err = tmpfile();
	if (!err || pipe(fds) != 0) {
		if (err)
			fclose(err);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {   /* the child: run, send the judgement, leave without atexit work */
		close(fds[0]);
		dup2(fileno(err), 2);
		FILE *null = freopen("/dev/null", "w", stdout);
		(void)null;
		reduce_judge_here(r, bytes, size, j);
		_exit(write_all(fds[1], j, sizeof *j) == 0 ? 0 : 3);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		fclose(err);
		return -1;
	}
	size_t got = read_all(fds[0], j, sizeof *j);
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (got != sizeof *j || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		judge_death(err, status, j);
	fclose(err);
	return 0;
}
