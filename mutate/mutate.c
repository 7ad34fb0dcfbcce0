/*
 * mutate/mutate.c - the structure-aware mutator (weft/mutate.h): mutations of
 * the decoded scenario and plan, written back in the byte format.
 *
 * Why: libFuzzer's byte mutations over weft's format needed 17-700x more
 * executions than a random walk, PCT or the uniform sampler (bench/results.md
 * before issue 17).  A random byte rarely lands on a control byte, and a
 * mutated step number rarely names a step the operation has.  So the core
 * mutation *is* a random scheduler: it runs the input's scenario under a
 * seeded random walk or PCT and writes the switches that run made as the
 * input's plan (schedule_record.h), so the fuzz campaign samples what the
 * baselines sample, and coverage and interleaving feedback keep the samples
 * that did something new in the corpus, where later mutations start from them.
 *
 * The menu: 1% of weft_mutate calls go to the engine's own byte mutation
 * (libFuzzer's LLVMFuzzerMutate), and every shrinking request (max_size <
 * size: libFuzzer's -minimize_crash), whose erasures the format is built for.
 * The rest, and every weft_crossover call, go to one of eleven arms chosen by
 * a bandit (bandit.h) rewarded by new unserializable orders of accesses to one
 * object (closeness.h): a uniform, POS,
 * random-walk or PCT schedule on a fresh random scenario (explore_scenarios.h);
 * a uniform or POS schedule on the input's scenario; a random walk after a
 * prefix (0..63 decisions) of the input's own plan; insert, move or drop one
 * preemption at a step the input's execution had (one run that follows the
 * plan measures each call's steps); one operation or argument changed, then a
 * schedule; one race of the input's run reversed, then POS (flip.h), or
 * half the time one or two pairs reversed and the rest of the run's order kept
 * (keep_order.h; the run is the last mutant's when libFuzzer mutates that
 * again, else measured);
 * threads of two inputs spliced, then a schedule (crossover only).
 * The first 64 mutations, and any of an input that decodes to the simplest
 * scenario, draw a fresh scenario (allowed_arms below).  A quarter of the
 * calls mutate the frontier instead of the engine's input: the last mutant
 * whose run read a value no run had read before (focus.h).
 *
 * One execution per mutant: a sampled schedule runs judged (verdict,
 * features) but uncounted (runner_run_speculative); when the fuzzer then runs
 * the bytes written for it, the harness takes that run (weft_mutator_take)
 * instead of repeating it: same bytes, same interleaving, so it is the run the
 * bytes would give (test_mutate compares them).  Failing samples are not
 * taken: the fuzzer replays them, so reports come from real runs.  Data
 * choices the sample drew (a timed wait ending early) are written at the back
 * of the input (schedule_record.h), so they replay too.
 *
 * Determinism: every choice comes from the engine's seed (xoshiro256**,
 * strategy_common.h) and the bandit's state, which follows the calls made.
 * The mutator's executions are never counted in the runner's stats unless
 * taken; the runner resets everything per execution, so the next input runs
 * as if they had not been.
 */
#include "weft/mutate.h"

#include <stdlib.h>
#include <string.h>

#include "../search/explore_scenarios.h"
#include "bandit.h"
#include "closeness.h"
#include "flip.h"
#include "focus.h"
#include "keep_order.h"
#include "schedule_record.h"
#include "../search/strategy_baselines.h"

#define MUTATE_DEFAULT_CALL_STEPS 8   /* PCT's estimate for an operation never run */
#define MUTATE_MAX_FOLLOW 64
#define MUTATE_SCRATCH 16384           /* bytes of a normalized scenario */
#define MUTATE_ENGINE_PERCENT 1
#define MUTATE_WARMUP 64               /* first mutations: fresh scenarios only */
/*
 * Race reversals that keep the input's order after the reversed race
 * (keep_order.h), percent, and the most races reversed with the first.
 * Measured on the hard benchmark (issue 33, 20 seeds, fuzz column, one build,
 * ARCHITECTURE.md): geometric mean of medians 5,778 with none kept, 4,777 at
 * 25% (1 more race), 4,249 at 50% (none more), 4,205 at 50% (up to 1 more),
 * 5,526 at 100%: POS's tail finds what a kept order does not (the ordering
 * chains got worse, the races and the stale reads better).
 */
