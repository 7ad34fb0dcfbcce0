/*
 * harness/watchdog.c - --timeout for --systematic and --explore (issue 31).
 *
 * Why.  An operation that loops without a switch point can never be
 * preempted: the search would hang for good (the replay has its own per-input
 * alarm, harness/replay_main.c; the fuzz binary has libFuzzer's -timeout).
 *
 * How.  An interval timer fires every `seconds`; each time, the runner's
 * execution count (weft_runner_stats) is compared with the one the last tick
 * saw.  Unchanged: one execution has been running for at least `seconds` (at
 * most twice that), so the process ends with the timeout verdict's line, what
 * each thread was doing (weft_runner_describe_running) and exit status 1, as a
 * found failure.  Wall-clock time decides only whether this fires, never a
 * verdict or a report of a run that finishes.  The state is process-wide: a
 * signal handler can reach nothing else.
 */
#include "watchdog.h"

#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

static struct {
	const weft_runner *runner;
	const char *tool;
	unsigned seconds;
	uint64_t seen;   /* executions at the last tick */
} dog;

static void on_tick(int sig)
{
	(void)sig;
	uint64_t now = weft_runner_stats_get(dog.runner).executions;
	if (now != dog.seen) {
		dog.seen = now;
		return;
	}
	char what[256], line[1024];
	weft_runner_describe_running(dog.runner, what, sizeof what);
	int n = snprintf(line, sizeof line, "==weft== TIMEOUT in %s (%s): execution %llu ran "
			 "longer than %u s: %s; a loop without a switch point cannot be preempted "
			 "(put weft_yield() or an instrumented atomic in it)\n",
			 weft_runner_target(dog.runner)->name, dog.tool,
			 (unsigned long long)now + 1, dog.seconds, what);
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
		_exit(1);
	_exit(1);
}

void harness_watchdog_start(const weft_runner *runner, unsigned seconds, const char *tool)
{
	if (!seconds)
		return;
	dog.runner = runner, dog.tool = tool, dog.seconds = seconds;
	dog.seen = UINT64_MAX;   /* the first tick only records: an execution must span a whole interval */
	signal(SIGALRM, on_tick);
	struct itimerval every = { { (time_t)seconds, 0 }, { (time_t)seconds, 0 } };
	setitimer(ITIMER_REAL, &every, NULL);
}

void harness_watchdog_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
}
