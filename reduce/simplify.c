/*
 * reduce/simplify.c - make a failing input as simple to read as possible,
 * keeping its failure kind: fewer weak reads first (loads that read an older
 * store, issue 18: dejafu counts its commits first), then fewer preemptions, then fewer other
 * switches, then fewer operations, then fewer threads (dejafu's order: a long
 * trace that switches only when a thread finishes reads better than a short
 * one that jumps between threads).
 *
 * Why a pass of its own after the fuzzer's minimizer: libFuzzer's
 * -minimize_crash and afl-tmin shorten the bytes, which (scenario.h) removes
 * operations, threads and preemptions; they do not move a preemption to a
 * point where another one becomes unnecessary, lower an argument, or pick the
 * simplest of equally short inputs.  This pass edits the decoded scenario and
 * its preemption plan, not bytes:
 *   remove a preemption; remove a thread; remove an operation;
 *   exchange two threads' lists; merge one thread into another;
 *   move an operation to another thread;
 *   move a preemption one step earlier or later; switch to another thread;
 *   lower an argument or an operation kind; exchange two calls' arguments;
 *   lower one argument while another call's takes each value;
 *   remove an operation of the init or post part, lower its arguments;
 *   read a newer store (a data choice set to 0, or lowered by one);
 * writes each candidate back with input_scenario_encode, replays it, and
 * keeps it when it fails with the same symptom (verdict and site,
 * report/symptom.c: a candidate that fails differently is another failure,
 * not a smaller one; a target that dies is judged in child processes,
 * judge.c) and its complexity key
 * (preemptions, other switches, operations, threads, planned preemptions,
 * length, bytes) is smaller.  Rounds repeat until no candidate is kept, so
 * the result is a fixed point: simplifying it again changes nothing.  When
 * a round keeps nothing, reschedule.c tries variants of the scenario under
 * new schedules (a local minimum of these edits is often one changed call
 * plus a different plan away from a simpler failure).
 * The canonical tie-break: the key is a total order, and an escape that
 * finds nothing simpler moves to the least equal-complexity key among every
 * schedule of every variant it ran, so crashes of one bug that reach the
 * minimum reach one spelling of it, one report (tests/simplify_canonical.sh).
 * Why the file passes 600 lines: the moves share the candidate loop and the
 * best; splitting them needs the simplifier's state in a header (next step).
 * Replaying instead of reasoning about independent steps (dejafu does the
 * latter) costs a few thousand executions at most, milliseconds here.
 */
#include "weft/run.h"

#include <stdlib.h>
#include <string.h>

#include "../input/choice.h"
#include "../input/scenario.h"
#include "../runner/runner_internal.h"
#include "judge.h"
#include "reschedule.h"
#include "scenario_edit.h"

#define SIMPLIFY_MAX_RUNS 20000
#define SIMPLIFY_MAX_BYTES 4096
#define SIMPLIFY_PAIR_VALUES 64   /* values tried for the second argument of a pair */
#define SIMPLIFY_ESCAPE_RUNS 2000   /* per fixed point (reschedule.c): program targets run slowly */

typedef struct candidate_key {
	weft_complexity c;
	unsigned planned;
	size_t size;
	uint8_t bytes[SIMPLIFY_MAX_BYTES];
} candidate_key;


typedef struct simplifier {
	weft_runner *runner;
	const weft_target *target;
	input_bounds bounds;
	weft_verdict keep;
	char keep_symptom[REDUCE_SYMPTOM_MAX];   /* what "fails the same way" means (judge.h) */
	int in_child;   /* the first run died: every run in a child process (judge.c) */
	reduce_judgement judged;
	unsigned runs;
	input_scenario best, cand;
	candidate_key best_key, cand_key;
	weft_complexity original;
	reduce_lists lists;   /* scratch for restructuring moves */
	reduce_rescheduler resched;   /* new plans at a fixed point */
	int has_tie;   /* an escape found an equal complexity with a smaller key: */
	input_scenario tie;   /* the least one */
	candidate_key tie_key;
} simplifier;

weft_complexity weft_complexity_of(const weft_result *r)
{
	weft_complexity c = {
		.preemptions = r->preemptions,
		.switches = r->switches - r->preemptions,
		.operations = r->n_ops,
		.threads = r->n_threads,
		.weak_reads = r->weak_reads,
	};
	return c;
}

