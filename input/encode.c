/*
 * input/encode.c - scenario and plan -> the shortest bytes that decode to them.
 *
 * The inverse of input_scenario_decode (format in scenario.h).  weft's
 * simplifier (simplify.c) edits a decoded scenario, not bytes, and writes the
 * result back with this; reproducers in corpus/ are its output, so they are
 * canonical: one way to write each scenario.
 *
 * Two details of the decoder shape the writer: a byte 0x30 ('0') reads as
 * 0x00, so no written byte may be 0x30 unless it means 0; and bytes past the
 * end read as 0, so trailing zeros are never written.
 *
 * Run-time data choices (s->data, issue 18: which store a load read) go at
 * the back, where the back reader takes them while the input runs: the last
 * byte is the first choice.  Then the scenario's own zeros must be written
 * (or the front reader would read the choices), and the choices' trailing
 * zeros (the last ones asked) are left out.  Example: a scenario "ab"
 * followed by choices 2 (of 3), 0 (of 8), 1 (of 2) writes "ab" 0x01 0x00 0x02.
 */
#include "scenario.h"

#include <string.h>

typedef struct writer {
	uint8_t *out;
	size_t cap, n;
	size_t zeros;   /* zero bytes not written yet: trailing ones never are */
	int ok;
} writer;

static void put(writer *w, uint8_t b)
{
	if (b == 0) {
		w->zeros++;
		return;
	}
	if (w->n + w->zeros + 1 > w->cap) {
		w->ok = 0;
		return;
	}
	if (w->zeros) {   /* rare: not a call per byte (the mutator encodes every mutant) */
		memset(w->out + w->n, 0, w->zeros);
		w->n += w->zeros;
		w->zeros = 0;
	}
	w->out[w->n++] = b;
}

/* 1 if some byte of the width-byte little-endian `v` reads differently than written. */
static int has_ascii_zero(uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		if (((v >> (8 * i)) & 0xff) == '0')
			return 1;
	return 0;
}

/* A value in [0, bound) as input_choose_front reads it (bound 0 = 2^64). */
static void put_choice(writer *w, uint64_t value, uint64_t bound)
{
	if (bound == 1)
		return;
	unsigned width = input_choice_width(bound);
	uint64_t room = width >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1;
	uint64_t v = value;
	/* value + k*bound reads as value too; find one with no '0' byte */
	while (has_ascii_zero(v, width)) {
		if (bound == 0 || room - v < bound) {
			w->ok = 0;
			return;
		}
		v += bound;
	}
	for (unsigned i = 0; i < width; i++)
		put(w, (uint8_t)(v >> (8 * i)));
}

/* A preemption's step as the LEB128 number step + 2 (never the byte '0' last). */
static void put_step(writer *w, uint64_t step)
{
	uint64_t v = step + INPUT_CONTROL_NEXT_THREAD;
	while (v >= 0x80) {
		put(w, (uint8_t)(0x80 | (v & 0x7f)));
		v >>= 7;
	}
	if (v == '0') {   /* 0x30 would read as "end": spell it 0xb0 0x00 */
		put(w, 0x80 | '0');
		put(w, 0);
	} else {
		put(w, (uint8_t)v);
	}
}

static int kind_index(const input_bounds *b, unsigned op)
{
	for (unsigned k = 0; k < b->n_thread_ops; k++)
		if (b->thread_ops[k] == op)
			return (int)k;
	return -1;
}

/* An operation's kind and arguments. */
static void put_kind_args(writer *w, const weft_target *t, const input_bounds *b,
			  const weft_op_record *rec)
{
	const weft_op *op = &t->ops[rec->op];
	/* a program's thread k > 0 runs its spawned body whatever its kind byte says */
	int kind = b->program && rec->thread > 0 ? 0 : kind_index(b, rec->op);
	if (kind < 0) {
		w->ok = 0;
		return;
	}
	put_choice(w, (uint64_t)kind, b->n_thread_ops);
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++) {
		weft_range r = op->args[a];
		if (r.max > r.min)
			put_choice(w, (uint64_t)rec->args[a] - (uint64_t)r.min,
				   (uint64_t)r.max - (uint64_t)r.min + 1);
	}
}

/*
 * A preemption's `to` byte names a thread modulo the thread slots (128 for a
 * program).  Thread 48 is the byte '0', which reads as 0: it is written as
 * 48 + 128 instead, the same thread modulo 128.  A data-structure target has at
 * most 16 threads, so only a program's plan has a 48 (before, a program's
 * sampled switch to thread 48 replayed as a switch to thread 0: 9 in 10 samples
 * of a 70-thread program did not replay, `program_pool`).
 */
_Static_assert(WEFT_MAX_PROGRAM_THREADS == 128 && WEFT_MAX_THREADS < '0',
	       "the byte '0' + 128 names thread 48 again only modulo 128");
static uint8_t to_byte(uint8_t to)
{
	return to == '0' ? (uint8_t)('0' + WEFT_MAX_PROGRAM_THREADS) : to;
}

static void put_call(writer *w, const input_scenario *s, const weft_target *t,
		     const input_bounds *b, unsigned call)
{
	put_kind_args(w, t, b, &s->calls[call]);
	for (unsigned p = s->first_plan[call]; p < s->first_plan[call + 1]; p++) {
		put_step(w, s->plan[p].step);
		put(w, to_byte(s->plan[p].to));
	}
}

