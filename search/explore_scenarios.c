/*
 * search/explore_scenarios.c - random scenarios through the decoder (design in
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

void search_scenario_source_init(search_scenario_source *src, const weft_target *target,
				  const input_bounds *bounds, uint64_t seed,
				  unsigned min_threads, unsigned max_threads, unsigned max_ops)
{
	search_rng_seed(&src->rng, seed, 0);
	src->target = target;
	src->bounds = bounds;
	src->min_threads = clamp(min_threads, bounds->min_threads, bounds->max_threads);
	src->max_threads = clamp(max_threads, src->min_threads, bounds->max_threads);
	src->max_ops = clamp(max_ops, 1, bounds->max_ops);
	src->direct = search_scenario_draw_is_exact(target, bounds);
}

/* A choice below this is one byte and never the byte '0' (0x30), which reads as 0. */
#define PLAIN_CHOICE_BOUND 0x30

/*
 * 1 when every draw the encoder accepts is exactly what the decoder makes of
 * its bytes, and the encoder refuses a draw only for its groups
 * (input_scenario_groups_admissible): every choice a draw writes (an
 * operation's kind, each argument) is one byte below '0', so put_choice never
 * fails and never adds its bound, and with each group on one thread the
 * decoder admits every operation as drawn.  The bytes fit: 16 threads x 8
 * calls x (kind, 4 arguments, control) is 768 bytes, under DRAW_BYTES.  A
 * program is never exact (its one scenario comes from the decoder).
 */
int search_scenario_draw_is_exact(const weft_target *t, const input_bounds *b)
{
	if (b->program || b->n_thread_ops == 0 || b->n_thread_ops > PLAIN_CHOICE_BOUND)
		return 0;
	for (unsigned k = 0; k < b->n_thread_ops; k++) {
		const weft_op *op = &t->ops[b->thread_ops[k]];
		for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++) {
			weft_range r = op->args[a];
			if (r.max > r.min && ((uint64_t)r.max - (uint64_t)r.min >= PLAIN_CHOICE_BOUND))
				return 0;
		}
	}
	return 1;
}
_Static_assert(WEFT_MAX_THREADS * WEFT_MAX_OPS * (2 + WEFT_MAX_ARGS) <= 4096,
	       "a direct draw's bytes fit DRAW_BYTES");

static int64_t draw_arg(search_rng *rng, weft_range r)
{
	if (r.max <= r.min)
		return r.min;
	uint64_t width = (uint64_t)r.max - (uint64_t)r.min + 1;   /* 0: the full range */
	uint64_t v = width ? search_rng_below(rng, width) : search_rng_next(rng);
	return (int64_t)((uint64_t)r.min + v);
}

/*
 * Group owners as the draw goes, by input_scenario_groups_admissible's rule
 * (threads and their calls in order; the first thread to use a group owns it):
 * 0 once a thread uses a group another owns.
 */
typedef struct draw_groups {
	unsigned group[WEFT_MAX_GROUPS], owner[WEFT_MAX_GROUPS], n;
} draw_groups;

static int groups_admit(draw_groups *g, unsigned group, unsigned thread)
{
	unsigned i;
	for (i = 0; group && i < g->n && g->group[i] != group; i++)
		;
	if (!group)
		return 1;
	if (i < g->n)
		return g->owner[i] == thread;
	if (g->n < WEFT_MAX_GROUPS)
		g->group[g->n] = group, g->owner[g->n++] = thread;
	return 1;
}

/* One call of thread t: its kind and arguments; `write` 0: only the draws. */
static void draw_call(search_scenario_source *src, weft_op_record *call, unsigned t, int write)
{
	const input_bounds *b = src->bounds;
	unsigned kind = b->thread_ops[search_rng_below(&src->rng, b->n_thread_ops)];
	const weft_op *op = &src->target->ops[kind];
	if (!write) {   /* the same draws from the generator, nothing written */
		for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
			(void)draw_arg(&src->rng, op->args[a]);
		return;
	}
	memset(call, 0, sizeof *call);
	call->thread = t;
	call->op = kind;
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
		call->args[a] = draw_arg(&src->rng, op->args[a]);
	call->pending = 1;
}

/*
 * The shape as drawn, without the decoder's rules; returns whether its groups
 * are admissible (input_scenario_groups_admissible).  Once they are not, the
 * encoder will refuse the draw: the rest of it is drawn from the generator
 * (the next draw starts where it always did) but its calls are not written
 * (the thread and call counts are: see first_call below).
 */
static int draw_raw(search_scenario_source *src, input_scenario *raw)
{
	draw_groups groups = { .n = 0 };
	int admissible = 1;
	/* no plan, parts or data: the strategy decides.  first_call is cleared whole:
	   the decoder may end the threads sooner (a group owned elsewhere), and what
	   it leaves of the draw past its count is compared by explore's
	   same_scenario, as it always was */
	input_scenario_clear(raw);
	raw->n_threads = src->min_threads +
			 (unsigned)search_rng_below(&src->rng, src->max_threads - src->min_threads + 1);
	for (unsigned t = 0; t < raw->n_threads; t++) {
		raw->first_call[t] = raw->n_calls;
		unsigned ops = 1 + (unsigned)search_rng_below(&src->rng, src->max_ops);
		for (unsigned i = 0; i < ops; i++) {
			weft_op_record *call = &raw->calls[raw->n_calls];
			raw->first_plan[raw->n_calls++] = 0;
			draw_call(src, call, t, admissible);
			if (admissible)
				admissible = groups_admit(&groups, src->target->ops[call->op].group, t);
		}
	}
	raw->first_call[raw->n_threads] = raw->n_calls;
	raw->first_plan[raw->n_calls] = 0;
	return admissible;
}

void search_scenario_draw(search_scenario_source *src, input_scenario *s)
{
	uint8_t bytes[DRAW_BYTES];
	size_t n = 0;
	if (!src->bounds->program) {
		for (int tries = 0; tries < DRAW_TRIES; tries++) {
			if (!draw_raw(src, s))
				continue;   /* the encoder would refuse its groups: draw again */
			if (src->direct)
				return;   /* encode + decode would give it back unchanged */
			n = input_scenario_encode(s, src->target, src->bounds, bytes, sizeof bytes);
			if (n != INPUT_ENCODE_FAILED)
				break;
			n = 0;   /* an argument the format cannot write: draw again */
		}
	}
	input_choices c;
	input_choices_init(&c, bytes, n);
	input_scenario_decode(s, src->target, src->bounds, &c);
}
