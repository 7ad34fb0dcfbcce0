/*
 * tests/systematic_corpus.c - weft's own planted-bug corpus for the systematic
 * cross-check (tests/test_systematic_corpus.c, issue 31): 30 small whole
 * programs, each one source with a buggy and a fixed variant (`fixed`, as
 * targets/ do with -D), six kinds of five (store buffers: five over TSO/PSO).
 * Written for weft from bug patterns, not taken from any benchmark suite.
 * Each program's main resets what it uses (main runs once per execution) and
 * its bug, in one sentence, sits above it.  Longer than the ~600-line guide:
 * thirty programs, each short, read best side by side.
 */
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

#include "systematic_corpus.h"
#include "weft/sync.h"
#include "weft/program.h"
#include "weft/instrument.h"

/* ---- plain accesses, made the way the pass makes them ---- */

#define PLAIN_SITE(k) { { __FILE__, __LINE__, (k), 0 }, 0, sizeof(int), WEFT_ORDER_PLAIN, 0, "corpus" }
#define LOAD(x) __extension__({                                                  \
	static weft_access_site s_ = PLAIN_SITE(WEFT_ACCESS_LOAD);               \
	if (weft_impl_current)                                                   \
		weft_impl_access(&s_, (void *)&(x), 0);                          \
	(x); })
#define STORE(x, v) __extension__({                                              \
	static weft_access_site s_ = PLAIN_SITE(WEFT_ACCESS_STORE);              \
	int v_ = (v);                                                            \
	if (weft_impl_current)                                                   \
		weft_impl_access(&s_, (void *)&(x), (uint64_t)v_);               \
	(x) = v_; })

#define RLX memory_order_relaxed
#define REL memory_order_release
#define ACQ memory_order_acquire

/* ---- shared state (each program's main resets what it uses) ---- */

static int fixed;                      /* the variant of the program running */
static int pa, pb, pc, pd;             /* plain globals */
static _Atomic int xa, xb, xc, xd, xe; /* atomics */
static pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER,
		       mc = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t sa;

static void reset(void)
{
	pa = pb = pc = pd = 0;
	weft_atomic_store(&xa, 0);
	weft_atomic_store(&xb, 0);
	weft_atomic_store(&xc, 0);
	weft_atomic_store(&xd, 0);
	weft_atomic_store(&xe, 0);
	sem_init(&sa, 0, 0);
}

static pthread_t spawn(void *(*f)(void *), intptr_t arg)
{
	pthread_t t;
	weft_pthread_create(&t, NULL, f, (void *)arg);
	return t;
}

static void join(pthread_t t) { weft_pthread_join(t, NULL); }

/* Two threads f(1), g(2), joined; main returns what `result` computes. */
static int64_t pair(void *(*f)(void *), void *(*g)(void *))
{
	pthread_t a = spawn(f, 1), b = spawn(g, 2);
	join(a);
	join(b);
	return 0;
}

static void lock_if(pthread_mutex_t *m) { if (fixed) weft_pthread_mutex_lock(m); }
static void unlock_if(pthread_mutex_t *m) { if (fixed) weft_pthread_mutex_unlock(m); }

/* ==== first access: plain globals main never touches ==== */

/* A writer stores two fields; a reader sees them torn. */
static void *fa_pair_writer(void *arg) { (void)arg; lock_if(&ma); STORE(pa, 1); STORE(pb, 1); unlock_if(&ma); return NULL; }
static void *fa_pair_reader(void *arg)
{
	(void)arg;
	lock_if(&ma);
	int a = LOAD(pa), b = LOAD(pb);
	unlock_if(&ma);
	if (a != b)
		weft_fail("torn pair");
	return NULL;
}
static int64_t fa_pair(void) { return pair(fa_pair_writer, fa_pair_reader); }

/* count = count + 1 twice: a lost update. */
static void *fa_count_bump(void *arg) { (void)arg; lock_if(&ma); int v = LOAD(pa); STORE(pa, v + 1); unlock_if(&ma); return NULL; }
static int64_t fa_count(void)
{
	pair(fa_count_bump, fa_count_bump);
	if (pa != 2)
		weft_fail("lost update");
	return 0;
}

