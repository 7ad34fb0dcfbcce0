/*
 * search/schedule_dfs.c - the exhaustive strategy (design in schedule_dfs.h).
 *
 * The path is an array of decision nodes, one per decision of the current
 * execution.  Nodes [0, replay) are replayed: their choice is fixed, and the
 * last of them is the branch being explored.  Past them, each new decision
 * takes the first allowed choice (the running thread itself when it may go on:
 * no preemption), and its node remembers what else must be tried there: every
 * enabled thread without reduction, or what the races found (dpor.c) with it.
 * After the execution, search_dfs_next pops exhausted nodes and moves the
 * deepest node with something left to its next choice.
 *
 * The sleep set travels with the execution: entering a node's branch puts to
 * sleep the threads explored there before it (and keeps those asleep on entry);
 * each step then wakes the sleeping threads whose own next step (remembered in
 * the node where they fell asleep) does not commute with it.  A decision where
 * every possible thread sleeps ends the useful part of the execution: it is
 * run to its end (the scheduler cannot stop a thread) but marked redundant,
 * makes no more nodes, and its steps after that point are not analysed.
 *
 * Data choices (issue 18: which store a load reads under the C11 model) are
 * nodes too, of their own kind: every answer in [0, bound) is tried, with
 * and without reduction (a different store read is a different execution, not
 * a reordering), and races never add to them.  Every choice branches: a
 * load's, a store buffer's, a timed wait's or sleep's "ends early" (dfs_choose).
 */
#include "schedule_dfs.h"

#include <stdlib.h>
#include <string.h>

#include "dpor.h"

typedef struct dfs_node {
	uint32_t step;           /* index of the step this decision starts */
	uint8_t thread;          /* the thread that was asked */
	uint8_t choice;          /* the thread that takes the step */
	uint8_t forced;          /* `thread` could not go on */
	uint8_t data;            /* a data choice (which store a load reads), not a
				    thread: choice = the answer, enabled = the answers */
	uint16_t preemptions;    /* preemptions before this decision */
	uint32_t enabled;        /* threads that could take the step */
	uint32_t backtrack;      /* threads to try here */
	uint32_t done;           /* threads tried here (the current choice included) */
	uint32_t sleep;          /* threads asleep on entry */
	uint32_t objects;        /* objects named before this decision (dpor.h) */
	dpor_step first[DPOR_MAX_THREADS];   /* each tried or sleeping thread's step from here */
	uint32_t known[DPOR_MAX_THREADS];    /* objects named before each of those steps */
} dfs_node;

struct search_dfs {
	const sched_trace *trace;
	unsigned bound;
	bool reduce, sleep_sets;
	bool weak_model;             /* C11, TSO or PSO (search_dfs_weak) */
	int early_thread;            /* the thread whose timed wait last ended early, or -1 */
	size_t early_event;          /* the trace's length then */
	uint8_t early[DPOR_MAX_THREADS];   /* timed waits each thread ended early */
	dfs_node *node;
	size_t n_nodes, cap, replay;
	/* the execution in progress */
	size_t cursor;               /* next node of the path */
	unsigned preemptions;
	uint32_t sleep;
	dpor_step sleep_step[DPOR_MAX_THREADS];   /* the step each sleeper would take */
	uint32_t sleep_known[DPOR_MAX_THREADS];   /* objects named before that step */
	uint32_t started;            /* threads that passed a switch point (fresh()) */
	bool stop_deciding;          /* redundant or diverged: no more nodes */
	size_t useful_steps;         /* steps before the execution became redundant */
	dpor_steps steps;
	int32_t *node_at;            /* step index -> node index, -1: no decision */
	size_t node_at_cap;
	search_dfs_execution cur, last;
};

static uint32_t bit(unsigned t) { return 1u << t; }
static unsigned lowest(uint32_t mask) { return (unsigned)__builtin_ctz(mask); }

search_dfs *search_dfs_new(const sched_trace *trace)
{
	search_dfs *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->trace = trace;
	dpor_steps_init(&d->steps);
	return d;
}

void search_dfs_free(search_dfs *d)
{
	if (!d)
		return;
	dpor_steps_free(&d->steps);
	free(d->node);
	free(d->node_at);
	free(d);
}

