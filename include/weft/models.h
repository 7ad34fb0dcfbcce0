/*
 * weft/models.h - weft's built-in sequential models, for a target to use as
 * its own (`.model = &weft_model_queue`), and the macros that make a target
 * against one short: adapters and op tables numbered as the model expects.
 * The same models check history files in weft-check.
 *
 * A target's ops[] must be numbered like the model's enum below: ops[i] is
 * operation i of the model.  Results follow one convention: "no value" (empty
 * queue, absent key, a register never written) is WEFT_NONE; a yes/no answer
 * is 1/0; an operation with nothing to say returns 0.  The queue, stack and
 * deque have a final-only `contents` operation (weft_target.final_op): the
 * elements as decimal digits, 0 when empty - meaningful for elements 1..9 and
 * up to 18 of them, which is what fuzz scenarios use.  A target of its own can
 * return its elements whole instead, as a sequence value (weft/value.h;
 * targets/drain_queue.c).
 *
 * Example: a whole queue target against the built-in queue (README, "Short
 * targets"; targets/ms_queue.c is declared this way):
 *
 *   WEFT_ADAPTER1(op_enq, my_enq)            // int64_t my_enq(my_queue *, int64_t)
 *   WEFT_ADAPTER0(op_deq, my_deq)            // int64_t my_deq(my_queue *)
 *   static const weft_op ops[] = WEFT_QUEUE_OPS(op_enq, op_deq, 1, 3);
 *   static const weft_target t = { .name = "my_queue", WEFT_USE_MODEL(ops, weft_model_queue),
 *           .setup = my_new, .teardown = my_free };
 *   WEFT_FUZZ_TARGET(t)
 *
 * Relaxed specifications (quasi-linearizability, Afek, Korland & Yanovsky,
 * OPODIS 2010; k-out-of-order relaxation, Henzinger, Kirsch, Payer, Sezgin &
 * Sokolova, "Quantitative relaxation of concurrent data structures", POPL
 * 2013): WEFT_MODEL_QUEUE_RELAXED(k) is a queue whose dequeue may return any
 * of the k + 1 oldest elements (k = 0: the FIFO queue), removing that one;
 * WEFT_MODEL_STACK_RELAXED(k) a stack whose pop may return any of the k + 1
 * newest.  Empty: none, as the strict ones.  k bounds how far from the front
 * one dequeue may reach, not how often one element is overtaken (an element
 * can be passed over again and again; Henzinger et al.'s lateness bound is
 * not modelled).  They are non-deterministic models (weft/model.h, outcomes):
 * the checker branches over the min(k + 1, length) outcomes of each dequeue.
 *
 * All states own memory (a growable array), so any number of elements is
 * fine; apply() aborts if malloc fails (a model cannot report an error, and a
 * lost element would give a wrong verdict).  Set and map partition by key.
 */
#ifndef WEFT_MODELS_H
#define WEFT_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "weft/export.h"
#include "weft/model.h"
#include "weft/target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* register, starts none: read() -> value or WEFT_NONE; write(v) -> 0; cas(old, new) -> 1 swapped, 0 not. */
enum { WEFT_REGISTER_READ = 0, WEFT_REGISTER_WRITE = 1, WEFT_REGISTER_CAS = 2 };
/* counter, starts 0: increment() -> 0; add(n) -> 0; get() -> value (wraps like uint64_t). */
enum { WEFT_COUNTER_INCREMENT = 0, WEFT_COUNTER_ADD = 1, WEFT_COUNTER_GET = 2 };
/* FIFO queue: enq(v) -> 0; deq() -> oldest value or WEFT_NONE; contents() -> digits, oldest first. */
enum { WEFT_QUEUE_ENQ = 0, WEFT_QUEUE_DEQ = 1, WEFT_QUEUE_CONTENTS = 2 };
/* LIFO stack: push(v) -> 0; pop() -> newest value or WEFT_NONE; contents() -> digits, top first. */
enum { WEFT_STACK_PUSH = 0, WEFT_STACK_POP = 1, WEFT_STACK_CONTENTS = 2 };
/* set of int64: add(k) -> 1 newly added / 0; remove(k) -> 1 removed / 0; contains(k) -> 1 / 0. */
enum { WEFT_SET_ADD = 0, WEFT_SET_REMOVE = 1, WEFT_SET_CONTAINS = 2 };
/* map int64 -> int64: put(k, v), get(k), remove(k) -> the previous value or WEFT_NONE. */
enum { WEFT_MAP_PUT = 0, WEFT_MAP_GET = 1, WEFT_MAP_REMOVE = 2 };
/*
 * double-ended queue: push_front(v), push_back(v) -> 0; pop_front(), pop_back()
 * -> the value or WEFT_NONE; contents() -> digits, front first.  A work-stealing
 * deque (Chase-Lev) is push_back/pop_back for its owner, pop_front for thieves.
 */
enum { WEFT_DEQUE_PUSH_FRONT = 0, WEFT_DEQUE_PUSH_BACK = 1, WEFT_DEQUE_POP_FRONT = 2,
       WEFT_DEQUE_POP_BACK = 3, WEFT_DEQUE_CONTENTS = 4 };

WEFT_API extern const weft_model weft_model_register;
WEFT_API extern const weft_model weft_model_counter;
WEFT_API extern const weft_model weft_model_queue;
WEFT_API extern const weft_model weft_model_stack;
WEFT_API extern const weft_model weft_model_set;
WEFT_API extern const weft_model weft_model_map;
WEFT_API extern const weft_model weft_model_deque;

/*
 * Adapters: WEFT_ADAPTERn(name, fn) defines `static int64_t name(void *, const
 * int64_t *)`, a weft_op.run that calls fn(instance) / fn(instance, args[0]) /
 * fn(instance, args[0], args[1]).  fn takes the instance as its own pointer
 * type (converted from void *) and returns anything that converts to int64_t.
 */
