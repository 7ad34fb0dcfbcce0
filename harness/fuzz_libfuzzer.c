/*
 * harness/fuzz_libfuzzer.c - the libFuzzer (and AFL++ driver) entry point.
 *
 * One runner per process, made on the first input (not in LLVMFuzzerInitialize:
 * a fork server forks after initialisation and the child would have no
 * threads).  A failing execution prints its report and aborts, so the fuzzer
 * saves the input as a crash; passing executions print nothing.
 *
 * A failure after earlier executions in the process is confirmed in a fresh
 * one first (weft_runner_set_fresh_check; under libFuzzer, whose binary run
 * on a file runs that input): one that passes there aborts as
 * `nondeterministic`, so libFuzzer saves it and a campaign files it as such,
 * and its report says that the crash file passes when replayed alone.
 *
 * Before the abort, one "ASSERTION FAILED: weft: <verdict> in <target>: ..."
 * line, the form crash triage matches (ClusterFuzz's stack analyzer,
 * ASSERT_REGEX), so a crash is titled by its verdict and target rather than
 * "deadly signal"; and, when the environment variable WEFT_REPORT_JSON names
 * a file, the report as JSON in that file (overwritten) for tools.
 *
 * The same file is the AFL++ entry point (linked with libAFLDriver.a, persistent
 * mode) and any $LIB_FUZZING_ENGINE's (cmake/WeftFuzzEngine.cmake).
 *
 * Interleaving feedback (issue 7; the features are defined in runner/feedback.h):
 * after every execution the runner's features go to the fuzzer, each at
 * (id % WEFT_FEEDBACK_MAP) with its count.  libFuzzer: a counter array in the
 * __libfuzzer_extra_counters section, which libFuzzer clears before every input
 * (TracePC::ResetMaps) and reads after it; we also clear the counters we set for
 * the previous input, so nothing leaks between inputs under any driver.  AFL++
 * ignores that section, so under afl-clang-fast (__AFL_COMPILER) each feature is
 * a real code edge instead: feedback_edge() below switches on the index, one
 * instrumented case per value, called once per occurrence (up to 128: AFL++
 * buckets hit counts the way libFuzzer buckets counters).  libweft itself stays
 * uninstrumented; these are the only edges weft adds.  WEFT_FEEDBACK (read once,
 * weft_feedback_parse: none, all, or pairs,rf,outcome; default all) picks the kinds;
 * a bad value stops the binary with exit status 2.
 *
 * The structure-aware mutator (issue 17; weft/mutate.h, mutate/mutate.c):
 * LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver hand libFuzzer's input
 * and seed to weft_mutate / weft_crossover, with LLVMFuzzerMutate (weak: absent
 * under other drivers) as the engine's own mutation.  A mutant whose schedule
 * the mutator sampled already ran, judged, inside the mutator: the next
 * LLVMFuzzerTestOneInput takes that run (weft_mutator_take) instead of running
 * the same bytes again, unless it failed (then the bytes are replayed, so the
 * report and the crash file come from a real run); every execution's
 * features then reward the mutation that made it (weft_mutator_observe).  WEFT_MUTATOR (read once):
 * unset or "on" - the mutator; "off" - libFuzzer's byte mutations alone (the
 * pre-issue-17 search, for comparison); "verify" - the mutator, and every
 * sampled schedule is replayed from its bytes and compared (a mismatch count is
 * printed at exit); "only:ARM" - every mutation that may be that one arm is
 * (weft_mutator_only_arm: for measuring one mutation alone).  Anything else:
 * exit status 2.  Not under afl-clang-fast:
 * AFL++ runs custom mutators in afl-fuzz, not in the target.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weft/mutate.h"
#include "weft/run.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static weft_runner *runner;
static weft_runner *fuzz_runner(void);

/* ---- interleaving feedback ---- */

#define WEFT_FEEDBACK_MAP 4096      /* counters (libFuzzer) or edges (AFL++) */
#define WEFT_FEEDBACK_MAX 1024      /* features exported per execution */