#define MUTATE_KEEP_PERCENT 50
#define MUTATE_KEEP_EXTRA 1

struct weft_mutator {
	weft_runner *runner;
	const weft_target *target;
	const input_bounds *bounds;
	int verify;
	search_rng rng;
	input_scenario s, a, b;
	uint8_t scratch[MUTATE_SCRATCH];
	mutate_recorder rec;
	input_choices back;   /* m->s's bytes past the scenario: their data choices */
	search_random_walk walk;
	search_pct pct;
	search_uniform uniform;
	search_pos pos;
	search_scenario_source source;
	uint64_t op_steps[WEFT_MAX_TARGET_OPS], op_calls[WEFT_MAX_TARGET_OPS];
	/* a program's threads: the most steps each made in a run, and all of them */
	uint64_t thread_steps[SCHED_MAX_THREADS], total_steps;
	weft_mutator_stats stats;
	mutate_bandit bandit;
	mutate_closeness close;
	mutate_order order;
	mutate_focus focus;
	weft_feature features[1024];
	/* the judged run of the last mutant, until the fuzzer runs it (take) */
	int pending;
	/* the last mutant is an exact sample (its bytes replay m->rec's run):
	   the race reversal of these bytes needs no measuring run */
	int basis;
	int only_arm;   /* weft_mutator_only_arm, or -1 */
	size_t pending_size;
	uint8_t pending_bytes[MUTATE_SCRATCH];
};

weft_mutator *weft_mutator_new(weft_runner *runner, int verify)
{
	weft_mutator *m = calloc(1, sizeof *m);   /* scenarios are large: not on the stack */
	if (!m)
		return NULL;
	m->runner = runner;
	m->target = weft_runner_target(runner);
	m->bounds = runner_bounds(runner);
	m->verify = verify;
	mutate_bandit_init(&m->bandit);
	mutate_closeness_init(&m->close);
	m->only_arm = -1;
	/* cleared once: each mutation reseeds them (strategy_baselines.h) */
	search_random_walk_init(&m->walk, 0);
	search_pct_init(&m->pct, 0, 2);
	search_uniform_init(&m->uniform, 0);
	search_pos_init(&m->pos, 0);
	return m;
}

void weft_mutator_free(weft_mutator *m)
{
	free(m);
}

_Static_assert(WEFT_MUTATOR_ARMS == MUTATE_ARMS, "weft/mutate.h names every arm");

weft_mutator_stats weft_mutator_stats_get(const weft_mutator *m)
{
	weft_mutator_stats s = m->stats;
	mutate_bandit_shares(&m->bandit, s.arm_permille);
	return s;
}

static void decode(const weft_mutator *m, input_scenario *s, const uint8_t *data, size_t size)
{
	input_choices c;
	input_choices_init(&c, data, size);
	input_scenario_decode(s, m->target, m->bounds, &c);
}

/*
 * Decode m->s from an input's bytes.  The reader stays where the scenario
 * ends: runs that follow the input read its data choices from there, as its
 * replay does (schedule_record.h); `data` is not written before they ran.
 */
static void decode_input(weft_mutator *m, const uint8_t *data, size_t size)
{
	input_choices_init(&m->back, data, size);
	input_scenario_decode(&m->s, m->target, m->bounds, &m->back);
	m->rec.back = &m->back;
}

static unsigned slots_of(const weft_mutator *m, const input_scenario *s)
{
	return m->bounds->program ? m->bounds->max_threads : s->n_threads;
}

/* ---- running: sample or measure, and learn each operation's length ---- */

static void learn(weft_mutator *m, const input_scenario *s)
{
	const search_steps *st = &m->rec.steps;
	if (m->bounds->program) {   /* threads the scenario need not list (schedule_record.h) */
		for (unsigned t = 0; t < st->n_thread && t < SCHED_MAX_THREADS; t++)
			if (st->thread[t] > m->thread_steps[t])
				m->thread_steps[t] = st->thread[t];
		if (st->total > m->total_steps)
			m->total_steps = st->total;
		return;
	}
	for (unsigned c = 0; c < s->n_calls; c++) {
		unsigned op = s->calls[c].op;
		if (op < WEFT_MAX_TARGET_OPS) {
			m->op_steps[op] += m->rec.steps.call[c];
			m->op_calls[op]++;
		}
	}
}

