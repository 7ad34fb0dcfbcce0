/*
 * report/report.c - an execution as a person reads it.
 *
 *   ==weft== FAIL validation in counter_buggy: <message>
 *   ==weft== 2 threads, 2 operations, 1 preemption, 2 switches, 6 steps
 *   scenario:
 *     thread 0: increment()
 *     thread 1: increment()
 *   interleaving:
 *      step  thread 0                        thread 1
 *         1  increment()
 *         2  load counter.c:37 -> 0
 *         3  ~~ preempted ~~>
 *   ...
 *   after all threads: get() = 1
 *   history (each operation from its start to its return; time = step):
 *     thread 0          |--- increment() = 0 ---|
 *     thread 1            |- increment() = 0 -|
 *     thread 2 (final)                            |- get() = 1 -|
 *   linearizability ...
 * Steps are numbered from 1 in trace order.  The history picture is there
 * because overlap is what linearizability is about: which operations were
 * concurrent is hard to read off the interleaving, easy off intervals.
 */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


#define COLUMN_WIDTH 30

const char *report_access_name(unsigned kind)
{
	static const char *const names[WEFT_ACCESS_KIND_COUNT] = {
		[WEFT_ACCESS_LOAD] = "load", [WEFT_ACCESS_STORE] = "store",
		[WEFT_ACCESS_EXCHANGE] = "xchg", [WEFT_ACCESS_CAS] = "cas",
		[WEFT_ACCESS_FETCH_ADD] = "fetch_add", [WEFT_ACCESS_FETCH_SUB] = "fetch_sub",
		[WEFT_ACCESS_FETCH_AND] = "fetch_and", [WEFT_ACCESS_FETCH_OR] = "fetch_or",
		[WEFT_ACCESS_FETCH_XOR] = "fetch_xor", [WEFT_ACCESS_YIELD] = "yield",
		[WEFT_ACCESS_LOCK] = "lock", [WEFT_ACCESS_TRYLOCK] = "trylock",
		[WEFT_ACCESS_UNLOCK] = "unlock", [WEFT_ACCESS_RDLOCK] = "rdlock",
		[WEFT_ACCESS_WAIT] = "wait", [WEFT_ACCESS_SIGNAL] = "signal",
		[WEFT_ACCESS_BROADCAST] = "broadcast", [WEFT_ACCESS_SEM_WAIT] = "sem_wait",
		[WEFT_ACCESS_SEM_POST] = "sem_post", [WEFT_ACCESS_SPAWN] = "spawn",
		[WEFT_ACCESS_JOIN] = "join", [WEFT_ACCESS_FENCE] = "fence",
		[WEFT_ACCESS_BARRIER] = "barrier", [WEFT_ACCESS_ONCE] = "once",
	};
	return kind < WEFT_ACCESS_KIND_COUNT && names[kind] ? names[kind] : "?";
}

const char *report_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void format_value(char *buf, size_t cap, const sched_event *e)
{
	char read[24];
	if (e->is_pointer)
		snprintf(read, sizeof read, "%s", e->value ? "ptr" : "NULL");
	else
		snprintf(read, sizeof read, "%" PRId64, (int64_t)e->value);
	if (e->kind == WEFT_ACCESS_CAS)   /* "ok, read 0", "failed, read 3" */
		snprintf(buf, cap, "%s, read %s", sched_cas_wrote(e) ? "ok" : "failed", read);
	else
		snprintf(buf, cap, "%s", read);
}

