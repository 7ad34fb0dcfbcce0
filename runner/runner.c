/*
 * runner/runner.c - bytes -> choices -> scenario + schedule -> execution ->
 * history -> verdict, for one target.  The only file that knows all the steps.
 *
 * All per-input state lives in the weft_runner and is reset at the start of
 * every run: the choice cursor, the scenario, the trace, the instance, the
 * message.  Nothing survives from one input to the next except allocated
 * capacity and the parked worker threads.
 */
#include "weft/run.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft/check.h"
#include "../input/choice.h"
#include "divergence.h"
#include "feedback.h"
#include "fresh.h"
#include "impl_model.h"
#include "../input/scenario.h"
#include "runner_internal.h"
#include "../input/schedule_bytes.h"
#include "../oracle/value_arena.h"
#include "../report/report.h"
#include "../scheduler/sched.h"

#define RUNNER_MAX_WARNED 256   /* distinct races warned about; later ones are not printed */
#define RUNNER_DRIFT_EVERY 1000  /* executions between two runs of the first input */

struct weft_runner {
	const weft_target *target;
	input_bounds bounds;
	sched_pool pool;
	sched_exec exec;
	uint8_t accesses;              /* enum sched_accesses, from WEFT_ACCESSES */
	char backend_why[200];         /* why pthreads when fibers were the default, or "" */
	uint8_t races;                 /* WEFT_RACES: enum sched_races (scheduler/sched.h) */
	const void *warned[RUNNER_MAX_WARNED][2];   /* WEFT_RACES=warn: pairs of sites printed */
	unsigned n_warned;
	uint8_t memory;                /* WEFT_MEMORY: enum sched_memory (scheduler/memory.h) */
	input_choices choices;
	input_scenario scenario;
	input_plan_reader plan;
	void *instance;
	weft_op_record history[INPUT_MAX_CALLS + 2 * INPUT_MAX_PART_OPS + 1];   /* + parts, final */
	weft_op_record init_run[INPUT_MAX_PART_OPS];   /* the init part as run (args made, results) */
	size_t n_history;
	int has_final;                 /* history ends with the final operation */
	int makes_args;                /* some argument has a weft_value_type with make() */
	unsigned n_post_run;           /* post-part operations at the history's end (before final) */
	unsigned n_init_run;           /* init-part operations run (fewer: one blocked) */
	const char *part_blocked;      /* "init" or "post": a part's last call blocked, or NULL */
	uint32_t time_offset;          /* 2 x init-part operations: logical times before the trace's */
	weft_checker *checker;
	weft_check_result check;
	char message[1024];
	weft_result result;
	weft_runner_stats stats;
	runner_trace_copy first;       /* a failing execution's trace, for the re-run check */
	char *first_report;            /* its report, shown when the re-run passed (or NULL) */
	bool show_first;               /* this input's verdict is nondeterministic: show it */
	bool fresh_check;              /* weft_runner_set_fresh_check: confirm in a new process */
	char *fresh_report;            /* the fresh process's report, shown when it passed */
	bool show_fresh;
	uint8_t *probe_input;          /* the first input run with the fresh check on (probe_drift) */
	size_t probe_size;
	runner_trace_copy probe_trace; /* its first run's trace and verdict */
	weft_verdict probe_verdict;
	uint64_t next_probe;           /* stats.executions at which probe_drift runs next */
	bool drift_warned;
	runner_feedback *feedback;    /* NULL: no features computed (the default) */
	unsigned feedback_kinds;
	/* the execution in progress, as bytes that replay it (death.c): weft_runner_run's
	   input, or the writer a mode named (runner_progress_set); reset after each run */
	bool running;
	const uint8_t *progress_data;
	size_t progress_size;
	runner_progress_fn progress_fn;
	void *progress_self;
	runner_watch_fn watch;   /* runner_watch_set: hears a mode's strategies */
	void *watch_self;
};

static const weft_model *model_of(const weft_target *t)
{
	return t->model ? t->model : &runner_impl_model;
}

/*
 * The backend of a data-structure target unless WEFT_BACKEND says otherwise.
 * Decided by bench/bench_scheduler.c (bench/README.md, scheduler section): on
 * the 2-core machine a fixed counter runs 1.4 million executions per second on
 * fibers against 47,000 on pthreads (row c), because a hand-off costs 32 ns
 * against 2.8 us (row b, scheduler alone) and a fiber execution makes no
 * system call; a switch point that does not switch costs the same on both.
 */
#define RUNNER_DEFAULT_BACKEND SCHED_BACKEND_FIBER

/*
 * Which backend a new runner for `t` uses, in order: a target that needs real
 * threads always gets pthreads, whether it says so (WEFT_TARGET_REAL_THREADS;
 * weft_add_program's glue sets it for a program with thread-locals or thread
 * identity, harness/program_main.c) or its executable defines a thread-local
 * of its own (tls_probe.c: fibers would share one copy, issue 20); then
 * WEFT_BACKEND=pthread|fiber, read at every runner creation; then
 * RUNNER_DEFAULT_BACKEND, programs included.  A misspelt WEFT_BACKEND must not
 * silently test something else: it stops the process (exit 2) with a message.
 * `why` (200 bytes) gets the reason when real threads were forced, else "".
 */
static sched_backend choose_backend(const weft_target *t, char *why)
{
	const char *tls, *file;
	why[0] = '\0';
	if (t->flags & WEFT_TARGET_REAL_THREADS) {
		snprintf(why, 200, "the target needs real threads (WEFT_TARGET_REAL_THREADS)");
		return SCHED_BACKEND_PTHREAD;
	}
	if (runner_exe_thread_local(&tls, &file)) {
		snprintf(why, 200, "the target defines the thread-local '%s'%s%s%s: fibers would "
			 "share one copy", tls, *file ? " (" : "", file, *file ? ")" : "");
		return SCHED_BACKEND_PTHREAD;
	}
	const char *env = getenv("WEFT_BACKEND");
	if (env && *env) {
		if (strcmp(env, "pthread") == 0)
			return SCHED_BACKEND_PTHREAD;
		if (strcmp(env, "fiber") == 0)
			return SCHED_BACKEND_FIBER;
		fprintf(stderr, "weft: WEFT_BACKEND=%s is not a backend: use pthread or fiber\n", env);
		exit(2);
	}
	return RUNNER_DEFAULT_BACKEND;
}

