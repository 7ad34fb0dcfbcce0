/*
 * tests/test_encode.c - the input format both ways (input/scenario.c decodes,
 * input/encode.c writes): every decoded scenario is written back to bytes
 * that decode to the same scenario and run the same interleaving, never longer
 * than what the decoder read.  The target has three operation kinds, a
 * two-byte argument range (so the '0'-byte rule and multi-byte choices are
 * exercised), a non-parallel group and up to 4 threads.  And the forced-switch
 * rule (input/schedule_bytes.c): a preemption planned one step past where a
 * call ended names the thread that runs next; any other step, or naming the
 * lowest runnable thread, changes nothing.
 */
#include <string.h>

#include "check.h"
#include "weft/atomic.h"
#include "weft/run.h"
#include "../input/choice.h"
#include "../input/scenario.h"

#define INPUTS 20000

typedef struct cell { _Atomic int64_t v; } cell;
static cell shared;

static void *setup(void) { atomic_store(&shared.v, 0); return &shared; }

static int64_t op_add(void *self, const int64_t *args)
{
	cell *c = self;
	int64_t v = weft_atomic_load(&c->v);
	weft_atomic_store(&c->v, v + args[0]);
	return v;
}

static int64_t op_swap(void *self, const int64_t *args)
{
	return weft_atomic_exchange(&((cell *)self)->v, args[0] * 1000 + args[1]);
}

static int64_t op_read(void *self, const int64_t *args)
{
	(void)args;
	weft_yield();
	return weft_atomic_load(&((cell *)self)->v);
}

static const weft_op ops[] = {
	{ .name = "add", .run = op_add, .n_args = 1, .args = { { -2, 5 } } },
	{ .name = "swap", .run = op_swap, .n_args = 2, .args = { { 0, 299 }, { 7, 9 } } },
	{ .name = "read", .run = op_read, .group = 1 },
};
static const weft_target target = {
	.name = "encode_probe", .ops = ops, .n_ops = 3, .min_threads = 2, .max_threads = 4,
	.max_ops_per_thread = 4, .setup = setup,
};

static int same_scenario(const input_scenario *a, const input_scenario *b)
{
	if (a->n_threads != b->n_threads || a->n_calls != b->n_calls || a->n_plan != b->n_plan)
		return 0;
	for (unsigned t = 0; t <= a->n_threads; t++)
		if (a->first_call[t] != b->first_call[t])
			return 0;
	for (unsigned c = 0; c < a->n_calls; c++) {
		const weft_op_record *x = &a->calls[c], *y = &b->calls[c];
		if (x->thread != y->thread || x->op != y->op || memcmp(x->args, y->args, sizeof x->args) ||
		    a->first_plan[c] != b->first_plan[c])
			return 0;
	}
	for (unsigned p = 0; p < a->n_plan; p++)
		if (a->plan[p].step != b->plan[p].step ||
		    a->plan[p].to % a->n_threads != b->plan[p].to % b->n_threads)
			return 0;
	return 1;
}

static void dump(const input_scenario *s)
{
	fprintf(stderr, "  threads %u calls %u plan %u\n", s->n_threads, s->n_calls, s->n_plan);
	for (unsigned c = 0; c < s->n_calls; c++) {
		fprintf(stderr, "   call %u: t%u op%u args %lld %lld plan", c, s->calls[c].thread,
			s->calls[c].op, (long long)s->calls[c].args[0], (long long)s->calls[c].args[1]);
		for (unsigned p = s->first_plan[c]; p < s->first_plan[c + 1]; p++)
			fprintf(stderr, " %llu->%u", (unsigned long long)s->plan[p].step, s->plan[p].to);
		fprintf(stderr, "\n");
	}
}

