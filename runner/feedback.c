/*
 * runner/feedback.c - interleaving feedback: switch pairs, reads-from pairs
 * and the outcome of one execution as stable feature ids (definitions in
 * feedback.h).  Prints nothing, allocates only in runner_feedback_new.
 */
#include "feedback.h"

#include <stdlib.h>
#include <string.h>

/* Threads an event or history entry can name; larger numbers share the last slot. */
#define FB_THREADS 32
/* Open-addressing tables, powers of two, at most 3/4 full. */
#define FB_FEATURE_SLOTS 2048
#define FB_OBJECT_SLOTS 1024

/* The first word of every hash: what the other words mean. */
enum {
	TAG_PAIR = 0x7700,            /* + enum runner_switch_how */
	TAG_READS_FROM = 0x7800,
	TAG_OUTCOME = 0x7900,
	TAG_OP_SITE = 0x7a00,         /* + 0 begin, 1 end */
	TAG_THREAD = 0x7b00,
	TAG_VALUE = 0x7c00,
	TAG_TIMEOUTS = 0x7d00,
};

typedef struct fb_feature_slot {
	uint32_t gen;                 /* == fb->gen: in use by this execution */
	uint32_t index;               /* into fb->features */
} fb_feature_slot;

typedef struct fb_object_slot {
	const void *addr;
	uint32_t gen;
	uint32_t site;                /* the last write's site */
	uint32_t thread;              /* and thread */
} fb_object_slot;

struct runner_feedback {
	uint32_t gen;                 /* this execution's stamp; 0 is never used */
	size_t n;                     /* distinct features */
	size_t dropped;
	size_t n_objects;
	weft_feature features[RUNNER_FEEDBACK_MAX_FEATURES];
	fb_feature_slot feature_slot[FB_FEATURE_SLOTS];
	fb_object_slot object_slot[FB_OBJECT_SLOTS];
};

/* ---- stable hashing: integer arithmetic only, the same everywhere ---- */

/* splitmix64's finalizer: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint32_t fold32(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t hash3(uint64_t tag, uint64_t a, uint64_t b)
{
	return fold32(mix64(mix64(mix64(tag) ^ a) ^ b));
}

uint32_t runner_feedback_pair_id(unsigned how, uint32_t from_site, uint32_t to_site)
{
	return hash3(TAG_PAIR + how, from_site, to_site);
}

uint32_t runner_feedback_rf_id(uint32_t write_site, uint32_t read_site)
{
	return hash3(TAG_READS_FROM, write_site, read_site);
}

/* Exact below 128 (flags, stages, counts of up to 128 threads: one short of
 * the total is a value of its own), then the bit length: at most 185 values
 * per read site, whatever the program stores.  (Exact below 16 until the
 * ninth session: hard_order_chain's last step, 19 workers registered of 20,
 * shared a bucket with 20; 40 seeds, its median 9,155 -> 7,661.) */
static uint64_t value_bucket(uint64_t v)
{
	return v < 128 ? v : 128 + 64 - (uint64_t)__builtin_clzll(v);
}

uint32_t runner_feedback_value_id(uint32_t read_site, uint64_t value)
{
	return hash3(TAG_VALUE, read_site, value_bucket(value));
}

uint32_t runner_feedback_timeouts_id(uint32_t wait_site, uint32_t in_a_row)
{
	return hash3(TAG_TIMEOUTS, wait_site, value_bucket(in_a_row));
}

uint32_t runner_feedback_op_site(unsigned op, int end)
{
	return hash3(TAG_OP_SITE + (end != 0), op, 0);
}

/* ---- the feature set of one execution ---- */

runner_feedback *runner_feedback_new(void)
{
	return calloc(1, sizeof(runner_feedback));
}

void runner_feedback_free(runner_feedback *fb)
{
	free(fb);
}

/* A new execution: every table empty, by moving the stamp (no clearing). */
static void begin_execution(runner_feedback *fb)
{
	fb->n = 0;
	fb->dropped = 0;
	fb->n_objects = 0;
	if (++fb->gen == 0) {   /* wrapped: stamps from 2^32 executions ago could match */
		memset(fb->feature_slot, 0, sizeof fb->feature_slot);
		memset(fb->object_slot, 0, sizeof fb->object_slot);
		fb->gen = 1;
	}
}

static void add_feature(runner_feedback *fb, weft_feedback_kind kind, uint32_t id)
{
	uint32_t mask = FB_FEATURE_SLOTS - 1;
	for (uint32_t i = (id ^ (uint32_t)kind * 0x9E3779B9u) & mask;; i = (i + 1) & mask) {
		fb_feature_slot *s = &fb->feature_slot[i];
		if (s->gen != fb->gen) {   /* empty: a new feature */
			if (fb->n == RUNNER_FEEDBACK_MAX_FEATURES) {
				fb->dropped++;
				return;
			}
			s->gen = fb->gen;
			s->index = (uint32_t)fb->n;
			fb->features[fb->n++] = (weft_feature){ .id = id, .count = 1, .kind = kind };
			return;
		}
		weft_feature *f = &fb->features[s->index];
		if (f->id == id && f->kind == kind) {
			f->count += f->count != UINT32_MAX;
			return;
		}
	}
}