static int compare_unsigned(unsigned a, unsigned b)
{
	return (a > b) - (a < b);
}

static int compare_complexity(const weft_complexity *a, const weft_complexity *b)
{
	int d = compare_unsigned(a->weak_reads, b->weak_reads);
	if (!d) d = compare_unsigned(a->preemptions, b->preemptions);
	if (!d) d = compare_unsigned(a->switches, b->switches);
	if (!d) d = compare_unsigned(a->operations, b->operations);
	if (!d) d = compare_unsigned(a->threads, b->threads);
	return d;
}

static int compare_keys(const candidate_key *a, const candidate_key *b)
{
	int d = compare_complexity(&a->c, &b->c);
	if (!d) d = compare_unsigned(a->planned, b->planned);
	if (!d) d = (a->size > b->size) - (a->size < b->size);
	if (!d) d = memcmp(a->bytes, b->bytes, a->size);
	return d;
}

/* Decode bytes into `s` exactly as the runner does. */
static void decode(simplifier *z, input_scenario *s, const uint8_t *data, size_t size)
{
	input_choices c;
	input_choices_init(&c, data, size);
	input_scenario_decode(s, z->target, &z->bounds, &c);
}

/* Run bytes, here or (the target dies) in a child; 0 if no child could be made. */
static int judge(simplifier *z, const uint8_t *bytes, size_t size)
{
	z->runs++;
	if (!z->in_child) {
		reduce_judge_here(z->runner, bytes, size, &z->judged);
		return 1;
	}
	return reduce_judge_child(z->runner, bytes, size, &z->judged) == 0;
}

/* A run's complexity; a death without weft's counts: the scenario's own (plan, calls, threads). */
static weft_complexity judged_complexity(const simplifier *z, const input_scenario *s)
{
	if (z->judged.counted)
		return z->judged.c;
	weft_complexity c = { .preemptions = s->n_plan, .operations = s->n_calls,
			      .threads = s->n_threads };
	return c;
}

/*
 * Run key->bytes as scenario s; 1 if it fails the same way, its symptom (the
 * verdict and site: report/symptom.c, or a death's kind and frame) the
 * original's, and fill key's complexity.  s's data choices become the ones
 * the run made: what the bytes really say.
 */
static int run_key(simplifier *z, candidate_key *key, input_scenario *s)
{
	reduce_judgement *j = &z->judged;
	if (!judge(z, key->bytes, key->size))
		return 0;
	if (!j->died) {
		s->n_data = j->n_data;
		memcpy(s->data, j->data, j->n_data * sizeof j->data[0]);
	}
	if (j->verdict != z->keep || strcmp(j->symptom, z->keep_symptom) != 0)
		return 0;
	key->c = judged_complexity(z, s);
	return 1;
}

/* Encode, decode and replay z->cand into z->cand_key; 1 if it fails the same way. */
static int judge_candidate(simplifier *z)
{
	if (z->runs >= SIMPLIFY_MAX_RUNS)
		return 0;
	candidate_key *k = &z->cand_key;
	k->size = input_scenario_encode(&z->cand, z->target, &z->bounds, k->bytes, sizeof k->bytes);
	if (k->size == INPUT_ENCODE_FAILED)
		return 0;
	decode(z, &z->cand, k->bytes, k->size);   /* what the bytes really say */
	k->planned = z->cand.n_plan;
	return run_key(z, k, &z->cand);
}

/* Encode, replay and compare z->cand; keep it as the best when simpler. */
static int try_candidate(simplifier *z)
{
	if (!judge_candidate(z) || compare_keys(&z->cand_key, &z->best_key) >= 0)
		return 0;
	z->best = z->cand;
	memcpy(&z->best_key, &z->cand_key, sizeof z->cand_key);
	return 1;
}

/*
 * A restructuring (threads exchanged, an operation moved) often makes one
 * preemption unnecessary and wrong at once: try it alone, then with each
 * preemption removed.
 */
static int try_restructured(simplifier *z)
{
	input_scenario moved = z->cand;
	if (try_candidate(z))
		return 1;
	for (unsigned p = 0; p < moved.n_plan; p++) {
		z->cand = moved;
		reduce_remove_plan(&z->cand, p);
		if (try_candidate(z))
			return 1;
	}
	return 0;
}

