/*
 * weft/run.h - running a target on bytes: what the fuzz glue, the replay tool,
 * tests and benchmarks call.  Target authors do not need this header.
 *
 * A weft_runner owns everything one target needs across executions: its pool of
 * managed threads, its buffers, the last execution's trace.  Two runners (two
 * targets) in one process share nothing.  A runner is used from one controlling
 * thread at a time.
 */
#ifndef WEFT_RUN_H
#define WEFT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "weft/export.h"
#include <stdio.h>

#include "weft/target.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum weft_verdict {
	WEFT_PASS = 0,
	WEFT_FAIL_VALIDATION,  /* the target's validate() rejected the execution */
	WEFT_FAIL_BUDGET,      /* step budget exhausted: a runaway (livelocked?) execution */
	WEFT_ERROR,            /* weft itself could not run (threads could not be created) */
	WEFT_FAIL_LINEARIZABILITY,  /* no order of the history's operations fits the model */
	WEFT_FAIL_NONDETERMINISM,   /* a failing input ran differently when re-run: the
				       target misbehaves (not a verdict on its data structure) */
	WEFT_FAIL_DEADLOCK,    /* no thread could run, and the blocked operations should not block */
	WEFT_FAIL_LIVELOCK,    /* a thread spins and no thread can ever change what it reads */
	WEFT_FAIL_OBSTRUCTION, /* an operation running alone did not finish (obstruction_free_steps) */
	WEFT_FAIL_ASSERTION,   /* a program's assert() or weft_fail() */
	WEFT_FAIL_MISUSE,      /* unlock of a lock not held, wait without the mutex, too many objects */
	WEFT_FAIL_DATA_RACE,   /* two conflicting plain accesses unordered by happens-before
				  (code built with weft's pass, WEFT_RACES=1: <weft/instrument.h>) */
} weft_verdict;

/* Summary of one execution; pointers stay valid until the next run. */
typedef struct weft_result {
	weft_verdict verdict;
	unsigned n_threads;
	unsigned n_ops;          /* operations in the scenario */
	unsigned preemptions;    /* switches away from a thread that could have gone on */
	unsigned switches;       /* all switches between managed threads */
	uint64_t steps;          /* switch points passed */
	uint64_t trace_hash;     /* hash of the whole step trace: equal runs, equal hash */
	const char *message;     /* one line; "" on pass */
	int check_unknown;       /* 1: the linearizability check gave up (cost cap); verdict PASS */
	uint64_t check_cost;     /* search steps the linearizability check took */
	unsigned weak_reads;     /* loads that read an older store than the newest (the
				    C11 memory model, WEFT_MEMORY=c11), or delayed
				    commits of buffered stores (tso, pso); up to 64 */
} weft_result;

/* Counters over a runner's life, for campaign summaries. */
typedef struct weft_runner_stats {
	uint64_t executions;
	uint64_t failures;
	uint64_t check_unknown;  /* executions whose linearizability check gave up */
	uint64_t operations;     /* operations run (a program: each thread's body) */
	uint64_t blind_operations;   /* of them, those that ran without a switch point
					(accesses weft cannot see: build with the pass) */
} weft_runner_stats;

typedef struct weft_runner weft_runner;

/* NULL when out of memory.  Threads are created later, on the first run. */
WEFT_API weft_runner *weft_runner_new(const weft_target *target);
WEFT_API void weft_runner_free(weft_runner *runner);
/*
 * "fiber" or "pthread": how the runner's managed threads are made, chosen at
 * creation: pthreads for a target that needs real threads (flagged
 * WEFT_TARGET_REAL_THREADS, or its executable defines a thread-local of its
 * own: fibers would share one copy), else $WEFT_BACKEND (pthread|fiber;
 * anything else exits 2), else fibers.  Never changes a verdict, trace or
 * report, only speed.
 */
WEFT_API const char *weft_runner_backend(const weft_runner *runner);
/* Why real threads were forced on the runner (a sentence), or NULL. */
WEFT_API const char *weft_runner_backend_why(const weft_runner *runner);
/*
 * "sc", "c11", "tso" or "pso": the memory model of the runner's atomics,
 * $WEFT_MEMORY at creation (unset: c11; anything else exits 2).  Under c11
 * weft_result.weak_reads counts loads that read an older store; under tso and
 * pso, accesses that came before another thread's buffered store committed.
 */
WEFT_API const char *weft_runner_memory(const weft_runner *runner);

/*
 * Decode `data` into a scenario and a schedule, execute it under the managed
 * scheduler, check it, and fill *out.  Deterministic: the same bytes give the
 * same result and trace.  Prints nothing.  Call from a thread that is not a
 * managed thread.  Cost: a few thread hand-offs per switch of thread.
 */
