/*
 * oracle/model_relaxed.c - k-relaxed queues and stacks (weft/models.h:
 * WEFT_MODEL_QUEUE_RELAXED(k), WEFT_MODEL_STACK_RELAXED(k); weft-check
 * --relaxed=K): quasi-linearizability (Afek, Korland & Yanovsky, OPODIS 2010)
 * in the k-out-of-order form of Henzinger, Kirsch, Payer, Sezgin & Sokolova
 * ("Quantitative relaxation of concurrent data structures", POPL 2013).
 *
 * A dequeue may remove any of the k + 1 oldest elements (a pop any of the
 * k + 1 newest): outcome j (weft/model.h, outcomes) removes the element j
 * places from the strict end, j = 0 .. min(k, length - 1); outcome 0 is the
 * strict queue's (stack's) answer, so the explanation lists the strict answer
 * first.  Empty: one outcome, WEFT_NONE.  Every other operation is the strict
 * model's: enq/push, contents().  k is model->param, so one pair of functions
 * serves every k; the state is the strict models' (weft_impl_vec), so equal
 * contents are one state for the memo whatever k.
 *
 * Why a window and not a lateness bound: "a dequeue returns one of the first
 * k + 1 elements" is the condition users state for a relaxed queue, and it
 * keeps the state the plain contents.  It does not bound how often one
 * element is passed over (weft/models.h says so).
 */
#include <string.h>

#include "models.h"

/* How many outcomes a removal has: the window, clipped to the contents; 1 when empty. */
static unsigned relaxed_window(const weft_model *model, size_t len)
{
	uint64_t k = model->param > 0 ? (uint64_t)model->param : 0;
	if (len == 0)
		return 1;
	return k + 1 < len ? (unsigned)(k + 1) : (unsigned)len;
}

/* Removes and returns the element at live index i (0 = v[head]). */
static int64_t relaxed_take(weft_impl_vec *s, size_t i)
{
	int64_t *at = s->v + s->head + i;
	int64_t x = *at;
	memmove(at, at + 1, (s->len - i - 1) * sizeof *at);
	s->len--;
	return x;
}

unsigned weft_impl_relaxed_outcomes(const weft_model *model, const void *state, unsigned op,
				    const int64_t *args)
{
	(void)args;
	_Static_assert((int)WEFT_QUEUE_DEQ == (int)WEFT_STACK_POP, "one removal op for both");
	return op == WEFT_QUEUE_DEQ ? relaxed_window(model, ((const weft_impl_vec *)state)->len) : 1u;
}

int64_t weft_impl_relaxed_queue(const weft_model *model, void *state, unsigned op,
				const int64_t *args, unsigned k)
{
	weft_impl_vec *s = state;
	if (op != WEFT_QUEUE_DEQ || s->len == 0)
		return weft_model_queue.apply(state, op, args);
	(void)model;
	return relaxed_take(s, k < s->len ? k : s->len - 1);  /* k < the window (outcomes()) */
}

int64_t weft_impl_relaxed_stack(const weft_model *model, void *state, unsigned op,
				const int64_t *args, unsigned k)
{
	weft_impl_vec *s = state;
	if (op != WEFT_STACK_POP || s->len == 0)
		return weft_model_stack.apply(state, op, args);
	(void)model;
	return relaxed_take(s, s->len - 1 - (k < s->len ? k : s->len - 1));
}