/* Run m->s under `inner` (NULL: its own plan) and make the run its plan. */
static void record(weft_mutator *m, const sched_strategy *inner, uint64_t follow)
{
	m->stats.runs++;
	m->rec.judge = inner && !m->verify;   /* a sample may become the judged run */
	m->stats.lost += mutate_record_run(m->runner, &m->s, inner, follow, &m->rec);
	learn(m, &m->s);
	if (inner)
		m->stats.sampled++;
}

static void sample_walk(weft_mutator *m, uint64_t follow)
{
	search_random_walk_reseed(&m->walk, search_rng_next(&m->rng));
	search_random_walk_start(&m->walk);
	sched_strategy st = search_random_walk_strategy(&m->walk);
	record(m, &st, follow);
}

/* Each thread's expected steps (per_thread[t], t < slots_of): the mean steps
 * of its calls' operations so far. */
static uint64_t estimate_steps(const weft_mutator *m, const input_scenario *s,
			       uint64_t *per_thread)
{
	uint64_t k = 0;
	unsigned slots = slots_of(m, s) < SCHED_MAX_THREADS ? slots_of(m, s) : SCHED_MAX_THREADS;
	if (m->bounds->program && m->total_steps) {   /* explore.c's estimate: the most seen */
		memcpy(per_thread, m->thread_steps, slots * sizeof *per_thread);
		return m->total_steps;
	}
	memset(per_thread, 0, slots * sizeof *per_thread);
	for (unsigned c = 0; c < s->n_calls; c++) {
		unsigned op = s->calls[c].op, t = s->calls[c].thread;
		uint64_t steps = op < WEFT_MAX_TARGET_OPS && m->op_calls[op]
					 ? (m->op_steps[op] + m->op_calls[op] - 1) / m->op_calls[op]
					 : MUTATE_DEFAULT_CALL_STEPS;
		if (t < slots)
			per_thread[t] += steps;
		k += steps;
	}
	return k;
}

/* PCT with depth 2 or 3 (depth 1 hardly ever switches: strategy_baselines.h). */
static void sample_pct(weft_mutator *m)
{
	uint64_t per_thread[SCHED_MAX_THREADS];
	unsigned depth = 2 + (unsigned)search_rng_below(&m->rng, 2);
	search_pct_reseed(&m->pct, search_rng_next(&m->rng), depth);
	search_pct_start(&m->pct, slots_of(m, &m->s), estimate_steps(m, &m->s, per_thread));
	sched_strategy st = search_pct_strategy(&m->pct);
	record(m, &st, 0);
}

static void sample_uniform(weft_mutator *m)
{
	uint64_t per_thread[SCHED_MAX_THREADS];
	estimate_steps(m, &m->s, per_thread);
	search_uniform_reseed(&m->uniform, search_rng_next(&m->rng));
	search_uniform_start(&m->uniform, per_thread, slots_of(m, &m->s));
	sched_strategy st = search_uniform_strategy(&m->uniform);
	record(m, &st, 0);
}

static void sample_pos(weft_mutator *m)
{
	search_pos_reseed(&m->pos, search_rng_next(&m->rng));
	search_pos_start(&m->pos);
	sched_strategy st = search_pos_strategy(&m->pos);
	record(m, &st, 0);
}

/*
 * A schedule from scratch by one of the baselines, weighted by how often each
 * was the best baseline in bench/results.md (uniform, POS, random walk; PCT
 * was best only where every strategy needs one or two executions).
 */
static void sample_any(weft_mutator *m)
{
	unsigned roll = (unsigned)search_rng_below(&m->rng, 100);
	if (roll < 35)
		sample_uniform(m);
	else if (roll < 60)
		sample_pos(m);
	else if (roll < 90)
		sample_walk(m, 0);
	else
		sample_pct(m);
}

/* The sequential parts (input/scenario.h) of `from` go with the child (their
 * used part: readers go by the counts). */