/* Inputs shaped to hit every part of the format: control bytes, steps, '0'. */
static size_t random_input(uint8_t *buf, size_t cap, uint64_t *seed)
{
	static const uint8_t interesting[] = { 0, 1, 2, 3, 4, 5, 6, '0', 0x80, 0x81, 0xb0, 0xff };
	size_t n = test_rand(seed) % cap;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = test_rand(seed);
		buf[i] = (r & 1) ? interesting[(r >> 8) % sizeof interesting] : (uint8_t)(r >> 16);
	}
	return n;
}

/* Three threads, one add(0) each; thread 0's call planned at `step` to `to` (step 0: no plan). */
static uint64_t run_adds(weft_runner *r, const input_bounds *b, uint64_t step, uint8_t to)
{
	input_scenario s;
	memset(&s, 0, sizeof s);
	s.n_threads = 3;
	for (unsigned t = 0; t < 3; t++) {
		s.first_call[t] = t;
		s.calls[t] = (weft_op_record){ .thread = t, .op = 0 };
	}
	s.first_call[3] = s.n_calls = 3;
	if (step) {
		s.plan[0] = (input_preemption){ step, to };
		s.n_plan = 1;
	}
	for (unsigned c = 1; c <= 3; c++)
		s.first_plan[c] = s.n_plan;
	uint8_t bytes[64];
	size_t n = input_scenario_encode(&s, &target, b, bytes, sizeof bytes);
	REQUIRE(n != INPUT_ENCODE_FAILED, "three adds could not be written");
	weft_result res;
	weft_runner_run(r, bytes, n, &res);
	return res.trace_hash;
}

/* add's steps: 1 its start, 2 its load, 3 its store; then the thread ends (forced switch). */
static void forced_switch(weft_runner *r, const input_bounds *b)
{
	uint64_t plain = run_adds(r, b, 0, 0);
	CHECK(run_adds(r, b, 4, 2) != plain, "a plan one step past the end did not send the "
	      "forced switch to thread 2");
	CHECK(run_adds(r, b, 4, 1) == plain, "naming the lowest runnable thread changed the run");
	CHECK(run_adds(r, b, 5, 2) == plain, "a plan two steps past the end changed the run");
	CHECK(run_adds(r, b, 3, 2) != plain && run_adds(r, b, 3, 2) != run_adds(r, b, 4, 2),
	      "a preemption before the store is not what a forced switch after it is");
}

