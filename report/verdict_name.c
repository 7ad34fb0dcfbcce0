/*
 * report/verdict_name.c - the word for each verdict ("linearizability",
 * "deadlock", ...).
 *
 * Its own file so that every room that speaks of verdicts (the runner's
 * messages, the report, the command lines) reaches the names without
 * reaching the runner: the report must not include the runner, which calls
 * the report.  The words are a contract: the fuzz glue's ASSERTION FAILED
 * line, reproducer file names (NAME.KIND.bin), `--expect=KIND` and the golden
 * reports all use them, so a name never changes.
 */
#include "weft/run.h"

const char *weft_verdict_name(weft_verdict v)
{
	switch (v) {
	case WEFT_PASS: return "pass";
	case WEFT_FAIL_VALIDATION: return "validation";
	case WEFT_FAIL_BUDGET: return "step-budget";
	case WEFT_ERROR: return "error";
	case WEFT_FAIL_LINEARIZABILITY: return "linearizability";
	case WEFT_FAIL_NONDETERMINISM: return "nondeterministic";
	case WEFT_FAIL_DEADLOCK: return "deadlock";
	case WEFT_FAIL_LIVELOCK: return "livelock";
	case WEFT_FAIL_OBSTRUCTION: return "obstruction";
	case WEFT_FAIL_ASSERTION: return "assertion";
	case WEFT_FAIL_MISUSE: return "misuse";
	case WEFT_FAIL_DATA_RACE: return "data-race";
	}
	return "?";
}