static void keep_parts(input_scenario *s, const input_scenario *from)
{
	s->n_init = from->n_init;
	s->n_post = from->n_post;
	memcpy(s->init, from->init, from->n_init * sizeof s->init[0]);
	memcpy(s->post, from->post, from->n_post * sizeof s->post[0]);
}

/* New threads and operations; the sequential parts that build state stay. */
static void fresh_scenario(weft_mutator *m)
{
	const input_bounds *b = m->bounds;
	keep_parts(&m->b, &m->s);
	search_scenario_source_init(&m->source, m->target, b, search_rng_next(&m->rng),
				     b->min_threads, b->max_threads, b->max_ops);
	search_scenario_draw(&m->source, &m->s);
	keep_parts(&m->s, &m->b);
	m->rec.back = NULL;   /* no bytes: nothing to follow */
}

/* ---- edits of the plan and the operations ---- */

static void remove_plan(input_scenario *s, unsigned p)
{
	memmove(&s->plan[p], &s->plan[p + 1], (s->n_plan - p - 1) * sizeof s->plan[0]);
	s->n_plan--;
	for (unsigned c = 0; c <= s->n_calls; c++)
		if (s->first_plan[c] > p)
			s->first_plan[c]--;
}

/* Plan a preemption of `call` at `step` to `to`, keeping the call's steps ascending. */
static void insert_plan(input_scenario *s, unsigned call, uint64_t step, uint8_t to)
{
	unsigned p = s->first_plan[call];
	while (p < s->first_plan[call + 1] && s->plan[p].step < step)
		p++;
	if (p < s->first_plan[call + 1] && s->plan[p].step == step) {
		s->plan[p].to = to;
		return;
	}
	if (s->n_plan >= INPUT_MAX_PREEMPTIONS)
		return;
	memmove(&s->plan[p + 1], &s->plan[p], (s->n_plan - p) * sizeof s->plan[0]);
	s->plan[p] = (input_preemption){ step, to };
	s->n_plan++;
	for (unsigned c = call + 1; c <= s->n_calls; c++)
		s->first_plan[c]++;
}

/* A call with at least one step in the measured run, or -1. */
static int measured_call(weft_mutator *m)
{
	unsigned n = m->s.n_calls;
	if (n == 0)
		return -1;
	unsigned start = (unsigned)search_rng_below(&m->rng, n);
	for (unsigned i = 0; i < n; i++) {
		unsigned c = (start + i) % n;
		if (m->rec.call_steps[c] >= 1)
			return (int)c;
	}
	return -1;
}

static int is_basis(const weft_mutator *m, const uint8_t *data, size_t size);

/*
 * The input's run, for the edits at its steps (call_steps) and the race
 * reversal (the trace, the decision log): when `data` are the last mutant's
 * and the runner still holds its run (is_basis), that run, its data choices
 * put back; else one run that follows the input's plan (measured).  Issue 33:
 * the measuring runs were 7% of a campaign's executions on the counter, and
 * libFuzzer mutates its last mutant again in 4 of 5 mutations.
 */
static int input_run(weft_mutator *m, const uint8_t *data, size_t size)
{
	if (!is_basis(m, data, size)) {
		m->stats.measured++;
		record(m, NULL, 0);
		return 0;
	}
	m->s.n_data = m->rec.n_data;
	memcpy(m->s.data, m->rec.data, m->rec.n_data * sizeof m->s.data[0]);
	return 1;
}

/* Insert, move or drop one preemption at a step the input's execution had. */
static void edit_plan(weft_mutator *m, const uint8_t *data, size_t size)
{
	input_scenario *s = &m->s;
	if (input_run(m, data, size))   /* the plan as it ran; call_steps measured */
		learn(m, s);   /* as the measuring run did: the same estimates as before */
	unsigned what = (unsigned)search_rng_below(&m->rng, 3);
	if (what > 0 && s->n_plan > 0) {   /* drop, or move = drop + insert */
		unsigned p = (unsigned)search_rng_below(&m->rng, s->n_plan);
		remove_plan(s, p);
		if (what == 1)
			return;
	}
	int c = measured_call(m);
	if (c < 0)
		return;
	uint64_t step = 1 + search_rng_below(&m->rng, m->rec.call_steps[c]);
	uint8_t to = (uint8_t)search_rng_below(&m->rng, slots_of(m, s) ? slots_of(m, s) : 1);
	insert_plan(s, (unsigned)c, step, to);
}