/*
 * Which instrumented plain accesses are switch points (<weft/instrument.h>):
 * WEFT_ACCESSES=shared|all|atomics, read at every runner creation; unset or
 * empty = shared.  Like WEFT_BACKEND, a misspelt value stops the process.
 */
static uint8_t choose_accesses(void)
{
	static const char *const names[] = {
		[SCHED_ACCESSES_SHARED] = "shared", [SCHED_ACCESSES_ALL] = "all",
		[SCHED_ACCESSES_ATOMICS] = "atomics",
	};
	const char *env = getenv("WEFT_ACCESSES");
	if (!env || !*env)
		return SCHED_ACCESSES_SHARED;
	for (uint8_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(env, names[i]) == 0)
			return i;
	fprintf(stderr, "weft: WEFT_ACCESSES=%s is not an access mode: use shared, all or atomics\n",
		env);
	exit(2);
}

/*
 * The data-race check (scheduler/race.c) on instrumented accesses: WEFT_RACES=1
 * makes a race the verdict, WEFT_RACES=warn prints each distinct race once
 * (report/report_race.c) and judges the execution as if unchecked, 0 or unset
 * leaves it off, so that a race is found through its own symptom (an
 * assertion, ASan's report) unless asked; anything else stops the process
 * (exit 2).
 */
/*
 * The memory model of the atomics (scheduler/memory.h): WEFT_MEMORY=sc|c11|
 * tso|pso; unset or empty = the target's own (weft_target.memory), else c11, so that the fuzz binaries find the bugs of weak
 * memory orders by default (code that uses seq_cst only behaves as under sc:
 * its loads have one store to read, and no byte is consumed).  A misspelt
 * value stops the process (exit 2).
 */
static uint8_t choose_memory(const weft_target *target)
{
	const char *env = getenv("WEFT_MEMORY");
	if ((!env || !*env) && target->memory)
		env = target->memory;   /* checked by weft_target_problem */
	if (!env || !*env || strcmp(env, "c11") == 0)
		return SCHED_MEMORY_C11;
	if (strcmp(env, "sc") == 0)
		return SCHED_MEMORY_SC;
	if (strcmp(env, "tso") == 0)
		return SCHED_MEMORY_TSO;
	if (strcmp(env, "pso") == 0)
		return SCHED_MEMORY_PSO;
	fprintf(stderr, "weft: WEFT_MEMORY=%s is not a memory model: use sc, c11, tso or pso\n", env);
	exit(2);
}

static uint8_t choose_races(void)
{
	const char *env = getenv("WEFT_RACES");
	if (!env || !*env || strcmp(env, "0") == 0)
		return SCHED_RACES_OFF;
	if (strcmp(env, "1") == 0)
		return SCHED_RACES_FAIL;
	if (strcmp(env, "warn") == 0)
		return SCHED_RACES_WARN;
	fprintf(stderr, "weft: WEFT_RACES=%s: use 1 (data races are failures), warn (each race "
		"printed once) or 0\n", env);
	exit(2);
}

static bool same_pair(const void *const a[2], const struct weft_access_site *const b[2])
{
	return (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]);
}

/* WEFT_RACES=warn: print the execution's races whose pair of sites is new. */
static void warn_races(weft_runner *r)
{
	for (unsigned i = 0; i < r->exec.n_races; i++) {
		const sched_race_found *f = &r->exec.race[i];
		unsigned k = 0;   /* a pair in either order: one race */
		while (k < r->n_warned && !same_pair(r->warned[k], f->site))
			k++;
		if (k < r->n_warned || r->n_warned == RUNNER_MAX_WARNED)
			continue;
		r->warned[r->n_warned][0] = f->site[0];
		r->warned[r->n_warned++][1] = f->site[1];
		report_print_race_warning(stderr, r->target->name, f->message);
	}
}

weft_runner *weft_runner_new(const weft_target *target)
{
	if (weft_target_problem(target))
		return NULL;
	char why[200];
	sched_backend backend = choose_backend(target, why);
	runner_exit_guard_install();
	weft_runner *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	memcpy(r->backend_why, why, sizeof why);
	r->checker = weft_checker_new(model_of(target));
	if (!r->checker) {
		free(r);
		return NULL;
	}
	r->target = target;
	r->accesses = choose_accesses();
	r->races = choose_races();
	r->memory = choose_memory(target);
	r->bounds = input_bounds_of(target);
	r->makes_args = runner_makes_args(target);
	sched_pool_init(&r->pool, backend);
	sched_exec_init(&r->exec, &r->pool);
	return r;
}

void weft_runner_free(weft_runner *r)
{
	if (!r)
		return;
	sched_pool_destroy(&r->pool);
	sched_exec_destroy(&r->exec);
	weft_checker_free(r->checker);
	free(r->first.events);
	free(r->first_report);
	free(r->fresh_report);
	free(r->probe_input);
	free(r->probe_trace.events);
	runner_feedback_free(r->feedback);
	free(r);
}

const char *weft_runner_backend(const weft_runner *r)
{
	return r->pool.backend == SCHED_BACKEND_FIBER ? "fiber" : "pthread";
}

const char *weft_runner_memory(const weft_runner *r)
{
	static const char *const names[] = { "sc", "c11", "tso", "pso" };
	_Static_assert(SCHED_MEMORY_PSO == 3, "one name per model");
	return names[r->memory];
}

const char *weft_runner_backend_why(const weft_runner *r)
{
	return r->backend_why[0] ? r->backend_why : NULL;
}

sched_backend runner_backend(const weft_runner *r)
{
	return r->pool.backend;
}

_Static_assert(WEFT_MAX_PROGRAM_THREADS <= SCHED_MAX_THREADS, "program threads are managed threads");

static int is_program(const weft_target *t)
{
	return (t->flags & WEFT_TARGET_PROGRAM) != 0;
}

/* Managed thread `thread` runs its operations in order. */
static void run_thread_calls(void *ctx, unsigned thread)
{
	weft_runner *r = ctx;
	const weft_target *t = r->target;
	input_scenario *s = &r->scenario;
	if (r->part_blocked)   /* the init part never finished: nothing parallel starts */
		return;
	if (is_program(t) && thread > 0) {
		/* a thread the program spawned: its schedule is the scenario's thread `thread` */
		sched_call_begin(thread < s->n_threads ? s->first_call[thread] : INPUT_NO_CALL);
		sched_run_start_routine();
		return;
	}
	for (unsigned i = s->first_call[thread]; i < s->first_call[thread + 1]; i++) {
		weft_op_record *call = &s->calls[i];
		const weft_op *op = &t->ops[call->op];
		int64_t made[WEFT_MAX_ARGS];
		const int64_t *args = r->makes_args ? oracle_value_args(op, call->args, made)
						    : call->args;
		sched_op_begin(i);
		int64_t result = op->run(r->instance, args);
		sched_op_end(i, result);
	}
}

