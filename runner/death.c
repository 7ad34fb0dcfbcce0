/*
 * runner/death.c - a death during an execution leaves weft's report and the
 * bytes that replay it (issue 29).
 *
 * Why here: whatever kills the process (a sanitizer's error, a fatal signal in
 * the program, a fiber stack overflow) kills it in the middle of an execution
 * that only the runner knows, and only the runner knows that execution as
 * bytes (runner_progress: the input itself, or the mode's writer, e.g. the
 * mutator's recorder for a schedule it is sampling).  The harness says what a
 * reproducer becomes (a sink: libFuzzer's crash file, explore's input file).
 *
 * Four hooks, each process-wide by nature (one runner per process gets them,
 * the last weft_runner_on_death wins):
 *   - ASan's error report callback: weft's report right after ASan's;
 *   - the sanitizers' death callback (ASan and UBSan call it before they exit):
 *     the reproducer.  There is one per process and libFuzzer sets its own in
 *     its Fuzzer constructor, which writes its *current unit* (empty while the
 *     mutator runs a mutant); installed later (the glue calls this at the first
 *     input), ours replaces it, so the sink does libFuzzer's duty;
 *   - fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), on an alternate
 *     stack, chained to the previous handler: the report and the reproducer,
 *     then the previous handler acts as if weft had not been there (unless the
 *     sink ended the process).  Under ASan (libweft built with it), SIGSEGV,
 *     SIGBUS and SIGFPE are ASan's (its defaults handle them, print the stack
 *     and die through the death callback), so weft does not take them first.
 *   - a timeout (weft_runner_on_timeout): at each SIGALRM, chained before the
 *     previous handler, an execution that has run the time limit is a death:
 *     the report and the reproducer (signal SIGALRM), then the process ends.
 *     libFuzzer's own -timeout acts only inside LLVMFuzzerTestOneInput
 *     (FuzzerLoop.cpp's AlarmCallback returns unless RunningUserCallback): an
 *     execution the mutator samples that hangs hung the fuzzer for good.
 * The first death of the process wins; outside an execution every hook does
 * nothing of its own but one line from the death callback (our callback took
 * libFuzzer's place, so its silence would hide that no reproducer exists).  Weak references: without a sanitizer runtime the
 * sanitizer hooks are absent, and only __sanitizer_ (common) and, under ASan,
 * __asan_ symbols are referenced, so OSS-Fuzz's check_mixed_sanitizers stays
 * happy (tests/ecosystem/oss_fuzz.sh).
 */
#include "weft/run.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define DEATH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEATH_ASAN 1
#endif
#endif
/*
 * Only when libweft itself is built with ASan (as the fiber annotations): a
 * call to an __asan_ function in another build is what OSS-Fuzz's
 * check_mixed_sanitizers rejects.
 */
#ifdef DEATH_ASAN
extern void __asan_set_error_report_callback(void (*callback)(const char *)) __attribute__((weak));
#endif
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

#define DEATH_MAX_BYTES 65536   /* a written reproducer (the fuzzer's inputs are far smaller) */
#define DEATH_ALT_STACK 65536

static weft_runner *dying;
static weft_death_sink sink;
static void *sink_ctx;
static volatile sig_atomic_t died, reported;
static uint8_t death_bytes[DEATH_MAX_BYTES];

static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define N_FATAL (sizeof fatal / sizeof fatal[0])
static struct sigaction previous[N_FATAL];
static bool handling[N_FATAL];

static void report_once(const char *cause)
{
	if (reported)
		return;
	reported = 1;
	runner_report_dying(dying, stderr, cause);
}

/* The sink gets the bytes of the execution in progress, once per process. */
static void leave_reproducer(int sig)
{
	if (died || !sink || !runner_in_execution(dying))
		return;
	died = 1;
	size_t n;
	const uint8_t *bytes = runner_progress(dying, death_bytes, sizeof death_bytes, &n);
	sink(sink_ctx, bytes, bytes ? n : 0, sig);   /* NULL: this mode's bytes are unknown */
}

static void on_asan_error(const char *asan_report)
{
	(void)asan_report;   /* already printed by ASan */
	runner_report_dying(dying, stderr, "the sanitizer's report above");
	reported = 1;
}

/*
 * A sanitizer's death between executions (in the glue, the fuzzer's own code,
 * a leak found at exit): no interleaving and no bytes of weft's to give, and
 * our callback replaced libFuzzer's, so say so rather than end in silence.
 */
static void say_outside(void)
{
	static const char line[] =
		"==weft== the process died outside an execution (between executions, in the "
		"harness or at exit): weft has no interleaving to report and wrote no input "
		"that replays it\n";
	ssize_t w = write(STDERR_FILENO, line, sizeof line - 1);
	(void)w;
}

static void on_sanitizer_death(void)
{
	if (!died && !runner_in_execution(dying)) {
		say_outside();
		return;
	}
	report_once("the sanitizer's report above");
	leave_reproducer(0);
}