static int is_access(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT;
}

/* ---- PAIRS ---- */

/* A program point's stable name, or 0 when the event is not one. */
static uint32_t program_point(const sched_event *e, const runner_feedback_input *in)
{
	if (is_access(e))
		return e->site_id;
	if (e->kind == SCHED_EV_OP_BEGIN || e->kind == SCHED_EV_OP_END) {
		unsigned op = e->site_id < in->n_calls ? in->calls[e->site_id].op : 0xffffu;
		return runner_feedback_op_site(op, e->kind == SCHED_EV_OP_END);
	}
	return 0;
}

static unsigned switch_how(const sched_event *e)
{
	if (e->kind == SCHED_EV_PREEMPT)
		return RUNNER_SWITCH_PREEMPT;
	switch (e->value) {   /* exec.c, record_switch: 0 finished, 1 blocked, 2 spinning */
	case 0: return RUNNER_SWITCH_FINISHED;
	case 1: return RUNNER_SWITCH_BLOCKED;
	default: return RUNNER_SWITCH_SPINNING;
	}
}

static unsigned thread_slot(unsigned t)
{
	return t < FB_THREADS ? t : FB_THREADS - 1;
}

/* Backwards, so that at each switch every thread's next program point is known. */
static void compute_pairs(runner_feedback *fb, const runner_feedback_input *in)
{
	uint32_t next[FB_THREADS] = { 0 };
	for (size_t i = in->n_events; i-- > 0;) {
		const sched_event *e = &in->events[i];
		if (e->kind == SCHED_EV_PREEMPT || e->kind == SCHED_EV_SWITCH) {
			add_feature(fb, WEFT_FEEDBACK_PAIRS,
				    runner_feedback_pair_id(switch_how(e), next[thread_slot(e->thread)],
							     next[thread_slot(e->other)]));
			continue;
		}
		uint32_t site = program_point(e, in);
		if (site)
			next[thread_slot(e->thread)] = site;
	}
}

/* ---- READS_FROM ---- */

/* The object's slot, or NULL: not seen in this execution and (insert = 0) not
 * to be added, or the table is full. */
static fb_object_slot *object_of(runner_feedback *fb, const void *addr, int insert)
{
	uint32_t mask = FB_OBJECT_SLOTS - 1;
	for (uint32_t i = (uint32_t)mix64((uint64_t)(uintptr_t)addr) & mask;; i = (i + 1) & mask) {
		fb_object_slot *s = &fb->object_slot[i];
		if (s->gen == fb->gen) {
			if (s->addr == addr)
				return s;
			continue;
		}
		if (!insert)
			return NULL;
		if (fb->n_objects == RUNNER_FEEDBACK_MAX_OBJECTS) {
			fb->dropped++;
			return NULL;
		}
		fb->n_objects++;
		s->gen = fb->gen;
		s->addr = addr;
		s->site = 0;   /* no write yet in this execution */
		s->thread = 0;
		return s;
	}
}

/* A timed wait (condition wait, sem_timedwait) that ended by its time-out. */
static int timed_out(const sched_event *e)
{
	return (e->kind == WEFT_ACCESS_WAIT && e->value == 1) ||
	       (e->kind == WEFT_ACCESS_SEM_WAIT && e->value == 2);
}

/*
 * Time-outs in a row: a thread's k-th time-out in a row at one wait site is
 * a value k read there (VALUES, exact below 128 like any value), so an
 * input that makes a retry loop wait once more is new, and the mutator's
 * frontier (mutate/focus.h) climbs towards "gives up after N time-outs"
 * bugs, which otherwise need N agreeing data choices at once.  A wait at the
 * site that did not time out ends the run.
 */
static void note_timeout(runner_feedback *fb, const sched_event *e, uint32_t *site, uint32_t *run)
{
	unsigned t = thread_slot(e->thread);
	if (!timed_out(e)) {
		if (site[t] == e->site_id)
			run[t] = 0;
		return;
	}
	run[t] = site[t] == e->site_id ? run[t] + 1 : 1;
	site[t] = e->site_id;
	add_feature(fb, WEFT_FEEDBACK_VALUES, runner_feedback_timeouts_id(e->site_id, run[t]));
}