/*
 * The init part (input/scenario.h), before the managed threads start: its operations take the
 * logical times 0 .. 2n-1, and the execution's are shifted after them, so the
 * oracle sees the init part before everything parallel.
 */
/*
 * A part's calls run on the controlling thread, alone: a call that would block
 * (a lock held, an empty semaphore, an untimed condition wait) could never be
 * woken and would hang the process in a real wait.  As for the implementation
 * run as a model (impl_model.c), sched_replay_jump turns such a block into a
 * jump back here (scheduler/sync.c): the call returns WEFT_BLOCKED, the part
 * ends with it and judge_blocked_part decides.  Returns the calls that ran
 * (the blocked one included), `blocked` set when one blocked.
 */
/* noinline: gcc's -Wclobbered would see run_part_calls's n across the setjmp */
static __attribute__((noinline)) unsigned run_part_calls_guarded(weft_runner *r,
								  weft_op_record *calls,
								  unsigned n, uint32_t at,
								  bool *blocked)
{
	jmp_buf jump;
	volatile unsigned i = 0;
	if (setjmp(jump) != 0) {   /* calls[i] blocked */
		sched_replay_jump = NULL;
		calls[i].result = WEFT_BLOCKED;
		calls[i].returned_at = calls[i].invoked_at + 1;
		calls[i].pending = 0;
		*blocked = true;
		return i + 1;
	}
	sched_replay_jump = &jump;
	for (; i < n; i++)
		runner_run_part_call(r->target, r->instance, r->makes_args, &calls[i], at + 2 * i);
	sched_replay_jump = NULL;
	return n;
}

static unsigned run_part_calls(weft_runner *r, weft_op_record *calls, unsigned n, uint32_t at,
			       bool *blocked)
{
	*blocked = false;
	/* most scenarios have no parts: no setjmp twice an execution */
	return n ? run_part_calls_guarded(r, calls, n, at, blocked) : 0;
}

static void run_init_part(weft_runner *r)
{
	bool blocked;
	r->time_offset = 0;
	r->part_blocked = NULL;
	memcpy(r->init_run, r->scenario.init, r->scenario.n_init * sizeof *r->init_run);
	r->n_init_run = run_part_calls(r, r->init_run, r->scenario.n_init, 0, &blocked);
	if (blocked)
		r->part_blocked = "init";
	r->time_offset = 2 * r->n_init_run;
}

/* The post part, after every managed thread returned (not when cut short). */
static void run_post_part(weft_runner *r)
{
	bool blocked;
	r->n_post_run = 0;
	if (r->exec.cut || r->part_blocked)   /* after a blocked init call, nothing runs */
		return;
	uint32_t at = (uint32_t)r->exec.trace.n + r->time_offset;
	weft_op_record *calls = &r->history[r->n_history];
	memcpy(calls, r->scenario.post, r->scenario.n_post * sizeof *calls);
	r->n_post_run = run_part_calls(r, calls, r->scenario.n_post, at, &blocked);
	r->n_history += r->n_post_run;
	if (blocked)
		r->part_blocked = "post";
}

/*
 * The history: the init part, then every call that began, in order of
 * invocation, from the trace (times shifted after the init part's); its
 * arguments as values (the scenario keeps the drawn integers: encodable).
 * One pass: a call enters the history at its begin and its entry is completed
 * at its end (each call begins once: run_thread_calls), as the scenario's
 * call is.
 */
static void build_history(weft_runner *r)
{
	const sched_trace *tr = &r->exec.trace;
	uint32_t at[INPUT_MAX_CALLS];   /* a begun call's entry in the history */
	for (unsigned c = 0; c < r->scenario.n_calls && c < INPUT_MAX_CALLS; c++)
		at[c] = UINT32_MAX;
	r->n_history = 0;
	for (unsigned i = 0; i < r->n_init_run; i++)
		r->history[r->n_history++] = r->init_run[i];
	for (size_t i = 0; i < tr->n; i++) {
		const sched_event *e = &tr->events[i];
		if (e->kind != SCHED_EV_OP_BEGIN && e->kind != SCHED_EV_OP_END)
			continue;
		weft_op_record *call = &r->scenario.calls[e->site_id];
		if (e->kind == SCHED_EV_OP_BEGIN) {
			call->invoked_at = (uint32_t)i + r->time_offset;
			at[e->site_id] = (uint32_t)r->n_history;
			weft_op_record *rec = &r->history[r->n_history++];
			*rec = *call;
			if (r->makes_args)
				runner_make_args(&r->target->ops[rec->op], rec);
			continue;
		}
		call->returned_at = (uint32_t)i + r->time_offset;
		call->result = (int64_t)e->value;
		call->pending = 0;
		if (at[e->site_id] != UINT32_MAX) {
			weft_op_record *rec = &r->history[at[e->site_id]];
			rec->returned_at = call->returned_at;
			rec->result = call->result;
			rec->pending = 0;
		}
	}
}

/*
 * The final operation (weft_target.final_op) runs on this, the controlling
 * thread, after every managed thread returned: its atomics are plain ones.
 * Logically it is invoked after the last event and returns just after.
 */
static void run_final_op(weft_runner *r)
{
	const weft_target *t = r->target;
	r->has_final = 0;
	if (!t->final_op || r->exec.cut || r->part_blocked)   /* blocked: left mid-call */
		return;
	weft_op_record *call = &r->history[r->n_history++];
	memset(call, 0, sizeof *call);
	call->thread = r->scenario.n_threads;
	call->op = (unsigned)(t->final_op - t->ops);
	for (int a = 0; a < t->final_op->n_args; a++)
		call->args[a] = t->final_op->args[a].min;
	if (r->makes_args)
		runner_make_args(t->final_op, call);
	call->invoked_at = (uint32_t)r->exec.trace.n + r->time_offset + 2 * r->n_post_run;
	call->result = t->final_op->run(r->instance, call->args);
	call->returned_at = call->invoked_at + 1;
	r->has_final = 1;
}