/* The flag stored before the data it publishes. */
static void *fa_order_writer(void *arg)
{
	(void)arg;
	if (fixed) { STORE(pb, 5); STORE(pa, 1); } else { STORE(pa, 1); STORE(pb, 5); }
	return NULL;
}
static void *fa_order_reader(void *arg)
{
	(void)arg;
	if (LOAD(pa) && LOAD(pb) != 5)
		weft_fail("flag before data");
	return NULL;
}
static int64_t fa_order(void) { return pair(fa_order_writer, fa_order_reader); }

/* Check-then-claim of a slot: both claim it. */
static void *fa_claim_one(void *arg)
{
	lock_if(&ma);
	if (LOAD(pa) == 0) {
		STORE(pa, (int)(intptr_t)arg);
		weft_atomic_fetch_add(&xa, 1);
	}
	unlock_if(&ma);
	return NULL;
}
static int64_t fa_claim(void)
{
	pair(fa_claim_one, fa_claim_one);
	if (weft_atomic_load(&xa) > 1)
		weft_fail("claimed twice");
	return 0;
}

/* A driver's stop flag: the worker works after the driver took its snapshot. */
static void *fa_stop_worker(void *arg)
{
	(void)arg;
	lock_if(&ma);
	if (!LOAD(pa)) {
		int w = LOAD(pb);
		STORE(pb, w + 1);
	}
	unlock_if(&ma);
	return NULL;
}
static void *fa_stop_driver(void *arg)
{
	(void)arg;
	lock_if(&ma);
	STORE(pa, 1);
	int snap = LOAD(pb);
	unlock_if(&ma);
	weft_atomic_store(&xa, snap);
	return NULL;
}
static int64_t fa_stop(void)
{
	pair(fa_stop_worker, fa_stop_driver);
	if (pb != weft_atomic_load(&xa))
		weft_fail("worked after stop");
	return 0;
}

/* ==== sleep: a sleeper or timed wait ends before another thread is done ==== */

/* A sleeper wakes between another thread's two stores. */
static void *sl_mid_sleeper(void *arg)
{
	(void)arg;
	weft_usleep(10);
	lock_if(&ma);
	int s = weft_atomic_load(&xa);
	unlock_if(&ma);
	if (s == 1)
		weft_fail("woke mid-way");
	return NULL;
}
static void *sl_mid_stager(void *arg)
{
	(void)arg;
	lock_if(&ma);
	weft_atomic_store(&xa, 1);
	weft_atomic_store(&xa, 2);
	unlock_if(&ma);
	return NULL;
}
static int64_t sl_mid(void) { return pair(sl_mid_sleeper, sl_mid_stager); }

/* A sleep standing in for "the other thread is done by now". */
static void *sl_assume_worker(void *arg)
{
	(void)arg;
	weft_atomic_store(&xa, 1);
	weft_atomic_store(&xa, 2);
	weft_sem_post(&sa);
	return NULL;
}
static void *sl_assume_waiter(void *arg)
{
	(void)arg;
	if (fixed)
		weft_sem_wait(&sa);
	else
		weft_usleep(100);
	if (weft_atomic_load(&xa) != 2)
		weft_fail("the worker was not done");
	return NULL;
}
static int64_t sl_assume(void) { return pair(sl_assume_worker, sl_assume_waiter); }

/* Two sleepers then a read-modify-write in two steps. */
static void *sl_lost_bump(void *arg)
{
	(void)arg;
	weft_usleep(1);
	if (fixed) {
		weft_atomic_fetch_add(&xa, 1);
	} else {
		int v = weft_atomic_load(&xa);
		weft_atomic_store(&xa, v + 1);
	}
	return NULL;
}
static int64_t sl_lost(void)
{
	pair(sl_lost_bump, sl_lost_bump);
	if (weft_atomic_load(&xa) != 2)
		weft_fail("lost update after sleeping");
	return 0;
}

/* A timed condition wait taken for a signal (the fix waits for the flag itself). */
static void *sl_cond_waiter(void *arg)
{
	(void)arg;
	struct timespec ts = { 1, 0 };
	weft_pthread_mutex_lock(&ma);
	if (!weft_atomic_load(&xa))
		weft_pthread_cond_timedwait(&cv, &ma, &ts);
	int got = weft_atomic_load(&xa);
	weft_pthread_mutex_unlock(&ma);
	if (!got && !fixed)
		weft_fail("timed out, took it for the signal");
	return NULL;
}
static void *sl_cond_signaler(void *arg)
{
	(void)arg;
	weft_pthread_mutex_lock(&ma);
	weft_atomic_store(&xa, 1);
	weft_pthread_cond_signal(&cv);
	weft_pthread_mutex_unlock(&ma);
	return NULL;
}
static int64_t sl_cond(void) { return pair(sl_cond_waiter, sl_cond_signaler); }