/* A blocking primitive: "lock bq.c:30 #1", "wait bq.c:41 #2 -> timed out", ... */
static void format_sync(char *buf, size_t cap, const sched_event *e, const char *file, int line)
{
	const char *name = report_access_name(e->kind);
	const char *outcome = "";
	switch (e->kind) {
	case WEFT_ACCESS_TRYLOCK:
	case WEFT_ACCESS_RDLOCK:
		outcome = e->value ? "" : " -> busy";
		break;
	case WEFT_ACCESS_WAIT:
		outcome = e->value ? " -> timed out" : "";
		break;
	case WEFT_ACCESS_SEM_WAIT:
		outcome = e->value == 1 ? "" : e->value == 2 ? " -> timed out" : " -> none";
		break;
	case WEFT_ACCESS_BARRIER:
		outcome = e->value ? " -> last, serial" : "";
		break;
	case WEFT_ACCESS_ONCE:
		outcome = e->value ? " -> runs it" : "";
		break;
	case WEFT_ACCESS_SPAWN:
	case WEFT_ACCESS_JOIN:
		snprintf(buf, cap, "%s %s:%d thread %" PRIu64, name, file, line, e->value);
		return;
	case WEFT_ACCESS_SIGNAL:
		if (e->value) {
			snprintf(buf, cap, "signal %s:%d #%u -> thread %" PRIu64, file, line, e->other,
				 e->value - 1);
			return;
		}
		outcome = " -> nobody";
		break;
	default:
		break;
	}
	snprintf(buf, cap, "%s %s:%d #%u%s", name, file, line, e->other, outcome);
}

static void format_access(char *buf, size_t cap, const sched_event *e)
{
	char value[48];   /* "failed, read -9223372036854775808" */
	format_value(value, sizeof value, e);
	const char *file = e->site ? report_base_name(e->site->file) : "?";
	int line = e->site ? e->site->line : 0;
	if (e->kind == WEFT_ACCESS_FENCE) {   /* value: the memory order */
		static const char *const orders[] = { "relaxed", "consume", "acquire", "release",
						      "acq_rel", "seq_cst" };
		snprintf(buf, cap, "fence %s:%d %s", file, line,
			 e->value < 6 ? orders[e->value] : "?");
		return;
	}
	if (e->kind >= WEFT_ACCESS_LOCK) {
		format_sync(buf, cap, e, file, line);
		return;
	}
	if (e->kind == WEFT_ACCESS_YIELD)
		snprintf(buf, cap, "yield %s:%d", file, line);
	else if (e->kind == WEFT_ACCESS_STORE)
		snprintf(buf, cap, "store %s:%d <- %s", file, line, value);
	else
		snprintf(buf, cap, "%s %s:%d -> %s", report_access_name(e->kind), file, line, value);
}

/* One event as the text of its thread's column; "" for events not shown. */
void report_format_event(char *buf, size_t cap, const report_case *c, const sched_event *e)
{
	char call[96];
	buf[0] = 0;
	switch (e->kind) {
	case SCHED_EV_OP_BEGIN:
		report_format_call(buf, cap, c->target, &c->calls[e->site_id], 1);
		break;
	case SCHED_EV_OP_END:
		report_format_call(call, sizeof call, c->target, &c->calls[e->site_id], 1);
		report_format_returned(buf, cap, call, (int64_t)e->value,
				c->target->ops[c->calls[e->site_id].op].result_type);
		break;
	case SCHED_EV_PREEMPT:
		snprintf(buf, cap, "~~ preempted, to thread %u", e->other);
		break;
	case SCHED_EV_SWITCH:
		snprintf(buf, cap, "-- %s, to thread %u",
			 e->value == 1 ? "blocked" : e->value == 2 ? "spinning" : "done", e->other);
		break;
	case SCHED_EV_CUT:
		snprintf(buf, cap, "!! %s", report_stop_name((unsigned)e->value));
		break;
	case SCHED_EV_BLOCK:
		report_format_wait(buf, cap, (unsigned)e->value, e->site_id);
		break;
	case SCHED_EV_STALL:
		snprintf(buf, cap, "!! no thread can run");
		break;
	case SCHED_EV_SPIN:   /* progress.c: past spin_limit quiet steps */
		snprintf(buf, cap, "spins: shared memory unchanged");
		break;
	default:
		format_access(buf, cap, e);
	}
}