/* Another operation kind or another argument value for one call. */
static void edit_call(weft_mutator *m)
{
	input_scenario *s = &m->s;
	if (s->n_calls == 0)
		return;
	weft_op_record *call = &s->calls[search_rng_below(&m->rng, s->n_calls)];
	const weft_op *op = &m->target->ops[call->op];
	if (search_rng_below(&m->rng, 2) == 0 && m->bounds->n_thread_ops > 1 && !m->bounds->program) {
		call->op = m->bounds->thread_ops[search_rng_below(&m->rng, m->bounds->n_thread_ops)];
		op = &m->target->ops[call->op];
		for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
			call->args[a] = op->args[a].min;
		return;
	}
	if (op->n_args <= 0)
		return;
	int a = (int)search_rng_below(&m->rng, (uint64_t)op->n_args);
	if (a >= WEFT_MAX_ARGS)
		return;
	weft_range r = op->args[a];
	call->args[a] = r.min + (int64_t)search_rng_below(&m->rng, (uint64_t)(r.max - r.min) + 1);
}

/*
 * Whether `data` are the last mutant's bytes and the runner still holds the
 * run they replay (nothing ran since, or the fuzzer replayed those very
 * bytes): libFuzzer mutates its last mutant again (-mutate_depth), so most
 * reversals start from the run just made, for free.
 */
static int is_basis(const weft_mutator *m, const uint8_t *data, size_t size)
{
	return m->basis && size == m->pending_size && memcmp(data, m->pending_bytes, size) == 0 &&
	       sched_trace_hash(runner_trace(m->runner)) == m->rec.hash;
}

static int seen_rf(void *bandit, uint32_t id)
{
	return mutate_bandit_seen(bandit, id);
}

/*
 * The reversal's second ending (keep_order.h): the input's order of accesses
 * kept but for f and up to MUTATE_KEEP_EXTRA more pairs of the same run (each
 * reversed in the order already changed; one that no longer holds is
 * skipped); the replayed prefix ends before the earliest.  0 when the
 * sequence cannot reverse f.
 */
static int keep_order(weft_mutator *m, const sched_trace *t, const mutate_flip *f)
{
	mutate_order_from_trace(&m->order, t);
	if (!mutate_order_reverse(&m->order, t, f))
		return 0;
	uint64_t follow = f->follow;
	unsigned extra = (unsigned)search_rng_below(&m->rng, MUTATE_KEEP_EXTRA + 1);
	for (unsigned k = 0; k < extra; k++) {
		mutate_flip g;
		if (mutate_flip_choose_far(t, m->rec.decision_at, m->rec.decision_to,
					   m->rec.decisions, &m->rng, seen_rf, &m->bandit, &g) &&
		    mutate_order_reverse(&m->order, t, &g) && g.follow < follow)
			follow = g.follow;
	}
	sched_strategy st = mutate_order_strategy(&m->order, t, &m->pos, m->s.data, m->s.n_data,
						  &m->rec.n_data);
	record(m, &st, follow);
	return 1;
}

/*
 * Reverse one race of the input's run (flip.h), then POS, or keep the rest of
 * the run's order (keep_order.h).  The run is the last mutant's when is_basis
 * (its data choices restored, so the replayed prefix is that run), else one
 * run following the input's plan measures it.  Without a race to reverse:
 * POS on the input's scenario.
 */