static void compute_reads_from(runner_feedback *fb, unsigned kinds,
			       const runner_feedback_input *in)
{
	uint32_t wait_site[FB_THREADS] = { 0 }, wait_run[FB_THREADS] = { 0 };
	for (size_t i = 0; i < in->n_events; i++) {
		const sched_event *e = &in->events[i];
		if ((kinds & WEFT_FEEDBACK_VALUES) &&
		    (e->kind == WEFT_ACCESS_WAIT || e->kind == WEFT_ACCESS_SEM_WAIT))
			note_timeout(fb, e, wait_site, wait_run);
		if (!is_access(e) || !e->addr)   /* yield, spawn, join: no object */
			continue;
		int writes = runner_access_writes(e);
		fb_object_slot *o = object_of(fb, e->addr, writes);
		if (!o)
			continue;
		if (runner_access_reads(e) && o->site && o->thread != e->thread) {
			if (kinds & WEFT_FEEDBACK_READS_FROM)
				add_feature(fb, WEFT_FEEDBACK_READS_FROM,
					    runner_feedback_rf_id(o->site, e->site_id));
			if (kinds & WEFT_FEEDBACK_VALUES)
				add_feature(fb, WEFT_FEEDBACK_VALUES,
					    runner_feedback_value_id(e->site_id, e->value));
		}
		if (writes) {
			o->site = e->site_id;
			o->thread = e->thread;
		}
	}
}

/* ---- OUTCOME ---- */

static void compute_outcome(runner_feedback *fb, const runner_feedback_input *in)
{
	uint64_t per_thread[FB_THREADS];
	uint32_t seen = 0;
	/* A thread's operations appear in the history in its own order: hashing them
	 * per thread in that order is independent of how the threads interleaved. */
	for (size_t i = 0; i < in->n_history; i++) {
		const weft_op_record *op = &in->history[i];
		unsigned t = thread_slot(op->thread);
		uint64_t h = seen & (1u << t) ? per_thread[t] : mix64(TAG_THREAD + t);
		seen |= 1u << t;
		h = mix64(h ^ op->op);
		/* the first two always (two-argument targets keep their feature ids), others when set */
		for (int a = 0; a < WEFT_MAX_ARGS; a++)
			if (a < 2 || op->args[a] != 0)
				h = mix64(h ^ (uint64_t)op->args[a]);
		h = mix64(h ^ (op->pending ? 1 : 2));
		if (!op->pending)
			h = mix64(h ^ (uint64_t)op->result);
		per_thread[t] = h;
	}
	uint64_t h = mix64(TAG_OUTCOME);
	for (unsigned t = 0; t < FB_THREADS; t++)
		if (seen & (1u << t))
			h = mix64(mix64(h ^ t) ^ per_thread[t]);
	add_feature(fb, WEFT_FEEDBACK_OUTCOME, fold32(h));
}

/* ---- the whole set ---- */

static int feature_order(const void *pa, const void *pb)
{
	const weft_feature *a = pa, *b = pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

void runner_feedback_compute(runner_feedback *fb, unsigned kinds, const runner_feedback_input *in)
{
	begin_execution(fb);
	if (kinds & WEFT_FEEDBACK_PAIRS)
		compute_pairs(fb, in);
	if (kinds & (WEFT_FEEDBACK_READS_FROM | WEFT_FEEDBACK_VALUES))
		compute_reads_from(fb, kinds, in);
	if (kinds & WEFT_FEEDBACK_OUTCOME)
		compute_outcome(fb, in);
	/* the tables hold slot indices; they are dead once sorted (the next execution
	 * has a new stamp), so the order can be the one callers see */
	if (fb->n > 16) {
		qsort(fb->features, fb->n, sizeof fb->features[0], feature_order);
		return;
	}
	for (size_t i = 1; i < fb->n; i++) {   /* a few features: insertion, no calls */
		weft_feature f = fb->features[i];
		size_t j = i;
		for (; j > 0 && feature_order(&fb->features[j - 1], &f) > 0; j--)
			fb->features[j] = fb->features[j - 1];
		fb->features[j] = f;
	}
}

size_t runner_feedback_get(const runner_feedback *fb, weft_feature *out, size_t cap)
{
	size_t n = fb->n < cap ? fb->n : cap;
	if (n)
		memcpy(out, fb->features, n * sizeof *out);
	return fb->n;
}

size_t runner_feedback_dropped(const runner_feedback *fb)
{
	return fb->dropped;
}

/* ---- WEFT_FEEDBACK values ---- */

int weft_feedback_parse(const char *spec, unsigned *kinds)
{
	static const struct { const char *name; unsigned kinds; } words[] = {
		{ "none", 0 }, { "all", WEFT_FEEDBACK_ALL }, { "pairs", WEFT_FEEDBACK_PAIRS },
		{ "rf", WEFT_FEEDBACK_READS_FROM }, { "reads-from", WEFT_FEEDBACK_READS_FROM },
		{ "outcome", WEFT_FEEDBACK_OUTCOME }, { "values", WEFT_FEEDBACK_VALUES },
	};
	if (!spec || !*spec) {
		*kinds = WEFT_FEEDBACK_ALL;
		return 0;
	}
	unsigned k = 0;
	for (const char *p = spec;;) {
		size_t len = strcspn(p, ",");
		size_t w = 0;
		while (w < sizeof words / sizeof words[0] &&
		       !(strlen(words[w].name) == len && strncmp(words[w].name, p, len) == 0))
			w++;
		if (w == sizeof words / sizeof words[0])
			return -1;   /* unknown word, or an empty one (",,", leading or trailing ",") */
		k |= words[w].kinds;
		if (!p[len])
			break;
		p += len + 1;
	}
	*kinds = k;
	return 0;
}