static void print_summary(FILE *out, const report_case *c)
{
	const weft_result *r = c->result;
	if (r->verdict == WEFT_PASS)
		fprintf(out, "==weft== PASS %s\n", c->target->name);
	else
		fprintf(out, "==weft== FAIL %s in %s: %s\n", weft_verdict_name(r->verdict),
			c->target->name, r->message);
	fprintf(out, "==weft== %u threads, %u operations, %u preemption%s, %u switches, %" PRIu64
		" steps\n", r->n_threads, r->n_ops, r->preemptions, r->preemptions == 1 ? "" : "s",
		r->switches, r->steps);
}

static void print_scenario(FILE *out, const report_case *c)
{
	char call[96];
	fprintf(out, "scenario:\n");
	report_print_part(out, c, "init", c->init, c->n_init);
	bool program = (c->target->flags & WEFT_TARGET_PROGRAM) != 0;
	for (unsigned th = 0; th < c->result->n_threads; th++) {
		if (program && th > 0) {   /* its code is whatever main gave pthread_create */
			fprintf(out, "  thread %u: the program's pthread_create #%u\n", th, th);
			continue;
		}
		fprintf(out, "  thread %u:", th);
		const char *sep = " ";
		for (unsigned i = 0; i < c->n_calls; i++) {
			if (c->calls[i].thread != th)
				continue;
			report_format_call(call, sizeof call, c->target, &c->calls[i], 1);
			fprintf(out, "%s%s", sep, call);
			sep = "; ";
		}
		fprintf(out, "\n");
	}
	report_print_part(out, c, "post", c->post, c->n_post);
}

/* ---- folding: a spin repeats the same few steps; show them once, then a count ---- */

#define FOLD_MAX_PERIOD 4    /* a spin loop body of up to 4 switch points */
#define FOLD_MIN_REPEATS 2   /* fold only when the block comes back at least twice more */

static bool same_step(const sched_event *a, const sched_event *b)
{
	return a->kind == b->kind && a->thread == b->thread && a->other == b->other &&
	       a->site_id == b->site_id && a->value == b->value;
}

/* How many times events[i, i+p) repeats right after itself. */
static size_t repeats_after(const report_case *c, size_t i, size_t p)
{
	size_t k = 0;
	while (i + (k + 2) * p <= c->n_events) {
		for (size_t j = 0; j < p; j++)
			if (!same_step(&c->events[i + j], &c->events[i + (k + 1) * p + j]))
				return k;
		k++;
	}
	return k;
}

/* The period whose repeats after step i cover the most steps; 0 when none is worth folding. */
static size_t fold_at(const report_case *c, size_t i, size_t *repeats)
{
	size_t best = 0, best_cover = 0;
	for (size_t p = 1; p <= FOLD_MAX_PERIOD; p++) {
		size_t k = repeats_after(c, i, p);
		if (k >= FOLD_MIN_REPEATS && k * p > best_cover) {
			best = p;
			best_cover = k * p;
			*repeats = k;
		}
	}
	return best;
}

static void print_step(FILE *out, const report_case *c, size_t i)
{
	char text[128];
	const sched_event *e = &c->events[i];
	report_format_event(text, sizeof text, c, e);
	fprintf(out, "  %4zu  %*s%s\n", i + 1, (int)(e->thread * COLUMN_WIDTH), "", text);
}

/*
 * One row per step, one column per thread.  A block of up to FOLD_MAX_PERIOD
 * steps that repeats (a spin loop) is shown once, then one line with the count:
 * a livelock's thousand identical steps would bury the few that matter.  The
 * JSON report keeps every step.
 */