static void reverse_race(weft_mutator *m, const uint8_t *data, size_t size)
{
	input_run(m, data, size);
	const sched_trace *t = runner_trace(m->runner);
	mutate_flip f;
	search_pos_reseed(&m->pos, search_rng_next(&m->rng));
	search_pos_start(&m->pos);
	uint64_t follow = 0;
	if (search_rng_below(&m->rng, 100) < MUTATE_KEEP_PERCENT &&
	    mutate_flip_choose_far(t, m->rec.decision_at, m->rec.decision_to, m->rec.decisions,
				   &m->rng, seen_rf, &m->bandit, &f)) {
		m->stats.flipped++;
		if (keep_order(m, t, &f))
			return;
	}
	if (mutate_flip_choose(t, m->rec.decision_at, m->rec.decision_to, m->rec.decisions,
			       &m->rng, seen_rf, &m->bandit, &f)) {
		m->stats.flipped++;
		search_pos_lead(&m->pos, f.second, f.accesses);
		follow = f.follow;
	}
	sched_strategy st = search_pos_strategy(&m->pos);
	record(m, &st, follow);
}

/*
 * Encode and decode m->s again, so the decoder's rules hold (a group's
 * operation on the thread that owns it, bounds) before it runs or is kept.
 * 0 when it cannot be written.
 */
static int normalize(weft_mutator *m)
{
	size_t n = input_scenario_encode(&m->s, m->target, m->bounds, m->scratch, sizeof m->scratch);
	if (n == INPUT_ENCODE_FAILED)
		return 0;
	decode_input(m, m->scratch, n);
	return 1;
}

/* ---- writing back ---- */

/*
 * Encode m->s into out; verify a sampled schedule when asked.  0 on failure.
 * A sample whose run was judged and wrote every switch is kept pending: the
 * fuzzer runs these very bytes next, and weft_mutator_take hands it this run.
 */
static int write_out(weft_mutator *m, int sampled, uint8_t *out, size_t cap, size_t *size)
{
	m->basis = 0;
	size_t n = input_scenario_encode(&m->s, m->target, m->bounds, out, cap);
	if (n == INPUT_ENCODE_FAILED)
		return 0;
	int exact = sampled;   /* the sample's data choices are m->s.data: written above */
	*size = n;
	mutate_focus_written(&m->focus, out, n);
	if (exact && m->verify) {
		m->stats.runs++;
		m->stats.verified++;
		m->stats.mismatches += !mutate_record_verify(m->runner, &m->rec, out, n);
	}
	if (exact && m->rec.lost == 0 && n <= sizeof m->pending_bytes) {
		memcpy(m->pending_bytes, out, n);
		m->pending_size = n;
		m->pending = m->rec.judge;
		m->basis = 1;
	} else if (exact && m->rec.judge) {
		m->stats.twice++;   /* judged, yet the fuzzer must run the bytes again */
	}
	return 1;
}

static size_t to_engine(weft_mutator *m, uint8_t *data, size_t size, size_t max_size,
			weft_engine_mutate engine)
{
	m->stats.engine++;
	m->basis = 0;
	if (engine)
		return engine(data, size, max_size);
	return size < max_size ? size : max_size;   /* no engine: at most cut to fit */
}

/* Start of a mutation: nothing pending, the rng from the engine's seed. */
static void begin(weft_mutator *m, unsigned seed, uint64_t stream)
{
	m->stats.mutations++;
	m->pending = 0;
	m->rec.judge = 0;
	m->bandit.last = -1;
	search_rng_seed(&m->rng, seed, stream);
}

/* Apply `arm` to m->s, decoded from data (any arm but the splice); 1 when the
 * result is a sample. */
static int apply(weft_mutator *m, mutate_arm arm, const uint8_t *data, size_t size)
{
	switch (arm) {
	case MUTATE_UNIFORM_FRESH: fresh_scenario(m); sample_uniform(m); return 1;
	case MUTATE_POS_FRESH: fresh_scenario(m); sample_pos(m); return 1;
	case MUTATE_WALK_FRESH: fresh_scenario(m); sample_walk(m, 0); return 1;
	case MUTATE_PCT_FRESH: fresh_scenario(m); sample_pct(m); return 1;
	case MUTATE_UNIFORM_SAME: sample_uniform(m); return 1;
	case MUTATE_POS_SAME: sample_pos(m); return 1;
	case MUTATE_WALK_PREFIX:
		sample_walk(m, search_rng_below(&m->rng, MUTATE_MAX_FOLLOW));
		return 1;
	case MUTATE_EDIT_PLAN: edit_plan(m, data, size); return 0;
	case MUTATE_FLIP: reverse_race(m, data, size); return 1;
	default:
		edit_call(m);
		if (!normalize(m))
			return 0;
		sample_any(m);
		return 1;
	}
}