static const char *signal_cause(int sig, const siginfo_t *info)
{
	if ((sig == SIGSEGV || sig == SIGBUS) && weft_fault_fiber_stack_overflow(info->si_addr))
		return "a managed thread overflowed its fiber stack: run it on pthreads "
		       "(WEFT_BACKEND=pthread) or use less stack";
	switch (sig) {
	case SIGSEGV: return "signal SIGSEGV, a segmentation fault";
	case SIGBUS: return "signal SIGBUS, a bus error";
	case SIGFPE: return "signal SIGFPE, an arithmetic error";
	case SIGILL: return "signal SIGILL, an illegal instruction";
	default: return "signal SIGABRT, abort()";
	}
}

/* The previous handler back, and the signal handed to it. */
static void pass_on(int sig, const siginfo_t *info)
{
	for (unsigned i = 0; i < N_FATAL; i++)
		if (fatal[i] == sig)
			sigaction(sig, &previous[i], NULL);
	if (info->si_code <= 0 || sig == SIGABRT)
		raise(sig);   /* sent (abort, kill): delivered when this handler returns */
	/* a fault: the instruction faults again on return, under the previous handler */
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (!died && runner_in_execution(dying)) {
		report_once(signal_cause(sig, info));
		leave_reproducer(sig);
	}
	pass_on(sig, info);
}

/* The fibers run on the installing thread: a stack overflow needs another stack. */
static void ensure_alt_stack(void)
{
	stack_t now;
	if (sigaltstack(NULL, &now) == 0 && !(now.ss_flags & SS_DISABLE))
		return;   /* the thread has one (ASan's, the replay tool's) */
	stack_t st = { .ss_sp = malloc(DEATH_ALT_STACK), .ss_size = DEATH_ALT_STACK };
	if (st.ss_sp)
		sigaltstack(&st, NULL);
}

static bool sanitizer_takes(int sig)
{
#ifdef DEATH_ASAN
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE;
#else
	(void)sig;
	return false;
#endif
}

static void install_signals(void)
{
	ensure_alt_stack();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < N_FATAL; i++)
		if (!handling[i] && !sanitizer_takes(fatal[i]))
			handling[i] = sigaction(fatal[i], &sa, &previous[i]) == 0;
}

/*
 * A timeout: an execution still running `timeout_seconds` after the first
 * SIGALRM tick that saw it (a loop without a switch point) dies here.  Ticks
 * are whoever's timer sends SIGALRM (libFuzzer's -timeout: every timeout/2 + 1
 * s); an execution is told from the next by the runner's execution count.
 */
static unsigned timeout_seconds;
static struct sigaction previous_alarm;
static struct {
	bool valid;
	uint64_t executions;
	time_t since;   /* CLOCK_MONOTONIC seconds at the first tick that saw it */
} tick;

static bool hung(void)
{
	struct timespec now;
	if (!timeout_seconds || died || !runner_in_execution(dying) ||
	    clock_gettime(CLOCK_MONOTONIC, &now) != 0) {
		tick.valid = false;
		return false;
	}
	uint64_t n = weft_runner_stats_get(dying).executions;
	if (!tick.valid || tick.executions != n) {
		tick.valid = true, tick.executions = n, tick.since = now.tv_sec;
		return false;
	}
	return now.tv_sec - tick.since >= (time_t)timeout_seconds;
}

static void on_alarm(int sig, siginfo_t *info, void *context)
{
	if (hung()) {
		report_once("a timeout: it ran longer than the time limit in a loop without a "
			    "switch point, which weft cannot preempt");
		leave_reproducer(SIGALRM);
		_exit(1);   /* the sink did not end the process: the execution would hang on */
	}
	if (previous_alarm.sa_flags & SA_SIGINFO)
		previous_alarm.sa_sigaction(sig, info, context);
	else if (previous_alarm.sa_handler != SIG_IGN && previous_alarm.sa_handler != SIG_DFL)
		previous_alarm.sa_handler(sig);
	else if (previous_alarm.sa_handler == SIG_DFL) {   /* the default: the process ends */
		sigaction(SIGALRM, &previous_alarm, NULL);
		raise(SIGALRM);
	}
}

void weft_runner_on_timeout(weft_runner *r, unsigned seconds)
{
	static bool installed;
	dying = r;
	timeout_seconds = seconds;
	/* the next execution is timed from now, not from the first tick that sees it:
	   libFuzzer times its unit from its start, and a start-up input's sample
	   (harness/fuzz_libfuzzer.c) must be caught here first, with its own bytes */
	struct timespec now;
	tick.valid = clock_gettime(CLOCK_MONOTONIC, &now) == 0;
	tick.executions = weft_runner_stats_get(r).executions;
	tick.since = now.tv_sec;
	if (installed || !seconds)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (sigaction(SIGALRM, NULL, &sa) != 0)
		return;
	sa.sa_sigaction = on_alarm;   /* the previous handler's mask and SA_RESTART kept */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | (sa.sa_flags & SA_RESTART);
	installed = sigaction(SIGALRM, &sa, &previous_alarm) == 0;
}

void weft_runner_report_on_death(weft_runner *r)
{
	dying = r;
#ifdef DEATH_ASAN
	if (__asan_set_error_report_callback)
		__asan_set_error_report_callback(on_asan_error);
#else
	(void)on_asan_error;
#endif
}

void weft_runner_on_death(weft_runner *r, weft_death_sink s, void *ctx)
{
	weft_runner_report_on_death(r);
	sink = s;
	sink_ctx = ctx;
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(on_sanitizer_death);
	install_signals();
}