/* One line: the operation the search could not place, seen vs. modelled result. */
static void describe_violation(weft_runner *r)
{
	const weft_op_record *stuck = &r->history[r->check.stuck];
	const weft_value_type *type = r->target->ops[stuck->op].result_type;
	char seen[96], model[96];
	weft_value_format(type, stuck->result, seen, sizeof seen);
	weft_value_format(type, r->check.stuck_model_result, model, sizeof model);
	snprintf(r->message, sizeof r->message,
		 "%s() on thread %u %s %s, the model gives %s "
		 "after the longest linearizable prefix (%zu of %zu operations)",
		 r->target->ops[stuck->op].name, stuck->thread,
		 stuck->result == WEFT_BLOCKED ? "stays" : "returned", seen, model,
		 r->check.n_longest, r->n_history);
}

/* The oracle: 1 when no linearization explains the history. */
static int not_linearizable(weft_runner *r)
{
	weft_history h = { r->history, r->n_history };
	if (!r->target->model)
		runner_impl_model_bind(r->target);
	weft_check_verdict v = weft_check(r->checker, &h, NULL, &r->check);
	runner_impl_model_unbind();
	r->result.check_cost = r->check.cost;
	r->result.check_unknown = v == WEFT_CHECK_UNKNOWN;
	if (v != WEFT_CHECK_NOT_LINEARIZABLE)
		return 0;
	describe_violation(r);
	return 1;
}

/* The operation thread `t` was in, or NULL (a spawned thread's body). */
static const char *op_name_of_thread(const weft_runner *r, unsigned t)
{
	const sched_thread *th = r->exec.pool->threads[t];
	if ((is_program(r->target) && t > 0) || th->call >= r->scenario.n_calls)
		return NULL;
	return r->target->ops[r->scenario.calls[th->call].op].name;
}

/*
 * No thread could run.  Each blocked operation joins the history as having
 * returned WEFT_BLOCKED after everything else: the model must agree that it
 * would block in the final state (a take() on an empty queue), otherwise it is
 * a deadlock or a lost wake-up.  A program has no model: always a deadlock.
 */
static weft_verdict judge_stall(weft_runner *r)
{
	const char *names[SCHED_MAX_THREADS];
	for (unsigned t = 0; t < r->exec.n_started; t++)
		names[t] = op_name_of_thread(r, t);
	char stall[400];
	report_describe_stall(stall, sizeof stall, &r->exec, names);
	if (!is_program(r->target)) {
		uint32_t at = (uint32_t)r->exec.trace.n + r->time_offset;
		uint32_t invoked[sizeof r->history / sizeof r->history[0]];
		for (size_t i = 0; i < r->n_history; i++) {
			weft_op_record *op = &r->history[i];
			invoked[i] = op->invoked_at;
			if (!op->pending)
				continue;
			op->pending = 0;
			op->result = WEFT_BLOCKED;
			op->invoked_at = at;   /* blocked in the final state, after everything */
			op->returned_at = at + 1;
		}
		int failed = not_linearizable(r);
		for (size_t i = 0; i < r->n_history; i++)   /* reports draw the real interval */
			r->history[i].invoked_at = invoked[i];
		if (!failed)
			return WEFT_PASS;
		char why[sizeof r->message];
		memcpy(why, r->message, sizeof why);
		size_t n = (size_t)snprintf(r->message, sizeof r->message,
					    "%s; the model says otherwise: ", stall);
		if (n < sizeof r->message)
			memcpy(r->message + n, why, strnlen(why, sizeof r->message - n - 1) + 1);
		r->message[sizeof r->message - 1] = 0;
		return WEFT_FAIL_DEADLOCK;
	}
	snprintf(r->message, sizeof r->message, "%s", stall);
	return WEFT_FAIL_DEADLOCK;
}

/*
 * An execution that called exit(), _exit(), _Exit() or quick_exit()
 * (program_env.c, exit_guard.c; stop_message names the call and its status).  A program
 * is judged as its process would be: exit(0) is success.  An operation of a
 * data-structure target must return, so any exit() is a failure.
 */
static weft_verdict judge_exit(weft_runner *r, const char *op)
{
	const sched_exec *x = &r->exec;
	if (is_program(r->target)) {
		if (x->exit_status == 0)
			return WEFT_PASS;
		snprintf(r->message, sizeof r->message, "thread %u called %s",
			 x->stop_thread, x->stop_message);
		return WEFT_FAIL_VALIDATION;
	}
	snprintf(r->message, sizeof r->message,
		 "thread %u called %s%s%s%s: an operation must return, not end the process",
		 x->stop_thread, x->stop_message, op ? " in " : "", op ? op : "", op ? "()" : "");
	return WEFT_FAIL_VALIDATION;
}

static weft_verdict judge_stop(weft_runner *r)
{
	const sched_exec *x = &r->exec;
	const char *op = op_name_of_thread(r, x->stop_thread);
	switch (x->stop) {
	case SCHED_STOP_STALL:
		return judge_stall(r);
	case SCHED_STOP_LIVELOCK:
		snprintf(r->message, sizeof r->message,
			 "thread %u spins forever%s%s%s: %" PRIu64 " switch points without a change to "
			 "shared memory, and no other thread can run", x->stop_thread,
			 op ? " in " : "", op ? op : "", op ? "()" : "", x->cfg.livelock_limit);
		return WEFT_FAIL_LIVELOCK;
	case SCHED_STOP_OBSTRUCTION:
		snprintf(r->message, sizeof r->message,
			 "%s%s on thread %u ran %" PRIu64 " switch points alone without finishing "
			 "(the target claims obstruction-freedom)", op ? op : "its body",
			 op ? "()" : "", x->stop_thread, x->cfg.solo_limit);
		return WEFT_FAIL_OBSTRUCTION;
	case SCHED_STOP_ASSERTION:
		snprintf(r->message, sizeof r->message, "thread %u: %s", x->stop_thread, x->stop_message);
		return WEFT_FAIL_ASSERTION;
	case SCHED_STOP_ERROR:
		snprintf(r->message, sizeof r->message, "%s", x->stop_message);
		return WEFT_FAIL_MISUSE;
	case SCHED_STOP_EXIT:
		return judge_exit(r, op);
	case SCHED_STOP_RACE:
		snprintf(r->message, sizeof r->message, "data race: %s", x->stop_message);
		return WEFT_FAIL_DATA_RACE;
	default:
		snprintf(r->message, sizeof r->message,
			 "execution exceeded the step budget of %u switch points",
			 r->bounds.step_budget);
		return WEFT_FAIL_BUDGET;
	}
}