int main(void)
{
	input_bounds b = input_bounds_of(&target);
	weft_runner *r = weft_runner_new(&target);
	REQUIRE(r, "runner");
	uint64_t seed = 0xe9c0de;
	uint8_t in[64], out[256];
	unsigned mismatched = 0, longer = 0, unwritable = 0, other_run = 0, preempting = 0;
	for (int i = 0; i < INPUTS; i++) {
		size_t n = random_input(in, sizeof in, &seed);
		input_scenario s1, s2;
		input_choices c;
		input_choices_init(&c, in, n);
		input_scenario_decode(&s1, &target, &b, &c);
		size_t used = input_used_front(&c);
		size_t m = input_scenario_encode(&s1, &target, &b, out, sizeof out);
		if (m == INPUT_ENCODE_FAILED) {
			unwritable++;
			continue;
		}
		longer += m > used;
		input_choices_init(&c, out, m);
		input_scenario_decode(&s2, &target, &b, &c);
		if (!same_scenario(&s1, &s2) && mismatched++ < 3) {
			fprintf(stderr, "mismatch: in");
			for (size_t k = 0; k < n; k++) fprintf(stderr, " %02x", in[k]);
			fprintf(stderr, " (read %zu) out", used);
			for (size_t k = 0; k < m; k++) fprintf(stderr, " %02x", out[k]);
			fprintf(stderr, "\n");
			dump(&s1);
			dump(&s2);
		}
		weft_result r1, r2;
		weft_runner_run(r, in, n, &r1);
		weft_runner_run(r, out, m, &r2);
		other_run += r1.trace_hash != r2.trace_hash;
		preempting += r1.preemptions > 0;
	}
	CHECK(mismatched == 0, "%u scenarios decode differently after encoding", mismatched);
	CHECK(other_run == 0, "%u encodings run a different interleaving", other_run);
	CHECK(longer == 0, "%u encodings are longer than the bytes the decoder read", longer);
	CHECK(unwritable == 0, "%u decoded scenarios could not be written", unwritable);
	CHECK(preempting > INPUTS / 10, "only %u inputs preempt: the test is too easy", preempting);
	fprintf(stderr, "encode: %d inputs, %u with preemptions, all written back exactly\n", INPUTS,
		preempting);

	/* The simplest scenario is the empty input. */
	input_scenario simplest;
	input_choices c;
	input_choices_init(&c, NULL, 0);
	input_scenario_decode(&simplest, &target, &b, &c);
	CHECK(input_scenario_encode(&simplest, &target, &b, out, sizeof out) == 0,
	      "the simplest scenario is written as no bytes");
	CHECK(input_scenario_encode(&simplest, &target, &b, out, 0) == 0, "and needs no room");

	/*
	 * Run-time data choices (issue 18) go at the back, first asked last: the
	 * front still decodes the same scenario (its zeros written out), the back
	 * reader answers the choices in order, then 0; trailing 0 choices are left
	 * out, and a choice written as '0' would read as 0 (so 48 of 64 is 48 + 64).
	 */
	input_scenario d = simplest, back;
	input_data want[] = { { 3, 2 }, { 8, 0 }, { 64, 48 }, { 2, 1 }, { 5, 0 }, { 4, 0 } };
	d.n_data = sizeof want / sizeof want[0];
	memcpy(d.data, want, sizeof want);
	size_t m = input_scenario_encode(&d, &target, &b, out, sizeof out);
	/* the scenario's own zeros, then 1, 48 + 64, 0, 2: the last byte is asked first */
	CHECK(m != INPUT_ENCODE_FAILED && m >= 4 && out[m - 1] == 2 && out[m - 2] == 0 &&
	      out[m - 3] == 112 && out[m - 4] == 1, "data choices written as %zu bytes", m);
	input_choices_init(&c, out, m);
	input_scenario_decode(&back, &target, &b, &c);
	CHECK(same_scenario(&back, &simplest), "data choices change the decoded scenario");
	for (unsigned i = 0; i < d.n_data; i++) {
		uint64_t got = input_choose_back(&c, want[i].bound);
		CHECK(got == want[i].value, "data choice %u reads %llu, want %llu", i,
		      (unsigned long long)got, (unsigned long long)want[i].value);
	}
	CHECK(input_choose_back(&c, 2) == 0, "past the choices: 0");

	/*
	 * A first data byte equal to the parts marker ('S', read right after the
	 * threads) is preceded by an explicit empty pair of parts, so the front
	 * still reads no parts and the back still reads the choices.
	 */
	input_data marker[] = { { 256, 7 }, { 100, INPUT_PARTS_MARKER } };
	d = simplest;
	d.n_data = 2;
	memcpy(d.data, marker, sizeof marker);
	m = input_scenario_encode(&d, &target, &b, out, sizeof out);
	CHECK(m != INPUT_ENCODE_FAILED && m >= 5 && out[m - 1] == 7 &&
	      out[m - 2] == INPUT_PARTS_MARKER && out[m - 5] == INPUT_PARTS_MARKER,
	      "a marker-valued data byte follows an empty pair of parts (%zu bytes)", m);
	input_choices_init(&c, out, m);
	input_scenario_decode(&back, &target, &b, &c);
	CHECK(same_scenario(&back, &simplest) && back.n_init == 0 && back.n_post == 0,
	      "a marker-valued data byte read as parts");
	CHECK(input_choose_back(&c, 256) == 7 && input_choose_back(&c, 100) == INPUT_PARTS_MARKER,
	      "the marker-valued data choices read back");

	forced_switch(r, &b);
	weft_runner_free(r);
	return check_summary("test_encode");
}
