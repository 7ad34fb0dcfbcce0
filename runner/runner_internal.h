/*
 * runner/runner_internal.h - the runner seen from weft's own tools (the
 * systematic explorer, benchmarks): run a scenario built in memory under any
 * strategy, without going through bytes.
 *
 * The fuzz glue and the replay tool use <weft/run.h> only; this header is for
 * code inside libweft that makes its own decisions (strategy.h) instead of
 * reading them from an input.
 */
#ifndef WEFT_RUNNER_RUNNER_INTERNAL_H
#define WEFT_RUNNER_RUNNER_INTERNAL_H

#include "weft/check.h"
#include "weft/run.h"
#include "../input/scenario.h"
#include "../scheduler/sched.h"

/*
 * Run scenario `s` (copied into the runner; its plan is not used unless
 * `strategy` reads it) under `strategy`, judge it and fill *out (may be NULL).
 * No re-run for determinism: a strategy with state could not repeat itself.
 * weft_runner_report prints the execution afterwards.
 */
weft_verdict runner_run_scenario(weft_runner *r, const input_scenario *s,
					 sched_strategy strategy, weft_result *out);
/*
 * runner_run_scenario without counting it in the stats: the mutator samples a
 * schedule judged (verdict, features) so that, when the fuzzer next runs the
 * bytes it wrote for that schedule, the harness can take this execution
 * instead of repeating it (weft_mutator_take); runner_adopt then counts it.
 */
weft_verdict runner_run_speculative(weft_runner *r, const input_scenario *s,
				    sched_strategy strategy, weft_result *out);
/* `data` are the bytes of the adopted run: with the fresh check on, the first
 * input of a runner becomes the drift probe's (probe_drift), adopted or not. */
void runner_adopt(weft_runner *r, const uint8_t *data, size_t size);
/*
 * Execute scenario `s` under `strategy` without judging it: no history, final
 * operation, oracle, features or stats (mutate/mutate.c runs schedules to
 * record them, and the fuzzer judges the recorded one).  Returns the trace
 * hash; *v (may be NULL) is WEFT_PASS, or WEFT_ERROR when weft could not run.
 */
uint64_t runner_run_unjudged(weft_runner *r, const input_scenario *s, sched_strategy strategy,
			     weft_verdict *v);
/* The target's bounds with defaults filled in (scenario.h). */
const input_bounds *runner_bounds(const weft_runner *r);
/* The last execution's scenario, results filled (valid until the next run). */
const input_scenario *runner_scenario(const weft_runner *r);
/* The last execution's events (valid until the next run). */
const sched_trace *runner_trace(const weft_runner *r);
/* Operations in trace `t` (*n_ops) and how many ran without a switch point (blind_ops.c). */
unsigned runner_count_blind(const sched_trace *t, unsigned *n_ops);
/*
 * The last execution's data choices (which store each load read, timed waits),
 * at most `cap`, into out; returns how many (input_scenario.data: the encoder
 * writes them back).
 */
unsigned runner_data_choices(const weft_runner *r, input_data *out, unsigned cap);
/*
 * Whether the executable's own code defines a thread-local (tls_probe.c): then
 * *name and *file (file may be "") name the first one.  Read once per process.
 */
bool runner_exe_thread_local(const char **name, const char **file);
/*
 * Make exit() on a managed thread end the running execution (SCHED_STOP_EXIT)
 * instead of the process (exit_guard.c).  Once per process; idempotent.
 */
void runner_exit_guard_install(void);
/*
 * The execution in progress, as bytes that replay it (death.c writes them
 * when the process dies in it).  weft_runner_run's input is its own; a mode
 * that runs a scenario under its own strategy (the mutator's recorder, the
 * systematic explorer, explore) names, before each run, a writer `fn` of the
 * bytes of the run so far (the schedule up to a death reproduces the death):
 * fn(self, out, cap) returns their size (at most cap), or RUNNER_NO_BYTES.
 * Each run forgets the writer when it ends.
 */
#define RUNNER_NO_BYTES ((size_t)-1)
typedef size_t (*runner_progress_fn)(void *self, uint8_t *out, size_t cap);
void runner_progress_set(weft_runner *r, runner_progress_fn fn, void *self);
/* The next run is these bytes' (a mode that runs bytes under its own plan reader). */
void runner_progress_input(weft_runner *r, const uint8_t *data, size_t size);
/*
 * A listener to the strategies a mode runs scenarios under: at each
 * runner_run_scenario whose run has no writer named, fn gets the scenario and
 * the strategy and returns the strategy to run, which must answer exactly as
 * `inner` does (harness/death_record.c: it writes the schedule down and names
 * itself the run's writer, so a death under --explore or --systematic leaves
 * bytes).  NULL: none.
 */
typedef sched_strategy (*runner_watch_fn)(void *self, weft_runner *r, const input_scenario *s,
					  sched_strategy inner);
void runner_watch_set(weft_runner *r, runner_watch_fn fn, void *self);
/* Whether `r` is inside an execution (setup to teardown). Signal-safe read. */
bool runner_in_execution(const weft_runner *r);
/*
 * The bytes of the execution in progress: the input itself, or written into
 * buf (cap bytes) by the mode's writer; NULL when not in an execution or not
 * known.  *size gets their size.
 */
const uint8_t *runner_progress(weft_runner *r, uint8_t *buf, size_t cap, size_t *size);
/* weft_runner_report_dying with the cause of death named in the message. */
void runner_report_dying(weft_runner *r, FILE *out, const char *cause);
/* How the runner's managed threads are made: chosen at creation (runner.c). */
sched_backend runner_backend(const weft_runner *r);
/*
 * Judge a history recorded outside the scheduler (stress.c: real parallel
 * threads): the oracle with the target's model (or the implementation,
 * impl_model.c), then the target's validate on `instance`.  The history is
 * copied into the runner; *message and *check (either may be NULL) point into
 * it until its next run or check.
 */
weft_verdict runner_check_history(weft_runner *r, void *instance, const weft_op_record *ops,
					  size_t n, const char **message,
					  const weft_check_result **check);

/* runner/call_values.c: some argument of `t` is made from its drawn integer (weft/value.h). */
int runner_makes_args(const weft_target *t);
/* A record's drawn arguments -> the values its run sees (unchanged without typed arguments). */
void runner_make_args(const weft_op *op, weft_op_record *rec);
/* One sequential-part call on the controlling thread, invoked at `at`, returning at `at` + 1. */
void runner_run_part_call(const weft_target *t, void *instance, int makes_args,
			  weft_op_record *call, uint32_t at);

#endif /* WEFT_RUNNER_RUNNER_INTERNAL_H */