WEFT_API weft_verdict weft_runner_run(weft_runner *runner, const uint8_t *data, size_t size, weft_result *out);

/*
 * Confirm failures in a fresh process (default off; the glue turns it on).
 * A failure seen after earlier executions in this process (any runner's) is
 * run again in a new process of the same executable, /proc/self/exe FILE, on
 * the input written to a temporary file: state that earlier executions left
 * and weft does not reset (heap a global owns, a library's statics, open
 * files, the libc's state) must not decide a verdict (issue 30).  Fails the
 * same there: reported as it is.  Passes there: verdict `nondeterministic`,
 * the message "fails only after N earlier executions in this process: ...",
 * and the report shows the fresh run's report as well.  Fails differently or
 * dies there: reported as it is, with a note.  Only for an executable that
 * runs a file given as its only argument through weft_runner_run (NAME_fuzz
 * under libFuzzer, NAME_replay).  WEFT_FRESH_CHECK=0 turns it off where a
 * process cannot start one.  Cost: one process start per such failure.
 */
WEFT_API void weft_runner_set_fresh_check(weft_runner *runner, int on);

/* Print the report of the last execution (scenario, interleaving, verdict). */
WEFT_API void weft_runner_report(const weft_runner *runner, FILE *out);
/*
 * What the runner's current execution is doing, in one line for a person:
 * "thread 1 was running pop(), 12 switch points into that call, 40 in the
 * execution".  For watchdogs: may be called from a signal handler on the
 * thread that runs the execution (reads only; no lock, no allocation), and
 * then the figures are a snapshot.  Returns what snprintf returns.
 */
WEFT_API size_t weft_runner_describe_running(const weft_runner *runner, char *buf, size_t cap);

/*
 * For a SIGSEGV/SIGBUS handler, on the thread that faulted: the size of the
 * fiber stack the running managed thread just overflowed (the fault address
 * is in or just below its guard page), or 0 when the fault is anything else
 * (no managed thread, a pthread worker, another address).  Reads only; safe
 * in a signal handler.  Fiber stacks are 256 KiB (1 MiB under ASan); a target
 * that needs more runs on pthreads (WEFT_TARGET_REAL_THREADS, WEFT_BACKEND).
 */
WEFT_API size_t weft_fault_fiber_stack_overflow(const void *fault_address);

/*
 * Inside a sanitizer's death callback only (a memory error in a managed
 * thread): print the execution in progress up to the error, verdict `error`.
 * Does nothing outside an execution.  The harness glue installs it.
 */
WEFT_API void weft_runner_report_dying(weft_runner *runner, FILE *out);
/*
 * When ASan is linked in, print weft's report of the execution in progress
 * (weft_runner_report_dying) after each ASan error report, before the process
 * dies (ASan's error report callback; libFuzzer's death callback, which writes
 * the crash file, is left alone).  One runner per process; the last call
 * wins.  No effect without ASan.
 */
WEFT_API void weft_runner_report_on_death(weft_runner *runner);
/*
 * What becomes of a death's reproducer (weft_runner_on_death): called once per
 * process, on the thread that died, with the bytes of the execution in
 * progress (they replay it up to the death: the input itself, or the schedule
 * a mode was running, written so far; NULL when the mode running cannot
 * write them) and the signal that killed it (0: a sanitizer's error; SIGALRM:
 * a timeout, weft_runner_on_timeout).  It may end the process (write, then
 * _exit).
 */
typedef void (*weft_death_sink)(void *ctx, const uint8_t *bytes, size_t size, int signal);
/*
 * Whatever kills the process during an execution of `runner` (an ASan or UBSan
 * error, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT in the program, a fiber stack
 * overflow) prints weft's report of the execution so far (after the
 * sanitizer's) and hands its bytes to `sink` (may be NULL: the report only);
 * then the process dies as it would have.  Replaces the sanitizers' death
 * callback (libFuzzer's: call this after libFuzzer started, at the first input,
 * and let the sink do its duty: weft_crash_file_write).  Fatal signals are
 * chained to the previous handlers; under ASan, SIGSEGV, SIGBUS and SIGFPE are
 * left to ASan, which dies through the death callback.  Installs an alternate
 * signal stack on the calling thread if it has none.  One runner per process;
 * the last call wins.  Outside an execution nothing of weft's happens but, for
 * a sanitizer's death, one line saying there is no interleaving and no
 * reproducer.  A NULL runner forgets the last one (call it before
 * weft_runner_free if the process may die afterwards).
 */
