/*
 * mutate/keep_order.h - a schedule that repeats a recorded run's order of
 * accesses with a few races reversed: the race reversal's second ending
 * (mutate.c reverse_race, flip.h).
 *
 * Why: the reversal's first ending lets POS finish the execution after the
 * reversed race, so every order the input's run had after that point is
 * drawn again.  A bug that needs several orders at once (an ordering chain
 * of k threads, two stale reads, a stage counter taken step by step) is then
 * climbed one order at a time and each later step loses the earlier ones.
 * Keeping the order is DPOR's "reversal" (Flanagan and Godefroid; Lincheck's
 * and RFF's mutations keep the rest of the schedule too): the new run
 * repeats the old one but for the reversed pairs, so what earlier mutations
 * reached stays, and the next reversal adds to it.
 *
 * How: an access is named by its thread and its number among that thread's
 * accesses (the k-th access of thread t), which survives a changed
 * interleaving better than a trace index.  The recorded run gives a sequence
 * of such names; reversing a race (thread A's access e1 before B's e2) moves
 * A's accesses from e1 up to e2 to just after e2, so only A waits and every
 * other thread keeps its place.  At each pick the runnable thread whose next
 * access comes first in the sequence runs; a thread past its recorded
 * accesses (the run went elsewhere) ranks last, and when every candidate
 * is past them, POS decides.  Data choices (which store a load reads) repeat
 * the recorded run's, by index, where the bound agrees.
 *
 * Accesses are what POS counts (strategy_pos.c): trace events of an access
 * kind.  Runs longer than MUTATE_ORDER_MAX accesses keep the order of their
 * first MUTATE_ORDER_MAX.
 */
#ifndef WEFT_MUTATE_KEEP_ORDER_H
#define WEFT_MUTATE_KEEP_ORDER_H

#include <stdint.h>

#include "../input/scenario.h"
#include "../scheduler/strategy.h"
#include "../scheduler/trace.h"
#include "../search/strategy_baselines.h"
#include "flip.h"

#define MUTATE_ORDER_MAX 8192

typedef struct mutate_order {
	uint32_t n;                              /* accesses in seq */
	uint8_t seq[MUTATE_ORDER_MAX];           /* the thread of each access, in order */
	/* thread t's accesses in seq order: rank[first[t] .. first[t + 1]) */
	uint32_t first[SCHED_MAX_THREADS + 1];
	uint32_t rank[MUTATE_ORDER_MAX];
	/* the run under way */
	const sched_trace *live;
	size_t seen;                             /* live events counted */
	uint32_t made[SCHED_MAX_THREADS];        /* accesses each thread made */
	search_pos *fallback;
	const input_data *data;                  /* the recorded run's data choices */
	unsigned n_data;
	const unsigned *data_index;              /* choices made so far (the recorder's) */
} mutate_order;

/* The sequence of `t`'s accesses. */
void mutate_order_from_trace(mutate_order *o, const sched_trace *t);
/*
 * Reverse the race f of the run `t` the sequence came from: A's accesses
 * from e1 up to e2 move to just after e2.  0 when the sequence does not hold
 * both (past MUTATE_ORDER_MAX, or an earlier reversal moved e2 before e1).
 */
int mutate_order_reverse(mutate_order *o, const sched_trace *t, const mutate_flip *f);
/*
 * Ready the strategy for a run whose trace is `live`: POS (started by the
 * caller) decides past the sequence; data[i] answers the i-th data choice
 * (*data_index of them made so far) when its bound agrees.
 */
sched_strategy mutate_order_strategy(mutate_order *o, const sched_trace *live, search_pos *fallback,
				     const input_data *data, unsigned n_data,
				     const unsigned *data_index);

#endif /* WEFT_MUTATE_KEEP_ORDER_H */