/* ---- the moves, simplest first; each returns 1 when one was kept ---- */

static int try_remove_preemptions(simplifier *z)
{
	for (unsigned p = 0; p < z->best.n_plan; p++) {
		z->cand = z->best;
		reduce_remove_plan(&z->cand, p);
		if (try_candidate(z))
			return 1;
	}
	return 0;
}

static int try_remove_threads(simplifier *z)
{
	for (unsigned t = z->best.n_threads; t-- > 0;) {
		if (z->best.n_threads <= z->bounds.min_threads)
			return 0;
		z->cand = z->best;
		reduce_remove_thread(&z->cand, t);
		if (try_candidate(z))
			return 1;
	}
	return 0;
}

static int try_remove_calls(simplifier *z)
{
	for (unsigned c = z->best.n_calls; c-- > 0;) {
		z->cand = z->best;
		reduce_remove_call(&z->cand, c);
		if (try_candidate(z))
			return 1;
	}
	return 0;
}

/* Exchange two threads' lists: the thread that runs first changes. */
static int try_swap_threads(simplifier *z)
{
	reduce_lists *l = &z->lists;
	for (unsigned a = 0; a < z->best.n_threads; a++) {
		for (unsigned b = a + 1; b < z->best.n_threads; b++) {
			reduce_swap_lists(l, &z->best, a, b);
			reduce_rebuild(&z->cand, &z->best, l, &z->bounds);
			if (try_restructured(z))
				return 1;
		}
	}
	return 0;
}

/* Move one call to the start or the end of another thread's list. */
static int try_move_calls(simplifier *z)
{
	reduce_lists *l = &z->lists;
	for (unsigned c = 0; c < z->best.n_calls; c++) {
		unsigned from = z->best.calls[c].thread;
		for (unsigned to = 0; to < z->best.n_threads; to++) {
			for (int at_end = 0; at_end <= 1 && to != from; at_end++) {
				reduce_lists_of(l, &z->best);
				unsigned i = c - z->best.first_call[from];
				memmove(&l->call[from][i], &l->call[from][i + 1],
					(l->n[from] - i - 1) * sizeof l->call[0][0]);
				l->n[from]--;
				if (!at_end)
					memmove(&l->call[to][1], &l->call[to][0], l->n[to] * sizeof l->call[0][0]);
				l->call[to][at_end ? l->n[to] : 0] = c;
				l->n[to]++;
				reduce_rebuild(&z->cand, &z->best, l, &z->bounds);
				if (try_restructured(z))
					return 1;
			}
		}
	}
	return 0;
}

/*
 * Merge thread a into thread b (its calls before or after b's own), one
 * thread fewer: a local minimum often runs a thread to its end right before
 * or after another, so one thread can run both lists with the same trace
 * points preempted (the plan records travel with their calls; a switch to a
 * now goes to b).  Removing a thread or moving one call cannot get there:
 * each intermediate input is more complex or passes.
 */
static int try_merge_threads(simplifier *z)
{
	reduce_lists *l = &z->lists;
	if (z->best.n_threads <= z->bounds.min_threads)
		return 0;
	for (unsigned a = 0; a < z->best.n_threads; a++) {
		for (unsigned b = 0; b < z->best.n_threads; b++) {
			for (int after = 0; after <= 1 && a != b; after++) {
				reduce_merge_lists(l, &z->best, a, b, after);
				reduce_rebuild(&z->cand, &z->best, l, &z->bounds);
				if (try_restructured(z))
					return 1;
			}
		}
	}
	return 0;
}

/* The call whose plan holds record p. */
static unsigned call_of_plan(const input_scenario *s, unsigned p)
{
	unsigned c = 0;
	while (c + 1 < s->n_calls && s->first_plan[c + 1] <= p)
		c++;
	return c;
}

/*
 * Move record p to the same step of the thread's previous or next call (the
 * plan stays in call order: it becomes that call's last or first record).
 */
