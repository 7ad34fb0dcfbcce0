/*
 * tests/systematic_corpus.h - the planted-bug corpus (systematic_corpus.c) as
 * the cross-check (test_systematic_corpus.c) sees it: a table of programs,
 * each run as a whole-program target whose operation 0 is its main.
 */
#ifndef WEFT_TESTS_SYSTEMATIC_CORPUS_H
#define WEFT_TESTS_SYSTEMATIC_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/weft.h"

typedef int64_t (*corpus_fn)(void);

typedef struct corpus_program {
	const char *name;     /* its kind's prefix: fa_, sl_, lo_, sp_, wk_, sb_ */
	corpus_fn fn;
	const char *memory;   /* NULL: c11 */
	bool all_accesses;    /* WEFT_ACCESSES=all (first accesses are no steps by default) */
	bool small;           /* reduction proves the fixed variant within the test's cap */
} corpus_program;

extern const corpus_program corpus_programs[];
extern const size_t corpus_n_programs;
/* "main" (runs the selected program) and "thread" (a spawned thread's stand-in). */
extern const weft_op corpus_ops[2];
/* The program corpus_ops runs next, and its variant (0 buggy, 1 fixed). */
void corpus_select(const corpus_program *p, int variant);

#endif
