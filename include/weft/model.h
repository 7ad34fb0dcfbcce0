/*
 * weft/model.h - a sequential model: what a data structure should do, one
 * operation at a time.  The linearizability checker (weft/check.h) searches
 * for an order of a concurrent history's operations that this model explains.
 *
 * A model's operations are numbered like the target's (weft_target.ops) or, for
 * a history read from a file, like the built-in model's op table.  Results are
 * int64_t; WEFT_NONE stands for "no value" (empty queue, absent key, nil).
 *
 * The state is a block of `state_size` bytes that the checker owns, copies and
 * memoizes on.  Most models keep everything inside it (a counter, a bitset, a
 * small array) and leave copy/destroy/equal/hash NULL: the checker then uses
 * memcpy, memcmp and a byte hash, so the state must be fully initialised by
 * init() (padding included: init starts from zeroed memory).  A state that owns
 * memory supplies all four.
 *
 * Example (a counter; the whole file is targets/counter.c):
 *
 *   static void counter_init(void *s) { *(int64_t *)s = 0; }
 *   static int64_t counter_apply(void *s, unsigned op, const int64_t *args) {
 *           int64_t *v = s;
 *           return op == OP_INCREMENT ? (++*v, 0) : *v;
 *   }
 *   static const weft_model counter_model = { "counter", sizeof(int64_t),
 *           counter_init, counter_apply };
 */
#ifndef WEFT_MODEL_H
#define WEFT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "No value": the result of dequeuing from an empty queue, reading an absent key. */
#define WEFT_NONE INT64_MIN
/*
 * The result of an operation that was still blocked (waiting on a lock,
 * condition or semaphore) when no thread could run any more.  A model returns
 * it for an operation that would block in the given state (a take() on an
 * empty blocking queue): the execution is then correct, the operation simply
 * never returned.  If no order of the history lets every blocked operation
 * block, the verdict is "deadlock".
 */
#define WEFT_BLOCKED (INT64_MIN + 1)

/* partition() of an operation that touches every key (size, clear): no partitioning. */
#define WEFT_PARTITION_ALL INT64_MIN

typedef struct weft_model {
	const char *name;
	size_t state_size;

	/* Write the initial state into zeroed memory of state_size bytes. */
	void (*init)(void *state);
	/* Apply operation `op` with `args` to the state and return its result. */
	int64_t (*apply)(void *state, unsigned op, const int64_t *args);

	/* Optional, all four or none: for states that own memory. */
	void (*copy)(void *dst, const void *src);   /* dst: state_size bytes, not initialised */
	void (*destroy)(void *state);
	int (*equal)(const void *a, const void *b); /* non-zero when equal */
	uint64_t (*hash)(const void *state);

	/*
	 * Optional P-compositionality: the key an operation touches.  When every
	 * operation of a history has a key (none returns WEFT_PARTITION_ALL), the
	 * checker checks each key's sub-history on its own, from init(): correct
	 * only when operations on different keys never affect each other (a set, a
	 * map).  Exponentially cheaper on long histories.
	 */
	int64_t (*partition)(unsigned op, const int64_t *args);

	/*
	 * Optional, both or neither: a non-deterministic specification, where one
	 * call in one state may have several allowed outcomes, each a (result,
	 * next state) pair - "a dequeue may fail spuriously", "a trylock may fail",
	 * "a dequeue returns any of the first k + 1 elements" (weft/models.h).
	 *   outcomes: how many outcomes `op` has in `state` (0: the call cannot
	 *       happen there); it must not change the state.
	 *   apply_outcome: apply outcome k (0 <= k < outcomes(...)) to the state
	 *       and return its result.
	 * The checker then accepts a completed call when some outcome gives the
	 * observed result, and searches every outcome that does (and every outcome
	 * of a pending call, whose result was never observed).  Both receive the
	 * model itself, so one function serves a family of models that differ by
	 * `param`.  When set they replace `apply`, which may then be NULL; a model
	 * without them is deterministic (one outcome: apply).  Cost: the search
	 * branches once per outcome; a call with one outcome costs as with apply.
	 */
	unsigned (*outcomes)(const struct weft_model *model, const void *state, unsigned op,
			     const int64_t *args);
	int64_t (*apply_outcome)(const struct weft_model *model, void *state, unsigned op,
				 const int64_t *args, unsigned k);
	/* A number the model's own functions may read (k of a k-relaxed queue); 0 by default. */
	int64_t param;
} weft_model;

#ifdef __cplusplus
}
#endif
#endif /* WEFT_MODEL_H */
