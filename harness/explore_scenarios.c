/*
 * harness/explore_scenarios.c - random scenarios through the decoder (design in
 * explore_scenarios.h).
 */
#include "explore_scenarios.h"

#include <string.h>

#define DRAW_BYTES 4096
#define DRAW_TRIES 16

static unsigned clamp(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void harness_scenario_source_init(harness_scenario_source *src, const weft_target *target,
				  const harness_bounds *bounds, uint64_t seed,
				  unsigned min_threads, unsigned max_threads, unsigned max_ops)
{
	harness_rng_seed(&src->rng, seed, 0);
	src->target = target;
	src->bounds = bounds;
	src->min_threads = clamp(min_threads, bounds->min_threads, bounds->max_threads);
	src->max_threads = clamp(max_threads, src->min_threads, bounds->max_threads);
	src->max_ops = clamp(max_ops, 1, bounds->max_ops);
}

static int64_t draw_arg(harness_rng *rng, weft_range r)
{
	if (r.max <= r.min)
		return r.min;
	uint64_t width = (uint64_t)r.max - (uint64_t)r.min + 1;   /* 0: the full range */
	uint64_t v = width ? harness_rng_below(rng, width) : harness_rng_next(rng);
	return (int64_t)((uint64_t)r.min + v);
}

/* The shape as drawn, without the decoder's rules. */
static void draw_raw(harness_scenario_source *src, harness_scenario *raw)
{
	const harness_bounds *b = src->bounds;
	memset(raw, 0, sizeof *raw);
	raw->n_threads = src->min_threads +
			 (unsigned)harness_rng_below(&src->rng, src->max_threads - src->min_threads + 1);
	for (unsigned t = 0; t < raw->n_threads; t++) {
		raw->first_call[t] = raw->n_calls;
		unsigned ops = 1 + (unsigned)harness_rng_below(&src->rng, src->max_ops);
		for (unsigned i = 0; i < ops; i++) {
			weft_op_record *call = &raw->calls[raw->n_calls++];
			call->thread = t;
			call->op = b->thread_ops[harness_rng_below(&src->rng, b->n_thread_ops)];
			const weft_op *op = &src->target->ops[call->op];
			for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
				call->args[a] = draw_arg(&src->rng, op->args[a]);
			call->pending = 1;
		}
	}
	raw->first_call[raw->n_threads] = raw->n_calls;
}

void harness_scenario_draw(harness_scenario_source *src, harness_scenario *s)
{
	uint8_t bytes[DRAW_BYTES];
	size_t n = 0;
	if (!src->bounds->program) {
		for (int tries = 0; tries < DRAW_TRIES; tries++) {
			draw_raw(src, s);
			n = harness_scenario_encode(s, src->target, src->bounds, bytes, sizeof bytes);
			if (n != HARNESS_ENCODE_FAILED)
				break;
			n = 0;   /* an argument the format cannot write: draw again */
		}
	}
	harness_choices c;
	harness_choices_init(&c, bytes, n);
	harness_scenario_decode(s, src->target, src->bounds, &c);
}
