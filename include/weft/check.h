/*
 * weft/check.h - the linearizability oracle: is there an order of a history's
 * operations, each placed between its invocation and its response, that the
 * sequential model explains?
 *
 * Search: Wing & Gong's backtracking over the operations that may go next,
 * with Lowe's memoization of (set of linearized operations, model state), and
 * P-compositionality when the model partitions operations by key.  A pending
 * operation (never returned) may be linearized anywhere after its invocation
 * or not at all, and its result is not compared: a call whose result was not
 * observed (Jepsen's :info) is accepted with any of the model's outcomes.  A
 * non-deterministic model (weft_model.outcomes) is searched over every
 * outcome that gives the observed result.
 *
 * The search is capped: past `max_cost` search steps, or when its memo holds
 * more than `max_memory` bytes, it stops and says WEFT_CHECK_UNKNOWN.  It never
 * hangs and never guesses.  A sequential stretch of a history costs O(1)
 * memory per operation (no copy of the model state per step).
 *
 * A weft_checker keeps its buffers between checks, so checking the histories
 * of a fuzz campaign allocates only when a history is bigger than any before.
 */
#ifndef WEFT_CHECK_H
#define WEFT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weft/export.h"
#include "weft/model.h"
#include "weft/target.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum weft_check_verdict {
	WEFT_CHECK_LINEARIZABLE = 0,
	WEFT_CHECK_NOT_LINEARIZABLE,
	WEFT_CHECK_UNKNOWN,          /* the cost cap was reached first */
} weft_check_verdict;

#define WEFT_CHECK_DEFAULT_MAX_COST 10000000u

typedef struct weft_check_options {
	uint64_t max_cost;      /* search steps before UNKNOWN; 0 = WEFT_CHECK_DEFAULT_MAX_COST */
	int no_partition;       /* 1: ignore model->partition (for tests and benchmarks) */
	uint64_t max_memory;    /* bytes the search's memo may hold before UNKNOWN; 0 = no cap */
} weft_check_options;

/*
 * The outcome of one check.  Arrays point into the checker and stay valid until
 * its next check.  The explanation is filled when NOT_LINEARIZABLE:
 *   longest[0..n_longest): history indices of the longest partial
 *       linearization the search found (in linearization order);
 *   stuck: history index of the operation that cannot be placed after it - the
 *       earliest-returning operation not in `longest`, which every later
 *       operation must follow;
 *   stuck_model_result: what the model answers for `stuck` after `longest`
 *       (compare with history->ops[stuck].result);
 *   stuck_outcomes[0..n_stuck_outcomes): every result the model allows `stuck`
 *       there, one per outcome (weft_model.outcomes; one for a deterministic
 *       model, stuck_model_result being the first; none when the call cannot
 *       happen there);
 *   partition_key / partitioned: the key of the failing sub-history, when the
 *       history was partitioned; n_partition_ops: its operations.
 * Otherwise n_longest is 0, stuck is SIZE_MAX and stuck_model_result WEFT_NONE.
 * `partitioned` is 1 whenever the history was split by key (n_partitions keys,
 * checked in ascending order; the first that fails or runs out of budget stops
 * the check).  `cost` counts model apply calls of the search; the explanation's
 * replay of `longest` is not counted.
 */
typedef struct weft_check_result {
	weft_check_verdict verdict;
	uint64_t cost;             /* search steps taken, all partitions */
	unsigned n_partitions;     /* 1 when not partitioned */
	const size_t *longest;
	size_t n_longest;
	size_t stuck;
	int64_t stuck_model_result;
	int partitioned;
	int64_t partition_key;
	int memory_capped;         /* UNKNOWN because the memo reached max_memory, not max_cost */
	const int64_t *stuck_outcomes;
	size_t n_stuck_outcomes;
	/*
	 * NOT_LINEARIZABLE proved without a search (a strict FIFO queue's violation
	 * pattern, oracle/refute_queue.c): the proof in words, valid until the
	 * checker's next call; then n_longest is 0 and stuck SIZE_MAX.  NULL otherwise.
	 */
	const char *violation;
	size_t n_partition_ops;    /* operations of the failing key's sub-history (partitioned) */
} weft_check_result;

typedef struct weft_checker weft_checker;

/*
 * NULL when out of memory, or when model lacks init or apply.  The model must
 * outlive the checker.  A checker is for one thread at a time; it keeps its
 * buffers (sized by the biggest history so far) until weft_checker_free.
 */
WEFT_API weft_checker *weft_checker_new(const weft_model *model);
WEFT_API void weft_checker_free(weft_checker *checker);

/*
 * Check `history` (operations in order of invocation; times from
 * invoked_at/returned_at, pending ones have no response).  Returns the
 * verdict, also in *result.  opts and result may be NULL.  Never prints.
 * Out of memory gives WEFT_CHECK_UNKNOWN, like the cost cap.
 */
WEFT_API weft_check_verdict weft_check(weft_checker *checker, const weft_history *history,
				       const weft_check_options *opts, weft_check_result *result);

/*
 * Print the explanation of a NOT_LINEARIZABLE result as indented lines:
 *   the longest partial linearization, one operation a line with its thread and result;
 *   the stuck operation, with its observed result and the model's.
 * Partitioned, it first names the failing key and its sub-history's size, and
 * counts that sub-history.  A long prefix shows its last 20 operations after a
 * line "... N earlier operations" (a screenful; weft-check --full shows all).
 * `ops` names the operations (index = weft_op_record.op); only name and n_args are read.
 */
WEFT_API void weft_check_explain(FILE *out, const weft_history *history, const weft_op *ops,
				 const weft_check_result *result);

/*
 * Write one self-contained HTML page (inline style and script, no network) of
 * `history` and its check: the operations as intervals on a time axis, and for
 * a NOT_LINEARIZABLE result the explanation, linked to the intervals (hover or
 * click an operation).  `title` heads the page (e.g. the file name); `result`
 * may be NULL (no verdict shown); `ops` as for weft_check_explain.  Any thread;
 * cost linear in the history.  What `weft-check --html` writes (report/history_html.c).
 */
WEFT_API void weft_check_report_html(FILE *out, const char *title, const weft_history *history,
				     const weft_op *ops, const weft_check_result *result);

WEFT_API const char *weft_check_verdict_name(weft_check_verdict v);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_CHECK_H */