/* The export is not coverage-instrumented: its loops run once per feature, and
 * their trip counts would reach libFuzzer as code-coverage features of their own,
 * so a broken export would still look like feedback (noinline: the caller is
 * instrumented, and coverage is added after inlining).  The features arrive through
 * the counters (or, under AFL++, feedback_edge's cases) only. */
#if defined(__clang__) && !defined(__AFL_COMPILER)
#define WEFT_NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define WEFT_NO_COVERAGE
#endif

static unsigned feedback_kinds;
static int feedback_ready;
static weft_feature features[WEFT_FEEDBACK_MAX];

/* WEFT_FEEDBACK, once: from LLVMFuzzerInitialize (an exit there is an ordinary
 * exit, not libFuzzer's "fuzz target exited"), or the first input for drivers
 * that do not call it. */
static void feedback_setup(void)
{
	if (feedback_ready)
		return;
	feedback_ready = 1;
	const char *spec = getenv("WEFT_FEEDBACK");
	if (weft_feedback_parse(spec, &feedback_kinds) != 0) {
		fprintf(stderr, "weft: WEFT_FEEDBACK=%s: expected none, all, or a comma-separated "
			"list of pairs, rf, outcome, values\n", spec);
		exit(2);
	}
}

/* ---- the structure-aware mutator ---- */

#if !defined(__AFL_COMPILER)
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
				 size_t size2, uint8_t *out, size_t max_out_size,
				 unsigned int seed);
#endif

enum { MUTATOR_ON, MUTATOR_OFF, MUTATOR_VERIFY };
static int mutator_mode = -1;
static const char *mutator_only;   /* WEFT_MUTATOR=only:NAME: that arm alone */
static weft_mutator *mutator;

static void mutator_setup(void)
{
	if (mutator_mode >= 0)
		return;
	const char *spec = getenv("WEFT_MUTATOR");
	if (!spec || !*spec || strcmp(spec, "on") == 0)
		mutator_mode = MUTATOR_ON;
	else if (strcmp(spec, "off") == 0)
		mutator_mode = MUTATOR_OFF;
	else if (strcmp(spec, "verify") == 0)
		mutator_mode = MUTATOR_VERIFY;
	else if (strncmp(spec, "only:", 5) == 0)
		mutator_mode = MUTATOR_ON, mutator_only = spec + 5;
	else {
		fprintf(stderr, "weft: WEFT_MUTATOR=%s: expected on, off, verify or only:ARM\n",
			spec);
		exit(2);
	}
}

/* At exit: what the mutator did, so a benchmark can count its executions. */
static void print_mutator_stats(void)
{
	weft_mutator_stats s = weft_mutator_stats_get(mutator);
	/* the mutator's own executions: a taken sample is the fuzzer's execution, and a
	 * failing one is counted by the fuzzer when it replays it */
	uint64_t own = s.runs - s.reused - s.replayed;
	fprintf(stderr, "==weft== mutator: %" PRIu64 " mutations, %" PRIu64 " executions inside "
		"the mutator, %" PRIu64 " schedules sampled, %" PRIu64 " switches lost, %" PRIu64
		" verified, %" PRIu64 " mismatches, %" PRIu64 " left to the engine, %" PRIu64
		" samples taken as the judged run, %" PRIu64 " races reversed, %" PRIu64 " inputs "
		"run again to measure them, %" PRIu64 " mutants run twice, %" PRIu64 " mutations "
		"from the frontier (it moved %" PRIu64 " times)\n", s.mutations, own,
		s.sampled, s.lost, s.verified, s.mismatches, s.engine, s.reused, s.flipped,
		s.measured, s.twice, s.focused, s.frontiers);
	fputs("==weft== mutator shares (permille; uniform pos walk pct fresh, uniform pos same, "
	      "prefix, edit-plan, edit-call, flip, splice):", stderr);
	for (unsigned a = 0; a < WEFT_MUTATOR_ARMS; a++)
		fprintf(stderr, " %u", s.arm_permille[a]);
	fputc('\n', stderr);
}