/* A program's verdict: how it stopped, then its return value. */
static weft_verdict judge_program(weft_runner *r)
{
	if (r->n_history == 0 || r->history[0].pending || r->history[0].result == 0)
		return WEFT_PASS;
	snprintf(r->message, sizeof r->message, "the program returned %" PRId64,
		 r->history[0].result);
	return WEFT_FAIL_VALIDATION;
}

/*
 * A part's call blocked (run_part_calls): it ran alone, so nothing could wake
 * it.  As a stall's blocked operations (judge_stall), it is in the history as
 * returning WEFT_BLOCKED, last: a pass if the model agrees it blocks there (a
 * take() on an empty queue), else a deadlock that says so.
 */
static weft_verdict judge_blocked_part(weft_runner *r)
{
	const weft_op_record *op = r->part_blocked[0] == 'i' ? &r->history[r->n_init_run - 1]
							     : &r->history[r->n_history - 1];
	if (!not_linearizable(r))
		return WEFT_PASS;
	char why[sizeof r->message];
	memcpy(why, r->message, sizeof why);
	size_t n = (size_t)snprintf(r->message, sizeof r->message,
				    "%s() in the %s part blocked: a part runs alone on the "
				    "controlling thread, so nothing could wake it; the model says "
				    "otherwise: ", r->target->ops[op->op].name, r->part_blocked);
	if (n < sizeof r->message)
		memcpy(r->message + n, why, strnlen(why, sizeof r->message - n - 1) + 1);
	r->message[sizeof r->message - 1] = 0;
	return WEFT_FAIL_DEADLOCK;
}

static weft_verdict judge(weft_runner *r)
{
	if (r->part_blocked)
		return judge_blocked_part(r);
	if (r->exec.cut)
		return judge_stop(r);
	if (is_program(r->target))
		return judge_program(r);
	if (not_linearizable(r))
		return WEFT_FAIL_LINEARIZABILITY;
	if (!r->target->validate)
		return WEFT_PASS;
	weft_history h = { r->history, r->n_history };
	if (r->target->validate(r->instance, &h, r->message, sizeof r->message) == 0)
		return WEFT_PASS;
	return WEFT_FAIL_VALIDATION;
}

static void count(weft_runner *r, weft_verdict v)
{
	r->stats.executions++;
	r->stats.failures += v != WEFT_PASS;
	r->stats.check_unknown += (uint64_t)r->result.check_unknown;
	unsigned ops;
	r->stats.blind_operations += runner_count_blind(&r->exec.trace, &ops);
	r->stats.operations += ops;
}

static void fill_result(weft_runner *r, weft_verdict v)
{
	weft_result *res = &r->result;
	res->verdict = v;
	res->n_threads = is_program(r->target) ? r->exec.n_started : r->scenario.n_threads;
	res->n_ops = r->scenario.n_calls;
	res->preemptions = r->exec.preemptions;
	res->switches = r->exec.switches;
	const sched_weak_read *weak;
	res->weak_reads = (unsigned)sched_mem_weak_reads(&r->exec, &weak);
	res->steps = r->exec.steps;
	res->trace_hash = sched_trace_hash(&r->exec.trace);
	res->message = r->message;
	if (r->feedback) {   /* interleaving feedback, only when asked for (feedback.h) */
		runner_feedback_input in = { r->exec.trace.events, r->exec.trace.n,
			r->scenario.calls, r->scenario.n_calls, r->history, r->n_history };
		runner_feedback_compute(r->feedback, r->feedback_kinds, &in);
	}
}

int weft_runner_set_feedback(weft_runner *r, unsigned kinds)
{
	kinds &= WEFT_FEEDBACK_ALL;
	if (kinds && !r->feedback && !(r->feedback = runner_feedback_new()))
		return -1;
	if (!kinds) {
		runner_feedback_free(r->feedback);
		r->feedback = NULL;
	}
	r->feedback_kinds = kinds;
	return 0;
}

size_t weft_runner_features(const weft_runner *r, weft_feature *out, size_t cap)
{
	return r->feedback ? runner_feedback_get(r->feedback, out, cap) : 0;
}

/* Executions in this process, every runner's: a verdict must not depend on them (fresh.h). */
static uint64_t process_executions;

/*
 * Execute r->scenario under `strategy` and, when `judged`, judge it; fills the
 * per-input state.  Unjudged (runner_run_unjudged): no history, final
 * operation or oracle, the verdict is WEFT_PASS unless weft could not run.
 */
static weft_verdict execute_scenario(weft_runner *r, sched_strategy strategy, int judged)
{
	r->message[0] = 0;
	oracle_value_reset();   /* this execution's values (weft/value.h) */
	r->show_first = false;
	r->show_fresh = false;
	process_executions++;
	r->n_history = 0;
	r->has_final = 0;
	r->result.check_unknown = 0;
	r->result.check_cost = 0;
	r->check.verdict = WEFT_CHECK_LINEARIZABLE;
	const weft_target *t = r->target;
	sched_exec_config cfg = {
		.n_threads = is_program(t) ? 1 : r->scenario.n_threads,
		.max_threads = is_program(t) ? WEFT_MAX_PROGRAM_THREADS : 0,
		.step_budget = r->bounds.step_budget,
		/* an obstruction-free claim is checked before a spinner would be descheduled */
		.spin_limit = t->obstruction_free_steps > t->spin_limit ? t->obstruction_free_steps
									 : t->spin_limit,
		.livelock_limit = t->livelock_limit,
		.solo_limit = t->obstruction_free_steps,
		.spurious_wakeups = t->spurious_wakeups != 0,
		.accesses = r->accesses,
		.races = r->races,
		.memory = r->memory,
		.strategy = strategy,
		.body = run_thread_calls,
		.body_ctx = r,
	};
	r->running = true;   /* from setup to teardown: a death anywhere in it is this input's */
	r->instance = r->target->setup ? r->target->setup() : NULL;
	r->n_post_run = 0;
	run_init_part(r);
	weft_verdict v;
	int started = sched_exec_run(&r->exec, &cfg);
	if (started == 0 && r->races == SCHED_RACES_WARN)
		warn_races(r);
	if (started != 0) {
		snprintf(r->message, sizeof r->message, "could not start %u managed threads",
			 cfg.n_threads);
		sched_trace_reset(&r->exec.trace);
		v = WEFT_ERROR;
	} else if (judged) {
		build_history(r);
		run_post_part(r);
		run_final_op(r);
		v = judge(r);
	} else {
		v = WEFT_PASS;
	}
	if (r->target->teardown)
		r->target->teardown(r->instance);
	r->instance = NULL;
	r->running = false;
	runner_progress_set(r, NULL, NULL);   /* a mode names its writer again before a run */
	return v;
}

