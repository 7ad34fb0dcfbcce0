/*
 * harness/minimize.c - shrink a failing input to a simpler one that fails the
 * same way, by replaying candidates (no fuzzer needed, fully deterministic).
 *
 * Why weft needs its own pass: libFuzzer's -minimize_crash only ever erases
 * bytes (its mutations that keep the length are filtered out), and weft's
 * encoding is not erase-local: dropping an operation moves every later
 * switch point, so a preemption distance must shrink in the same step.  Here
 * each round tries, in order of how much simpler the result is:
 *   1. erase one byte (fewer choices: fewer operations or preemptions);
 *   2. lower one byte: to 0, to half, by one (0 is the simplest choice).
 * A candidate is kept when it has the original verdict; rounds repeat until
 * none is kept or the run budget is spent.  Greedy, so a local minimum, but
 * every kept step is strictly simpler: shorter, or equally long and
 * lexicographically smaller.
 */
#include "weft/run.h"

#include <string.h>

#define MINIMIZE_MAX_RUNS 20000

typedef struct minimizer {
	weft_runner *runner;
	weft_verdict keep;
	uint8_t *buf, *cand;
	size_t size;
	unsigned runs;
} minimizer;

static int still_fails(minimizer *m, size_t size)
{
	m->runs++;
	return weft_runner_run(m->runner, m->cand, size, NULL) == m->keep;
}

static int try_erase(minimizer *m, size_t at)
{
	memcpy(m->cand, m->buf, at);
	memcpy(m->cand + at, m->buf + at + 1, m->size - at - 1);
	if (!still_fails(m, m->size - 1))
		return 0;
	memcpy(m->buf, m->cand, --m->size);
	return 1;
}

static int try_value(minimizer *m, size_t at, uint8_t value)
{
	if (value >= m->buf[at])
		return 0;
	memcpy(m->cand, m->buf, m->size);
	m->cand[at] = value;
	if (!still_fails(m, m->size))
		return 0;
	m->buf[at] = value;
	return 1;
}

static int lower_byte(minimizer *m, size_t at)
{
	uint8_t v = m->buf[at];
	return try_value(m, at, 0) || try_value(m, at, v / 2) || try_value(m, at, (uint8_t)(v - 1));
}

/* One round; 1 if anything got simpler. */
static int round_simpler(minimizer *m)
{
	int changed = 0;
	for (size_t i = m->size; i-- > 0 && m->runs < MINIMIZE_MAX_RUNS;)
		changed |= try_erase(m, i);
	for (size_t i = 0; i < m->size && m->runs < MINIMIZE_MAX_RUNS; i++)
		while (m->runs < MINIMIZE_MAX_RUNS && lower_byte(m, i))
			changed = 1;
	return changed;
}

size_t weft_runner_minimize(weft_runner *runner, uint8_t *buf, size_t size)
{
	uint8_t scratch[4096];
	if (size > sizeof scratch)
		return size;
	minimizer m = { runner, WEFT_PASS, buf, scratch, size, 0 };
	m.keep = weft_runner_run(runner, buf, size, NULL);
	if (m.keep == WEFT_PASS || m.keep == WEFT_ERROR)
		return size;
	while (m.runs < MINIMIZE_MAX_RUNS && round_simpler(&m))
		;
	weft_runner_run(runner, buf, m.size, NULL);   /* leave the result as the last run */
	return m.size;
}