#define WEFT_ADAPTER0(name, fn) \
	static int64_t name(void *self, const int64_t *args) { (void)args; return (int64_t)fn(self); }
#define WEFT_ADAPTER1(name, fn) \
	static int64_t name(void *self, const int64_t *args) { return (int64_t)fn(self, args[0]); }
#define WEFT_ADAPTER2(name, fn) \
	static int64_t name(void *self, const int64_t *args) { return (int64_t)fn(self, args[0], args[1]); }

/*
 * Op tables numbered as the models expect, arguments drawn from [lo, hi]:
 *   static const weft_op ops[] = WEFT_QUEUE_OPS(op_enq, op_deq, 1, 3);
 * The _FINAL forms add the final-only contents() (use WEFT_USE_MODEL_FINAL).
 */
#define WEFT_IMPL_OP(nm, fn) { .name = nm, .run = fn }
#define WEFT_IMPL_OP1(nm, fn, lo, hi) { .name = nm, .run = fn, .n_args = 1, .args = { { lo, hi } } }
#define WEFT_IMPL_FINAL(nm, fn) { .name = nm, .run = fn, .flags = WEFT_OP_FINAL_ONLY }
#define WEFT_QUEUE_OPS(enq, deq, lo, hi) \
	{ WEFT_IMPL_OP1("enq", enq, lo, hi), WEFT_IMPL_OP("deq", deq) }
#define WEFT_QUEUE_OPS_FINAL(enq, deq, contents, lo, hi) \
	{ WEFT_IMPL_OP1("enq", enq, lo, hi), WEFT_IMPL_OP("deq", deq), WEFT_IMPL_FINAL("contents", contents) }
#define WEFT_STACK_OPS(push, pop, lo, hi) \
	{ WEFT_IMPL_OP1("push", push, lo, hi), WEFT_IMPL_OP("pop", pop) }
#define WEFT_STACK_OPS_FINAL(push, pop, contents, lo, hi) \
	{ WEFT_IMPL_OP1("push", push, lo, hi), WEFT_IMPL_OP("pop", pop), WEFT_IMPL_FINAL("contents", contents) }
#define WEFT_DEQUE_OPS(push_front, push_back, pop_front, pop_back, lo, hi) \
	{ WEFT_IMPL_OP1("push_front", push_front, lo, hi), WEFT_IMPL_OP1("push_back", push_back, lo, hi), \
	  WEFT_IMPL_OP("pop_front", pop_front), WEFT_IMPL_OP("pop_back", pop_back) }

/*
 * Inside a weft_target initializer: the ops table (its length counted), the
 * model, and for _FINAL the last op as final_op (Lincheck's post part).
 *   static const weft_target t = { .name = "q", WEFT_USE_MODEL(ops, weft_model_queue), ... };
 */
#define WEFT_IMPL_COUNT(table_) ((unsigned)(sizeof(table_) / sizeof((table_)[0])))
#define WEFT_USE_MODEL(table_, model_) \
	.ops = (table_), .n_ops = WEFT_IMPL_COUNT(table_), .model = &(model_)
#define WEFT_USE_MODEL_FINAL(table_, model_) \
	WEFT_USE_MODEL(table_, model_), .final_op = &(table_)[WEFT_IMPL_COUNT(table_) - 1]

/* ---- relaxed queues and stacks (above); internals the macros name ---- */

/* The state of the queue, stack, deque, set and map: live elements v[head .. head+len). */
typedef struct weft_impl_vec {
	int64_t *v;
	size_t head, len, cap;
} weft_impl_vec;

WEFT_API void weft_impl_vec_init(void *state);
WEFT_API void weft_impl_vec_copy(void *dst, const void *src);
WEFT_API void weft_impl_vec_destroy(void *state);
WEFT_API int weft_impl_vec_equal(const void *a, const void *b);
WEFT_API uint64_t weft_impl_vec_hash(const void *state);
/* model->param = k: a dequeue (pop) has min(k + 1, length) outcomes, anything else one. */
WEFT_API unsigned weft_impl_relaxed_outcomes(const weft_model *model, const void *state,
					     unsigned op, const int64_t *args);
WEFT_API int64_t weft_impl_relaxed_queue(const weft_model *model, void *state, unsigned op,
					 const int64_t *args, unsigned k);
WEFT_API int64_t weft_impl_relaxed_stack(const weft_model *model, void *state, unsigned op,
					 const int64_t *args, unsigned k);

#define WEFT_IMPL_RELAXED(nm, fn, k)                                                      \
	{ .name = nm, .state_size = sizeof(weft_impl_vec), .init = weft_impl_vec_init,     \
	  .copy = weft_impl_vec_copy, .destroy = weft_impl_vec_destroy,                    \
	  .equal = weft_impl_vec_equal, .hash = weft_impl_vec_hash,                        \
	  .outcomes = weft_impl_relaxed_outcomes, .apply_outcome = fn, .param = (k) }
/* static const weft_model q = WEFT_MODEL_QUEUE_RELAXED(2);  numbered like weft_model_queue */
#define WEFT_MODEL_QUEUE_RELAXED(k) WEFT_IMPL_RELAXED("queue-relaxed", weft_impl_relaxed_queue, k)
/* static const weft_model s = WEFT_MODEL_STACK_RELAXED(1);  numbered like weft_model_stack */
#define WEFT_MODEL_STACK_RELAXED(k) WEFT_IMPL_RELAXED("stack-relaxed", weft_impl_relaxed_stack, k)

#ifdef __cplusplus
}
#endif
#endif /* WEFT_MODELS_H */