/*
 * The arms worth a mutation of an input whose scenario is `s`.  Only fresh
 * scenarios (1) for the first MUTATE_WARMUP mutations, while the corpus holds
 * little but the engine's first inputs, and (2) from an input that decodes to
 * the simplest scenario (the empty input and libFuzzer's "\n" do: one
 * operation per thread, the fewest threads, no plan): a schedule of its own,
 * an edit or a splice of it runs where few bugs can show.  Measured (issue 17,
 * ARCHITECTURE.md): on targets the baselines find in 1-15 executions this
 * took the fuzzer's mean from 2.9x the best baseline's to 2.2x.
 */
static unsigned allowed_arms(const weft_mutator *m, const input_scenario *s)
{
	int simplest = s->n_calls <= s->n_threads && s->n_plan == 0 && s->n_init == 0 &&
		       s->n_post == 0 && s->n_threads <= m->bounds->min_threads;
	if (simplest || m->stats.mutations <= MUTATE_WARMUP)
		return MUTATE_FRESH_ARMS;
	return MUTATE_ALL_ARMS;
}

/*
 * The bandit's pick among `allowed`; the one arm asked for instead when it
 * is allowed (weft_mutator_only_arm: a splice outside a crossover, or a
 * corpus arm during the warm-up, leaves the pick to the bandit).
 */
static mutate_arm pick_arm(weft_mutator *m, unsigned allowed)
{
	mutate_arm arm = mutate_bandit_pick(&m->bandit, &m->rng, allowed);
	if (m->only_arm >= 0 && ((allowed >> m->only_arm) & 1)) {
		arm = (mutate_arm)m->only_arm;
		m->bandit.last = (int)arm;   /* the reward goes to the arm that ran */
	}
	return arm;
}

int weft_mutator_only_arm(weft_mutator *m, const char *name)
{
	static const char *const names[MUTATE_ARMS] = {
		"uniform-fresh", "pos-fresh", "walk-fresh", "pct-fresh", "uniform-same",
		"pos-same", "prefix", "edit-plan", "edit-call", "flip", "splice",
	};
	if (!name) {
		m->only_arm = -1;
		return 0;
	}
	for (int a = 0; a < MUTATE_ARMS; a++)
		if (strcmp(name, names[a]) == 0) {
			m->only_arm = a;
			return 0;
		}
	return -1;
}

size_t weft_mutate(weft_mutator *m, uint8_t *data, size_t size, size_t max_size, unsigned seed,
		   weft_engine_mutate engine)
{
	begin(m, seed, 7);
	unsigned roll = (unsigned)search_rng_below(&m->rng, 100);
	if (max_size < size || roll < MUTATE_ENGINE_PERCENT)
		return to_engine(m, data, size, max_size, engine);
	if (mutate_focus_instead(&m->focus, &m->rng, max_size)) {   /* the frontier, in place */
		memcpy(data, m->focus.bytes, m->focus.size);
		size = m->focus.size;
		m->stats.focused++;
	}
	decode_input(m, data, size);
	unsigned allowed = allowed_arms(m, &m->s) & ~(1u << MUTATE_SPLICE);
	mutate_arm arm = pick_arm(m, allowed);
	int sampled = apply(m, arm, data, size);
	size_t n;
	if (!write_out(m, sampled, data, max_size, &n)) {
		m->bandit.last = -1;
		return to_engine(m, data, size, max_size, engine);
	}
	return n;
}

int weft_mutator_take(weft_mutator *m, const uint8_t *data, size_t size, weft_result *out)
{
	int same = m->pending && size == m->pending_size &&
		   memcmp(data, m->pending_bytes, size) == 0;
	m->stats.twice += m->pending && !same;   /* the engine ran other bytes: a run lost */
	m->pending = 0;
	if (same && m->rec.result.verdict != WEFT_PASS)
		m->stats.replayed++;   /* the caller replays it: one execution, not two */
	if (!same || m->rec.result.verdict != WEFT_PASS)
		return 0;
	runner_adopt(m->runner, data, size);
	m->stats.reused++;
	if (out)
		*out = m->rec.result;
	return 1;
}