/* A semaphore's timed wait whose timeout is taken for the item. */
static void *sl_sem_consumer(void *arg)
{
	(void)arg;
	struct timespec ts = { 1, 0 };
	int rc = weft_sem_timedwait(&sa, &ts);
	if (rc != 0 && fixed)
		return NULL;
	if (weft_atomic_load(&xa) != 7)
		weft_fail("timeout taken for an item");
	return NULL;
}
static void *sl_sem_producer(void *arg)
{
	(void)arg;
	weft_atomic_store(&xa, 7);
	weft_sem_post(&sa);
	return NULL;
}
static int64_t sl_sem(void) { return pair(sl_sem_consumer, sl_sem_producer); }

/* ==== lock order ==== */

static void *lo_ab(void *arg) { (void)arg; weft_pthread_mutex_lock(&ma); weft_pthread_mutex_lock(&mb); weft_pthread_mutex_unlock(&mb); weft_pthread_mutex_unlock(&ma); return NULL; }
static void *lo_ba(void *arg)
{
	(void)arg;
	pthread_mutex_t *first = fixed ? &ma : &mb, *second = fixed ? &mb : &ma;
	weft_pthread_mutex_lock(first);
	weft_pthread_mutex_lock(second);
	weft_pthread_mutex_unlock(second);
	weft_pthread_mutex_unlock(first);
	return NULL;
}
static int64_t lo_abba(void) { return pair(lo_ab, lo_ba); }

/* Three threads in a cycle a->b, b->c, c->a (the fix: c takes a first). */
static void *lo_cycle_one(void *arg)
{
	intptr_t i = (intptr_t)arg;
	pthread_mutex_t *m[3] = { &ma, &mb, &mc };
	pthread_mutex_t *first = m[i], *second = m[(i + 1) % 3];
	if (fixed && i == 2) {
		first = &ma;
		second = &mc;
	}
	weft_pthread_mutex_lock(first);
	weft_pthread_mutex_lock(second);
	weft_pthread_mutex_unlock(second);
	weft_pthread_mutex_unlock(first);
	return NULL;
}
static int64_t lo_cycle(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		t[i] = spawn(lo_cycle_one, i);
	for (int i = 0; i < 3; i++)
		join(t[i]);
	return 0;
}

/* Main joins a thread while holding the lock that thread needs. */
static void *lo_join_child(void *arg) { (void)arg; weft_pthread_mutex_lock(&ma); weft_pthread_mutex_unlock(&ma); return NULL; }
static int64_t lo_join(void)
{
	pthread_t t = spawn(lo_join_child, 0);
	weft_pthread_mutex_lock(&ma);
	if (fixed)
		weft_pthread_mutex_unlock(&ma);
	join(t);
	if (!fixed)
		weft_pthread_mutex_unlock(&ma);
	return 0;
}

/* A semaphore waited for under the lock its poster needs. */
static void *lo_sem_waiter(void *arg)
{
	(void)arg;
	weft_pthread_mutex_lock(&ma);
	if (fixed) {
		weft_pthread_mutex_unlock(&ma);
		weft_sem_wait(&sa);
	} else {
		weft_sem_wait(&sa);
		weft_pthread_mutex_unlock(&ma);
	}
	return NULL;
}
static void *lo_sem_poster(void *arg) { (void)arg; weft_pthread_mutex_lock(&ma); weft_sem_post(&sa); weft_pthread_mutex_unlock(&ma); return NULL; }
static int64_t lo_sem(void) { return pair(lo_sem_waiter, lo_sem_poster); }

/* The second order is taken only when a flag the other thread sets is seen. */
static void *lo_flag_first(void *arg)
{
	(void)arg;
	weft_atomic_store(&xa, 1);
	weft_pthread_mutex_lock(&ma);
	weft_pthread_mutex_lock(&mb);
	weft_pthread_mutex_unlock(&mb);
	weft_pthread_mutex_unlock(&ma);
	return NULL;
}
static void *lo_flag_second(void *arg)
{
	(void)arg;
	bool reverse = weft_atomic_load(&xa) && !fixed;
	pthread_mutex_t *first = reverse ? &mb : &ma, *second = reverse ? &ma : &mb;
	weft_pthread_mutex_lock(first);
	weft_pthread_mutex_lock(second);
	weft_pthread_mutex_unlock(second);
	weft_pthread_mutex_unlock(first);
	return NULL;
}
static int64_t lo_flag(void) { return pair(lo_flag_first, lo_flag_second); }