/* Decode, execute and judge the input once. */
static weft_verdict execute_once(weft_runner *r, const uint8_t *data, size_t size)
{
	runner_progress_input(r, data, size);   /* the input replays this run */
	input_choices_init(&r->choices, data, size);
	input_scenario_decode(&r->scenario, r->target, &r->bounds, &r->choices);
	r->plan.scenario = &r->scenario;
	r->plan.choices = &r->choices;
	r->plan.n_slots = r->bounds.program ? WEFT_MAX_PROGRAM_THREADS : r->scenario.n_threads;
	return execute_scenario(r, input_schedule_bytes(&r->plan), 1);
}

weft_verdict runner_run_scenario(weft_runner *r, const input_scenario *s,
					 sched_strategy strategy, weft_result *out)
{
	input_scenario_copy(&r->scenario, s);   /* its used part: not 22 KB per execution */
	if (r->watch && !r->progress_fn && !r->progress_data)
		strategy = r->watch(r->watch_self, r, &r->scenario, strategy);
	weft_verdict v = execute_scenario(r, strategy, 1);
	fill_result(r, v);
	count(r, v);
	if (out)
		*out = r->result;
	return v;
}

static void probe_drift(weft_runner *r);
static bool probe_due(weft_runner *r);

weft_verdict runner_run_speculative(weft_runner *r, const input_scenario *s,
				    sched_strategy strategy, weft_result *out)
{
	/* a campaign whose mutants are all adopted calls weft_runner_run rarely:
	   the drift probe is due here too (before the sample: it overwrites the run) */
	if (r->fresh_check && runner_fresh_allowed() && probe_due(r))
		probe_drift(r);
	input_scenario_copy(&r->scenario, s);   /* its used part: not 22 KB per execution */
	weft_verdict v = execute_scenario(r, strategy, 1);
	fill_result(r, v);
	if (out)
		*out = r->result;
	return v;
}

static void keep_probe(weft_runner *r, const uint8_t *data, size_t size, weft_verdict v);

void runner_adopt(weft_runner *r, const uint8_t *data, size_t size)
{
	count(r, r->result.verdict);
	if (r->fresh_check && runner_fresh_allowed() && !r->probe_input) {
		keep_probe(r, data, size, r->result.verdict);
		r->next_probe = r->stats.executions + RUNNER_DRIFT_EVERY;
	}
}

uint64_t runner_run_unjudged(weft_runner *r, const input_scenario *s, sched_strategy strategy,
			     weft_verdict *v)
{
	input_scenario_copy(&r->scenario, s);   /* its used part: not 22 KB per execution */
	weft_verdict got = execute_scenario(r, strategy, 0);
	if (v)
		*v = got;
	return sched_trace_hash(&r->exec.trace);
}

const input_bounds *runner_bounds(const weft_runner *r)
{
	return &r->bounds;
}

const sched_trace *runner_trace(const weft_runner *r)
{
	return &r->exec.trace;
}

unsigned runner_data_choices(const weft_runner *r, input_data *out, unsigned cap)
{
	unsigned n = r->exec.n_choices < SCHED_MAX_CHOICES ? r->exec.n_choices : SCHED_MAX_CHOICES;
	if (n > cap)
		n = cap;
	for (unsigned i = 0; i < n; i++) {
		out[i].bound = r->exec.choice[i].bound;
		out[i].value = r->exec.choice[i].value;
	}
	return n;
}

weft_verdict runner_check_history(weft_runner *r, void *instance, const weft_op_record *ops,
					  size_t n, const char **message,
					  const weft_check_result **check)
{
	r->message[0] = 0;
	r->n_history = n < INPUT_MAX_CALLS + 1 ? n : INPUT_MAX_CALLS + 1;
	memcpy(r->history, ops, r->n_history * sizeof *ops);
	weft_verdict v = not_linearizable(r) ? WEFT_FAIL_LINEARIZABILITY : WEFT_PASS;
	weft_history h = { r->history, r->n_history };
	if (v == WEFT_PASS && r->target->validate &&
	    r->target->validate(instance, &h, r->message, sizeof r->message) != 0)
		v = WEFT_FAIL_VALIDATION;
	if (message)
		*message = r->message;
	if (check)
		*check = &r->check;
	return v;
}

static report_case report_case_of(const weft_runner *r);

/* "thread 0: load counter.c:26 -> 0", or "nothing" past the end of a trace. */
static void describe_step(char *buf, size_t cap, const weft_runner *r, const sched_event *e)
{
	if (!e) {
		snprintf(buf, cap, "nothing (the run had ended)");
		return;
	}
	report_case c = report_case_of(r);
	char what[128];
	report_format_event(what, sizeof what, &c, e);
	snprintf(buf, cap, "thread %u: %s", e->thread, what);
}

/* "(linearizability, then pass); first difference at step 7: ..., then ..." */
static void describe_divergence(weft_runner *r, char *buf, size_t cap, size_t step,
				weft_verdict first, weft_verdict second)
{
	const sched_trace *t = &r->exec.trace;
	char a[150], b[150];
	describe_step(a, sizeof a, r, step < r->first.n ? &r->first.events[step] : NULL);
	describe_step(b, sizeof b, r, step < t->n ? &t->events[step] : NULL);
	snprintf(buf, cap, "the target is nondeterministic: the same input ran differently twice "
		 "(%s, then %s); first difference at step %zu: %s, then %s",
		 weft_verdict_name(first), weft_verdict_name(second), step + 1, a, b);
}

/* The first run's report as text, kept in case the second run passes (memory: NULL). */
static void keep_first_report(weft_runner *r, weft_verdict first)
{
	free(r->first_report);
	r->first_report = NULL;
	fill_result(r, first);
	size_t len;
	FILE *m = open_memstream(&r->first_report, &len);
	if (!m)
		return;
	report_case c = report_case_of(r);
	report_print(m, &c);
	fclose(m);
}