#if !defined(__AFL_COMPILER)
/* NULL when WEFT_MUTATOR=off. */
static weft_mutator *fuzz_mutator(void)
{
	mutator_setup();
	if (!mutator && mutator_mode != MUTATOR_OFF) {
		mutator = weft_mutator_new(fuzz_runner(), mutator_mode == MUTATOR_VERIFY);
		if (!mutator) {
			fputs("weft: out of memory creating the mutator\n", stderr);
			abort();
		}
		if (mutator_only && weft_mutator_only_arm(mutator, mutator_only) != 0) {
			fprintf(stderr, "weft: WEFT_MUTATOR=only:%s: no such mutation (weft/mutate.h "
				"names them: uniform-fresh ... flip splice)\n", mutator_only);
			exit(2);
		}
		atexit(print_mutator_stats);
	}
	return mutator;
}

static size_t engine_mutate(uint8_t *data, size_t size, size_t max_size)
{
	return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	weft_mutator *m = fuzz_mutator();
	if (!m)
		return engine_mutate(data, size, max_size);
	return weft_mutate(m, data, size, max_size, seed, engine_mutate);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
				 size_t size2, uint8_t *out, size_t max_out_size,
				 unsigned int seed)
{
	weft_mutator *m = fuzz_mutator();
	if (m)
		return weft_crossover(m, data1, size1, data2, size2, out, max_out_size, seed);
	/* libFuzzer's own crossover is not callable: half of each, as bytes */
	size_t n = size1 / 2 + size2 / 2;
	n = n < max_out_size ? n : max_out_size;
	size_t first = size1 / 2 < n ? size1 / 2 : n;
	memcpy(out, data1, first);
	memcpy(out + first, data2 + size2 / 2, n - first);
	return n;
}
#endif

/* -error_exitcode= (libFuzzer's status for a deadly signal): weft ends with it too */
static int error_exit_code = 77;
/* -timeout= and -timeout_exitcode= (libFuzzer's defaults): a hung execution ends so */
static unsigned timeout_seconds = 1200;
static int timeout_exit_code = 70;
static int print_final_stats;     /* -print_final_stats=1 */
static unsigned long long fuzz_inputs;   /* LLVMFuzzerTestOneInput calls: libFuzzer's runs */

/*
 * libFuzzer's start-up inputs (issue 33 item 4).  A campaign begins with the
 * empty input and, without a corpus, "\n": both decode to the simplest run
 * (min_threads threads, one operation each, no preemption), where hardly any
 * bug shows, so where a baseline needs one or two executions the fuzzer
 * needed three (bench/results.md).  What the bytes mean stays (the empty input
 * is the simplest run in every binary, docs/input-format.md); under libFuzzer,
 * when it fuzzes from its start-up, those two executions run a mutation of
 * them instead: a schedule sampled on a fresh scenario (the mutator's first
 * mutations are such samples, mutate.c allowed_arms), seeded from -seed.  If
 * it fails, its own bytes are the crash file (libFuzzer would write the empty
 * unit): written here, and the process ends with libFuzzer's status.  Not
 * when libFuzzer runs files, merges, minimizes or only runs a corpus (-runs=0:
 * OSS-Fuzz's seed-corpus check must not see a sample fail; its argument list says so),
 * nor with WEFT_MUTATOR=off, nor under other drivers (no LLVMFuzzerMutate).
 */
static int startup_allowed;         /* fuzzing from libFuzzer's start-up */
static unsigned startup_seed;       /* -seed=, or 0 */

static void startup_options(int argc, char **argv)
{
	int fuzzing = 1;
	for (int i = 1; i < argc && argv[i]; i++) {
		const char *a = argv[i];
		struct stat st;
		if (strncmp(a, "-seed=", 6) == 0)
			startup_seed = (unsigned)strtoul(a + 6, NULL, 10);
		else if (strncmp(a, "-merge=1", 8) == 0 || strncmp(a, "-minimize_crash=1", 17) == 0 ||
			 strncmp(a, "-minimize_crash_internal_step=1", 31) == 0 ||
			 strncmp(a, "-cleanse_crash=1", 16) == 0 || strncmp(a, "-set_cover_merge=1", 18) == 0)
			fuzzing = 0;
		else if (strcmp(a, "-runs=0") == 0)
			fuzzing = 0;   /* the corpus run alone (OSS-Fuzz's seed-corpus check) */
		else if (a[0] != '-' && stat(a, &st) == 0 && !S_ISDIR(st.st_mode))
			fuzzing = 0;   /* a file: libFuzzer runs the files it is given */
	}
	startup_allowed = fuzzing;
}

