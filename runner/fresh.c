/*
 * runner/fresh.c - one input in a fresh process (fresh.h): the child is
 * started with posix_spawn (no code of ours runs between fork and exec, which
 * matters with parked worker threads and a sanitizer's runtime), its answer
 * read from a pipe until end of file, then the child reaped.
 */
#define _GNU_SOURCE
#include "fresh.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define FRESH_FD_VAR "WEFT_FRESH_FD"
#define FRESH_CHECK_VAR "WEFT_FRESH_CHECK"
#define FRESH_ANSWER_MAX (64u << 20)   /* a report longer than this is cut */

int runner_fresh_child_fd(void)
{
	static int fd = -2;
	if (fd == -2) {
		const char *v = getenv(FRESH_FD_VAR);
		char *end;
		long n = v && *v ? strtol(v, &end, 10) : -1;
		fd = n >= 3 && n < INT_MAX && !*end ? (int)n : -1;
		unsetenv(FRESH_FD_VAR);
	}
	return fd;
}

bool runner_fresh_allowed(void)
{
	static int allowed = -1;
	if (allowed < 0) {
		const char *v = getenv(FRESH_CHECK_VAR);
		if (!v || !*v || strcmp(v, "1") == 0)
			allowed = 1;
		else if (strcmp(v, "0") == 0)
			allowed = 0;
		else {
			fprintf(stderr, "weft: %s=%s: use 0 (failures are not confirmed in a "
				"fresh process) or 1\n", FRESH_CHECK_VAR, v);
			exit(2);
		}
	}
	return allowed == 1;
}

/* The input in a temporary file: 0 and its name in path (cap bytes), or -1. */
static int write_input(const uint8_t *data, size_t size, char *path, size_t cap)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, cap, "%s/weft-fresh-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			unlink(path);
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd) == 0 ? 0 : (unlink(path), -1);
}

/* The parent's environment without our two variables, then the child's values. */
static char **child_environment(int answer_fd, char *fd_var, size_t cap)
{
	size_t n = 0;
	while (environ && environ[n])
		n++;
	char **env = malloc((n + 3) * sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], FRESH_FD_VAR "=", sizeof FRESH_FD_VAR) != 0 &&
		    strncmp(environ[i], FRESH_CHECK_VAR "=", sizeof FRESH_CHECK_VAR) != 0)
			env[k++] = environ[i];
	snprintf(fd_var, cap, FRESH_FD_VAR "=%d", answer_fd);
	env[k++] = fd_var;
	env[k++] = FRESH_CHECK_VAR "=0";   /* the child never confirms in a child of its own */
	env[k] = NULL;
	return env;
}

/* Start /proc/self/exe on `path`, its answer on `answer_fd`; the pid, or -1. */
static pid_t start_child(const char *path, int answer_fd)
{
	char self[PATH_MAX], fd_var[32];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0)
		return -1;
	self[len] = '\0';
	char **env = child_environment(answer_fd, fd_var, sizeof fd_var);
	if (!env)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = { self, (char *)path, NULL };
	pid_t pid;
	int e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	return e == 0 ? pid : -1;
}

/* Everything the child writes on `fd`, NUL-terminated (malloc'd; NULL: nothing). */
static char *read_all(int fd)
{
	size_t n = 0, cap = 0;
	char *buf = NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			if (cap >= FRESH_ANSWER_MAX)
				break;
			char *more = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!more)
				break;
			buf = more;
		}
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (!n) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* "weft-fresh <verdict> <hash>\n<report>": 0 and *out filled, or -1. */
static int parse_answer(char *text, runner_fresh_run *out)
{
	int verdict, used = 0;
	uint64_t hash;
	if (!text || sscanf(text, "weft-fresh %d %" SCNx64 "\n%n", &verdict, &hash, &used) != 2 ||
	    !used)
		return -1;
	out->answered = true;
	out->verdict = (weft_verdict)verdict;
	out->trace_hash = hash;
	memmove(text, text + used, strlen(text + used) + 1);
	out->report = text;
	return 0;
}

/* What became of a child that did not answer, in out->why. */
static void explain_silence(int status, runner_fresh_run *out)
{
	if (WIFSIGNALED(status))
		snprintf(out->why, sizeof out->why, "the fresh process died of signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(out->why, sizeof out->why, "the fresh process exited with status %d "
			 "without running the input", WEXITSTATUS(status));
}

static int wait_child(pid_t pid)
{
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int runner_fresh_run_input(const uint8_t *data, size_t size, runner_fresh_run *out)
{
	memset(out, 0, sizeof *out);
	char path[PATH_MAX];
	int pipe_fd[2];
	if (write_input(data, size, path, sizeof path) != 0) {
		snprintf(out->why, sizeof out->why, "could not write a temporary file: %s",
			 strerror(errno));
		return -1;
	}
	/* the read end closes on exec; the write end, moved above 2, is the child's answer */
	int answer_fd = -1;
	if (pipe2(pipe_fd, O_CLOEXEC) == 0 && (answer_fd = fcntl(pipe_fd[1], F_DUPFD, 3)) < 0)
		close(pipe_fd[0]), close(pipe_fd[1]);
	if (answer_fd < 0) {
		snprintf(out->why, sizeof out->why, "no pipe: %s", strerror(errno));
		unlink(path);
		return -1;
	}
	close(pipe_fd[1]);
	pipe_fd[1] = answer_fd;
	pid_t pid = start_child(path, pipe_fd[1]);
	close(pipe_fd[1]);
	char *answer = pid > 0 ? read_all(pipe_fd[0]) : NULL;
	close(pipe_fd[0]);
	int status = pid > 0 ? wait_child(pid) : -1;
	unlink(path);
	if (pid <= 0) {
		snprintf(out->why, sizeof out->why, "could not start /proc/self/exe");
		return -1;
	}
	if (parse_answer(answer, out) != 0) {
		free(answer);
		explain_silence(status, out);
		return -1;
	}
	return 0;
}
