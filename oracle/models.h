/*
 * oracle/models.h - weft's built-in sequential models: register, counter, queue,
 * stack, set and map; and kv (Jepsen's string key-value store, model_kv.h).
 *
 * Each is a weft_model (weft/model.h) plus an op table that names its
 * operations, so a history read from a file ("3 invoke enq 7") can say which
 * operation it ran.  The op tables have run = NULL: they describe, they do not
 * execute.  A fuzz target may reuse a model as its own (`.model =
 * &oracle_queue_model`) as long as its ops[] are numbered like the enums below.
 *
 * Results follow one convention: "no value" (empty queue, absent key, a register
 * never written) is WEFT_NONE; a yes/no answer is 1/0; an operation that has
 * nothing to say returns 0.
 *
 * Queue, stack, set and map states own memory (a growable int64_t vector), so
 * their models supply copy/destroy/equal/hash; they hold any number of elements
 * (a 10,000-operation history is fine).  apply() aborts if malloc fails: a model
 * has no way to report an error, and a checker that silently lost an element
 * would give a wrong verdict.  Set and map partition by key (P-compositionality)
 * and are also correct unpartitioned (the state is a sorted array of keys).
 */
#ifndef WEFT_ORACLE_MODELS_H
#define WEFT_ORACLE_MODELS_H

#include <stddef.h>

#include "weft/model.h"
#include "weft/target.h"

/* register: read() -> value or WEFT_NONE; write(v) -> 0; cas(old, new) -> 1 swapped, 0 not. */
enum { ORACLE_REGISTER_READ = 0, ORACLE_REGISTER_WRITE = 1, ORACLE_REGISTER_CAS = 2 };
/* counter, starts at 0: increment() -> 0; add(n) -> 0; get() -> value (wraps like uint64_t). */
enum { ORACLE_COUNTER_INCREMENT = 0, ORACLE_COUNTER_ADD = 1, ORACLE_COUNTER_GET = 2 };
/* FIFO queue: enq(v) -> 0; deq() -> oldest value, WEFT_NONE when empty. */
enum { ORACLE_QUEUE_ENQ = 0, ORACLE_QUEUE_DEQ = 1 };
/* LIFO stack: push(v) -> 0; pop() -> newest value, WEFT_NONE when empty. */
enum { ORACLE_STACK_PUSH = 0, ORACLE_STACK_POP = 1 };
/* set of int64: add(k) -> 1 newly added / 0; remove(k) -> 1 removed / 0; contains(k) -> 1 / 0. */
enum { ORACLE_SET_ADD = 0, ORACLE_SET_REMOVE = 1, ORACLE_SET_CONTAINS = 2 };
/* map int64 -> int64: put(k, v), get(k), remove(k) -> the previous value or WEFT_NONE. */
enum { ORACLE_MAP_PUT = 0, ORACLE_MAP_GET = 1, ORACLE_MAP_REMOVE = 2 };

extern const weft_model oracle_register_model;
extern const weft_model oracle_counter_model;
extern const weft_model oracle_queue_model;
extern const weft_model oracle_stack_model;
extern const weft_model oracle_set_model;
extern const weft_model oracle_map_model;

/* A built-in model and the names of its operations (ops[i] is operation i). */
typedef struct oracle_builtin {
	const weft_model *model;    /* model->name is the name histories use */
	const weft_op *ops;         /* name and n_args only; run = NULL */
	unsigned n_ops;
	const char *summary;        /* one line for --help: the operations and results */
	int strings;                /* 1: keys and values are strings interned per history
				       (model_kv.h): read from EDN files only, never the text format */
} oracle_builtin;

/* Every built-in, in the order --help lists them. */
#define ORACLE_N_BUILTINS 7
extern const oracle_builtin oracle_builtins[ORACLE_N_BUILTINS];

/* The built-in called `name`, or NULL. */
const oracle_builtin *oracle_builtin_find(const char *name);

/* The index of the operation called `name` in b->ops, or -1. */
int oracle_builtin_op(const oracle_builtin *b, const char *name);

#endif /* WEFT_ORACLE_MODELS_H */