static void reset_execution(search_dfs *d)
{
	d->cursor = 0;
	d->preemptions = 0;
	d->sleep = 0;
	d->started = 0;
	d->stop_deciding = false;
	d->useful_steps = SIZE_MAX;
	d->early_thread = -1;
	memset(d->early, 0, sizeof d->early);
	dpor_steps_reset(&d->steps);
	memset(&d->cur, 0, offsetof(search_dfs_execution, preemption));
}

void search_dfs_start(search_dfs *d, unsigned preemption_bound, bool reduce)
{
	d->bound = preemption_bound;
	d->reduce = reduce;
	/* sleep sets assume every equivalent execution is explorable: not so under a bound */
	d->sleep_sets = reduce && preemption_bound == SEARCH_DFS_UNBOUNDED;
	d->n_nodes = 0;
	d->replay = 0;
	reset_execution(d);
}

void search_dfs_weak(search_dfs *d, bool weak)
{
	d->weak_model = weak;
	d->steps.weak = false;
}

/*
 * The execution in progress (the runner's: `trace` is its exec's) went past
 * sequential consistency: a location the C11 model tracks (an access that is
 * not seq_cst) or a store left in a TSO/PSO buffer.  Until some execution
 * does, the program behaves as under SC and the SC dependence is exact.
 */
static void watch_memory(search_dfs *d)
{
	const sched_exec *x = (const sched_exec *)(const void *)
			      ((const char *)d->trace - offsetof(sched_exec, trace));
	if (d->weak_model && (x->mem_locs > 0 || x->mem_buffered > 0))
		d->cur.weak_memory = true;
}

/* ---- during an execution ---- */

/* The step `st` wakes the sleepers it does not commute with (and its own thread). */
static void wake(search_dfs *d, const dpor_step *st)
{
	d->sleep &= ~bit(st->thread);
	for (uint32_t m = d->sleep; m; m &= m - 1) {
		unsigned q = lowest(m);
		if (dpor_dependent_later(&d->sleep_step[q], d->sleep_known[q], st))
			d->sleep &= ~bit(q);
	}
}

/* Read the trace's new steps: they are complete (every thread is at a switch point). */
static void parse(search_dfs *d)
{
	size_t before = d->steps.n;
	int rc = dpor_steps_parse(&d->steps, d->trace);
	if (rc == -2)
		d->cur.too_many_threads = true;
	else if (rc != 0)
		d->cur.out_of_memory = true;
	size_t last = d->cursor;
	while (last > 0 && d->node[last - 1].data)
		last--;   /* the thread decision the step belongs to */
	if (last > 0) {
		dfs_node *n = &d->node[last - 1];
		if (n->step < d->steps.n) {
			n->first[n->choice] = d->steps.step[n->step];
			n->known[n->choice] = n->objects;
		}
	}
	for (size_t i = before; i < d->steps.n; i++)
		wake(d, &d->steps.step[i]);
}

/* Weak models: a thread at its first switch point with no event yet: its start is a step. */
static void note_start(search_dfs *d, unsigned thread)
{
	size_t before = d->steps.n;
	if (dpor_steps_start(&d->steps, thread) != 0)
		d->cur.out_of_memory = true;
	for (size_t i = before; i < d->steps.n; i++)
		wake(d, &d->steps.step[i]);
}

/*
 * A thread just switched to that has not run at all yet: its first ask is no
 * decision.  Both halves matter.  A thread resumed after blocking (a lock it
 * now holds, a join that returned) has also been "just switched to" when it
 * reaches its next switch point, but it did something since (took the lock):
 * that ask is a decision, or the executions where another thread runs right
 * after the wake-up are never explored (issue 22: spawned program threads).
 */
static bool fresh(const search_dfs *d, unsigned thread)
{
	const sched_trace *t = d->trace;
	if (t->n == 0 || (d->started & bit(thread)))
		return false;
	const sched_event *e = &t->events[t->n - 1];
	return (e->kind == SCHED_EV_SWITCH || e->kind == SCHED_EV_PREEMPT) && e->other == thread;
}