static void print_interleaving(FILE *out, const report_case *c)
{
	fprintf(out, "interleaving:\n  step  ");
	for (unsigned th = 0; th + 1 < c->result->n_threads; th++)
		fprintf(out, "thread %-*u", COLUMN_WIDTH - 7, th);
	fprintf(out, "thread %u\n", c->result->n_threads - 1);
	for (size_t i = 0; i < c->n_events;) {
		size_t k = 0, p = fold_at(c, i, &k);
		size_t shown = p ? p : 1;
		for (size_t j = 0; j < shown; j++)
			print_step(out, c, i + j);
		i += shown;
		if (!p)
			continue;
		fprintf(out, "  %4s  %*s~ the %zu step%s above, %zu more times (steps %zu-%zu)\n", "",
			(int)(c->events[i].thread * COLUMN_WIDTH), "", p, p == 1 ? "" : "s", k,
			i + 1, i + k * p);
		i += k * p;
	}
}

static void print_final(FILE *out, const report_case *c)
{
	char call[96], text[128];
	report_print_part_results(out, c, "after", c->post, c->n_post);
	if (!c->final_call)
		return;
	report_format_call(call, sizeof call, c->target, c->final_call, 0);
	report_format_returned(text, sizeof text, call, c->final_call->result,
			c->target->ops[c->final_call->op].result_type);
	fprintf(out, "after all threads: %s\n", text);
}

/* ---- history: each operation an interval on its thread's line -------------
 *
 * Only the order of the history's times matters, so every distinct invocation
 * or return time gets a column, in time order, HISTORY_GAP apart; a return is
 * pushed further right until its operation's label fits between the bars.
 * Columns grow strictly with time, so "a returned before b was invoked" always
 * shows as a's right bar left of b's left bar, and one thread's operations
 * (which never overlap) share its line.  A pending operation has no return:
 * it runs open-ended to the right edge of the picture.
 */

#define HISTORY_GAP 2        /* columns between two consecutive distinct times */
#define HISTORY_FRAME 5      /* "|- " and " -|" around a label, bar to bar */
#define HISTORY_LABEL 128

typedef struct interval {
	const weft_op_record *op;
	char label[HISTORY_LABEL];  /* "push(1) = 0", "pop() = none", "pop() pending" */
	size_t len;
	size_t start, end;          /* columns of the bars; no end bar when pending */
} interval;

typedef struct history_picture {
	interval *intervals;
	size_t n;
	uint32_t *times;            /* distinct times of the intervals' bars, ascending */
	size_t n_times;
	size_t *column;             /* column of times[k] */
	size_t right_edge;          /* the rightmost end bar: where pending operations reach */
	unsigned final_row;         /* thread number of the final operation: n_threads */
	int has_final;
	int has_parts, has_final_op;   /* the final row holds init/post-part operations; the final op */
} history_picture;

static void label_interval(interval *iv, const report_case *c, const weft_op_record *op)
{
	char call[96];
	report_format_call(call, sizeof call, c->target, op, 0);
	iv->op = op;
	if (op->pending)
		snprintf(iv->label, sizeof iv->label, "%s pending", call);
	else
		report_format_returned(iv->label, sizeof iv->label, call, op->result,
				c->target->ops[op->op].result_type);
	iv->len = strlen(iv->label);
}

static int compare_times(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* times[]: every bar's time, sorted, each once. */
static void collect_times(history_picture *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		p->times[n++] = p->intervals[i].op->invoked_at;
		if (!p->intervals[i].op->pending)
			p->times[n++] = p->intervals[i].op->returned_at;
	}
	qsort(p->times, n, sizeof *p->times, compare_times);
	p->n_times = 0;
	for (size_t i = 0; i < n; i++)
		if (p->n_times == 0 || p->times[p->n_times - 1] != p->times[i])
			p->times[p->n_times++] = p->times[i];
}

