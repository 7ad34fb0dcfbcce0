/*
 * mutate/closeness.c - unserializable access triples of a run (design in
 * closeness.h).
 */
#include "closeness.h"

#include <string.h>

#include "../runner/feedback.h"

#define CLOSE_OBJECTS MUTATE_CLOSE_OBJECTS

void mutate_closeness_init(mutate_closeness *c)
{
	memset(c, 0, sizeof *c);
}

uint32_t mutate_closeness_id(uint32_t s1, uint32_t s2, uint32_t s3, unsigned writes)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ writes;   /* splitmix64 over the four words */
	uint32_t w[3] = { s1, s2, s3 };
	for (int i = 0; i < 3; i++) {
		h ^= w[i];
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
		h *= 0x94d049bb133111ebull;
		h ^= h >> 29;
	}
	return (uint32_t)(h ^ (h >> 32));
}

/* AVIO's unserializable orders of A, B, A (closeness.h). */
static int unserializable(int a_wrote, int b_wrote, int c_wrote)
{
	return b_wrote ? !(a_wrote && c_wrote) : a_wrote && c_wrote;
}

static int counts(const sched_event *e)
{
	return e->kind > 0 && e->kind < WEFT_ACCESS_KIND_COUNT && e->addr &&
	       e->kind != WEFT_ACCESS_YIELD && e->kind != WEFT_ACCESS_FENCE &&
	       e->kind != WEFT_ACCESS_SPAWN && e->kind != WEFT_ACCESS_JOIN;
}

/* The object's slot, claimed when free; NULL when the table is full. */
static mutate_close_object *slot_of(mutate_closeness *c, unsigned *used, const void *addr)
{
	mutate_close_object *tab = c->objects;
	uintptr_t x = (uintptr_t)addr;
	unsigned i = (unsigned)((x >> 3) ^ (x >> 13)) & (CLOSE_OBJECTS - 1);
	for (unsigned k = 0; k < CLOSE_OBJECTS; k++, i = (i + 1) & (CLOSE_OBJECTS - 1)) {
		if (tab[i].run == c->run && tab[i].addr == addr)
			return &tab[i];
		if (tab[i].run != c->run) {
			if (*used >= CLOSE_OBJECTS / 2)   /* half full: follow no new object */
				return NULL;
			(*used)++;
			tab[i] = (mutate_close_object){ .addr = addr, .run = c->run };
			return &tab[i];
		}
	}
	return NULL;
}

static unsigned mark(mutate_closeness *c, uint32_t id)
{
	uint32_t bit = id % MUTATE_CLOSE_SLOTS;
	uint8_t *byte = &c->seen[bit / 8], m = (uint8_t)(1u << (bit % 8));
	if (*byte & m)
		return 0;
	*byte |= m;
	c->distinct++;
	return 1;
}

unsigned mutate_closeness_observe(mutate_closeness *c, const sched_trace *t)
{
	unsigned used = 0, fresh = 0;
	c->last_total = 0;
	if (++c->run == 0) {   /* wrapped: stamps of 2^32 runs ago would look current */
		memset(c->objects, 0, sizeof c->objects);
		c->run = 1;
	}
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		if (!counts(e))
			continue;
		mutate_close_object *o = slot_of(c, &used, e->addr);
		if (!o)
			continue;
		mutate_close_access now = { e->site_id, e->thread, (uint8_t)runner_access_writes(e), 1 };
		if (o->last.valid && o->last.thread != now.thread) {
			if (o->prev.valid && o->prev.thread == now.thread &&
			    unserializable(o->prev.wrote, o->last.wrote, now.wrote) && ++c->last_total)
				fresh += mark(c, mutate_closeness_id(o->prev.site, o->last.site, now.site,
								      (unsigned)o->prev.wrote << 2 |
									      (unsigned)o->last.wrote << 1 |
									      now.wrote));
			o->prev = o->last;
		}
		o->last = now;
	}
	return fresh;
}
