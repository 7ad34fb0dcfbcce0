/*
 * mutate/flip.c - choose a race of a recorded run to reverse (design in
 * flip.h).
 */
#include "flip.h"

#include <string.h>

#include "schedule_record.h"
#include "../runner/feedback.h"

#define FLIP_TRIES 8       /* random starting points tried before giving up */
#define FLIP_STRETCH 32    /* events from a starting point tried as e1 */
#define FLIP_WINDOW 256    /* events after e1 searched for its racer, before for a write */
#define FLIP_CANDIDATES 32 /* races collected before one is chosen */
#define FLIP_FAR_CANDIDATES 128 /* pairs collected by the far choice */
/*
 * In runs up to this many events an event is looked at once: starting points
 * overlap on short runs (on the counter every try covered the whole run, so
 * each race was searched and judged up to eight times: the mutator's costliest
 * function, issue 33); a second visit copies the first one's candidates, so
 * the choice is the one the searches would make.  Longer runs rarely overlap.
 */
#define FLIP_DEDUP_EVENTS 4096

/* Counted as POS counts a thread's accesses (strategy_pos.c): any access kind. */
static int counted(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT && e->thread < SCHED_MAX_THREADS;
}

/* An access to an object that another thread's access can race with. */
static int on_object(const sched_event *e)
{
	return counted(e) && e->addr && e->kind != WEFT_ACCESS_YIELD &&
	       e->kind != WEFT_ACCESS_FENCE;
}

/*
 * The racer of the access at i: the first later access to its object by
 * another thread with a write among the two, unless i's thread touches the
 * object again first.  -1 when there is none within the window.
 */
static long racer(const sched_trace *t, size_t i)
{
	const sched_event *a = &t->events[i];
	size_t end = t->n - i - 1 > FLIP_WINDOW ? i + 1 + FLIP_WINDOW : t->n;
	for (size_t j = i + 1; j < end; j++) {
		const sched_event *b = &t->events[j];
		if (!on_object(b) || b->addr != a->addr)
			continue;
		if (b->thread == a->thread)
			return -1;
		if (runner_access_writes(a) || runner_access_writes(b))
			return (long)j;
	}
	return -1;
}