#if !defined(__AFL_COMPILER)
static uint8_t startup_bytes[4096]; /* the sample run for a start-up input */
static size_t startup_size;

/* The k-th call (1, 2) with libFuzzer's start-up input: the bytes to run instead. */
static int startup_substitute(const uint8_t *data, size_t size, const uint8_t **run, size_t *n)
{
	static int calls;
	int k = ++calls;
	if (!startup_allowed || !LLVMFuzzerMutate || k > 2 ||
	    !((k == 1 && size == 0) || (k == 2 && size == 1 && data[0] == '\n')))
		return 0;
	weft_mutator *m = fuzz_mutator();
	if (!m)
		return 0;   /* WEFT_MUTATOR=off */
	memcpy(startup_bytes, data, size);
	/* the sample runs inside libFuzzer's unit: weft's timeout, timed from now, comes
	   first (libFuzzer's would write the start-up input as the timeout file) */
	weft_runner_on_timeout(fuzz_runner(), timeout_seconds);
	startup_size = weft_mutate(m, startup_bytes, size, sizeof startup_bytes,
				   startup_seed * 2u + (unsigned)k, NULL);
	*run = startup_bytes;
	*n = startup_size;
	return 1;
}
#else
static int startup_substitute(const uint8_t *data, size_t size, const uint8_t **run, size_t *n)
{
	(void)data, (void)size, (void)run, (void)n;
	return 0;
}
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (argc && argv) {
		error_exit_code = weft_crash_file_options(*argc, *argv);
		for (int i = 1; i < *argc; i++) {
			const char *a = (*argv)[i];
			if (strcmp(a, "-print_final_stats=1") == 0)
				print_final_stats = 1;
			else if (strncmp(a, "-timeout=", 9) == 0)
				timeout_seconds = (unsigned)strtoul(a + 9, NULL, 10);
			else if (strncmp(a, "-timeout_exitcode=", 18) == 0)
				timeout_exit_code = atoi(a + 18);
		}
		startup_options(*argc, *argv);
	}
	feedback_setup();
	mutator_setup();
	return 0;
}

#if defined(__AFL_COMPILER)
/* One case per index, each a distinct block (the asm operand differs, so the
 * compiler can neither merge the cases nor turn a switch into a table).  64
 * functions of 64 cases, not one switch of 4096: AFL++'s pass takes minutes on
 * one function that size, a second on these. */
#define WEFT_EDGE1(n) case (n): __asm__ volatile("" : : "i"(n)); break;
#define WEFT_EDGE4(n) WEFT_EDGE1(n) WEFT_EDGE1((n) + 1) WEFT_EDGE1((n) + 2) WEFT_EDGE1((n) + 3)
#define WEFT_EDGE16(n) WEFT_EDGE4(n) WEFT_EDGE4((n) + 4) WEFT_EDGE4((n) + 8) WEFT_EDGE4((n) + 12)
#define WEFT_EDGE64(n) WEFT_EDGE16(n) WEFT_EDGE16((n) + 16) WEFT_EDGE16((n) + 32) \
	WEFT_EDGE16((n) + 48)
#define WEFT_EDGE_FN(k) __attribute__((noinline)) static void feedback_edge_##k(unsigned i) \
	{ switch (i) { WEFT_EDGE64(64 * (k)) default: break; } }
