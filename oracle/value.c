/*
 * oracle/value.c - values of any size as one int64_t (weft/value.h): an
 * arena of interned byte strings and their printers.
 *
 * Why interning: the checker, its memo and the implementation-as-model all
 * compare results with `==` and hash model states as bytes.  If the same
 * bytes always give the same handle, all of them compare contents without
 * knowing values exist, and an int64 target pays nothing (not even a branch
 * in the search).  Handles are HANDLE_BASE + index in order of first making,
 * so they are deterministic and far from the small integers and from
 * WEFT_NONE / WEFT_BLOCKED, which makes a mix-up (an int printed as a value)
 * show as raw hex rather than as someone else's bytes.
 *
 * Layout: bytes appended to one growable buffer; slots (offset, length, hash);
 * an open-addressing table of slot indices (linear probing, at most half
 * full).  Reset is O(1) unless values were made (then the table is cleared).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value_arena.h"
#include "weft/model.h"
#include "weft/value.h"

#define HANDLE_BASE (INT64_MIN / 2)
#define EMPTY_SLOT UINT32_MAX

typedef struct value_slot {
	size_t offset, len;
	uint64_t hash;
} value_slot;

static struct {
	unsigned char *bytes;
	size_t n_bytes, cap_bytes;
	value_slot *slots;
	size_t n_slots, cap_slots;
	uint32_t *table;        /* slot index or EMPTY_SLOT */
	size_t table_size;      /* power of two */
} arena;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	p = realloc(p, c * elem);
	if (!p) {
		fputs("weft: out of memory in the value arena\n", stderr);
		abort();
	}
	*cap = c;
	return p;
}

/* FNV-1a: cheap, and good enough for a probe table of a few hundred values. */
static uint64_t hash_bytes(const unsigned char *b, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u ^ len;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3u;
	return h;
}

static void table_insert(uint32_t index)
{
	size_t mask = arena.table_size - 1;
	size_t i = arena.slots[index].hash & mask;
	while (arena.table[i] != EMPTY_SLOT)
		i = (i + 1) & mask;
	arena.table[i] = index;
}

/* Double the table (or make the first) and re-insert every slot. */
static void table_grow(void)
{
	size_t size = arena.table_size ? arena.table_size * 2 : 256;
	free(arena.table);
	arena.table = malloc(size * sizeof *arena.table);
	if (!arena.table) {
		fputs("weft: out of memory in the value arena\n", stderr);
		abort();
	}
	memset(arena.table, 0xff, size * sizeof *arena.table);
	arena.table_size = size;
	for (size_t s = 0; s < arena.n_slots; s++)
		table_insert((uint32_t)s);
}

static int slot_is(const value_slot *s, const void *bytes, size_t len, uint64_t h)
{
	return s->hash == h && s->len == len &&
	       (len == 0 || memcmp(arena.bytes + s->offset, bytes, len) == 0);
}

int64_t weft_value_bytes(const void *bytes, size_t len)
{
	uint64_t h = hash_bytes(bytes, len);
	if ((arena.n_slots + 1) * 2 > arena.table_size)
		table_grow();
	size_t mask = arena.table_size - 1;
	size_t i = h & mask;
	for (; arena.table[i] != EMPTY_SLOT; i = (i + 1) & mask)
		if (slot_is(&arena.slots[arena.table[i]], bytes, len, h))
			return HANDLE_BASE + (int64_t)arena.table[i];
	arena.bytes = grow(arena.bytes, &arena.cap_bytes, arena.n_bytes + len + 1, 1);
	arena.slots = grow(arena.slots, &arena.cap_slots, arena.n_slots + 1, sizeof *arena.slots);
	if (len)
		memcpy(arena.bytes + arena.n_bytes, bytes, len);
	arena.slots[arena.n_slots] = (value_slot){ arena.n_bytes, len, h };
	arena.n_bytes += len;
	arena.table[i] = (uint32_t)arena.n_slots;
	return HANDLE_BASE + (int64_t)arena.n_slots++;
}

int64_t weft_value_string(const char *s)
{
	return weft_value_bytes(s, strlen(s));
}

int64_t weft_value_seq(const int64_t *v, size_t n)
{
	return weft_value_bytes(v, n * sizeof *v);
}

const void *weft_value_data(int64_t value, size_t *len)
{
	if (value < HANDLE_BASE || value >= HANDLE_BASE + (int64_t)arena.n_slots)
		return NULL;
	const value_slot *s = &arena.slots[value - HANDLE_BASE];
	if (len)
		*len = s->len;
	return arena.bytes + s->offset;
}