/* The choices a node may take: all enabled, or only "go on" once the bound is spent. */
static uint32_t allowed(const search_dfs *d, const dfs_node *n)
{
	if (!n->forced && d->bound != SEARCH_DFS_UNBOUNDED && n->preemptions >= d->bound)
		return n->enabled & bit(n->thread);
	return n->enabled;
}

/* Entering node n's current branch: the threads tried there before go to sleep. */
static void enter(search_dfs *d, const dfs_node *n)
{
	if (!d->sleep_sets)
		return;
	d->sleep = n->sleep | (n->done & ~bit(n->choice));
	for (uint32_t m = d->sleep; m; m &= m - 1) {
		d->sleep_step[lowest(m)] = n->first[lowest(m)];
		d->sleep_known[lowest(m)] = n->known[lowest(m)];
	}
}

static dfs_node *push_node(search_dfs *d)
{
	if (d->n_nodes == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		dfs_node *more = realloc(d->node, cap * sizeof *more);
		if (!more)
			return NULL;
		d->node = more;
		d->cap = cap;
	}
	return &d->node[d->n_nodes++];
}

static unsigned stop(search_dfs *d, unsigned thread, bool forced, uint32_t enabled)
{
	d->stop_deciding = true;
	if (d->useful_steps == SIZE_MAX)
		d->useful_steps = d->steps.n;
	return forced ? lowest(enabled) : thread;
}

/* A decision never taken on this path: take the first allowed, awake choice. */
static unsigned new_decision(search_dfs *d, unsigned thread, bool forced, uint32_t enabled)
{
	dfs_node *n = push_node(d);
	if (!n) {
		d->cur.out_of_memory = true;
		return stop(d, thread, forced, enabled);
	}
	memset(n, 0, offsetof(dfs_node, first));
	/*
	 * Until a thread's step from here is seen, it conflicts with everything:
	 * a thread resumed after blocking may reach its next decision with no event
	 * (taking the lock it waited for records none), so the chosen thread's first
	 * step can be missing; a sleeper remembered with it then wakes at once.
	 */
	for (unsigned t = 0; t < DPOR_MAX_THREADS; t++) {
		n->first[t].n_access = DPOR_CONFLICTS_ALL;
		n->known[t] = 0;
	}
	n->step = (uint32_t)d->steps.n;
	n->thread = (uint8_t)thread;
	n->forced = forced;
	n->enabled = enabled;
	n->preemptions = (uint16_t)d->preemptions;
	n->objects = (uint32_t)d->steps.n_objects;
	n->sleep = d->sleep_sets ? d->sleep & enabled : 0;
	for (uint32_t m = n->sleep; m; m &= m - 1) {
		n->first[lowest(m)] = d->sleep_step[lowest(m)];
		n->known[lowest(m)] = d->sleep_known[lowest(m)];
	}
	if ((allowed(d, n) & enabled) != enabled)
		d->cur.bound_cut = true;
	uint32_t can = allowed(d, n) & ~n->sleep;
	if (!can) {   /* everything here is explored elsewhere */
		d->n_nodes--;
		d->cur.redundant = true;
		return stop(d, thread, forced, enabled);
	}
	n->choice = (uint8_t)(!forced && (can & bit(thread)) ? thread : lowest(can));
	n->done = bit(n->choice);
	n->backtrack = d->reduce ? n->done : enabled;
	d->cursor++;
	enter(d, n);
	return n->choice;
}

static unsigned decide(search_dfs *d, unsigned thread, bool forced, uint32_t enabled)
{
	if (d->stop_deciding)
		return forced ? lowest(enabled) : thread;
	if (d->cursor == d->n_nodes)
		return new_decision(d, thread, forced, enabled);
	dfs_node *n = &d->node[d->cursor];
	if (n->data || n->thread != thread || n->forced != forced || n->enabled != enabled ||
	    n->step != d->steps.n) {
		d->cur.diverged = true;
		d->n_nodes = d->cursor;
		return stop(d, thread, forced, enabled);
	}
	d->cursor++;
	enter(d, n);
	return n->choice;
}

/*
 * Count a preemption and note it for the input format.  A forced switch to
 * another thread than the lowest runnable one is written as a preemption one
 * step past where the call stopped (input/schedule_bytes.c); it is not a
 * preemption.  Note the forced picks that cannot be written.
 */