/*
 * Before a failure is reported, run the input again: a target that does not
 * repeat itself (state leaking between inputs, time, unmanaged threads,
 * uninitialised memory) must say so.  But nondeterminism must never hide a
 * real failure: when the second run fails too, its verdict and explanation are
 * reported, with a note that the target is nondeterministic; when it passes,
 * the verdict is `nondeterministic` and the report shows the failing first run
 * as well (its message and its whole report).
 */
static weft_verdict recheck_failure(weft_runner *r, const uint8_t *data, size_t size,
				    weft_verdict first)
{
	if (runner_trace_copy_save(&r->first, &r->exec.trace) != 0)
		return first;   /* out of memory: report what we saw */
	char first_message[sizeof r->message];
	memcpy(first_message, r->message, sizeof first_message);
	keep_first_report(r, first);
	weft_verdict second = execute_once(r, data, size);
	long step = runner_trace_first_divergence(&r->first, &r->exec.trace);
	if (step < 0 && second == first)
		return first;
	char why[600];
	describe_divergence(r, why, sizeof why, step < 0 ? r->first.n : (size_t)step, first,
			    second);
	if (second != WEFT_PASS && second != WEFT_ERROR) {
		size_t n = strlen(r->message);
		snprintf(r->message + n, sizeof r->message - n, "%s[note: %s; this report is of "
			 "the second run]", n ? " " : "", why);
		return second;
	}
	snprintf(r->message, sizeof r->message, "%s; the first run failed: %s", why,
		 first_message);
	r->show_first = r->first_report != NULL;
	return WEFT_FAIL_NONDETERMINISM;
}

/*
 * In a fresh-process child (fresh.h): this, the process's first execution,
 * answers the parent with its verdict, trace hash and report, and ends it.
 */
static void answer_parent(weft_runner *r, int fd, weft_verdict v)
{
	fill_result(r, v);
	FILE *f = fdopen(fd, "w");
	if (f) {
		fprintf(f, "weft-fresh %d %016" PRIx64 "\n", (int)v, r->result.trace_hash);
		weft_runner_report(r, f);
		fclose(f);
	}
	_exit(0);
}

/* A note after the message (cut to fit): "msg [note: ...]". */
static void add_note(weft_runner *r, const char *note)
{
	size_t n = strlen(r->message);
	snprintf(r->message + n, sizeof r->message - n, "%s[note: %s]", n ? " " : "", note);
}

/*
 * A failure seen after `earlier` executions in this process, confirmed in a
 * fresh one (fresh.h): state those executions left behind, which weft does
 * not reset, may be the failure's cause, and then its crash file would pass
 * when replayed alone.  Fresh run fails the same (verdict and trace hash):
 * reported as it is.  Fresh run passes: `nondeterministic`, with the reason,
 * this run's report and the fresh run's.  Fails otherwise, or died: the
 * failure stands (it is real in a fresh process too), with a note.
 */
static weft_verdict confirm_fresh(weft_runner *r, const uint8_t *data, size_t size,
				  weft_verdict v, uint64_t earlier)
{
	fill_result(r, v);
	uint64_t hash = r->result.trace_hash;
	runner_fresh_run fresh;
	char note[400];
	if (runner_fresh_run_input(data, size, &fresh) != 0) {
		snprintf(note, sizeof note, "not confirmed in a fresh process: %s", fresh.why);
		add_note(r, note);
		return v;
	}
	if (fresh.verdict == v && fresh.trace_hash == hash) {
		free(fresh.report);
		return v;
	}
	if (fresh.verdict != WEFT_PASS) {
		snprintf(note, sizeof note, "in a fresh process this input fails differently (%s, "
			 "trace %016" PRIx64 "): state left by the %" PRIu64 " earlier executions "
			 "in this process changes the run", weft_verdict_name(fresh.verdict),
			 fresh.trace_hash, earlier);
		add_note(r, note);
		free(fresh.report);
		return v;
	}
	char was[sizeof r->message];
	memcpy(was, r->message, sizeof was);
	snprintf(r->message, sizeof r->message, "fails only after %" PRIu64 " earlier executions "
		 "in this process: state left by earlier executions (globals the program does not "
		 "restore, heap, files, a library's statics) decides it; in a fresh process this "
		 "input passes, so replaying it alone passes; here it failed: %s: %s", earlier,
		 weft_verdict_name(v), was);
	free(r->fresh_report);
	r->fresh_report = fresh.report;
	r->show_fresh = r->fresh_report != NULL;
	return WEFT_FAIL_NONDETERMINISM;
}

void weft_runner_set_fresh_check(weft_runner *r, int on)
{
	r->fresh_check = on != 0;
}

/* Keep the runner's first input and its first run, for probe_drift. */
static void keep_probe(weft_runner *r, const uint8_t *data, size_t size, weft_verdict v)
{
	r->probe_input = malloc(size ? size : 1);
	if (!r->probe_input)
		return;
	if (size)
		memcpy(r->probe_input, data, size);
	r->probe_size = size;
	r->probe_verdict = v;
	if (runner_trace_copy_save(&r->probe_trace, &r->exec.trace) != 0) {
		free(r->probe_input);
		r->probe_input = NULL;
	}
}

/*
 * Drift on passes (issue 30): every RUNNER_DRIFT_EVERY executions (counted as
 * in the stats: the mutator's adopted runs too), the runner's first input runs
 * again, before weft_runner_run's input, and its trace is compared
 * with its first run's.  A difference means that state left by the
 * executions between (which weft does not reset) changes runs: warned once
 * per runner, naming the first differing step; no verdict changes.  Costs
 * one execution per RUNNER_DRIFT_EVERY; only with the fresh check on (glue).
 */
static void probe_drift(weft_runner *r)
{
	weft_verdict v = execute_once(r, r->probe_input, r->probe_size);
	long step = runner_trace_first_divergence(&r->probe_trace, &r->exec.trace);
	if (step < 0 && v == r->probe_verdict)
		return;
	r->drift_warned = true;
	uint64_t after = r->stats.executions;
	size_t at = step < 0 ? r->probe_trace.n : (size_t)step;
	const sched_trace *t = &r->exec.trace;
	char a[150], b[150], why[700];
	describe_step(a, sizeof a, r, at < r->probe_trace.n ? &r->probe_trace.events[at] : NULL);
	describe_step(b, sizeof b, r, at < t->n ? &t->events[at] : NULL);
	snprintf(why, sizeof why, "the first input of this process ran differently after %" PRIu64
		 " executions (%s, now %s); first difference at step %zu: %s, now %s: state left by "
		 "earlier executions (globals the program does not restore, heap, files, a "
		 "library's statics) changes runs, so verdicts may depend on the inputs before "
		 "them", after, weft_verdict_name(r->probe_verdict), weft_verdict_name(v),
		 at + 1, a, b);
	report_print_drift_warning(stderr, r->target->name, why);
}

