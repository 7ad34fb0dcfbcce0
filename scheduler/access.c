/*
 * scheduler/access.c - instrumented plain and atomic accesses (the runtime of
 * instrument/weft_instrument.cpp; public side <weft/instrument.h>).
 *
 * Design.  An atomic instruction is always a switch point.  A plain access is
 * one according to the execution's access mode (sched_exec_config.accesses):
 * all, none (atomics only), or - the default - only if its memory is shared so
 * far: a per-execution open-addressing table maps each 8-byte granule touched
 * to the set of managed threads that touched it, and an access is a step when
 * a thread other than the caller is in that set.  The table is reset by
 * bumping a generation number (no clearing per execution), allocated on the
 * first instrumented access (targets without instrumentation never pay),
 * doubled when 3/4 full (up to a cap that depends only on the execution: past
 * it a new granule is nobody's, so a thread's own memory never costs steps,
 * however much it uses), and
 * holds its keys (addresses) to itself: they decide "shared or not" within one
 * execution, which only depends on which accesses touch the same memory, so
 * the same bytes give the same steps.  free() forgets a block's granules, so an
 * address malloc hands out again is not taken for shared memory (that would
 * depend on the allocator's history, not on the execution).
 *
 * First touches (issue 31).  A window can lie before the second thread's
 * first access of a location (two threads' `n = n + 1` on a global main never
 * touched; a writer's two fields and a reader).  The pass marks accesses to
 * globals, and through pointers loaded from globals, WEFT_SITE_GLOBAL: their
 * memory is possibly shared from its first access, so that first access is a
 * step too (at most FIRST_TOUCH_STEPS per site and thread per execution).  A
 * thread's own stack and heap reached only through locals stay free.
 *
 * A step is an ordinary switch point (weft_impl_switch: counted, maybe
 * preempted, one trace event at the access's site) and the event records the
 * value: for a load the value about to be read (read here, after the switch,
 * when nobody else can run before the access), for a store the value written.
 * A store that changes memory is progress (a spinning thread may go on).
 */
#include "sched.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "weft/instrument.h"

_Static_assert(offsetof(weft_access_site, column) == 24, "layout the pass builds");
_Static_assert(offsetof(weft_access_site, size) == 28, "layout the pass builds");
_Static_assert(offsetof(weft_access_site, order) == 30, "layout the pass builds");
_Static_assert(offsetof(weft_access_site, function) == 32, "layout the pass builds");
_Static_assert(WEFT_SITE_FREE == 4, "kFlagFree in instrument/weft_instrument.cpp");
_Static_assert(WEFT_SITE_GLOBAL == 8, "kFlagGlobal in instrument/weft_instrument.cpp");
_Static_assert(SCHED_MAX_THREADS < 255, "a granule's first toucher fits 8 bits");

#define GRANULE_SHIFT 3
#define TABLE_MIN_BITS 14        /* 16,384 slots at first; doubled at 3/4 full */
#define TABLE_MAX_BITS 21        /* 1,572,864 granules (12 MiB touched) at most ... */
#define TABLE_MAX_BITS_RACES 16  /* ... 49,152 with the race shadow (~1.6 KiB a slot) */
#define MAX_USED(bits) ((1u << (bits)) / 4 * 3)
#define FIRST_TOUCH_STEPS 16     /* first touches of globals that are steps, per site and thread */
#define SITE_SLOTS 4096          /* (site, thread) pairs counted per execution */

typedef struct shared_slot {
	uintptr_t granule;
	uint32_t gen;            /* the slot is in use in execution `gen` only */
	uint8_t first;           /* 1 + the first managed thread that touched it */
	bool many;               /* a second thread has touched it since */
} shared_slot;

/* How many first touches of globals a site made steps for one thread (access_first). */
typedef struct site_slot {
	uintptr_t key;           /* the site's address and the thread */
	uint32_t gen;
	uint32_t steps;
} site_slot;