static void take(search_dfs *d, unsigned thread, uint32_t call, uint64_t step,
		 uint32_t runnable, bool forced, unsigned choice)
{
	search_dfs_execution *e = &d->cur;
	if (forced) {
		if (choice == lowest(runnable))
			return;
		if (e->n_preemptions >= INPUT_MAX_PREEMPTIONS) {
			e->forced_not_lowest = true;
			return;
		}
		e->preemption[e->n_preemptions].step = step + 1;
		e->preemption[e->n_preemptions].to = (uint8_t)choice;
		e->preempted_thread[e->n_preemptions] = (uint8_t)thread;
		e->preempted_call[e->n_preemptions++] = call;
		return;
	}
	if (choice == thread)
		return;
	d->preemptions++;
	if (e->n_preemptions < INPUT_MAX_PREEMPTIONS) {
		e->preemption[e->n_preemptions].step = step;
		e->preemption[e->n_preemptions].to = (uint8_t)choice;
		e->preempted_thread[e->n_preemptions] = (uint8_t)thread;
		e->preempted_call[e->n_preemptions++] = call;
	}
}

static unsigned dfs_pick(void *self, unsigned thread, uint32_t call, uint64_t step,
			 sched_mask all_runnable, bool forced)
{
	search_dfs *d = self;
	parse(d);
	watch_memory(d);
	if (all_runnable >> DPOR_MAX_THREADS || thread >= DPOR_MAX_THREADS) {
		d->cur.too_many_threads = true;   /* refused: see dpor.h */
		d->stop_deciding = true;
		return forced ? sched_lowest(all_runnable) : thread;
	}
	uint32_t runnable = (uint32_t)all_runnable;
	if (!forced)
		note_start(d, thread);
	bool first = !forced && fresh(d, thread);
	d->started |= bit(thread);
	if (first)
		return thread;
	uint32_t enabled = forced ? runnable : runnable | bit(thread);
	unsigned choice = decide(d, thread, forced, enabled);
	take(d, thread, call, step, runnable, forced, choice);
	return choice;
}

/* Be asked at every switch point; each one ends the thread's step. */
static uint64_t dfs_next_preemption(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	search_dfs *d = self;
	(void)call;
	watch_memory(d);
	if (step > 0) {
		d->started |= bit(thread);
		parse(d);
		note_start(d, thread);
		dpor_steps_boundary(&d->steps, thread);
	}
	return step + 1;
}

/*
 * Every data choice is a node of its own kind, whatever asked it: a C11 load
 * (which store it reads), a TSO/PSO access (how many buffered stores stay
 * buffered), a timed wait or sleep (does it end early: 0 = it waits until no
 * other thread can run, 1 = it ends now; the thread may then be preempted at
 * any later switch point, so "ends early" covers every moment it could wake).
 * A choice of more than 32 answers tries the first 32 only and says so
 * (choices_cut).  A timed wait's step is marked dependent with every step
 * (dpor_steps_mark) and wakes every sleeper: whether it blocks depends on
 * whether any other thread can run, which no object names.  A memory model's
 * choice is not: its answers depend on stores to the same location
 * (dependent) and on barriers, which the weak models' dependence orders
 * (dpor.h); marking those too cost 3x the executions on publish_once for
 * no class the corpus (tests/test_systematic_corpus.c) needed.
 */
#define SEARCH_DFS_MAX_EARLY 2

static bool memory_choice(const search_dfs *d)
{
	unsigned kind = d->trace->events[d->trace->n - 1].kind;
	return kind >= WEFT_ACCESS_LOAD && kind <= WEFT_ACCESS_FETCH_XOR;
}

/*
 * A timed wait that ended early, looped and waits again before any other thread
 * ran (`while (!ready) pthread_cond_timedwait(...)`): ending early again would
 * branch forever, each time with nothing changed but the loop's own state.  It
 * waits (answer 0: until no other thread can run) and the run is marked cut
 * (choices_cut: a program that counts its timeouts is not proved).  So does a
 * thread's wait past its SEARCH_DFS_MAX_EARLY-th early end in one execution:
 * a timeout loop beside a thread blocked on the loop's mutex otherwise
 * alternates to the step budget (a false step-budget failure).
 */
