/*
 * oracle/history_io.h - reading histories from files: the internal interface
 * between the two readers (history_text.c: weft's own format,
 * docs/history-format.md; history_jepsen.c: Jepsen logs), the builder they
 * share (history_io.c) and their users (weft-check, the benchmark).
 *
 * A reader takes the whole file in memory (so stdin and files are one case)
 * and either fills an oracle_history or returns -1 with one message
 * "FILE:LINE: what is wrong" (FILE:0 when the problem is not on one line).
 * Readers never print.
 *
 * The builder turns per-thread events into weft_op_records: logical time is
 * the event's position among the file's events; a thread has at most one call
 * outstanding; a call that never returns, or whose outcome is unknown, is
 * pending; a call that failed without effect is dropped from the history.
 */
#ifndef WEFT_ORACLE_HISTORY_IO_H
#define WEFT_ORACLE_HISTORY_IO_H

#include <stddef.h>
#include <stdint.h>

#include "models.h"
#include "weft/target.h"

#define ORACLE_ERROR_MAX 320  /* bytes of a reader's error message */

/* A history read from a file: ops in invocation order, owned. */
typedef struct oracle_history {
	weft_op_record *ops;
	size_t n_ops, cap;
	const oracle_builtin *builtin;   /* the model the history is checked against */
	struct oracle_kv_table *kv;      /* owned: the strings of a kv history, else NULL */
	size_t bytes;                    /* its file's size: a bound on what kv holds (--max-memory) */
} oracle_history;

/* weft_history view of h (valid until h changes). */
weft_history oracle_history_view(const oracle_history *h);
void oracle_history_free(oracle_history *h);

/*
 * Read weft's text format.  `model`: the model to use when the file names none
 * (NULL: the file must name one); a file whose `model` line names another is an
 * error.  Returns 0, or -1 with err = "FILE:LINE: ..." (out is then empty).
 */
int oracle_read_text(const char *text, size_t len, const char *file,
		     const oracle_builtin *model, oracle_history *out, char err[ORACLE_ERROR_MAX]);

/* Read a Jepsen register log (always the register model).  Same contract. */
int oracle_read_jepsen(const char *text, size_t len, const char *file, oracle_history *out,
		       char err[ORACLE_ERROR_MAX]);

/*
 * Read a Jepsen map-style EDN key-value history (history_edn.c; always the kv
 * model; out->kv holds its strings, to bind with oracle_kv_bind before a check).
 * Same contract.
 */
int oracle_read_edn(const char *text, size_t len, const char *file, oracle_history *out,
		    char err[ORACLE_ERROR_MAX]);

/* 1 when the first line that is not blank or a ';' comment starts with '{' (an EDN map). */
int oracle_looks_like_edn(const char *text, size_t len);

/* 1 when the first non-blank line is a Jepsen event line ("INFO  jepsen.util - ..."). */
int oracle_looks_like_jepsen(const char *text, size_t len);

/* ---- shared by the readers (history_io.c) ---- */

/* One line of the input, without its newline; `no` counts from 1. */
typedef struct oracle_line {
	const char *start, *end;
	unsigned no;
} oracle_line;

/* Next line at *pos (advanced past it); 0 at the end of the text. */
int oracle_next_line(const char *text, size_t len, size_t *pos, oracle_line *line);

/* One whitespace-separated token of a line; empty (start == end) at its end. */
typedef struct oracle_token {
	const char *start, *end;
} oracle_token;

oracle_token oracle_next_token(const char **cursor, const char *end);
/* printf arguments for "%.*s" quoting a token in a message: at most 40 characters of it. */
#define ORACLE_TOKEN_ARG(t) \
	(int)((t).end - (t).start < 40 ? (t).end - (t).start : 40), (t).start
int oracle_token_is(oracle_token t, const char *word);
/* Strict decimal int64 ("-12"); WEFT_NONE itself is refused (it means "none"). */
int oracle_token_int(oracle_token t, int64_t *value);

/* Turns events into records.  Zero-initialise, set the public fields, then call. */
typedef struct oracle_builder {
	oracle_history *h;         /* appended to */
	const char *file;          /* for messages */
	const char *who;           /* what messages call a thread: NULL = "thread" */
	unsigned line;             /* line of the current event, for messages */
	char *err;                 /* ORACLE_ERROR_MAX bytes */
	/* private */
	uint32_t now;              /* events so far = the next event's logical time */
	struct oracle_open *open;  /* calls outstanding, one per thread */
	size_t n_open, cap_open;
	unsigned char *dropped;    /* per op: failed without effect, removed at the end */
	size_t cap_dropped;
} oracle_builder;

/* Each returns 0, or -1 with b->err set.  Each event takes one logical time step. */
int oracle_build_invoke(oracle_builder *b, unsigned thread, unsigned op, const int64_t *args);
int oracle_build_ok(oracle_builder *b, unsigned thread, int64_t result);
int oracle_build_info(oracle_builder *b, unsigned thread);   /* outcome unknown: pending */
int oracle_build_fail(oracle_builder *b, unsigned thread);   /* no effect: dropped */
/* The call `thread` has outstanding, or NULL (lets a reader check a return against its call). */
const weft_op_record *oracle_build_outstanding(const oracle_builder *b, unsigned thread);
/* End of input: outstanding calls become pending, dropped ones go.  Frees the private part. */
int oracle_build_finish(oracle_builder *b);
/* Frees the private part after an error (the history is left to the caller). */
void oracle_build_abandon(oracle_builder *b);
/* Format "FILE:LINE: ..." into b->err; returns -1 for `return oracle_build_error(...)`. */
int oracle_build_error(oracle_builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* WEFT_ORACLE_HISTORY_IO_H */