void weft_mutator_reward(weft_mutator *m, int novel)
{
	mutate_bandit_credit(&m->bandit, novel);
}

/*
 * The run just made rewards the mutation that made it when it put accesses to
 * one object in an unserializable order the campaign had not seen
 * (closeness.h), not when it had any new feature: nearly every run has one of
 * those (bench/search_quick.sh, issue 33), which left the shares at the
 * priors.  The features still mark the reads-from pairs seen, which the race
 * reversal aims at (flip.h), and a value read for the first time makes the
 * mutant the frontier (focus.h).  Feedback off: nothing learned, the priors
 * stay, no frontier.
 */
void weft_mutator_observe(weft_mutator *m)
{
	size_t n = weft_runner_features(m->runner, m->features, 1024);
	if (m->bandit.last < 0 || n == 0)
		return;
	unsigned new_kinds;
	mutate_bandit_novel(&m->bandit, m->features, n < 1024 ? n : 1024, &new_kinds);
	if (new_kinds & WEFT_FEEDBACK_VALUES)
		m->stats.frontiers += (uint64_t)mutate_focus_promote(&m->focus);
	mutate_bandit_credit(&m->bandit,
			     mutate_closeness_observe(&m->close, runner_trace(m->runner)) > 0);
}

/* Append thread `t` of `src` (its calls and plan) to `out` as its next thread. */
static void append_thread(input_scenario *out, const input_scenario *src, unsigned t)
{
	unsigned nt = out->n_threads++;
	out->first_call[nt] = out->n_calls;
	for (unsigned c = src->first_call[t]; c < src->first_call[t + 1]; c++) {
		unsigned nc = out->n_calls++;
		out->calls[nc] = src->calls[c];
		out->calls[nc].thread = nt;
		out->first_plan[nc] = out->n_plan;
		for (unsigned p = src->first_plan[c]; p < src->first_plan[c + 1]; p++)
			if (out->n_plan < INPUT_MAX_PREEMPTIONS)
				out->plan[out->n_plan++] = src->plan[p];
	}
	out->first_call[nt + 1] = out->n_calls;
	out->first_plan[out->n_calls] = out->n_plan;
}

/* Threads of a and b spliced into m->s; 1 when it can be written. */
static int splice(weft_mutator *m, const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
	decode(m, &m->a, a, na);
	decode(m, &m->b, b, nb);
	memset(&m->s, 0, sizeof m->s);
	m->rec.back = NULL;
	unsigned n = search_rng_below(&m->rng, 2) ? m->a.n_threads : m->b.n_threads;
	for (unsigned t = 0; t < n; t++) {
		int from_b = t >= m->a.n_threads ||
			     (t < m->b.n_threads && search_rng_below(&m->rng, 2));
		append_thread(&m->s, from_b ? &m->b : &m->a, t);
	}
	keep_parts(&m->s, &m->a);
	return normalize(m);
}

/*
 * libFuzzer calls the crossover for about half of its mutants: the bandit
 * decides there too, the splice being one arm; any other arm mutates `a`.
 */
size_t weft_crossover(weft_mutator *m, const uint8_t *a, size_t na, const uint8_t *b,
		      size_t nb, uint8_t *out, size_t max_out, unsigned seed)
{
	begin(m, seed, 8);
	if (mutate_focus_instead(&m->focus, &m->rng, max_out)) {   /* the frontier as `a` */
		a = m->focus.bytes;
		na = m->focus.size;
		m->stats.focused++;
	}
	decode_input(m, a, na);
	mutate_arm arm = pick_arm(m, allowed_arms(m, &m->s));
	int sampled;
	if (arm == MUTATE_SPLICE) {
		sampled = splice(m, a, na, b, nb);
		if (sampled)
			sample_any(m);
	} else {
		sampled = apply(m, arm, a, na);
	}
	size_t size;
	if (!write_out(m, sampled, out, max_out, &size)) {
		m->bandit.last = -1;
		size = na < max_out ? na : max_out;
		memmove(out, a, size);
	}
	return size;
}