void oracle_value_reset(void)
{
	if (arena.n_slots == 0)
		return;
	arena.n_slots = 0;
	arena.n_bytes = 0;
	memset(arena.table, 0xff, arena.table_size * sizeof *arena.table);
}

size_t oracle_value_count(void)
{
	return arena.n_slots;
}

/* ---- printing ------------------------------------------------------------ */

/* Append like snprintf at *n (the length wanted so far), never past cap. */
static void put(char *buf, size_t cap, size_t *n, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++, (*n)++)
		if (*n + 1 < cap)
			buf[*n] = text[i];
	if (cap)
		buf[*n < cap ? *n : cap - 1] = 0;
}

size_t weft_value_format_string(const void *bytes, size_t len, char *buf, size_t cap)
{
	const unsigned char *b = bytes;
	size_t n = 0;
	put(buf, cap, &n, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		char esc[8];
		int k;
		if (b[i] == '"' || b[i] == '\\')
			k = snprintf(esc, sizeof esc, "\\%c", b[i]);
		else if (b[i] < 0x20 || b[i] >= 0x7f)
			k = snprintf(esc, sizeof esc, "\\x%02x", b[i]);
		else
			k = snprintf(esc, sizeof esc, "%c", b[i]);
		put(buf, cap, &n, esc, (size_t)k);
	}
	put(buf, cap, &n, "\"", 1);
	return n;
}

size_t weft_value_format_seq(const void *bytes, size_t len, char *buf, size_t cap)
{
	size_t n = 0;
	put(buf, cap, &n, "[", 1);
	for (size_t i = 0; i + sizeof(int64_t) <= len; i += sizeof(int64_t)) {
		int64_t v;
		memcpy(&v, (const unsigned char *)bytes + i, sizeof v);
		char num[32];
		int k = snprintf(num, sizeof num, "%s%lld", i ? ", " : "", (long long)v);
		put(buf, cap, &n, num, (size_t)k);
	}
	put(buf, cap, &n, "]", 1);
	return n;
}

static size_t format_hex(const void *bytes, size_t len, char *buf, size_t cap)
{
	size_t n = 0;
	put(buf, cap, &n, "0x", 2);
	for (size_t i = 0; i < len; i++) {
		char two[3];
		snprintf(two, sizeof two, "%02x", ((const unsigned char *)bytes)[i]);
		put(buf, cap, &n, two, 2);
	}
	return n;
}

const weft_value_type weft_type_string = { "string", NULL, weft_value_format_string };
const weft_value_type weft_type_seq = { "seq", NULL, weft_value_format_seq };

size_t weft_value_format(const weft_value_type *type, int64_t value, char *buf, size_t cap)
{
	if (value == WEFT_NONE)
		return (size_t)snprintf(buf, cap, "none");
	if (value == WEFT_BLOCKED)
		return (size_t)snprintf(buf, cap, "blocked");
	size_t len;
	const void *bytes = type ? weft_value_data(value, &len) : NULL;
	if (!bytes)   /* an int64_t, or a handle from another execution: the number */
		return (size_t)snprintf(buf, cap, "%lld", (long long)value);
	return (type->format ? type->format : format_hex)(bytes, len, buf, cap);
}

/* ---- typed arguments ------------------------------------------------------- */

static const weft_value_type *made_type(const weft_op *op, int a)
{
	const weft_value_type *t = a < WEFT_MAX_ARGS ? op->arg_types[a] : NULL;
	return t && t->make ? t : NULL;
}

const int64_t *oracle_value_args(const weft_op *op, const int64_t *drawn, int64_t *out)
{
	int any = 0;
	for (int a = 0; a < op->n_args && a < WEFT_MAX_ARGS; a++)
		any |= made_type(op, a) != NULL;
	if (!any)
		return drawn;
	for (int a = 0; a < WEFT_MAX_ARGS; a++)
		out[a] = a < op->n_args && made_type(op, a) ? made_type(op, a)->make(drawn[a])
							     : drawn[a];
	return out;
}

size_t oracle_value_format_arg(const weft_op *op, int a, int64_t v, int drawn, char *buf,
			       size_t cap)
{
	const weft_value_type *t = a < WEFT_MAX_ARGS ? op->arg_types[a] : NULL;
	if (drawn && made_type(op, a))
		v = t->make(v);
	return weft_value_format(t, v, buf, cap);
}
