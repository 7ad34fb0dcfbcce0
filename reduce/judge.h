/*
 * reduce/judge.h - how the simplifier judges one candidate: its verdict, its
 * symptom (report/symptom.c) and its complexity, in this process or, when
 * the target can die (a sanitizer's report, a signal in the program), in a
 * child process that may die without taking the simplification with it.
 */
#ifndef WEFT_REDUCE_JUDGE_H
#define WEFT_REDUCE_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "weft/run.h"
#include "../input/scenario.h"

#define REDUCE_SYMPTOM_MAX 512

typedef struct reduce_judgement {
	weft_verdict verdict;        /* WEFT_ERROR when the run died */
	int died;                    /* the child ended before reporting */
	int counted;                 /* c holds the run's counts (a death: its weft report's) */
	weft_complexity c;
	unsigned n_data;             /* the data choices the run made (not after a death) */
	input_data data[INPUT_MAX_DATA];
	char symptom[REDUCE_SYMPTOM_MAX];   /* "died: KIND at SITE" for a death */
} reduce_judgement;

/* Run bytes here (a death kills the caller). */
void reduce_judge_here(weft_runner *r, const uint8_t *bytes, size_t size, reduce_judgement *j);
/*
 * Run bytes in a forked child (its stdout and stderr captured, not shown);
 * a child that dies is judged from what it printed.  -1 if no child could be
 * made (j untouched).  Cost: a fork per candidate (see ARCHITECTURE.md).
 */
int reduce_judge_child(weft_runner *r, const uint8_t *bytes, size_t size, reduce_judgement *j);
/*
 * A death's symptom from the dying process's stderr (`text`) and wait status:
 * "died: KIND at SITE", KIND the sanitizer's error kind (its SUMMARY line) or
 * the signal, SITE the first frame in the program ("function file.c:59") or
 * UBSan's "file.c:12".  Same rule as scripts/weft_reduce.sh's death_symptom.
 */
void reduce_death_symptom(const char *text, int status, char *buf, size_t cap);

#endif /* WEFT_REDUCE_JUDGE_H */