WEFT_API void weft_runner_on_death(weft_runner *runner, weft_death_sink sink, void *ctx);
/*
 * An execution of `runner` still running `seconds` after it was first seen, or
 * after this call for the next one (a
 * loop without a switch point, which nothing of weft's can preempt) is a death
 * (weft_runner_on_death): weft's report of the execution so far ("a timeout"),
 * its bytes to the sink with signal SIGALRM, then the process ends (status 1
 * if the sink did not end it).  Checked at every SIGALRM the process receives
 * (libFuzzer's -timeout timer: every timeout/2 + 1 s), before the previous
 * SIGALRM handler, which is then called as before; so a hang is caught
 * `seconds` to `seconds` + one tick after it began.  Needed because
 * libFuzzer's -timeout ignores what runs outside LLVMFuzzerTestOneInput (the
 * structure-aware mutator's sampled runs).  0: off.  Wall-clock time decides
 * only whether this fires.  One runner per process; the last call wins.
 */
WEFT_API void weft_runner_on_timeout(weft_runner *runner, unsigned seconds);
/*
 * libFuzzer's artifact options, read from its command line
 * (-artifact_prefix=, -exact_artifact_path=, -error_exitcode=; the last of each
 * wins) for weft_crash_file_write.  Returns the error exit code (77 unless
 * given).  Writing is off when libFuzzer runs the files it was given (it
 * writes no artifact then) and under -help=1 / -merge=1.
 */
WEFT_API int weft_crash_file_options(int argc, char **argv);
/*
 * Write `bytes` as libFuzzer writes a crash: at -exact_artifact_path, else at
 * ARTIFACT_PREFIX "crash-" SHA1-of-the-bytes, and print libFuzzer's lines
 * ("artifact_prefix='P'; Test unit written to PATH", "Base64: ..." up to 256
 * bytes) on stderr.  For a death sink: open/write/close only, no allocation.
 * Returns 0, or -1 when writing is off or failed (then says why on stderr).
 */
WEFT_API int weft_crash_file_write(const uint8_t *bytes, size_t size);
/* The same with another kind of artifact: "timeout-" (libFuzzer's names: crash-,
 * timeout-, oom-, leak-), as ARTIFACT_PREFIX KIND SHA1. */
WEFT_API int weft_crash_file_write_as(const char *kind, const uint8_t *bytes, size_t size);
/* The same report as one JSON object (format: report/report_json.c). */
WEFT_API void weft_runner_report_json(const weft_runner *runner, FILE *out);
/*
 * The same report as one self-contained HTML page (inline style and script, no
 * network): the scenario, one lane per thread, the history on a time axis and
 * the oracle's explanation, linked (hover or click an operation).  Stable: the
 * same execution gives a byte-equal page.  Call between runs, from any thread
 * that is not a managed thread.  Cost: linear in the trace; the page is about
 * 12 KiB plus 80 bytes a step.  (Format: report/html_page.c.)
 */
WEFT_API void weft_runner_report_html(const weft_runner *runner, FILE *out);

WEFT_API weft_runner_stats weft_runner_stats_get(const weft_runner *runner);
/*
 * If some of the runner's operations so far ran without a switch point (no
 * interleaving can reach inside them), print one line saying so to `out`
 * after `prefix` and return 1; else print nothing and return 0.
 */
WEFT_API int weft_runner_warn_blind(const weft_runner *runner, FILE *out, const char *prefix);

/*
 * Statistics of what was run, QuickCheck-style: over many executions of one
 * target, the distribution of threads, operations per thread, operation kinds
 * and calls (with their arguments), preemptions per execution, verdicts, and
 * how many linearizability checks gave up (unknown).  So a user sees when the
 * inputs never make the scenario a bug needs.  `NAME_replay --stats` prints it.
 * weft_run_stats_new: NULL when out of memory.  weft_run_stats_add: count the
 * runner's last execution (call right after weft_runner_run, whose result is
 * `result`); constant time per operation, no allocation.  weft_run_stats_print:
 * the table (report/report_stats.c), stable: equal inputs, equal text.
 */
typedef struct weft_run_stats weft_run_stats;
WEFT_API weft_run_stats *weft_run_stats_new(const weft_target *target);
WEFT_API void weft_run_stats_add(weft_run_stats *stats, const weft_runner *runner,
				 const weft_result *result);
WEFT_API void weft_run_stats_print(const weft_run_stats *stats, FILE *out);
WEFT_API void weft_run_stats_free(weft_run_stats *stats);