static int try_move_to_neighbour_call(simplifier *z, unsigned p)
{
	unsigned c = call_of_plan(&z->best, p);
	unsigned thread = z->best.calls[c].thread;
	for (int dir = -1; dir <= 1; dir += 2) {
		if ((dir < 0 && c == z->best.first_call[thread]) ||
		    (dir > 0 && c + 1 >= z->best.first_call[thread + 1]))
			continue;
		z->cand = z->best;
		input_preemption moved = z->cand.plan[p];
		reduce_remove_plan(&z->cand, p);
		unsigned to_call = (unsigned)((int)c + dir);
		unsigned at = dir < 0 ? z->cand.first_plan[to_call + 1] : z->cand.first_plan[to_call];
		memmove(&z->cand.plan[at + 1], &z->cand.plan[at],
			(z->cand.n_plan - at) * sizeof z->cand.plan[0]);
		z->cand.plan[at] = moved;
		z->cand.n_plan++;
		for (unsigned k = to_call + 1; k <= z->cand.n_calls; k++)
			z->cand.first_plan[k]++;   /* the record is to_call's first or last */
		if (try_candidate(z))
			return 1;
	}
	return 0;
}

static int try_move_preemptions(simplifier *z)
{
	for (unsigned p = 0; p < z->best.n_plan; p++) {
		if (try_move_to_neighbour_call(z, p))
			return 1;
		for (int delta = -1; delta <= 1; delta += 2) {
			z->cand = z->best;
			uint64_t step = z->cand.plan[p].step;
			if (delta < 0 && step <= 1)
				continue;
			z->cand.plan[p].step = delta < 0 ? step - 1 : step + 1;
			if (try_candidate(z))
				return 1;
		}
		for (unsigned to = 0; to < z->best.n_threads; to++) {
			if (to == z->best.plan[p].to)
				continue;
			z->cand = z->best;
			z->cand.plan[p].to = (uint8_t)to;
			if (try_candidate(z))
				return 1;
		}
	}
	return 0;
}

/* Lower argument a of call c to its minimum, or by one. */
static int try_lower_arg(simplifier *z, unsigned c, int a)
{
	const weft_range r = z->target->ops[z->best.calls[c].op].args[a];
	int64_t v = z->best.calls[c].args[a];
	if (v <= r.min)
		return 0;
	z->cand = z->best;
	z->cand.calls[c].args[a] = r.min;
	if (try_candidate(z))
		return 1;
	z->cand = z->best;
	z->cand.calls[c].args[a] = v - 1;
	return v - 1 > r.min && try_candidate(z);
}

static int try_lower_calls(simplifier *z)
{
	for (unsigned c = 0; c < z->best.n_calls; c++) {
		const weft_op *op = &z->target->ops[z->best.calls[c].op];
		for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
			if (try_lower_arg(z, c, a))
				return 1;
		for (unsigned k = 0; k < z->bounds.n_thread_ops; k++) {
			unsigned other = z->bounds.thread_ops[k];
			if (other >= z->best.calls[c].op)
				break;
			z->cand = z->best;
			z->cand.calls[c].op = other;
			for (int a = 0; a < WEFT_MAX_ARGS; a++)
				z->cand.calls[c].args[a] = z->target->ops[other].args[a].min;
			if (try_candidate(z))
				return 1;
		}
	}
	return 0;
}

/* Exchange the arguments of two calls of one operation (smaller values first). */
static int try_exchange_args(simplifier *z)
{
	for (unsigned a = 0; a < z->best.n_calls; a++) {
		for (unsigned b = a + 1; b < z->best.n_calls; b++) {
			if (z->best.calls[a].op != z->best.calls[b].op ||
			    !memcmp(z->best.calls[a].args, z->best.calls[b].args,
				    sizeof z->best.calls[a].args))
				continue;
			z->cand = z->best;
			memcpy(z->cand.calls[a].args, z->best.calls[b].args, sizeof z->cand.calls[a].args);
			memcpy(z->cand.calls[b].args, z->best.calls[a].args, sizeof z->cand.calls[b].args);
			if (try_candidate(z))
				return 1;
		}
	}
	return 0;
}

/* Call a's argument i at its minimum, each of call b's arguments over its range. */
static int try_pair_values(simplifier *z, unsigned a, int i, unsigned b)
{
	const weft_op *op_b = &z->target->ops[z->best.calls[b].op];
	for (int j = 0; j < op_b->n_args && j < WEFT_MAX_ARGS; j++) {
		const weft_range r = op_b->args[j];
		int64_t now = z->best.calls[b].args[j];
		for (int64_t v = r.min; v <= r.max && v - r.min < SIMPLIFY_PAIR_VALUES; v++) {
			if (v == now)
				continue;
			z->cand = z->best;
			z->cand.calls[a].args[i] = z->target->ops[z->best.calls[a].op].args[i].min;
			z->cand.calls[b].args[j] = v;
			if (try_candidate(z))
				return 1;
		}
	}
	return 0;
}