/* ==== spawn: preemptions of spawned threads and of main around a spawn ==== */

/* Lazy initialisation checked then done: two inits. */
static void *sp_lazy_user(void *arg)
{
	(void)arg;
	if (fixed) {
		int expected = 0;
		if (weft_atomic_compare_exchange_strong(&xa, &expected, 1))
			weft_atomic_fetch_add(&xb, 1);
	} else if (!weft_atomic_load(&xa)) {
		weft_atomic_store(&xa, 1);
		weft_atomic_fetch_add(&xb, 1);
	}
	return NULL;
}
static int64_t sp_lazy(void)
{
	pair(sp_lazy_user, sp_lazy_user);
	if (weft_atomic_load(&xb) != 1)
		weft_fail("initialised twice");
	return 0;
}

/* Main sets the configuration after starting the thread that reads it. */
static void *sp_config_reader(void *arg) { (void)arg; if (weft_atomic_load(&xa) != 5) weft_fail("configuration not set"); return NULL; }
static int64_t sp_config(void)
{
	if (fixed)
		weft_atomic_store(&xa, 5);
	pthread_t t = spawn(sp_config_reader, 0);
	if (!fixed)
		weft_atomic_store(&xa, 5);
	join(t);
	return 0;
}

/* Main reads the second worker's result having joined only the first. */
static void *sp_result_worker(void *arg) { weft_atomic_store((intptr_t)arg == 1 ? &xa : &xb, 1); return NULL; }
static int64_t sp_result(void)
{
	pthread_t a = spawn(sp_result_worker, 1), b = spawn(sp_result_worker, 2);
	join(a);
	if (fixed)
		join(b);
	int got = weft_atomic_load(&xb);
	if (!fixed)
		join(b);
	if (!got)
		weft_fail("result read before its worker ended");
	return 0;
}

/* A thread spawns a grandchild, then writes what the grandchild reads. */
static void *sp_chain_grandchild(void *arg) { (void)arg; if (weft_atomic_load(&xa) != 3) weft_fail("read before the parent wrote"); return NULL; }
static void *sp_chain_child(void *arg)
{
	(void)arg;
	if (fixed)
		weft_atomic_store(&xa, 3);
	pthread_t t = spawn(sp_chain_grandchild, 0);
	if (!fixed)
		weft_atomic_store(&xa, 3);
	join(t);
	return NULL;
}
static int64_t sp_chain(void) { join(spawn(sp_chain_child, 0)); return 0; }

/* A reference count dropped by two threads with a load and a store. */
static void *sp_ref_drop(void *arg)
{
	(void)arg;
	int left;
	if (fixed) {
		left = weft_atomic_fetch_sub(&xa, 1) - 1;
	} else {
		left = weft_atomic_load(&xa) - 1;
		weft_atomic_store(&xa, left);
	}
	if (left == 0)
		weft_atomic_fetch_add(&xb, 1);
	return NULL;
}
static int64_t sp_ref(void)
{
	weft_atomic_store(&xa, 2);
	pair(sp_ref_drop, sp_ref_drop);
	if (weft_atomic_load(&xb) != 1)
		weft_fail("freed other than once");
	return 0;
}

/* ==== weak read (C11): relaxed where release/acquire was needed ==== */

/* Message passing with relaxed flag. */
static void *wk_mp_writer(void *arg)
{
	(void)arg;
	weft_atomic_store_explicit(&xa, 1, RLX);
	weft_atomic_store_explicit(&xb, 1, fixed ? REL : RLX);
	return NULL;
}
static void *wk_mp_reader(void *arg)
{
	(void)arg;
	if (weft_atomic_load_explicit(&xb, fixed ? ACQ : RLX) && !weft_atomic_load_explicit(&xa, RLX))
		weft_fail("flag seen, data not");
	return NULL;
}
static int64_t wk_mp(void) { return pair(wk_mp_writer, wk_mp_reader); }