/* A byte written even if it is zero (zeros pending before it first). */
static void put_now(writer *w, uint8_t b)
{
	for (; w->zeros; w->zeros--)
		if (w->n < w->cap)
			w->out[w->n++] = 0;
		else
			w->ok = 0;
	if (w->n < w->cap)
		w->out[w->n++] = b;
	else
		w->ok = 0;
}

/* How many data choices are written: trailing zeros read as 0 without a byte. */
static unsigned data_written(const input_scenario *s)
{
	unsigned n = s->n_data;
	while (n > 0 && s->data[n - 1].value == 0)
		n--;
	return n;
}

/* The byte data choice `d` is written as ('0' reads as 0, so a value '0' adds its bound). */
static int data_byte(const input_data *d)
{
	if (d->bound > 256 || d->bound < 2 || d->value >= d->bound ||
	    (d->value == '0' && d->value + d->bound > 255))
		return -1;
	return d->value == '0' ? (int)((d->value + d->bound) % 256) : (int)d->value;
}

/* The data choices, last asked first, each one byte (bounds up to 256). */
static void put_data(writer *w, const input_scenario *s)
{
	for (unsigned i = data_written(s); i-- > 0;) {
		int byte = data_byte(&s->data[i]);
		if (byte < 0)
			w->ok = 0;
		else
			put_now(w, (uint8_t)byte);
	}
}

/*
 * The sequential parts after the threads: the marker, the two counts, the
 * operations; nothing at all when both parts are empty, unless the first data
 * byte (put_data, written next) is the marker: the decoder would take it for
 * one, so an explicit empty pair of parts goes first.  The marker is read
 * right after the last control byte, so it always follows one (written even
 * when zero: put() flushes the zeros it holds before a non-zero byte).
 */
static void put_parts(writer *w, const input_scenario *s, const weft_target *t,
		      const input_bounds *b)
{
	unsigned nd = data_written(s);
	int marker_next = !b->program && b->n_thread_ops != 0 && nd > 0 &&
			  data_byte(&s->data[nd - 1]) == INPUT_PARTS_MARKER;
	if (s->n_init == 0 && s->n_post == 0 && !marker_next)
		return;
	if (b->program || s->n_init > INPUT_MAX_PART_OPS || s->n_post > INPUT_MAX_PART_OPS) {
		w->ok = 0;
		return;
	}
	put(w, INPUT_PARTS_MARKER);
	put_choice(w, s->n_init, INPUT_MAX_PART_OPS + 1);
	put_choice(w, s->n_post, INPUT_MAX_PART_OPS + 1);
	for (unsigned i = 0; i < s->n_init; i++)
		put_kind_args(w, t, b, &s->init[i]);
	for (unsigned i = 0; i < s->n_post; i++)
		put_kind_args(w, t, b, &s->post[i]);
}

/*
 * 1 when every non-parallel group (weft_op.group) is used by one thread only,
 * as the decoder admits it (input/scenario.c): a scenario that gives a second
 * thread a group's operation would be written as bytes the decoder reads as
 * another operation, and everything after it (the parts too) differently.
 */
int input_scenario_groups_admissible(const input_scenario *s, const weft_target *t)
{
	unsigned group[WEFT_MAX_GROUPS], owner[WEFT_MAX_GROUPS], n = 0;
	for (unsigned th = 0; th < s->n_threads; th++)
		for (unsigned c = s->first_call[th]; c < s->first_call[th + 1]; c++) {
			unsigned g = t->ops[s->calls[c].op].group, i;
			for (i = 0; g && i < n && group[i] != g; i++)
				;
			if (!g)
				continue;
			if (i < n && owner[i] != th)
				return 0;
			if (i == n && n < WEFT_MAX_GROUPS)
				group[n] = g, owner[n++] = th;
		}
	return 1;
}

size_t input_scenario_encode(const input_scenario *s, const weft_target *t,
			       const input_bounds *b, uint8_t *out, size_t cap)
{
	writer w = { out, cap, 0, 0, 1 };
	if (s->n_threads < b->min_threads || s->n_threads > b->max_threads ||
	    !input_scenario_groups_admissible(s, t))
		return INPUT_ENCODE_FAILED;
	for (unsigned th = 0; th < s->n_threads; th++) {
		unsigned first = s->first_call[th], end = s->first_call[th + 1];
		/* a control byte is needed only for threads past min_threads */
		int more_threads = th + 1 < s->n_threads && th + 1 >= b->min_threads;
		if (first == end) {   /* no admissible operation: any kind reads so */
			if (more_threads)
				w.ok = 0;   /* the list ends without a control byte */
			put_choice(&w, 0, b->n_thread_ops);
			continue;
		}
		for (unsigned call = first; call < end; call++) {
			put_call(&w, s, t, b, call);
			if (call + 1 < end)
				put(&w, INPUT_CONTROL_NEXT_OP);
			else
				put(&w, more_threads ? INPUT_CONTROL_NEXT_THREAD : INPUT_CONTROL_END_THREADS);
		}
	}
	put_parts(&w, s, t, b);
	put_data(&w, s);
	return w.ok ? w.n : INPUT_ENCODE_FAILED;
}