struct sched_shared {
	uint32_t gen;
	uint32_t used;
	uint32_t bits;           /* 1 << bits slots */
	uint32_t sites_used;
	char *shadow;            /* races: a sched_shadow beside each slot (race.c) */
	shared_slot *slot;
	site_slot site[SITE_SLOTS];
};

static sched_shadow *shadow_of(sched_shared *s, const shared_slot *slot)
{
	return (sched_shadow *)(s->shadow + (size_t)(slot - s->slot) * sched_shadow_size);
}

void sched_access_reset(sched_exec *exec)
{
	sched_shared *s = exec->shared;
	if (!s)
		return;
	s->used = 0;
	s->sites_used = 0;
	if (++s->gen == 0) {     /* wrapped: old slots could look current */
		memset(s->slot, 0, sizeof *s->slot << s->bits);
		memset(s->site, 0, sizeof s->site);
		s->gen = 1;
	}
}

void sched_access_destroy(sched_exec *exec)
{
	if (exec->shared) {
		free(exec->shared->shadow);
		free(exec->shared->slot);
	}
	free(exec->shared);
	exec->shared = NULL;
}

/* weft's abort, not a program's (harness/program_interpose.c catches abort()); cold. */
__attribute__((noreturn, cold, noinline)) static void out_of_memory(void)
{
	weft_impl_current = NULL;
	abort();
}