/* A release fence on the writer, none on the reader. */
static void *wk_fence_writer(void *arg)
{
	(void)arg;
	weft_atomic_store_explicit(&xa, 1, RLX);
	weft_atomic_thread_fence(REL);
	weft_atomic_store_explicit(&xb, 1, RLX);
	return NULL;
}
static void *wk_fence_reader(void *arg)
{
	(void)arg;
	int flag = weft_atomic_load_explicit(&xb, RLX);
	if (fixed)
		weft_atomic_thread_fence(ACQ);
	if (flag && !weft_atomic_load_explicit(&xa, RLX))
		weft_fail("fence without its pair");
	return NULL;
}
static int64_t wk_fence(void) { return pair(wk_fence_writer, wk_fence_reader); }

/* Store buffering with relaxed atomics: both see the other's flag down. */
static void *wk_sb_one(void *arg)
{
	intptr_t i = (intptr_t)arg;
	memory_order mo = fixed ? memory_order_seq_cst : RLX;
	weft_atomic_store_explicit(i == 1 ? &xa : &xb, 1, mo);
	if (!weft_atomic_load_explicit(i == 1 ? &xb : &xa, mo))
		weft_atomic_fetch_add(&xc, 1);
	return NULL;
}
static int64_t wk_sb(void)
{
	pair(wk_sb_one, wk_sb_one);
	if (weft_atomic_load(&xc) == 2)
		weft_fail("both entered");
	return 0;
}

/* A counter published by a relaxed "done" after a relaxed increment. */
static void *wk_count_writer(void *arg)
{
	(void)arg;
	weft_atomic_fetch_add_explicit(&xa, 2, RLX);
	weft_atomic_store_explicit(&xb, 1, fixed ? REL : RLX);
	return NULL;
}
static void *wk_count_reader(void *arg)
{
	(void)arg;
	if (weft_atomic_load_explicit(&xb, fixed ? ACQ : RLX) && weft_atomic_load_explicit(&xa, RLX) != 2)
		weft_fail("done before the count");
	return NULL;
}
static int64_t wk_count(void) { return pair(wk_count_writer, wk_count_reader); }

/* Main's own stores seen out of order by a spawned thread through a relaxed flag. */
static void *wk_main_reader(void *arg)
{
	(void)arg;
	if (weft_atomic_load_explicit(&xb, fixed ? ACQ : RLX) == 1 && weft_atomic_load_explicit(&xa, RLX) != 9)
		weft_fail("main's data not seen");
	return NULL;
}
static int64_t wk_main(void)
{
	pthread_t t = spawn(wk_main_reader, 0);
	weft_atomic_store_explicit(&xa, 9, RLX);
	weft_atomic_store_explicit(&xb, 1, fixed ? REL : RLX);
	join(t);
	return 0;
}

/* ==== store buffer (TSO/PSO): release stores stay buffered ==== */

/* Dekker's entry: each stores its flag, then reads the other's (a fence fixes it). */
static void *sb_dekker_one(void *arg)
{
	intptr_t i = (intptr_t)arg;
	weft_atomic_store_explicit(i == 1 ? &xa : &xb, 1, REL);
	if (fixed)
		weft_atomic_thread_fence(memory_order_seq_cst);
	if (!weft_atomic_load_explicit(i == 1 ? &xb : &xa, ACQ))
		weft_atomic_fetch_add(&xc, 1);
	return NULL;
}
static int64_t sb_dekker(void)
{
	pair(sb_dekker_one, sb_dekker_one);
	if (weft_atomic_load(&xc) == 2)
		weft_fail("both entered");
	return 0;
}

/* Message passing reordered by PSO (two locations' buffers drain apart): relaxed
   stores (a release one is a StoreStore barrier under PSO). */
static void *sb_mp_writer(void *arg)
{
	(void)arg;
	weft_atomic_store_explicit(&xa, 1, RLX);
	if (fixed)
		weft_atomic_thread_fence(memory_order_seq_cst);
	weft_atomic_store_explicit(&xb, 1, RLX);
	return NULL;
}
static void *sb_mp_reader(void *arg)
{
	(void)arg;
	if (weft_atomic_load_explicit(&xb, ACQ) && !weft_atomic_load_explicit(&xa, ACQ))
		weft_fail("flag drained before data");
	return NULL;
}
static int64_t sb_mp(void) { return pair(sb_mp_writer, sb_mp_reader); }