static bool early_again(const search_dfs *d, unsigned thread)
{
	if (thread < DPOR_MAX_THREADS && d->early[thread] >= SEARCH_DFS_MAX_EARLY)
		return true;
	if (d->early_thread != (int)thread)
		return false;
	for (size_t i = d->early_event; i < d->trace->n; i++)
		if (d->trace->events[i].thread != thread)
			return false;
	return true;
}

static uint64_t dfs_choose(void *self, uint64_t bound)
{
	search_dfs *d = self;
	watch_memory(d);
	if (bound < 2 || d->stop_deciding || d->trace->n == 0)
		return 0;
	if (bound > DPOR_MAX_THREADS) {
		d->cur.choices_cut = true;
		bound = DPOR_MAX_THREADS;
	}
	uint32_t answers = bound == 32 ? UINT32_MAX : (1u << bound) - 1;
	unsigned thread = d->trace->events[d->trace->n - 1].thread;
	bool timed = !memory_choice(d);
	if (timed && early_again(d, thread)) {
		d->cur.choices_cut = true;
		return 0;
	}
	if (timed) {   /* its step conflicts with all */
		dpor_steps_mark(&d->steps, thread);
		d->sleep = 0;
	}
	if (d->cursor < d->n_nodes) {
		dfs_node *n = &d->node[d->cursor];
		if (!n->data || n->thread != thread || n->enabled != answers) {
			d->cur.diverged = true;
			d->n_nodes = d->cursor;
			stop(d, thread, false, answers);
			return 0;
		}
		d->cursor++;
		d->cur.weak_reads += n->choice != 0;
		if (timed && n->choice) {
			if (thread < DPOR_MAX_THREADS)
				d->early[thread]++;
			d->early_thread = (int)thread;
			d->early_event = d->trace->n;
		}
		return n->choice;
	}
	dfs_node *n = push_node(d);
	if (!n) {
		d->cur.out_of_memory = true;
		stop(d, thread, false, answers);
		return 0;
	}
	memset(n, 0, offsetof(dfs_node, first));
	n->data = 1;
	n->step = (uint32_t)d->steps.n;
	n->thread = (uint8_t)thread;
	n->enabled = n->backtrack = answers;
	n->done = 1;
	n->preemptions = (uint16_t)d->preemptions;
	d->cursor++;
	return 0;
}

sched_strategy search_dfs_strategy(search_dfs *d)
{
	sched_strategy s = {
		.self = d,
		.next_preemption = dfs_next_preemption,
		.pick = dfs_pick,
		.choose = dfs_choose,
	};
	return s;
}

/* ---- between executions ---- */

static void add_backtrack_at(search_dfs *d, dfs_node *n, unsigned p, uint32_t initials);

/*
 * Several decisions may start step j (no event between them: a thread switched
 * to, then asked at a switch point before its first access).  Under SC the
 * first of them stands for all; under a weak memory model the thread did
 * something invisible in between (its start is a barrier: dpor.h), so every
 * one of them is asked to try the race's reversal.
 */
static void add_backtrack(search_dfs *d, size_t j, unsigned p, uint32_t initials)
{
	int32_t ni = d->node_at[j];
	if (ni < 0)
		return;   /* one thread could run there: nothing to try instead */
	for (size_t i = (size_t)ni; i < d->n_nodes && d->node[i].step == j; i++) {
		if (!d->node[i].data)
			add_backtrack_at(d, &d->node[i], p, initials);
		if (!d->steps.weak)
			break;
	}
}

static void add_backtrack_at(search_dfs *d, dfs_node *n, unsigned p, uint32_t initials)
{
	uint32_t want;
	if (d->sleep_sets) {   /* source sets: one initial is enough */
		if (initials & n->backtrack)
			return;
		want = (initials & bit(p)) ? bit(p) : bit(lowest(initials));
	} else {
		want = initials | bit(p);
	}
	n->backtrack |= (want & n->enabled) == want ? want : n->enabled;
}

