/*
 * oracle/models.h - weft-check's table of the built-in sequential models:
 * register, counter, queue, stack, set, map, deque (weft/models.h) and kv
 * (Jepsen's string key-value store, model_kv.h).
 *
 * Each is a weft_model (weft/model.h) plus an op table that names its
 * operations, so a history read from a file ("3 invoke enq 7") can say which
 * operation it ran.  The op tables have run = NULL: they describe, they do not
 * execute.  A fuzz target reuses a model through weft/models.h.
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
#include "weft/models.h"
#include "weft/target.h"

/* The models and their operation numbers are public: weft/models.h. */

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
#define ORACLE_N_BUILTINS 8
extern const oracle_builtin oracle_builtins[ORACLE_N_BUILTINS];

/* The built-in called `name`, or NULL. */
const oracle_builtin *oracle_builtin_find(const char *name);

/* The index of the operation called `name` in b->ops, or -1. */
int oracle_builtin_op(const oracle_builtin *b, const char *name);

#endif /* WEFT_ORACLE_MODELS_H */