static bool probe_due(weft_runner *r)
{
	if (!r->probe_input || r->drift_warned || r->stats.executions < r->next_probe)
		return false;
	r->next_probe = r->stats.executions + RUNNER_DRIFT_EVERY;
	return true;
}

weft_verdict weft_runner_run(weft_runner *r, const uint8_t *data, size_t size, weft_result *out)
{
	bool checking = r->fresh_check && runner_fresh_allowed();
	if (checking && probe_due(r))
		probe_drift(r);
	uint64_t earlier = process_executions;
	int parent = runner_fresh_child_fd();
	weft_verdict v = execute_once(r, data, size);
	if (parent >= 0)
		answer_parent(r, parent, v);
	if (checking && !r->probe_input) {
		keep_probe(r, data, size, v);
		r->next_probe = r->stats.executions + RUNNER_DRIFT_EVERY;
	}
	if (v != WEFT_PASS && v != WEFT_ERROR)
		v = recheck_failure(r, data, size, v);
	if (v != WEFT_PASS && v != WEFT_ERROR && v != WEFT_FAIL_NONDETERMINISM && earlier > 0 &&
	    checking)
		v = confirm_fresh(r, data, size, v, earlier);
	fill_result(r, v);
	count(r, v);
	if (out)
		*out = r->result;
	return v;
}

/*
 * A snapshot for a watchdog (the replay tool's --timeout, from a signal
 * handler): plain reads, no lock, no allocation.  The baton holder may be
 * mid-step, so the numbers are "about"; the thread and its operation are what
 * a person needs to find a loop without a switch point.
 */
size_t weft_runner_describe_running(const weft_runner *r, char *buf, size_t cap)
{
	const sched_thread *t = r->exec.current;
	if (!t)
		return (size_t)snprintf(buf, cap, "no managed thread was running (the harness "
					"itself: setup, the model check or validate)");
	const char *op = "the program's thread";
	if (t->call < r->scenario.n_calls) {
		const weft_op_record *c = &r->scenario.calls[t->call];
		op = r->target->ops[c->op].name;
	}
	return (size_t)snprintf(buf, cap, "thread %u was running %s(), %" PRIu64 " switch points "
				"into that call, %" PRIu64 " in the execution", t->id, op,
				t->call_step, r->exec.steps);
}

/* The last execution as the report room sees it: plain data. */
static report_case report_case_of(const weft_runner *r)
{
	report_case c = {
		.target = r->target,
		.result = &r->result,
		.calls = r->scenario.calls,
		.n_calls = r->scenario.n_calls,
		.events = r->exec.trace.events,
		.n_events = r->exec.trace.n,
		.final_call = r->has_final ? &r->history[r->n_history - 1] : NULL,
		.init = r->history,
		.n_init = r->n_history >= r->n_init_run ? r->n_init_run : 0,
		.post = &r->history[r->n_history - (size_t)r->has_final - r->n_post_run],
		.n_post = r->n_post_run,
		.history = r->history,
		.n_history = r->n_history,
		.check = r->result.verdict == WEFT_FAIL_LINEARIZABILITY ? &r->check : NULL,
		.first_run = r->show_first ? r->first_report : NULL,
		.fresh_run = r->show_fresh ? r->fresh_report : NULL,
	};
	c.n_weak = sched_mem_weak_reads(&r->exec, &c.weak);
	c.memory = weft_runner_memory(r);
	return c;
}

void weft_runner_report(const weft_runner *r, FILE *out)
{
	report_case c = report_case_of(r);
	report_print(out, &c);
}

void runner_progress_set(weft_runner *r, runner_progress_fn fn, void *self)
{
	r->progress_fn = fn;
	r->progress_self = self;
	r->progress_data = NULL;
	r->progress_size = 0;
}

void runner_watch_set(weft_runner *r, runner_watch_fn fn, void *self)
{
	r->watch = fn;
	r->watch_self = self;
}

void runner_progress_input(weft_runner *r, const uint8_t *data, size_t size)
{
	runner_progress_set(r, NULL, NULL);
	r->progress_data = data ? data : (const uint8_t *)"";
	r->progress_size = size;
}

bool runner_in_execution(const weft_runner *r)
{
	return r && r->running;
}

const uint8_t *runner_progress(weft_runner *r, uint8_t *buf, size_t cap, size_t *size)
{
	*size = 0;
	if (!runner_in_execution(r))
		return NULL;
	if (r->progress_data || !r->progress_fn) {
		*size = r->progress_size;
		return r->progress_data;
	}
	size_t n = r->progress_fn(r->progress_self, buf, cap);
	if (n == RUNNER_NO_BYTES)
		return NULL;
	*size = n;
	return buf;
}

/*
 * The execution in progress, as far as it went: for a death hook (death.c),
 * on the managed thread that died while the other threads and the controller
 * are parked.  Only data is read and printed; nothing is run.  The verdict
 * is `error`, the message says why (`cause`).
 */
void runner_report_dying(weft_runner *r, FILE *out, const char *cause)
{
	if (!r || !r->exec.current)
		return;   /* not inside an execution: nothing of weft's to add */
	build_history(r);
	r->has_final = 0;
	snprintf(r->message, sizeof r->message,
		 "the process died during this execution (%s): the interleaving up to that point",
		 cause);
	fill_result(r, WEFT_ERROR);
	weft_runner_report(r, out);
	fflush(out);
}

void weft_runner_report_dying(weft_runner *r, FILE *out)
{
	runner_report_dying(r, out, "the sanitizer's report above");
}

void weft_runner_report_json(const weft_runner *r, FILE *out)
{
	report_case c = report_case_of(r);
	report_print_json(out, &c);
}

const input_scenario *runner_scenario(const weft_runner *r)
{
	return &r->scenario;
}

void weft_runner_report_html(const weft_runner *r, FILE *out)
{
	report_case c = report_case_of(r);
	report_print_html(out, &c);
}

const weft_target *weft_runner_target(const weft_runner *r)
{
	return r->target;
}

weft_runner_stats weft_runner_stats_get(const weft_runner *r)
{
	return r->stats;
}