#define WEFT_EDGE_FN4(a, b, c, d) WEFT_EDGE_FN(a) WEFT_EDGE_FN(b) WEFT_EDGE_FN(c) WEFT_EDGE_FN(d)
WEFT_EDGE_FN4(0, 1, 2, 3) WEFT_EDGE_FN4(4, 5, 6, 7) WEFT_EDGE_FN4(8, 9, 10, 11)
WEFT_EDGE_FN4(12, 13, 14, 15) WEFT_EDGE_FN4(16, 17, 18, 19) WEFT_EDGE_FN4(20, 21, 22, 23)
WEFT_EDGE_FN4(24, 25, 26, 27) WEFT_EDGE_FN4(28, 29, 30, 31) WEFT_EDGE_FN4(32, 33, 34, 35)
WEFT_EDGE_FN4(36, 37, 38, 39) WEFT_EDGE_FN4(40, 41, 42, 43) WEFT_EDGE_FN4(44, 45, 46, 47)
WEFT_EDGE_FN4(48, 49, 50, 51) WEFT_EDGE_FN4(52, 53, 54, 55) WEFT_EDGE_FN4(56, 57, 58, 59)
WEFT_EDGE_FN4(60, 61, 62, 63)
#define WEFT_EDGE_REF4(a, b, c, d) feedback_edge_##a, feedback_edge_##b, feedback_edge_##c, \
	feedback_edge_##d
/* an indirect call: no extra edge per group, only the case's own */
static void (*const feedback_edge_group[64])(unsigned) = {
	WEFT_EDGE_REF4(0, 1, 2, 3), WEFT_EDGE_REF4(4, 5, 6, 7), WEFT_EDGE_REF4(8, 9, 10, 11),
	WEFT_EDGE_REF4(12, 13, 14, 15), WEFT_EDGE_REF4(16, 17, 18, 19),
	WEFT_EDGE_REF4(20, 21, 22, 23), WEFT_EDGE_REF4(24, 25, 26, 27),
	WEFT_EDGE_REF4(28, 29, 30, 31), WEFT_EDGE_REF4(32, 33, 34, 35),
	WEFT_EDGE_REF4(36, 37, 38, 39), WEFT_EDGE_REF4(40, 41, 42, 43),
	WEFT_EDGE_REF4(44, 45, 46, 47), WEFT_EDGE_REF4(48, 49, 50, 51),
	WEFT_EDGE_REF4(52, 53, 54, 55), WEFT_EDGE_REF4(56, 57, 58, 59),
	WEFT_EDGE_REF4(60, 61, 62, 63),
};
_Static_assert(64 * 64 == WEFT_FEEDBACK_MAP, "one case per map index");

static void feedback_edge(unsigned index)
{
	feedback_edge_group[index / 64 % 64](index);
}

static void export_feedback(weft_runner *r)
{
	if (!feedback_kinds)
		return;
	size_t n = weft_runner_features(r, features, WEFT_FEEDBACK_MAX);
	n = n < WEFT_FEEDBACK_MAX ? n : WEFT_FEEDBACK_MAX;
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = features[i].count < 128 ? features[i].count : 128; k > 0; k--)
			feedback_edge(features[i].id % WEFT_FEEDBACK_MAP);
}
#else
/* libFuzzer's extra counters: word-aligned (libFuzzer clears them word by word). */
__attribute__((section("__libfuzzer_extra_counters"), used, aligned(64)))
static uint8_t feedback_counters[WEFT_FEEDBACK_MAP];
static uint16_t feedback_set[WEFT_FEEDBACK_MAX];   /* indices set for the last input */
static size_t n_feedback_set;

WEFT_NO_COVERAGE static void export_feedback(weft_runner *r)
{
	if (!feedback_kinds)
		return;
	for (size_t i = 0; i < n_feedback_set; i++)
		feedback_counters[feedback_set[i]] = 0;
	size_t n = weft_runner_features(r, features, WEFT_FEEDBACK_MAX);
	n = n < WEFT_FEEDBACK_MAX ? n : WEFT_FEEDBACK_MAX;
	for (size_t i = 0; i < n; i++) {
		uint16_t at = (uint16_t)(features[i].id % WEFT_FEEDBACK_MAP);
		unsigned c = feedback_counters[at] + (features[i].count < 255 ? features[i].count : 255);
		feedback_counters[at] = (uint8_t)(c < 255 ? c : 255);
		feedback_set[i] = at;
	}
	n_feedback_set = n;
}
#endif