/* The last logged decision asked before event i was appended, or -1. */
static long decision_before(const uint32_t *at, uint64_t n, size_t i)
{
	uint64_t lo = 0, hi = n;   /* at[] never decreases: the first d with at[d] > i */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (at[mid] <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * What the reversal makes a read see (flip.h): e2 reads what e1 wrote over
 * (the last write before e1), or e1 reads e2's write.  *rf the reads-from
 * pair, *value the value feature (runner/feedback.h VALUES).  0 when there is
 * none to name: two writes, a value from before the run or the reader's own.
 * A far pair (keep_order.h: A's accesses from e1 to e2 wait until after e2):
 * e2 reads the last write between them not A's, else the last before e1.
 */
static int reversed_read(const sched_trace *t, size_t i, size_t j, uint32_t *rf, uint32_t *value)
{
	const sched_event *a = &t->events[i], *b = &t->events[j];
	if (runner_access_reads(a) && runner_access_writes(b)) {
		*rf = runner_feedback_rf_id(b->site_id, a->site_id);
		*value = runner_feedback_value_id(a->site_id, b->value);
		return 1;
	}
	if (!runner_access_reads(b))
		return 0;
	for (size_t k = j, seen = 0; k-- > 0 && seen < 2 * FLIP_WINDOW; seen++) {
		const sched_event *w = &t->events[k];
		if (!on_object(w) || w->addr != a->addr || !runner_access_writes(w) ||
		    (k >= i && w->thread == a->thread))
			continue;
		if (w->thread == b->thread)
			return 0;
		*rf = runner_feedback_rf_id(w->site_id, b->site_id);
		*value = runner_feedback_value_id(b->site_id, w->value);
		return 1;
	}
	return 0;
}

/* The race of accesses i and j, if a logged decision just before i ran its thread. */
static int race_of(const sched_trace *t, const uint32_t *decision_at, const uint8_t *decision_to,
		   uint64_t n, size_t i, long j, mutate_flip *out)
{
	const sched_event *a = &t->events[i];
	if (j < 0)
		return 0;
	long d = decision_before(decision_at, n, i);
	if (d < 0 || decision_to[d] != a->thread)
		return 0;
	*out = (mutate_flip){ .follow = (uint64_t)d, .first = a->thread,
			      .second = t->events[j].thread, .first_event = (uint32_t)i,
			      .second_event = (uint32_t)j };
	return 1;
}

/* The race starting at access i (its first racer). */
static int race_at(const sched_trace *t, const uint32_t *decision_at, const uint8_t *decision_to,
		   uint64_t n, size_t i, mutate_flip *out)
{
	return race_of(t, decision_at, decision_to, n, i,
		       on_object(&t->events[i]) ? racer(t, i) : -1, out);
}

/*
 * Every later access that conflicts with access i (same object, another
 * thread, a write among the two, within the window), appended to cand as a
 * race of i (one pass: the far choice looks at up to 128 pairs per call).
 */
static void conflicts(const sched_trace *t, const uint32_t *decision_at,
		      const uint8_t *decision_to, uint64_t n, size_t i, mutate_flip *cand,
		      unsigned *n_cand, unsigned cap)
{
	const sched_event *a = &t->events[i];
	mutate_flip race;
	if (!on_object(a) || *n_cand >= cap || !race_of(t, decision_at, decision_to, n, i, (long)i, &race))
		return;
	size_t end = t->n - i - 1 > FLIP_WINDOW ? i + 1 + FLIP_WINDOW : t->n;
	for (size_t j = i + 1; j < end && *n_cand < cap; j++) {
		const sched_event *b = &t->events[j];
		if (on_object(b) && b->addr == a->addr && b->thread != a->thread &&
		    (runner_access_writes(a) || runner_access_writes(b))) {
			race.second = b->thread;
			race.second_event = (uint32_t)j;
			cand[(*n_cand)++] = race;
		}
	}
}

/* B's accesses from the start up to and including e2. */
static uint32_t accesses_through(const sched_trace *t, unsigned b, uint32_t j)
{
	uint32_t made = 0;
	for (uint32_t k = 0; k <= j; k++)
		made += counted(&t->events[k]) && t->events[k].thread == b;
	return made;
}

/* Whether reversing f makes a read see a pair or value the campaign has not seen. */
static int fresh_race(const sched_trace *t, const mutate_flip *f, mutate_flip_seen seen, void *ctx)
{
	uint32_t rf, value;
	return seen && reversed_read(t, f->first_event, f->second_event, &rf, &value) &&
	       (!seen(ctx, rf) || !seen(ctx, value));
}

/* One of the candidates, a fresh one when there is any; its lead count filled. */
static void pick(const sched_trace *t, const mutate_flip *cand, const uint8_t *fresh,
		 unsigned n_cand, unsigned n_new, search_rng *rng, mutate_flip *out)
{
	unsigned k = (unsigned)search_rng_below(rng, n_new ? n_new : n_cand);
	for (unsigned c = 0; c < n_cand; c++)
		if ((!n_new || fresh[c]) && k-- == 0) {
			*out = cand[c];
			break;
		}
	out->accesses = accesses_through(t, out->second, out->second_event);
}

/* Collect races from random starting points (adjacent or far), then pick one. */
static int choose(const sched_trace *t, const uint32_t *decision_at, const uint8_t *decision_to,
		  uint64_t n, search_rng *rng, mutate_flip_seen seen, void *ctx, int far,
		  mutate_flip *out)
{
	mutate_flip cand[FLIP_FAR_CANDIDATES];
	uint8_t fresh[FLIP_FAR_CANDIDATES];
	unsigned n_cand = 0, n_new = 0, cap = far ? FLIP_FAR_CANDIDATES : FLIP_CANDIDATES;
	if (t->n < 2 || n == 0)
		return 0;
	if (n > MUTATE_MAX_DECISIONS)
		n = MUTATE_MAX_DECISIONS;   /* the log's length; later decisions are not flipped */
	uint64_t done[FLIP_DEDUP_EVENTS / 64];
	uint8_t first[FLIP_DEDUP_EVENTS], count[FLIP_DEDUP_EVENTS];   /* valid where done */
	int memo = t->n <= FLIP_DEDUP_EVENTS;
	if (memo)
		memset(done, 0, ((t->n + 63) / 64) * sizeof done[0]);
	for (unsigned k = 0; k < FLIP_TRIES && n_cand < cap; k++) {
		size_t at = (size_t)search_rng_below(rng, t->n);
		for (size_t e = 0; e < t->n && e < FLIP_STRETCH && n_cand < cap; e++, at++) {
			unsigned from = n_cand;
			if (at == t->n)
				at = 0;
			if (memo && (done[at / 64] >> (at % 64) & 1)) {   /* seen: the same again */
				for (unsigned c = 0; c < count[at] && n_cand < cap; c++, n_cand++) {
					cand[n_cand] = cand[first[at] + c];
					n_new += fresh[n_cand] = fresh[first[at] + c];
				}
				continue;
			}
			if (far)
				conflicts(t, decision_at, decision_to, n, at, cand, &n_cand, cap);
			else
				n_cand += (unsigned)race_at(t, decision_at, decision_to, n, at, &cand[n_cand]);
			for (unsigned c = from; c < n_cand; c++) {
				fresh[c] = (uint8_t)fresh_race(t, &cand[c], seen, ctx);
				n_new += fresh[c];
			}
			if (memo) {
				done[at / 64] |= UINT64_C(1) << (at % 64);
				first[at] = (uint8_t)from;
				count[at] = (uint8_t)(n_cand - from);
			}
		}
	}
	if (n_cand == 0)
		return 0;
	pick(t, cand, fresh, n_cand, n_new, rng, out);
	return 1;
}

int mutate_flip_choose(const sched_trace *t, const uint32_t *decision_at,
		       const uint8_t *decision_to, uint64_t n, search_rng *rng,
		       mutate_flip_seen seen, void *ctx, mutate_flip *out)
{
	return choose(t, decision_at, decision_to, n, rng, seen, ctx, 0, out);
}

int mutate_flip_choose_far(const sched_trace *t, const uint32_t *decision_at,
			   const uint8_t *decision_to, uint64_t n, search_rng *rng,
			   mutate_flip_seen seen, void *ctx, mutate_flip *out)
{
	return choose(t, decision_at, decision_to, n, rng, seen, ctx, 1, out);
}