static void on_race(void *ctx, size_t j, size_t k, uint32_t initials)
{
	search_dfs *d = ctx;
	unsigned p = d->steps.step[k].thread;
	add_backtrack(d, j, p, initials);
	if (d->sleep_sets)
		return;
	/* bounded: also where the racing thread's run of steps began (BPOR) */
	unsigned tj = d->steps.step[j].thread;
	size_t i = j;
	while (i > 0 && d->steps.step[i - 1].thread == tj)
		i--;
	if (i != j)
		add_backtrack(d, i, p, initials);
}

static int map_nodes(search_dfs *d)
{
	if (d->steps.n > d->node_at_cap) {
		int32_t *more = realloc(d->node_at, d->steps.n * sizeof *more);
		if (!more)
			return -1;
		d->node_at = more;
		d->node_at_cap = d->steps.n;
	}
	for (size_t i = 0; i < d->steps.n; i++)
		d->node_at[i] = -1;
	/* several decisions may start the same step (no event between them): the first */
	for (size_t i = d->n_nodes; i-- > 0;)
		if (!d->node[i].data && d->node[i].step < d->steps.n)
			d->node_at[d->node[i].step] = (int32_t)i;
	return 0;
}

/* Races among the steps this execution added: they ask for more branches above. */
static void analyse(search_dfs *d, size_t first_new_step)
{
	size_t end = d->useful_steps < d->steps.n ? d->useful_steps : d->steps.n;
	if (map_nodes(d) != 0 || dpor_races(&d->steps, first_new_step, end, on_race, d) != 0)
		d->cur.out_of_memory = true;
}

/* Move the deepest node with an untried, allowed, awake choice to it. */
static int backtrack(search_dfs *d)
{
	while (d->n_nodes > 0) {
		dfs_node *n = &d->node[d->n_nodes - 1];
		uint32_t can = n->data ? n->enabled & ~n->done :
			       n->backtrack & allowed(d, n) & ~n->done & ~n->sleep;
		if (can) {
			n->choice = (uint8_t)lowest(can);
			n->done |= bit(n->choice);
			d->replay = d->n_nodes;
			return 1;
		}
		d->n_nodes--;
	}
	d->replay = 0;
	return 0;
}

int search_dfs_next(search_dfs *d)
{
	size_t first_new_step = d->replay > 0 ? d->node[d->replay - 1].step : 0;
	parse(d);
	if (d->cursor < d->replay && !d->stop_deciding)
		d->cur.diverged = true;   /* ended before the branch being explored */
	d->n_nodes = d->cursor;
	watch_memory(d);
	if (d->reduce && d->cur.weak_memory && !d->steps.weak) {
		/* the SC dependence may have pruned classes already: start again */
		d->steps.weak = true;
		d->cur.restart = true;
		d->last = d->cur;
		d->n_nodes = 0;
		d->replay = 0;
		reset_execution(d);
		return 1;
	}
	if (d->reduce && !d->cur.diverged && !d->cur.too_many_threads)
		analyse(d, first_new_step);
	d->last = d->cur;
	bool broken = d->cur.diverged || d->cur.out_of_memory || d->cur.too_many_threads;
	int more = broken ? 0 : backtrack(d);
	reset_execution(d);
	return more;
}

const search_dfs_execution *search_dfs_last(const search_dfs *d)
{
	return &d->last;
}

void search_dfs_plan(const search_dfs_execution *e, input_scenario *s)
{
	uint32_t call[INPUT_MAX_PREEMPTIONS];
	for (unsigned i = 0; i < e->n_preemptions; i++) {
		unsigned t = e->preempted_thread[i];
		call[i] = e->preempted_call[i];
		if (call[i] == INPUT_NO_CALL && t < INPUT_MAX_THREADS) {
			input_scenario_list_program_threads(s, t);
			if (t < s->n_threads)
				call[i] = s->first_call[t];
		}
	}
	s->n_plan = 0;
	for (unsigned c = 0; c < s->n_calls; c++) {
		s->first_plan[c] = s->n_plan;
		for (unsigned i = 0; i < e->n_preemptions; i++)
			if (call[i] == c)
				s->plan[s->n_plan++] = e->preemption[i];
	}
	s->first_plan[s->n_calls] = s->n_plan;
}