static uint32_t home(uintptr_t granule, uint32_t bits)
{
	return (uint32_t)((granule * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/*
 * Twice the slots (the shadow too), this execution's slots moved over.  How
 * many granules a table holds at most depends only on the execution (the
 * races flag), never on how big an earlier execution made it.
 */
static __attribute__((noinline, cold)) void grow(sched_shared *s)
{
	uint32_t bits = s->bits + 1, mask = (1u << bits) - 1;
	shared_slot *slot = calloc((size_t)1 << bits, sizeof *slot);
	char *shadow = s->shadow ? calloc((size_t)1 << bits, sched_shadow_size) : NULL;
	if (!slot || (s->shadow && !shadow))
		out_of_memory();
	for (uint32_t k = 0; k < 1u << s->bits; k++) {
		if (s->slot[k].gen != s->gen)
			continue;
		uint32_t i = home(s->slot[k].granule, bits);
		while (slot[i].gen == s->gen)
			i = (i + 1) & mask;
		slot[i] = s->slot[k];
		if (shadow)
			memcpy(shadow + (size_t)i * sched_shadow_size,
			       s->shadow + (size_t)k * sched_shadow_size, sched_shadow_size);
	}
	free(s->slot);
	free(s->shadow);
	s->slot = slot;
	s->shadow = shadow;
	s->bits = bits;
}

/*
 * The slot of `granule`, created if `create`; NULL if absent, or when the
 * execution has touched as many granules as a table may hold: a granule past
 * that is nobody's (not shared: memory a thread uses alone never costs steps,
 * however much of it; ARCHITECTURE.md, known limits).
 */
static shared_slot *slot_of(sched_shared *s, uintptr_t granule, bool create)
{
	uint32_t mask = (1u << s->bits) - 1;
	for (uint32_t i = home(granule, s->bits);; i = (i + 1) & mask) {
		shared_slot *slot = &s->slot[i];
		if (slot->gen != s->gen) {
			if (!create)
				return NULL;
			if (s->used == (s->shadow ? MAX_USED(TABLE_MAX_BITS_RACES) : MAX_USED(TABLE_MAX_BITS)))
				return NULL;
			if (s->used == MAX_USED(s->bits)) {
				grow(s);
				return slot_of(s, granule, create);
			}
			s->used++;
			slot->gen = s->gen;
			slot->granule = granule;
			slot->first = 0;
			slot->many = false;
			if (s->shadow)
				sched_race_clear(shadow_of(s, slot));
			return slot;
		}
		if (slot->granule == granule)
			return slot;
	}
}

/* The table, made on the first instrumented access (with the shadow if races are checked). */
static sched_shared *table_of(sched_exec *exec)
{
	if (__builtin_expect(!exec->shared, 0)) {
		exec->shared = calloc(1, sizeof *exec->shared);
		if (!exec->shared)
			out_of_memory();
		exec->shared->gen = 1;
		exec->shared->bits = TABLE_MIN_BITS;
		exec->shared->slot = calloc((size_t)1 << TABLE_MIN_BITS, sizeof *exec->shared->slot);
		if (!exec->shared->slot)
			out_of_memory();
	}
	if (__builtin_expect(exec->cfg.races && !exec->shared->shadow, 0)) {
		sched_shared *s = exec->shared;
		if (s->bits > TABLE_MAX_BITS_RACES && s->used == 0) {   /* a bigger table, from no races */
			free(s->slot);
			s->bits = TABLE_MIN_BITS;
			s->slot = calloc((size_t)1 << TABLE_MIN_BITS, sizeof *s->slot);
			if (!s->slot)
				out_of_memory();
		}
		exec->shared->shadow = calloc((size_t)1 << exec->shared->bits, sched_shadow_size);
		if (!exec->shared->shadow)
			out_of_memory();
	}
	return exec->shared;
}

/*
 * May `site` make one more first touch of a global a step for `self`?  At most
 * FIRST_TOUCH_STEPS per site and thread in an execution, so a loop filling a
 * global array costs a few steps, not one per element; past SITE_SLOTS pairs,
 * none (both depend only on the execution).
 */
static __attribute__((noinline)) bool first_touch_step(sched_shared *s, sched_thread *self,
							const weft_access_site *site)
{
	uintptr_t key = (uintptr_t)site << 8 | (uint8_t)self->id;
	uint32_t i = home(key, 12);
	_Static_assert(SITE_SLOTS == 1u << 12, "home(key, 12)");
	for (;; i = (i + 1) & (SITE_SLOTS - 1)) {
		site_slot *slot = &s->site[i];
		if (slot->gen != s->gen) {
			if (s->sites_used == MAX_USED(12))
				return false;
			s->sites_used++;
			*slot = (site_slot){ .key = key, .gen = s->gen, .steps = 1 };
			return true;
		}
		if (slot->key == key)
			return slot->steps < FIRST_TOUCH_STEPS && ++slot->steps;
	}
}

/*
 * Is the access a step in `shared`?  Yes if another thread touched the granule
 * (recording `self` in its set), or if it is the first touch of a global
 * (WEFT_SITE_GLOBAL; `site` NULL: no such rule): memory other threads may
 * touch later, so the window before their first access is reachable (issue 31).
 * NULL slot: past the table's reach, nobody's.
 */
static bool shared_so_far(sched_thread *self, sched_shared *s, shared_slot *slot,
			  const weft_access_site *site)
{
	if (!slot)
		return false;
	/* "another thread touched it" needs only the first toucher and whether a
	   second came: exact for any number of threads, in two bytes */
	uint8_t me = (uint8_t)(self->id + 1);
	if (!slot->first) {
		slot->first = me;
		return site && (site->flags & WEFT_SITE_GLOBAL) && first_touch_step(s, self, site);
	}
	if (slot->first != me)
		slot->many = true;
	return slot->many;
}

/*
 * The integer at `addr` (1, 2, 4 or 8 bytes; else 0).  Not checked by ASan: a
 * read of freed memory is the program's own bug, which ASan reports at the
 * program's access right after this.
 */
__attribute__((no_sanitize("address", "undefined")))
uint64_t sched_access_peek(const void *addr, unsigned size)
{
	uint8_t b; uint16_t h; uint32_t w; uint64_t d;
	switch (size) {
	case 1: __builtin_memcpy(&b, addr, 1); return b;
	case 2: __builtin_memcpy(&h, addr, 2); return h;
	case 4: __builtin_memcpy(&w, addr, 4); return w;
	case 8: __builtin_memcpy(&d, addr, 8); return d;
	default: return 0;
	}
}

/* Would the access change memory that holds `now`?  (`value` as the pass passes it.) */
static bool changes(weft_access kind, uint64_t now, uint64_t value)
{
	switch (kind) {
	case WEFT_ACCESS_LOAD: return false;
	case WEFT_ACCESS_FETCH_ADD:
	case WEFT_ACCESS_FETCH_SUB:
	case WEFT_ACCESS_FETCH_XOR: return value != 0;
	case WEFT_ACCESS_FETCH_AND: return (now & value) != now;
	case WEFT_ACCESS_FETCH_OR: return (now | value) != now;
	default: return now != value;   /* store, exchange; a CAS as if it succeeded */
	}
}

/* The step: a switch point, then the event's value, then progress. */
static void step(sched_thread *self, weft_access_site *site, void *addr, uint64_t value)
{
	if (!site->site.id)
		sched_site_id_cached(&self->exec->site_ids, &site->site, site->column);
	weft_impl_switch(self, &site->site, addr);
	bool pointer = site->flags & WEFT_SITE_POINTER;
	uint64_t now = sched_access_peek(addr, site->size);
	if (pointer)
		now = now != 0;
	sched_trace *t = &self->exec->trace;
	sched_event *e = &t->events[t->n - 1];
	e->is_pointer = pointer;
	/* a store records what it writes, anything else what it finds (as <weft/atomic.h>) */
	e->value = site->site.kind == WEFT_ACCESS_STORE ? value : now;
	if (changes(site->site.kind, now, value))
		sched_note_change(self);
}

/* The bytes of granule `g` that [addr, addr + len) covers, as a mask (bit i = byte i). */
static uint8_t bytes_of(uintptr_t g, uintptr_t addr, uint64_t len)
{
	uintptr_t lo = g << GRANULE_SHIFT, hi = lo + 8;
	uintptr_t from = addr > lo ? addr : lo;
	uintptr_t to = addr + len < hi ? addr + len : hi;
	if (to <= from)
		return 0;
	return (uint8_t)(((1u << (to - from)) - 1) << (from - lo));
}

/* The race shadow of granule `g` (NULL: the table is full, unchecked: known limits). */
static sched_shadow *shadow_at(sched_shared *s, uintptr_t g, shared_slot *slot)
{
	if (!slot)
		slot = slot_of(s, g, true);
	return slot ? shadow_of(s, slot) : NULL;
}

/*
 * Races: the access about to happen (len bytes at addr), against the shadow of
 * each granule it touches (race.c).  An atomic one first takes what its order
 * acquires from its location (the first granule's vector) and afterwards
 * publishes what its order releases.
 */
static void check_race(sched_thread *self, sched_shared *s, shared_slot *slot,
		       weft_access_site *site, void *addr, uint64_t len, bool write)
{
	uintptr_t a = (uintptr_t)addr;
	uintptr_t first = a >> GRANULE_SHIFT, last = (a + (len ? len : 1) - 1) >> GRANULE_SHIFT;
	if (last - first >= WEFT_RANGE_GRANULES)
		last = first + WEFT_RANGE_GRANULES - 1;
	bool atomic = site->order != WEFT_ORDER_PLAIN;
	sched_shadow *location = shadow_at(s, first, slot);
	if (atomic && location)
		sched_race_atomic_before(self, location, site->order,
					 site->site.kind != WEFT_ACCESS_STORE);
	for (uintptr_t g = first; g <= last; g++) {
		sched_shadow *shadow = g == first ? location : shadow_at(s, g, NULL);
		if (shadow)
			sched_race_access(self, shadow, site, len ? bytes_of(g, a, len) : 0xff,
					  write, atomic);
	}
	if (atomic && location)
		sched_race_atomic_after(self, location, site->order, write);
}

/* Races checked, or an atomic: the general path. */
static __attribute__((noinline)) void access_slow(sched_thread *self, weft_access_site *site,
						  void *addr, uint64_t value)
{
	sched_exec *exec = self->exec;
	shared_slot *slot = NULL;
	bool plain = site->order == WEFT_ORDER_PLAIN;
	if (plain)
		slot = slot_of(table_of(exec), (uintptr_t)addr >> GRANULE_SHIFT, true);
	bool is_step = !plain || exec->cfg.accesses == SCHED_ACCESSES_ALL ||
		       (exec->cfg.accesses == SCHED_ACCESSES_SHARED &&
			shared_so_far(self, exec->shared, slot, site));
	if (is_step)
		step(self, site, addr, value);
	if (!plain)   /* for the memory model's post-hook (access_memory.c): a store's old bits */
		self->atomic_old = sched_access_peek(addr, site->size);
	if (exec->cfg.races)
		check_race(self, table_of(exec), slot, site, addr, site->size,
			   site->site.kind != WEFT_ACCESS_LOAD);
}

/*
 * The hot path: a plain access without the race check.  In the default mode a
 * table probe decides; a thread's own memory returns here (bench_access: the
 * "own memory" row).  Aligned to a cache line: the same instructions cost
 * ~0.15 ns more on own memory when a new file moved them 32 bytes off one.
 */
__attribute__((aligned(64))) void weft_impl_access(weft_access_site *site, void *addr, uint64_t value)
{
	sched_thread *self = weft_impl_current;
	if (!self)
		return;
	sched_exec *exec = self->exec;
	if (__builtin_expect(site->order != WEFT_ORDER_PLAIN || exec->cfg.races, 0)) {
		access_slow(self, site, addr, value);
		return;
	}
	switch (exec->cfg.accesses) {
	case SCHED_ACCESSES_ATOMICS:
		return;
	case SCHED_ACCESSES_SHARED: {
		sched_shared *s = table_of(exec);
		shared_slot *slot = slot_of(s, (uintptr_t)addr >> GRANULE_SHIFT, true);
		if (!shared_so_far(self, s, slot, site))
			return;
		break;
	}
	default:
		break;
	}
	step(self, site, addr, value);
}

/*
 * A memory intrinsic: every granule of the range (its first WEFT_RANGE_GRANULES)
 * is touched, checked for races, and the call is one step if any was shared.
 * A store range is taken as progress (comparing the bytes is not worth it).
 */
void weft_impl_access_range(weft_access_site *site, void *addr, uint64_t len)
{
	sched_thread *self = weft_impl_current;
	if (!self || len == 0)
		return;
	sched_exec *exec = self->exec;
	if (exec->cfg.accesses == SCHED_ACCESSES_ATOMICS && !exec->cfg.races)
		return;
	sched_shared *s = table_of(exec);
	uintptr_t first = (uintptr_t)addr >> GRANULE_SHIFT;
	uintptr_t last = ((uintptr_t)addr + len - 1) >> GRANULE_SHIFT;
	if (last - first >= WEFT_RANGE_GRANULES)
		last = first + WEFT_RANGE_GRANULES - 1;
	bool shared = exec->cfg.accesses == SCHED_ACCESSES_ALL;
	for (uintptr_t g = first; g <= last; g++) {
		shared_slot *slot = slot_of(s, g, true);
		shared |= exec->cfg.accesses == SCHED_ACCESSES_SHARED &&
			  shared_so_far(self, s, slot, NULL);
	}
	if (shared) {
		if (!site->site.id)
			sched_site_id_cached(&self->exec->site_ids, &site->site, site->column);
		weft_impl_switch(self, &site->site, addr);
		if (site->site.kind == WEFT_ACCESS_STORE)
			sched_note_change(self);
	}
	if (exec->cfg.races)
		check_race(self, s, NULL, site, addr, len, site->site.kind == WEFT_ACCESS_STORE);
}

/*
 * Races: a free is a write of the whole block, so a use that does not happen
 * before it races with it.  (A use after it finds the shadow cleared below: it
 * is ASan's use-after-free, not a `data-race`; see known limits.)
 */
static void free_races(sched_thread *self, sched_shared *s, weft_access_site *site, void *ptr,
		       size_t size)
{
	uintptr_t a = (uintptr_t)ptr;
	uintptr_t end = (a + size + 7) >> GRANULE_SHIFT;
	for (uintptr_t g = a >> GRANULE_SHIFT; g < end; g++) {
		shared_slot *slot = slot_of(s, g, false);
		if (slot)   /* a granule never accessed holds no access to race with */
			sched_race_access(self, shadow_of(s, slot), site, bytes_of(g, a, size), true,
					  false);
	}
}

/*
 * The extent of a block about to be freed, without touching a block that is
 * already free: a double free must reach the real free(), which reports it as
 * one (ASan: "attempting double-free"); malloc_usable_size on it would make
 * ASan report "malloc_usable_size() for pointer which is not owned" instead.
 * A sanitizer's allocator answers whether it owns the block as allocated
 * (__sanitizer_get_ownership: 0 once freed; a lookup, no report); 0 then, and
 * nothing is forgotten.  Without one (weak: NULL), glibc's malloc_usable_size
 * reads the chunk's header only.  __sanitizer_ names are common to every
 * sanitizer runtime (not counted by OSS-Fuzz's check_mixed_sanitizers).
 */
extern int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));
extern size_t __sanitizer_get_allocated_size(const volatile void *p) __attribute__((weak));

static size_t block_size(void *ptr)
{
	if (__sanitizer_get_ownership && __sanitizer_get_allocated_size)
		return __sanitizer_get_ownership(ptr) ? __sanitizer_get_allocated_size(ptr) : 0;
	return malloc_usable_size(ptr);
}

void weft_impl_free_at(weft_access_site *site, void *ptr)
{
	sched_thread *self = weft_impl_current;
	if (!self || !ptr)
		return;
	size_t size = block_size(ptr);
	if (size == 0)
		return;   /* not an allocated block (freed already): the real free() says so */
	if (self->exec->mem_buffered)   /* TSO/PSO (memory_tso.c) */
		sched_mem_freed(self, ptr, size);
	if (!self->exec->shared)
		return;
	sched_shared *s = self->exec->shared;
	if (s->shadow && self->exec->cfg.races)
		free_races(self, s, site, ptr, size);
	uintptr_t first = (uintptr_t)ptr >> GRANULE_SHIFT;
	uintptr_t end = ((uintptr_t)ptr + size + 7) >> GRANULE_SHIFT;
	for (uintptr_t g = first; g < end; g++) {
		shared_slot *slot = slot_of(s, g, false);
		if (slot) {
			slot->first = 0;
			slot->many = false;
			if (s->shadow)   /* a new block: no access of the old one races with it */
				sched_race_clear(shadow_of(s, slot));
		}
	}
}

/* Objects built before weft_impl_free_at: the free is named by the function alone. */
void weft_impl_free(void *ptr)
{
	static weft_access_site site = { { "free", 0, WEFT_ACCESS_STORE, 0 }, 0, 0, WEFT_ORDER_PLAIN,
					 WEFT_SITE_FREE, "free" };
	weft_impl_free_at(&site, ptr);
}

/*
 * A block malloc or new just returned (races only): whatever the shadow holds
 * for its bytes belongs to a block freed where weft could not see it (a
 * library's delete: std::thread's state, freed in libstdc++), and the
 * allocator ordered that free before this allocation; forget it.  The table's
 * "shared so far" is left as it is (steps do not change).
 */
void weft_impl_alloc(void *ptr)
{
	sched_thread *self = weft_impl_current;
	if (!self || !ptr || !self->exec->shared || !self->exec->shared->shadow)
		return;
	sched_shared *s = self->exec->shared;
	uintptr_t first = (uintptr_t)ptr >> GRANULE_SHIFT;
	uintptr_t end = ((uintptr_t)ptr + block_size(ptr) + 7) >> GRANULE_SHIFT;
	for (uintptr_t g = first; g < end; g++) {
		shared_slot *slot = slot_of(s, g, false);
		if (slot)
			sched_race_clear(shadow_of(s, slot));
	}
}