/*
 * Lower one call's argument to its minimum while another call's argument
 * takes each value of its range (the first SIMPLIFY_PAIR_VALUES): a bug that
 * needs two arguments in a relation (key_lock_set's colliding keys, add(2)
 * and add(15)) keeps neither lowered alone, and exchanging them is no lower;
 * add(14) and add(1) is, and only both changed at once reach it.
 */
static int try_pair_args(simplifier *z)
{
	for (unsigned a = 0; a < z->best.n_calls; a++) {
		const weft_op *op_a = &z->target->ops[z->best.calls[a].op];
		for (int i = 0; i < op_a->n_args && i < WEFT_MAX_ARGS; i++) {
			if (z->best.calls[a].args[i] <= op_a->args[i].min)
				continue;
			for (unsigned b = 0; b < z->best.n_calls; b++)
				if (b != a && try_pair_values(z, a, i, b))
					return 1;
		}
	}
	return 0;
}

/* ---- the sequential parts (input/scenario.h): shorter, then lower arguments ---- */

static weft_op_record *part_of(input_scenario *s, int post, unsigned **n)
{
	*n = post ? &s->n_post : &s->n_init;
	return post ? s->post : s->init;
}

static int try_remove_part_calls(simplifier *z)
{
	for (int post = 0; post < 2; post++) {
		unsigned *n, n_best = post ? z->best.n_post : z->best.n_init;
		for (unsigned i = 0; i < n_best; i++) {
			z->cand = z->best;
			weft_op_record *part = part_of(&z->cand, post, &n);
			memmove(&part[i], &part[i + 1], (*n - i - 1) * sizeof part[0]);
			--*n;
			if (try_candidate(z))
				return 1;
		}
	}
	return 0;
}

static int try_lower_part_args(simplifier *z)
{
	for (int post = 0; post < 2; post++) {
		unsigned *n;
		const weft_op_record *part = part_of(&z->best, post, &n);
		for (unsigned i = 0; i < *n; i++) {
			const weft_op *op = &z->target->ops[part[i].op];
			for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++) {
				if (part[i].args[a] <= op->args[a].min)
					continue;
				z->cand = z->best;
				part_of(&z->cand, post, &n)[i].args[a] = op->args[a].min;
				if (try_candidate(z))
					return 1;
			}
		}
	}
	return 0;
}

/* Read a newer store: each data choice to 0, else one lower (0 = the newest). */
static int try_lower_data(simplifier *z)
{
	for (unsigned i = 0; i < z->best.n_data; i++) {
		uint64_t v = z->best.data[i].value;
		if (v == 0)
			continue;
		z->cand = z->best;
		z->cand.data[i].value = 0;
		if (try_candidate(z))
			return 1;
		z->cand = z->best;
		z->cand.data[i].value = v - 1;
		if (v > 1 && try_candidate(z))
			return 1;
	}
	return 0;
}

static int simplify_round(simplifier *z)
{
	return try_lower_data(z) || try_remove_preemptions(z) || try_remove_threads(z) ||
	       try_remove_calls(z) || try_remove_part_calls(z) || try_merge_threads(z) || try_swap_threads(z) ||
	       try_move_calls(z) || try_move_preemptions(z) || try_lower_calls(z) ||
	       try_exchange_args(z) || try_pair_args(z) || try_lower_part_args(z);
}

/*
 * The rescheduler's offer (reschedule.h): taken at once when its complexity
 * is smaller; one of equal complexity with a smaller key (the canonical
 * tie-break: planned records, length, bytes) is only remembered, the least
 * such one of the whole escape, and taken when nothing simpler turned up.
 */
static int offer(void *ctx, input_scenario *s)
{
	simplifier *z = ctx;
	z->cand = *s;
	if (!judge_candidate(z))
		return 0;
	const candidate_key *k = &z->cand_key;
	if (compare_complexity(&k->c, &z->best_key.c) < 0) {
		z->best = z->cand;
		memcpy(&z->best_key, k, sizeof *k);
		return 1;
	}
	if (compare_keys(k, &z->best_key) < 0 && (!z->has_tie || compare_keys(k, &z->tie_key) < 0)) {
		z->tie = z->cand;
		memcpy(&z->tie_key, k, sizeof *k);
		z->has_tie = 1;
	}
	return 0;
}