/* Dekker with a turn variable read after the flags: still both in. */
static void *sb_turn_one(void *arg)
{
	intptr_t i = (intptr_t)arg;
	weft_atomic_store_explicit(i == 1 ? &xa : &xb, 1, REL);
	weft_atomic_store_explicit(&xd, (int)i, REL);
	if (fixed)
		weft_atomic_thread_fence(memory_order_seq_cst);
	if (!weft_atomic_load_explicit(i == 1 ? &xb : &xa, ACQ) ||
	    weft_atomic_load_explicit(&xd, ACQ) != (int)i)
		weft_atomic_fetch_add(&xc, 1);
	return NULL;
}
static int64_t sb_turn(void)
{
	pair(sb_turn_one, sb_turn_one);
	if (weft_atomic_load(&xc) == 2)
		weft_fail("both entered despite the turn");
	return 0;
}

/* Main's buffered store not seen by a thread it then signals through a plain semaphore-free flag. */
static void *sb_main_peer(void *arg)
{
	(void)arg;
	weft_atomic_store_explicit(&xb, 1, REL);
	if (fixed)
		weft_atomic_thread_fence(memory_order_seq_cst);
	if (!weft_atomic_load_explicit(&xa, ACQ))
		weft_atomic_fetch_add(&xc, 1);
	return NULL;
}
static int64_t sb_main(void)
{
	pthread_t t = spawn(sb_main_peer, 0);
	weft_atomic_store_explicit(&xa, 1, REL);
	if (fixed)
		weft_atomic_thread_fence(memory_order_seq_cst);
	if (!weft_atomic_load_explicit(&xb, ACQ))
		weft_atomic_fetch_add(&xc, 1);
	join(t);
	if (weft_atomic_load(&xc) == 2)
		weft_fail("main and its thread both entered");
	return 0;
}

/* ---- the table ---- */

static corpus_fn current;
static int64_t run_current(void *i, const int64_t *a)
{
	(void)i;
	(void)a;
	reset();
	return current();
}
static int64_t no_op(void *i, const int64_t *a) { (void)i; (void)a; return 0; }

const weft_op corpus_ops[2] = {
	{ .name = "main", .run = run_current },
	{ .name = "thread", .run = no_op, .flags = WEFT_OP_FINAL_ONLY },
};

const corpus_program corpus_programs[] = {
	{ "fa_pair", fa_pair, NULL, true, true },
	{ "fa_count", fa_count, NULL, true, true },
	{ "fa_order", fa_order, NULL, true, true },
	{ "fa_claim", fa_claim, NULL, true, true },
	{ "fa_stop", fa_stop, NULL, true, true },
	{ "sl_mid", sl_mid, NULL, false, true },
	{ "sl_assume", sl_assume, NULL, false, true },
	{ "sl_lost", sl_lost, NULL, false, true },
	{ "sl_cond", sl_cond, NULL, false, true },
	{ "sl_sem", sl_sem, NULL, false, true },
	{ "lo_abba", lo_abba, NULL, false, true },
	{ "lo_cycle", lo_cycle, NULL, false, false },
	{ "lo_join", lo_join, NULL, false, true },
	{ "lo_sem", lo_sem, NULL, false, true },
	{ "lo_flag", lo_flag, NULL, false, true },
	{ "sp_lazy", sp_lazy, NULL, false, true },
	{ "sp_config", sp_config, NULL, false, true },
	{ "sp_result", sp_result, NULL, false, true },
	{ "sp_chain", sp_chain, NULL, false, true },
	{ "sp_ref", sp_ref, NULL, false, true },
	{ "wk_mp", wk_mp, NULL, false, true },
	{ "wk_fence", wk_fence, NULL, false, true },
	{ "wk_sb", wk_sb, NULL, false, true },
	{ "wk_count", wk_count, NULL, false, true },
	{ "wk_main", wk_main, NULL, false, true },
	{ "sb_dekker", sb_dekker, "tso", false, true },
	{ "sb_dekker_pso", sb_dekker, "pso", false, true },
	{ "sb_mp", sb_mp, "pso", false, true },
	{ "sb_turn", sb_turn, "tso", false, true },
	{ "sb_main", sb_main, "tso", false, true },
};
const size_t corpus_n_programs = sizeof corpus_programs / sizeof corpus_programs[0];

void corpus_select(const corpus_program *p, int variant)
{
	current = p->fn;
	fixed = variant;
}
