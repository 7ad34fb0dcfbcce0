/*
 * runner/impl_model.c - the implementation run sequentially as the model
 * (design in impl_model.h).
 */
#include "impl_model.h"

#include <string.h>

#include "../input/scenario.h"
#include "../scheduler/sched.h"

typedef struct impl_call {
	uint32_t op;
	uint32_t unused;   /* explicit padding: states are compared field by field */
	int64_t args[WEFT_MAX_ARGS];
} impl_call;

/* Every call of a history fits: the scenario's calls plus the final operation. */
typedef struct impl_state {
	uint32_t n;
	impl_call calls[INPUT_MAX_CALLS + 1];
} impl_state;

/* Bound only while one weft_check runs on this thread (see impl_model.h). */
static _Thread_local const weft_target *runner_bound_target;

void runner_impl_model_bind(const weft_target *target) { runner_bound_target = target; }
void runner_impl_model_unbind(void) { runner_bound_target = NULL; }

static void impl_init(void *state) { ((impl_state *)state)->n = 0; }

static size_t used_bytes(const impl_state *s)
{
	return offsetof(impl_state, calls) + s->n * sizeof(impl_call);
}

static void impl_copy(void *dst, const void *src) { memcpy(dst, src, used_bytes(src)); }
static void impl_destroy(void *state) { (void)state; }

static int impl_equal(const void *a, const void *b)
{
	const impl_state *x = a, *y = b;
	return x->n == y->n && memcmp(x->calls, y->calls, x->n * sizeof(impl_call)) == 0;
}

static uint64_t impl_hash(const void *state)
{
	const unsigned char *p = state;
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */
	for (size_t i = 0; i < used_bytes(state); i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Fresh instance, replay the sequence, run the new call, keep it in the sequence. */
static int64_t impl_apply(void *state, unsigned op, const int64_t *args)
{
	impl_state *s = state;
	const weft_target *t = runner_bound_target;
	void *instance = t->setup ? t->setup() : NULL;
	jmp_buf blocked;
	volatile int64_t result = WEFT_BLOCKED;   /* an operation that would wait for good */
	if (setjmp(blocked) == 0) {
		sched_replay_jump = &blocked;
		for (uint32_t i = 0; i < s->n; i++)
			t->ops[s->calls[i].op].run(instance, s->calls[i].args);
		result = t->ops[op].run(instance, args);
	}
	sched_replay_jump = NULL;
	if (t->teardown)
		t->teardown(instance);
	if (s->n < INPUT_MAX_CALLS + 1) {
		impl_call *c = &s->calls[s->n++];
		memset(c, 0, sizeof *c);
		c->op = op;
		memcpy(c->args, args, sizeof c->args);
	}
	return result;
}

const weft_model runner_impl_model = {
	.name = "implementation",
	.state_size = sizeof(impl_state),
	.init = impl_init,
	.apply = impl_apply,
	.copy = impl_copy,
	.destroy = impl_destroy,
	.equal = impl_equal,
	.hash = impl_hash,
};