/* How hard an execution is to read, in the order weft simplifies it. */
typedef struct weft_complexity {
	unsigned preemptions;    /* switches away from a thread that could have gone on */
	unsigned switches;       /* other switches: a thread finished */
	unsigned operations;
	unsigned threads;
	unsigned weak_reads;     /* compared first: loads that read an older store,
				    or under tso/pso delayed commits (dejafu's
				    commits); printed only when not 0 */
} weft_complexity;

WEFT_API weft_complexity weft_complexity_of(const weft_result *result);

/*
 * Simplify the failing input in buf[0..size) (room for `cap` bytes) to one
 * that fails with the same verdict and is as simple as this greedy search can
 * make it: fewest weak reads (issue 18), preemptions, then other switches, operations, threads, then
 * the shortest and lowest bytes (reduce/simplify.c).  Returns the new size;
 * a passing input, or one over 4 KiB, is left as it is.  *before and *after
 * (either may be NULL) get the complexity of the input and of the result.
 * Deterministic, and the result is a fixed point.  Cost: up to 20,000 runs.
 * The last run is the result's, so weft_runner_report prints it.
 */
WEFT_API size_t weft_runner_simplify(weft_runner *runner, uint8_t *buf, size_t size, size_t cap,
				     weft_complexity *before, weft_complexity *after);

/* The target a runner runs. */
WEFT_API const weft_target *weft_runner_target(const weft_runner *runner);

WEFT_API const char *weft_verdict_name(weft_verdict v);

/*
 * Interleaving feedback for the fuzzer (runner/feedback.h has the exact
 * definitions).  Off by default: a runner computes features only after
 * weft_runner_set_feedback asked for some kinds.  Ids are stable hashes of
 * source sites (basename, line, access kind) and operation kinds, never of
 * addresses: the same input gives the same ids in every process and build.
 *   PAIRS       each switch: (how, where the thread left off, where the next resumed)
 *   READS_FROM  each read of a value another thread wrote: (write site, read site)
 *   OUTCOME     one per execution: a hash of every operation's result
 *   VALUES      each read of a value another thread wrote: (read site, the value,
 *               exact below 128, else its bit length): how far a shared counter,
 *               stage or flag got, the "closer to failure" signal of ordering bugs;
 *               and each time-out of a timed wait (condition, semaphore): (wait
 *               site, how many in a row that thread had there), how far a retry
 *               loop got
 */
typedef enum weft_feedback_kind {
	WEFT_FEEDBACK_PAIRS = 1,
	WEFT_FEEDBACK_READS_FROM = 2,
	WEFT_FEEDBACK_OUTCOME = 4,
	WEFT_FEEDBACK_VALUES = 8,
	WEFT_FEEDBACK_ALL = 15,
} weft_feedback_kind;

typedef struct weft_feature {
	uint32_t id;             /* stable 32-bit hash; a fuzzer map takes id % its size */
	uint32_t count;          /* occurrences in the execution (outcome: 1) */
	weft_feedback_kind kind; /* one of PAIRS, READS_FROM, OUTCOME, VALUES */
} weft_feature;

/* Compute these kinds (an OR of weft_feedback_kind; 0 = none, the default) after
 * every later run.  Returns 0, or -1 when out of memory (feedback stays off). */
WEFT_API int weft_runner_set_feedback(weft_runner *runner, unsigned kinds);
/* The last run's features, sorted by kind then id, up to `cap` into out (may be
 * NULL when cap is 0); returns how many there are.  Each run computes them in
 * time linear in its trace, with no allocation; this only copies. */
WEFT_API size_t weft_runner_features(const weft_runner *runner, weft_feature *out, size_t cap);
/* Parse a WEFT_FEEDBACK value: "none", "all", or a comma-separated list of
 * "pairs", "rf" (or "reads-from"), "outcome", "values"; NULL or "" mean all.  Returns 0
 * and sets *kinds, or -1 (bad value; *kinds unchanged). */
WEFT_API int weft_feedback_parse(const char *spec, unsigned *kinds);

/*
 * `NAME_replay --systematic ...`: explore every scenario and interleaving of
 * `target` within the bounds the options give (harness/systematic_cli.c);
 * argv[skip] is "--systematic".  Returns the process exit status.
 */
WEFT_API int weft_systematic_main(int argc, char **argv, int skip, const weft_target *target);

/*
 * `NAME_replay --explore=STRATEGY ...`: search `target` for a failure with a
 * baseline strategy (random walk, PCT, uniform, random bytes, stress) until
 * the first failure or a cap (harness/explore_cli.c); argv[skip] is the
 * --explore flag.  Returns the process exit status.
 */
WEFT_API int weft_explore_main(int argc, char **argv, int skip, const weft_target *target);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_RUN_H */
