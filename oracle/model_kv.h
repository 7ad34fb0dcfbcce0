/*
 * oracle/model_kv.h - the key-value model of Jepsen's and porcupine's kv
 * histories: string keys, string values, get / put / append, each key an
 * independent register of text that starts as "" (P-compositionality by key).
 *
 * weft_op_record holds int64s, so the reader (history_edn.c) interns every
 * string of one history into a table (oracle_kv_table) and the records carry
 * ids: a key id, a piece id for what put and append write, and for a get's
 * result the id of the text it read.  The model must then decide exactly
 * whether the text it holds equals the text a get read, with no hash that
 * could collide silently.  How: the table keeps a trie of every text any get
 * returned.  The model's state for a key is a trie node - the text so far, or
 * DEAD when the text is a prefix of nothing any get read.  DEAD is exact too:
 * appending only lengthens, so such a text can never be read by a get until a
 * put replaces it.  A get's observed result is its trie node, so "the model's
 * node == the observed node" is string equality.  Worked example, gets read
 * "ab" and "x": trie root -a-> 1 -b-> 2, root -x-> 3; put "a" -> node 1,
 * append "b" -> node 2, get = 2 matches the get that read "ab"; append "c"
 * -> DEAD, and no get can match until the next put.
 *
 * The model's functions take no context (weft/model.h), so the table of the
 * history being checked is bound to the model by oracle_kv_bind: one kv
 * history at a time per process (weft-check and the benchmark check one file
 * at a time); the table is only read during a check.
 */
#ifndef WEFT_ORACLE_MODEL_KV_H
#define WEFT_ORACLE_MODEL_KV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weft/check.h"
#include "weft/model.h"

/* kv: get(key) -> text read; put(key, piece) -> 0; append(key, piece) -> 0. */
enum { ORACLE_KV_GET = 0, ORACLE_KV_PUT = 1, ORACLE_KV_APPEND = 2 };

/* The model's text is a prefix of nothing any get read (see above). */
#define ORACLE_KV_DEAD ((int64_t)UINT32_MAX)

extern const weft_model oracle_kv_model;

typedef struct oracle_kv_table oracle_kv_table;

oracle_kv_table *oracle_kv_new(void);
void oracle_kv_free(oracle_kv_table *t);

/*
 * Interning, while a history is read; each returns an id >= 0, or -1 when out
 * of memory.  key: a key by its exact spelling (so "5" and 5 differ); piece:
 * a text put or appended; read: a text some get returned, as its trie node.
 */
int64_t oracle_kv_key(oracle_kv_table *t, const char *s, size_t n);
int64_t oracle_kv_piece(oracle_kv_table *t, const char *s, size_t n);
int64_t oracle_kv_read(oracle_kv_table *t, const char *s, size_t n);

/* The key's spelling, a piece's text, a trie node's text (into buf, cut at cap - 1 bytes). */
const char *oracle_kv_key_name(const oracle_kv_table *t, int64_t key, size_t *n);
const char *oracle_kv_piece_text(const oracle_kv_table *t, int64_t piece, size_t *n);
size_t oracle_kv_node_text(const oracle_kv_table *t, int64_t node, char *buf, size_t cap);

/*
 * weft_check_explain's lines (oracle/explain.c), in a kv history's own strings
 * when kv is not NULL; of the prefix only the last `tail` operations (0: all).
 */
#define ORACLE_EXPLAIN_TAIL 20   /* the prefix's operations listed by default: a screenful */
void oracle_explain(FILE *out, const weft_history *history, const weft_op *ops,
		    const oracle_kv_table *kv, const weft_check_result *result, size_t tail);

/*
 * For the web page (report/history_html.c prints typed values): out[i] is
 * h->ops[i] with every argument and result the handle (weft/value.h) of its
 * spelling in the explanation ("k", "ab", ok), res's key and model result
 * likewise; returns the op table that prints them.  out holds h->n_ops records.
 */
const weft_op *oracle_kv_spelled(const weft_history *h, const oracle_kv_table *kv,
				 weft_op_record *out, weft_check_result *res);

/* The table oracle_kv_model reads from now on (NULL: none; every apply then says DEAD). */
void oracle_kv_bind(const oracle_kv_table *t);

#endif /* WEFT_ORACLE_MODEL_KV_H */
