/*
 * weft/value.h - arguments and results of any size: strings, small structs,
 * sequences, next to the plain int64_t every operation already passes.
 *
 * A value stays one int64_t everywhere weft moves it (weft_op.run's args, its
 * result, weft_op_record, the model's apply): an ordinary integer, or a
 * handle to a (length, bytes) slot of the execution's value arena.  Handles
 * are interned: the same bytes give the same handle, so the checker's `==` on
 * results, its memo's hash of a model state holding handles, and the
 * implementation-as-model's comparisons compare contents, with no hook in the
 * search and nothing more to pay for a target that never makes a value.  A
 * model that wants a looser equality (a drained set compared as a set)
 * canonicalizes the bytes before making the value (sort them).
 *
 * Which it is, the operation says: weft_op.arg_types[i] and .result_type
 * (NULL: int64_t).  A type prints the value for the report (`format`) and,
 * for an argument, turns the integer the input drew from weft_op.args[i]
 * into the value (`make`: the i-th string of a table, a struct built from
 * it), so arguments keep their one-choice encoding and the simplifier still
 * shrinks them towards `min`.
 *
 *   static int64_t make_key(int64_t i) {
 *           static const char *const keys[] = { "a", "bb", "ccc" };
 *           return weft_value_string(keys[i]);
 *   }
 *   static const weft_value_type key_type = { "key", make_key, weft_value_format_string };
 *   ... .n_args = 1, .args = { { 0, 2 } }, .arg_types = { &key_type } ...
 *   static int64_t op_drain(void *q, const int64_t *args) {
 *           int64_t buf[64]; size_t n = my_drain(q, buf, 64);
 *           return weft_value_seq(buf, n);            // printed [1, 2, 3]
 *   }
 *   ... .result_type = &weft_type_seq ...
 *
 * Lifetime: the arena is the process's one "current" arena, emptied by the
 * runner when an execution starts; handles are small numbers valid until
 * then, never addresses, numbered in the order values are first made (so
 * deterministic like the execution).  Making a value may be called from
 * managed threads (one runs at a time) and from the model inside the check;
 * not from two runners' executions at once in one process.  Cost: a hash of
 * the bytes and one probe; a copy when the bytes are new.  Out of memory
 * aborts (a lost value would give a wrong verdict).
 */
#ifndef WEFT_VALUE_H
#define WEFT_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "weft/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_value_type {
	const char *name;
	/* Arguments only, optional: the drawn integer -> the value; NULL: the integer itself. */
	int64_t (*make)(int64_t drawn);
	/*
	 * Write `bytes` readably into buf (cap bytes, NUL-terminated, truncated)
	 * and return the length it wanted, like snprintf.  NULL: the bytes in hex.
	 * Never called for WEFT_NONE / WEFT_BLOCKED ("none", "blocked").
	 */
	size_t (*format)(const void *bytes, size_t len, char *buf, size_t cap);
} weft_value_type;

/* The handle of these bytes (len 0 is a value too: the empty sequence). */
WEFT_API int64_t weft_value_bytes(const void *bytes, size_t len);
/* The handle of a NUL-terminated string (the NUL not included). */
WEFT_API int64_t weft_value_string(const char *s);
/* The handle of n int64_t (a drained queue, a snapshot). */
WEFT_API int64_t weft_value_seq(const int64_t *v, size_t n);
/* The bytes of a handle and their length; NULL when `value` is no handle of this arena. */
WEFT_API const void *weft_value_data(int64_t value, size_t *len);

/* Printers for weft_value_type.format: "text" with C escapes; [1, 2, 3]. */
WEFT_API size_t weft_value_format_string(const void *bytes, size_t len, char *buf, size_t cap);
WEFT_API size_t weft_value_format_seq(const void *bytes, size_t len, char *buf, size_t cap);

/* Ready-made types: a string, a sequence of int64_t (results; make is NULL). */
WEFT_API extern const weft_value_type weft_type_string;
WEFT_API extern const weft_value_type weft_type_seq;

/*
 * The text of `value` as `type` prints it (NULL: an int64_t), as every report
 * writes it: "none", "blocked", 42, "abc", [1, 2].  Returns the length it
 * wanted (snprintf's rule).  Any thread; never changes the arena.
 */
WEFT_API size_t weft_value_format(const weft_value_type *type, int64_t value, char *buf,
				  size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_VALUE_H */