static size_t column_of(const history_picture *p, uint32_t time)
{
	const uint32_t *k = bsearch(&time, p->times, p->n_times, sizeof *p->times, compare_times);
	return p->column[k - p->times];
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* Leftmost column for times[k]: after times[k-1], wide enough for what returns at k. */
static size_t place_time(const history_picture *p, size_t k)
{
	size_t col = k ? p->column[k - 1] + HISTORY_GAP : 0;
	for (size_t i = 0; i < p->n; i++) {
		const weft_op_record *op = p->intervals[i].op;
		if (!op->pending && op->returned_at == p->times[k] && op->invoked_at < op->returned_at)
			col = max_size(col, column_of(p, op->invoked_at) + p->intervals[i].len +
				       HISTORY_FRAME);
	}
	return col;
}

static void place_intervals(history_picture *p)
{
	collect_times(p);
	for (size_t k = 0; k < p->n_times; k++)
		p->column[k] = place_time(p, k);
	p->right_edge = 0;
	for (size_t i = 0; i < p->n; i++) {
		interval *iv = &p->intervals[i];
		iv->start = column_of(p, iv->op->invoked_at);
		if (iv->op->pending)
			continue;
		/* max: a malformed record (returned before invoked) still gets room */
		iv->end = max_size(column_of(p, iv->op->returned_at), iv->start + iv->len + HISTORY_FRAME);
		p->right_edge = max_size(p->right_edge, iv->end);
	}
}

static void free_picture(history_picture *p)
{
	free(p->intervals);
	free(p->times);
	free(p->column);
}

/* 0, or -1 when out of memory.  Operations of no row (thread > n_threads) are left out. */
static int build_picture(history_picture *p, const report_case *c)
{
	size_t cap = c->n_history;
	memset(p, 0, sizeof *p);
	p->final_row = c->result->n_threads;
	p->has_parts = c->n_init || c->n_post;
	p->has_final_op = c->final_call != NULL;
	p->intervals = calloc(cap, sizeof *p->intervals);
	p->times = malloc(2 * cap * sizeof *p->times);
	p->column = malloc(2 * cap * sizeof *p->column);
	if (!p->intervals || !p->times || !p->column) {
		free_picture(p);
		return -1;
	}
	for (size_t i = 0; i < c->n_history; i++) {
		const weft_op_record *op = &c->history[i];
		if (op->thread > p->final_row)
			continue;
		p->has_final |= op->thread == p->final_row;
		label_interval(&p->intervals[p->n++], c, op);
	}
	place_intervals(p);
	return 0;
}

static size_t put(char *line, size_t pos, const char *text)
{
	size_t n = strlen(text);
	memcpy(line + pos, text, n);
	return pos + n;
}

static void fill(char *line, size_t from, size_t to, char ch)
{
	for (; from < to; from++)
		line[from] = ch;
}

/* |--- label ------|, or |- label -| when the interval is narrow. */
static void draw_closed(char *line, const interval *iv)
{
	size_t inside = iv->end - iv->start - 1;
	size_t pos = put(line, iv->start, inside >= iv->len + 8 ? "|--- " : "|- ");
	pos = put(line, pos, iv->label);
	pos = put(line, pos, " ");
	fill(line, pos, iv->end, '-');
	line[iv->end] = '|';
}

/* |--- label ------ ...  (dashes to the right edge, if it is further right). */
static void draw_pending(char *line, const interval *iv, size_t right_edge)
{
	size_t pos = put(line, iv->start, "|--- ");
	pos = put(line, pos, iv->label);
	pos = put(line, pos, " ");
	if (pos < right_edge) {
		fill(line, pos, right_edge, '-');
		pos = put(line, right_edge, " ");
	}
	put(line, pos, "...");
}

/*
 * Columns a line may use: past the right edge and past every label by enough
 * for a pending operation's "|--- " label " ..." or its "--- ..." at the edge.
 */
static size_t picture_width(const history_picture *p)
{
	size_t width = p->right_edge + 1;
	for (size_t i = 0; i < p->n; i++)
		width = max_size(width, p->intervals[i].start + p->intervals[i].len);
	return width + 9;
}

static void row_name(char *buf, size_t cap, const history_picture *p, unsigned row)
{
	if (row == p->final_row && p->has_parts)
		snprintf(buf, cap, "thread %u (init/post%s)", row, p->has_final_op ? "/final" : "");
	else if (row == p->final_row)
		snprintf(buf, cap, "thread %u (final)", row);
	else
		snprintf(buf, cap, "thread %u", row);
}

static void print_row(FILE *out, const history_picture *p, unsigned row, int name_width,
		      char *line, size_t width)
{
	char name[32];
	row_name(name, sizeof name, p, row);
	memset(line, ' ', width);
	for (size_t i = 0; i < p->n; i++) {
		const interval *iv = &p->intervals[i];
		if (iv->op->thread != row)
			continue;
		if (iv->op->pending)
			draw_pending(line, iv, p->right_edge);
		else
			draw_closed(line, iv);
	}
	size_t used = width;
	while (used > 0 && line[used - 1] == ' ')
		used--;
	if (used == 0)
		fprintf(out, "  %s\n", name);
	else
		fprintf(out, "  %-*s  %.*s\n", name_width, name, (int)used, line);
}

static void print_rows(FILE *out, const history_picture *p)
{
	unsigned rows = p->final_row + (p->has_final ? 1 : 0);
	char name[32];
	int name_width = 0;
	for (unsigned row = 0; row < rows; row++) {
		row_name(name, sizeof name, p, row);
		name_width = (int)max_size((size_t)name_width, strlen(name));
	}
	size_t width = picture_width(p);
	char *line = malloc(width);
	if (!line) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	for (unsigned row = 0; row < rows; row++)
		print_row(out, p, row, name_width, line, width);
	free(line);
}

static void print_history(FILE *out, const report_case *c)
{
	history_picture p;
	if (c->n_history == 0)
		return;
	fprintf(out, "history (each operation from its start to its return; time = step):\n");
	if (build_picture(&p, c) != 0) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	print_rows(out, &p);
	free_picture(&p);
}

static void print_linearizability(FILE *out, const report_case *c)
{
	if (!c->check)
		return;
	weft_history h = { c->history, c->n_history };
	if (c->n_init || c->n_post)
		fprintf(out, "linearizability (thread %u stands for the sequential parts%s):\n",
			c->result->n_threads, c->final_call ? " and the final operation" : "");
	else if (c->final_call)
		fprintf(out, "linearizability (thread %u stands for the final operation):\n",
			c->final_call->thread);
	else
		fprintf(out, "linearizability:\n");
	weft_check_explain(out, &h, c->target->ops, c->check);
}

/* Another run's whole report, each line behind "  | ". */
static void print_quoted_report(FILE *out, const char *text)
{
	for (const char *s = text; *s;) {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) : strlen(s);
		fprintf(out, "  | %.*s\n", (int)n, s);
		s += n + (eol != NULL);
	}
}

/* A nondeterministic target: the run that failed comes after the one that passed. */
static void print_first_run(FILE *out, const report_case *c)
{
	if (!c->first_run)
		return;
	fputs("the first run of this input failed; its report:\n", out);
	print_quoted_report(out, c->first_run);
}

/* A failure that state left by earlier executions decided: the fresh process passed. */
static void print_fresh_run(FILE *out, const report_case *c)
{
	if (!c->fresh_run)
		return;
	fputs("in a fresh process this input passes; that run's report:\n", out);
	print_quoted_report(out, c->fresh_run);
}

void report_print(FILE *out, const report_case *c)
{
	print_summary(out, c);
	print_scenario(out, c);
	report_print_part_results(out, c, "before", c->init, c->n_init);
	print_interleaving(out, c);
	report_print_weak_reads(out, c);
	print_final(out, c);
	print_history(out, c);
	print_linearizability(out, c);
	print_first_run(out, c);
	print_fresh_run(out, c);
}