/* At exit: how many checks gave up, so a campaign never hides its unknowns. */
static void print_stats(void)
{
	weft_runner_stats s = weft_runner_stats_get(runner);
	if (s.check_unknown)
		fprintf(stderr, "==weft== %" PRIu64 " of %" PRIu64 " executions had an unknown "
			"linearizability verdict (checker cost cap reached)\n",
			s.check_unknown, s.executions);
}

/*
 * A death inside an execution (a sanitizer's error, a fatal signal: runner/death.c)
 * writes that execution's bytes as libFuzzer's crash file.  libFuzzer cannot:
 * inside the mutator its current unit is empty.  Under libFuzzer only (the AFL++
 * driver has no LLVMFuzzerMutate; afl-fuzz keeps the input it gave).  After a
 * signal, the process ends here with libFuzzer's status: its own handler would
 * write the empty unit next to ours.  After a sanitizer's error the sanitizer
 * exits as usual (ours replaced libFuzzer's death callback, so nothing else is
 * written).
 */
static void write_crash_file(void *ctx, const uint8_t *bytes, size_t size, int signal)
{
	(void)ctx;
	if (signal == SIGALRM)   /* libFuzzer's lines for a timeout, which tools match */
		fprintf(stderr, "ALARM: working on the last Unit for at least %u seconds\n"
			"       and the timeout value is %u (use -timeout=N to change)\n",
			timeout_seconds, timeout_seconds);
	fputs("==weft== the execution that died, as an input that replays it:\n", stderr);
	fflush(stderr);
	if (bytes)   /* always known here: the input, or the mutator's recorder */
		weft_crash_file_write_as(signal == SIGALRM ? "timeout-" : "crash-", bytes, size);
	if (signal == SIGALRM)
		fprintf(stderr, "==weft== ERROR: libFuzzer: timeout after %u seconds\n"
			"SUMMARY: libFuzzer: timeout\n", timeout_seconds);
	if (print_final_stats)   /* libFuzzer's final stats are its death callback's, replaced */
		fprintf(stderr, "stat::number_of_executed_units: %llu\n", fuzz_inputs);
	fflush(stderr);
	if (signal)
		_exit(signal == SIGALRM ? timeout_exit_code : error_exit_code);
}

static void install_death_sink(weft_runner *r)
{
#if !defined(__AFL_COMPILER)
	if (LLVMFuzzerMutate) {
		weft_runner_on_death(r, write_crash_file, NULL);
		weft_runner_on_timeout(r, timeout_seconds);   /* libFuzzer's ignores the mutator */
		return;
	}
#endif
	(void)write_crash_file;
	weft_runner_report_on_death(r);   /* ASan: weft's report after ASan's */
}

/* Under libFuzzer, whose binary run on a file runs that one input: the fresh process
 * that confirms a failure (weft_runner_set_fresh_check).  Not under AFL++: a child
 * would inherit the fork server's descriptors and shared memory. */
static void enable_fresh_check(weft_runner *r)
{
#if !defined(__AFL_COMPILER)
	if (LLVMFuzzerMutate)
		weft_runner_set_fresh_check(r, 1);
#else
	(void)r;
#endif
}

static weft_runner *fuzz_runner(void)
{
	if (!runner) {
		const char *problem = weft_target_problem(weft_fuzz_target());
		if (problem) {
			fprintf(stderr, "weft: target is malformed: %s\n", problem);
			exit(2);
		}
		runner = weft_runner_new(weft_fuzz_target());
		install_death_sink(runner);
		feedback_setup();
		if (!runner || weft_runner_set_feedback(runner, feedback_kinds) != 0) {
			fputs("weft: out of memory creating the runner\n", stderr);
			abort();
		}
		enable_fresh_check(runner);
		atexit(print_stats);
	}
	return runner;
}

