/*
 * scheduler/trace.c - the event log and the stable identities in it.
 *
 * Why ids are hashes of (basename, line, kind): the same source must give the
 * same ids on every machine, build directory and load address, because ids
 * reach the trace hash, the reports and (later) the fuzzer's feedback.
 */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET_64 0xcbf29ce484222325ULL
#define FNV_PRIME_64 0x100000001b3ULL

static uint64_t fnv_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME_64;
	}
	return h;
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= FNV_PRIME_64;
	}
	return h;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Column 0 is left out of the hash: the ids of <weft/atomic.h>'s sites predate it. */
uint32_t sched_site_id_column(weft_site *site, uint32_t column)
{
	/* relaxed: every writer stores the same value; this only avoids a data race */
	uint32_t id = __atomic_load_n(&site->id, __ATOMIC_RELAXED);
	if (id)
		return id;
	const char *base = basename_of(site->file);
	uint64_t h = fnv_bytes(FNV_OFFSET_64, base, strlen(base));
	h = fnv_u64(h, (uint64_t)site->line);
	h = fnv_u64(h, (uint64_t)site->kind);
	if (column)
		h = fnv_u64(h, (uint64_t)column);
	id = (uint32_t)(h ^ (h >> 32));
	if (id == 0)
		id = 1;
	__atomic_store_n(&site->id, id, __ATOMIC_RELAXED);
	return id;
}

uint32_t sched_site_id_cached(sched_site_cache *c, weft_site *site, uint32_t column)
{
	uint32_t id = __atomic_load_n(&site->id, __ATOMIC_RELAXED);
	if (id)
		return id;
	/* a full mix of the address (sites 24 bytes apart: a bare multiply put
	   neighbours in one slot) */
	uint64_t h = (uint64_t)(uintptr_t)site;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	sched_site_cache_entry *e = &c->entry[(h ^ (h >> 31)) % SCHED_SITE_CACHE];
	if (e->site == site && e->file == site->file && e->line == site->line &&
	    e->kind == site->kind && e->column == column) {
		__atomic_store_n(&site->id, e->id, __ATOMIC_RELAXED);
		return e->id;
	}
	id = sched_site_id_column(site, column);
	e->site = site, e->file = site->file, e->line = site->line;
	e->kind = site->kind, e->column = column, e->id = id;
	return id;
}

uint32_t sched_site_id(weft_site *site)
{
	return sched_site_id_column(site, 0);
}

void sched_trace_reset(sched_trace *t)
{
	t->n = 0;
}

void sched_trace_free(sched_trace *t)
{
	free(t->events);
	t->events = NULL;
	t->n = t->cap = 0;
}

void sched_trace_grow(sched_trace *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024;
	sched_event *ev = realloc(t->events, cap * sizeof *ev);
	if (!ev) {
		fputs("weft: out of memory growing the trace\n", stderr);
		weft_impl_current = NULL;   /* weft's abort, not a program's (program_interpose.c) */
		abort();
	}
	t->events = ev;
	t->cap = cap;
}

/* One 64-bit word into the hash: multiply-xorshift, two multiplies an event. */
static uint64_t mix_word(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
	return h ^ (h >> 29);
}

uint64_t sched_trace_hash(const sched_trace *t)
{
	uint64_t h = FNV_OFFSET_64;
	for (size_t i = 0; i < t->n; i++) {
		const sched_event *e = &t->events[i];
		uint64_t head = (uint64_t)e->kind | (uint64_t)e->thread << 8 |
				(uint64_t)e->other << 16 | (uint64_t)e->is_pointer << 24 |
				(uint64_t)e->site_id << 32;
		h = mix_word(h, head);
		h = mix_word(h, e->value);
	}
	return h;
}