/*
 * At a fixed point of the rounds, variants of the best under new schedules
 * with no more preemptions (reschedule.c); the rounds go on after one is kept.
 * Why the ties: the rounds' edits keep a candidate only when its key is
 * smaller, so from two crashes of one bug they can stop at two spellings of
 * equal complexity (resize_set's five adds split 3 + 2 or 2 + 3) that no
 * single edit joins; every schedule of every variant is one step here, so
 * the least key among them is the canonical spelling both reach.
 */
static int escape_fixed_point(simplifier *z)
{
	reduce_rescheduler *x = &z->resched;
	if (!x->dfs || z->in_child)   /* its runs are in-process (reschedule.c): a death kills */
		return 0;
	x->keep = z->keep;
	x->runs = &z->runs;
	x->max_runs = z->runs + SIMPLIFY_ESCAPE_RUNS;   /* each escape's own budget */
	if (x->max_runs > SIMPLIFY_MAX_RUNS)
		x->max_runs = SIMPLIFY_MAX_RUNS;
	x->offer = offer;
	x->ctx = z;
	z->has_tie = 0;
	if (reduce_reschedule(x, &z->best, z->best_key.c.preemptions))
		return 1;
	if (!z->has_tie)
		return 0;
	z->best = z->tie;
	memcpy(&z->best_key, &z->tie_key, sizeof z->tie_key);
	return 1;
}

/*
 * The starting point: the input as given, then its canonical spelling if that
 * fails alike.  Its first run is in a child: if that dies, so would this
 * process, and every run goes to a child from then on.
 */
static int start(simplifier *z, const uint8_t *buf, size_t size)
{
	candidate_key *k = &z->best_key;
	memcpy(k->bytes, buf, size);
	k->size = size;
	z->in_child = 1;
	z->runs = 1;
	if (reduce_judge_child(z->runner, buf, size, &z->judged) != 0)
		reduce_judge_here(z->runner, buf, size, &z->judged);   /* no fork: as before */
	z->in_child = z->judged.died;
	z->keep = z->judged.verdict;
	if (!z->judged.died && (z->keep == WEFT_PASS || z->keep == WEFT_ERROR))
		return 0;
	memcpy(z->keep_symptom, z->judged.symptom, sizeof z->keep_symptom);
	decode(z, &z->best, buf, size);
	if (!z->judged.died) {
		z->best.n_data = z->judged.n_data;
		memcpy(z->best.data, z->judged.data, z->judged.n_data * sizeof z->judged.data[0]);
	}
	k->c = judged_complexity(z, &z->best);
	z->original = k->c;
	k->planned = z->best.n_plan;
	z->cand = z->best;
	try_candidate(z);
	return 1;
}

size_t weft_runner_simplify(weft_runner *runner, uint8_t *buf, size_t size, size_t cap,
			    weft_complexity *before, weft_complexity *after)
{
	if (size > SIMPLIFY_MAX_BYTES)
		return size;
	simplifier *z = malloc(sizeof *z);
	if (!z)
		return size;
	z->runner = runner;
	z->target = weft_runner_target(runner);
	z->bounds = input_bounds_of(z->target);
	memset(&z->original, 0, sizeof z->original);
	if (reduce_rescheduler_init(&z->resched, runner, &z->bounds) != 0)
		z->resched.dfs = NULL;   /* out of memory: the rounds alone */
	int fails = start(z, buf, size);
	if (fails)
		while (simplify_round(z) || escape_fixed_point(z))
			;
	reduce_rescheduler_free(&z->resched);
	size_t n = size;
	if (fails && z->best_key.size <= cap) {
		n = z->best_key.size;
		memcpy(buf, z->best_key.bytes, n);
	}
	if (before)
		*before = z->original;
	if (after)
		*after = z->best_key.c;
	if (!z->in_child)   /* a dying target's last run would end this process */
		weft_runner_run(runner, buf, n, NULL);   /* leave the result's report behind */
	free(z);
	return n;
}
