/*
 * harness/afl_mutator.c - weft's structure-aware mutator as an AFL++ custom
 * mutator library (issue 17): NAME_afl_mutator.so, loaded by afl-fuzz with
 *
 *     AFL_CUSTOM_MUTATOR_LIBRARY=build/afl/NAME_afl_mutator.so \
 *     AFL_CUSTOM_MUTATOR_ONLY=1 afl-fuzz -i in -o out -- build/afl/NAME_fuzz
 *
 * so AFL++ gets the search libFuzzer gets (mutate/mutate.c): schedules sampled
 * by the uniform, POS, random-walk and PCT strategies on fresh or corpus
 * scenarios, written back as explicit preemptions, edits of one preemption or
 * operation, splices, chosen by the same bandit (mutate/bandit.h).
 *
 * Why a library of its own per target: afl-fuzz runs custom mutators in its
 * own process, not in the target's, and sampling a schedule means running
 * the target's code.  So the library links the target's definition and
 * libweft, uninstrumented (weft_without_coverage), and makes its own runner.
 * Its runs are unjudged as far as AFL++ is concerned: the fuzz binary runs
 * every mutant again (AFL++ has no way to take a run made elsewhere), so
 * under AFL++ each sampled mutant costs two executions, one here and one in
 * the target.  Same bytes, same interleaving: what AFL++ saves replays in the
 * stock replay binary like any input.
 *
 * Reward: afl_custom_queue_new_entry (AFL++ kept the last mutant: new
 * coverage, interleaving features included as edges) credits the arm that
 * made it; a mutant not kept by the next call is credited nothing.
 * WEFT_MUTATOR=verify replays every sampled schedule from its bytes inside the
 * library and counts mismatches; the counts are printed when afl-fuzz exits;
 * WEFT_MUTATOR=only:ARM makes every mutation that may be that arm that arm
 * (weft_mutator_only_arm; an unknown name fails the library's start).
 * Seeds: the n-th mutation uses a hash of afl-fuzz's seed (-s) and n, so a
 * campaign with -s repeats its mutations.  The engine's byte mutation (5% of
 * calls) is a small one here, erasing or rewriting a few bytes, since AFL++'s
 * havoc is not callable from a custom mutator; without AFL_CUSTOM_MUTATOR_ONLY
 * AFL++ runs its own havoc as well.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/mutate.h"
#include "weft/run.h"

/* AFL++'s custom mutator interface (docs/custom_mutators.md); afl_state_t is opaque here. */
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
uint8_t afl_custom_queue_new_entry(void *data, const uint8_t *filename_new_queue,
				   const uint8_t *filename_orig_queue);
void afl_custom_deinit(void *data);

typedef struct afl_weft {
	weft_runner *runner;
	weft_mutator *mutator;
	uint64_t seed, n;
	uint8_t *buf;
	size_t cap;
} afl_weft;

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t engine_state;

/* The engine's mutation: erase a few bytes, or rewrite one (shrinks as AFL's trim does). */
static size_t small_engine(uint8_t *data, size_t size, size_t max_size)
{
	if (size > max_size)
		size = max_size;
	if (size == 0)
		return 0;
	engine_state = mix64(engine_state + 1);
	size_t at = engine_state % size, n = 1 + (engine_state >> 32) % 4;
	if ((engine_state >> 40) & 1) {
		data[at] = (uint8_t)(engine_state >> 48);
		return size;
	}
	n = n < size - at ? n : size - at;
	memmove(data + at, data + at + n, size - at - n);
	return size - n;
}

void *afl_custom_init(void *afl, unsigned int seed)
{
	(void)afl;
	afl_weft *w = calloc(1, sizeof *w);
	const char *problem = weft_target_problem(weft_fuzz_target());
	if (!w || problem) {
		fprintf(stderr, "weft: afl mutator: %s\n", problem ? problem : "out of memory");
		free(w);
		return NULL;
	}
	w->runner = weft_runner_new(weft_fuzz_target());
	const char *mode = getenv("WEFT_MUTATOR");
	int verify = mode && strcmp(mode, "verify") == 0;
	if (!w->runner || weft_runner_set_feedback(w->runner, 0) != 0 ||
	    !(w->mutator = weft_mutator_new(w->runner, verify))) {
		fputs("weft: afl mutator: out of memory\n", stderr);
		afl_custom_deinit(w);
		return NULL;
	}
	if (mode && strncmp(mode, "only:", 5) == 0 && weft_mutator_only_arm(w->mutator, mode + 5)) {
		fprintf(stderr, "weft: afl mutator: WEFT_MUTATOR=%s: no such mutation\n", mode);
		afl_custom_deinit(w);
		return NULL;
	}
	w->seed = seed;
	engine_state = seed;
	return w;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	afl_weft *w = data;
	if (w->cap < max_size || !w->buf) {
		uint8_t *b = realloc(w->buf, max_size ? max_size : 1);
		if (!b) {
			*out_buf = buf;
			return buf_size;
		}
		w->buf = b;
		w->cap = max_size;
	}
	weft_mutator_reward(w->mutator, 0);   /* the last mutant, if AFL++ did not keep it */
	unsigned seed = (unsigned)mix64(w->seed ^ mix64(++w->n));
	size_t n;
	if (add_buf && add_buf_size && (seed & 1)) {
		n = weft_crossover(w->mutator, buf, buf_size, add_buf, add_buf_size, w->buf, max_size,
				   seed >> 1);
	} else {
		n = buf_size < max_size ? buf_size : max_size;
		memcpy(w->buf, buf, n);
		n = weft_mutate(w->mutator, w->buf, n, max_size, seed >> 1, small_engine);
	}
	*out_buf = w->buf;
	return n;
}

uint8_t afl_custom_queue_new_entry(void *data, const uint8_t *filename_new_queue,
				   const uint8_t *filename_orig_queue)
{
	(void)filename_new_queue;
	(void)filename_orig_queue;
	weft_mutator_reward(((afl_weft *)data)->mutator, 1);
	return 0;
}

void afl_custom_deinit(void *data)
{
	afl_weft *w = data;
	if (!w)
		return;
	if (w->mutator) {   /* what it did, as the libFuzzer binary prints it at exit */
		weft_mutator_stats s = weft_mutator_stats_get(w->mutator);
		fprintf(stderr, "==weft== afl mutator: %" PRIu64 " mutations, %" PRIu64
			" executions inside the mutator, %" PRIu64 " schedules sampled, %" PRIu64
			" switches lost, %" PRIu64 " verified, %" PRIu64 " mismatches\n",
			s.mutations, s.runs, s.sampled, s.lost, s.verified, s.mismatches);
	}
	weft_mutator_free(w->mutator);
	weft_runner_free(w->runner);
	free(w->buf);
	free(w);
}