/* Distinct, never inlined: crash deduplication by stack tells failure kinds apart. */
__attribute__((noinline)) static void weft_abort_linearizability(void) { abort(); }
__attribute__((noinline)) static void weft_abort_validation(void) { abort(); }
__attribute__((noinline)) static void weft_abort_step_budget(void) { abort(); }
__attribute__((noinline)) static void weft_abort_nondeterministic(void) { abort(); }
__attribute__((noinline)) static void weft_abort_deadlock(void) { abort(); }
__attribute__((noinline)) static void weft_abort_livelock(void) { abort(); }
__attribute__((noinline)) static void weft_abort_obstruction(void) { abort(); }
__attribute__((noinline)) static void weft_abort_assertion(void) { abort(); }
__attribute__((noinline)) static void weft_abort_misuse(void) { abort(); }
__attribute__((noinline)) static void weft_abort_data_race(void) { abort(); }
__attribute__((noinline)) static void weft_abort_error(void) { abort(); }

/* WEFT_REPORT_JSON=FILE: the failing execution's JSON report, FILE overwritten. */
static void write_json_report(const weft_runner *runner)
{
	const char *path = getenv("WEFT_REPORT_JSON");
	if (!path || !*path)
		return;
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "weft: cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	weft_runner_report_json(runner, f);
	if (fclose(f) != 0)
		fprintf(stderr, "weft: cannot write %s: %s\n", path, strerror(errno));
}

/* A start-up input's sample failed: its bytes are the crash file, and the
 * process ends before libFuzzer writes its current unit (the start-up input). */
static void die_as_startup(const uint8_t *bytes, size_t size)
{
	fputs("==weft== libFuzzer's start-up input ran as a sampled mutation of it; "
	      "the failing bytes:\n", stderr);
	fflush(stderr);
	weft_crash_file_write_as("crash-", bytes, size);
	if (print_final_stats)
		fprintf(stderr, "stat::number_of_executed_units: %llu\n", fuzz_inputs);
	fflush(stderr);
	_exit(error_exit_code);
}

/* `startup`: the bytes that ran instead of libFuzzer's start-up input, or NULL. */
static void die_with_report(weft_runner *runner, const weft_result *res, const uint8_t *startup,
			    size_t startup_n)
{
	weft_runner_report(runner, stderr);
	fprintf(stderr, "ASSERTION FAILED: weft: %s in %s: %s\n", weft_verdict_name(res->verdict),
		weft_fuzz_target()->name, res->message);
	if (mutator)
		print_mutator_stats();
	fflush(stderr);
	write_json_report(runner);
	if (startup)
		die_as_startup(startup, startup_n);
	switch (res->verdict) {
	case WEFT_FAIL_LINEARIZABILITY: weft_abort_linearizability(); break;
	case WEFT_FAIL_VALIDATION: weft_abort_validation(); break;
	case WEFT_FAIL_BUDGET: weft_abort_step_budget(); break;
	case WEFT_FAIL_NONDETERMINISM: weft_abort_nondeterministic(); break;
	case WEFT_FAIL_DEADLOCK: weft_abort_deadlock(); break;
	case WEFT_FAIL_LIVELOCK: weft_abort_livelock(); break;
	case WEFT_FAIL_OBSTRUCTION: weft_abort_obstruction(); break;
	case WEFT_FAIL_ASSERTION: weft_abort_assertion(); break;
	case WEFT_FAIL_MISUSE: weft_abort_misuse(); break;
	case WEFT_FAIL_DATA_RACE: weft_abort_data_race(); break;
	default: weft_abort_error(); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	weft_runner *runner = fuzz_runner();
	fuzz_inputs++;
	weft_result res;
	weft_verdict v;
	const uint8_t *startup = NULL;
	size_t startup_n = 0;
	if (startup_substitute(data, size, &startup, &startup_n))
		data = startup, size = startup_n;
	/* a mutant the mutator already ran judged is not run twice (weft/mutate.h) */
	if (mutator && weft_mutator_take(mutator, data, size, &res))
		v = res.verdict;
	else
		v = weft_runner_run(runner, data, size, &res);
	export_feedback(runner);
	static unsigned runs;   /* after the first few executions: operations weft cannot see */
	if (++runs == 16)
		weft_runner_warn_blind(runner, stderr, "==weft== warning: ");
	if (mutator)
		weft_mutator_observe(mutator);
	if (v != WEFT_PASS)
		die_with_report(runner, &res, startup, startup_n);
	return 0;
}
