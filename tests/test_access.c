/*
 * tests/test_access.c - instrumented accesses (instrument/, scheduler/access.c).
 * This file is compiled with weft's pass plugin, so its plain loads and stores
 * of globals are instrumented like a target's; the bodies run on the scheduler
 * directly (sched_exec_run), with a strategy that never preempts, and the test
 * counts steps and reads the trace.
 *
 * Checked: a thread's own memory is no step in the default mode and memory
 * another thread touched is, every access is in `all` and none in `atomics`;
 * an atomic instruction is a step in every mode, recorded with its kind, the
 * old value and its source line; locals that never escape are not
 * instrumented; weft_impl_free forgets a block; an unlock is followed by a switch point
 * in this (instrumented) binary; outside an execution nothing is recorded.
 * Races (WEFT_RACES, race.c): two unordered writes are a race naming both; a
 * mutex, an atomic flag and a semaphore order a hand-over, a plain flag does not.
 * The memory model (scheduler/access_memory.c): a release read-modify-write or
 * compare-exchange publishes what came before it, a relaxed one does not (the
 * older payload and pointer readable, pointers' bits whole), a failed
 * compare-exchange writes no message, sc asks no choice.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/sched.h"
#include "weft/instrument.h"
#include "weft/sync.h"
#include "tests/check.h"

static int own_g[4], shared_g, counter;
static int *block_g;

/*
 * Memory the pass cannot trace to a global, as the heap reached through a
 * local: shared from another thread's access on.  (A global itself is shared
 * from its first access: check_first_touch.)  The old checks run on it.
 */
static __attribute__((noinline)) void *untraced(void *p) { return p; }
#define UNTRACED(x) (*(__typeof__(&(x)))untraced(&(x)))
#define own UNTRACED(own_g)
#define shared_word UNTRACED(shared_g)
#define block UNTRACED(block_g)
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t never(void *self, unsigned thread, uint32_t call, uint64_t step)
{
	(void)self, (void)thread, (void)call, (void)step;
	return UINT64_MAX;
}

static unsigned same(void *self, unsigned thread, uint32_t call, uint64_t step,
		     sched_mask runnable, bool forced)
{
	(void)self, (void)call, (void)step, (void)runnable, (void)forced;
	return thread;
}

static sched_pool pool;
static sched_exec exec;

/* Run `body` on n threads in mode `accesses`; the steps it took. */
static uint64_t run(void (*body)(void *, unsigned), unsigned n, uint8_t accesses)
{
	const sched_exec_config cfg = {
		.n_threads = n, .step_budget = 10000, .accesses = accesses,
		.strategy = { .next_preemption = never, .pick = same },
		.body = body,
	};
	REQUIRE(sched_exec_run(&exec, &cfg) == 0, "execution did not start");
	return exec.steps;
}

static void nothing(void *ctx, unsigned t) { (void)ctx; sched_call_begin(t); }

/* One thread writes and reads its own words 8 times: 16 accesses. */
static void own_memory(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	for (int i = 0; i < 8; i++)
		own[i & 3] = own[(i + 1) & 3] + 1;
}

/* Thread 0 writes the word, then thread 1 reads it 5 times (each a step by default). */
static void two_threads(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	if (t == 0) {
		shared_word = 1;
		return;
	}
	int sum = 0;
	for (int i = 0; i < 5; i++)
		sum += shared_word;
	own[0] = sum;
}

/* Locals that never escape are not instrumented at all (nor thread-locals). */
static _Thread_local int tl_sink;
static void locals_only(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	int x = 0;   /* a scalar: under UBSan an indexed local array escapes (ptrtoint checks) */
	for (int i = 0; i < 10; i++)
		x += i;
	tl_sink = x;
}

enum { FETCH_ADD_LINE = __LINE__ + 5 };   /* the line of the __atomic_fetch_add below */
static void atomic_add(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	__atomic_fetch_add(&counter, 5, __ATOMIC_RELEASE);
}

/*
 * Thread 0 touches the block; thread 1 forgets it as the pass's call before
 * free() would, then writes it: not a step (the granule is nobody's).  Then the
 * same without forgetting: a step.
 */
static bool forget_g;
#define forget UNTRACED(forget_g)
static void free_forgets(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	if (t == 0) {
		block[0] = 1;
		return;
	}
	int *b = block;           /* a step: thread 0 read `block` too */
	if (forget)
		weft_impl_free(b);
	b[1] = 2;                 /* a step unless forgotten */
}

/*
 * Memory intrinsics are accesses of their whole range: thread 0 fills `area`
 * with memset (no step: nobody else touched it), then thread 1's load of one
 * word of it is a step (thread 0's memory).  Then thread 0 stores one word and
 * thread 1 memcpy's over the range: the memcpy is one step.
 */
static long area_g[8];
static bool copy_over_g;
#define area UNTRACED(area_g)
#define copy_over UNTRACED(copy_over_g)
static void memset_then_use(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	if (t == 0) {
		if (copy_over)
			area[3] = 1;
		else
			memset(area, 0, sizeof area);
		return;
	}
	if (copy_over) {
		long mine[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		memcpy(area, mine, sizeof area);
	} else {
		own[0] = (int)area[5];
	}
}

static void lock_unlock(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	weft_pthread_mutex_lock(&lock);
	weft_pthread_mutex_unlock(&lock);
}

static void touch_outside(void)
{
	for (int i = 0; i < 8; i++)
		own[i & 3] = own[(i + 1) & 3] + 1;
}

/* ---- races (scheduler/race.c) ---- */

static int racy, flag_plain;
static int flag_atomic;   /* accessed only through __atomic builtins */
static sem_t ready;
static void unordered(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	racy = (int)t;
}

static void locked(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	weft_pthread_mutex_lock(&lock);
	racy = racy + 1;
	weft_pthread_mutex_unlock(&lock);
}

/* Thread 0 publishes `racy`, then a flag; thread 1 reads the flag, then `racy`. */
static void handshake(void *ctx, unsigned t)
{
	int how = *(int *)ctx;   /* 0 plain flag, 1 atomic flag, 2 semaphore */
	sched_call_begin(t);
	if (t == 0) {
		racy = 42;
		if (how == 0)
			flag_plain = 1;
		else if (how == 1)
			__atomic_store_n(&flag_atomic, 1, __ATOMIC_RELEASE);
		else
			weft_sem_post(&ready);
		return;
	}
	int seen = how == 0 ? flag_plain : how == 1 ? __atomic_load_n(&flag_atomic, __ATOMIC_ACQUIRE)
						    : (weft_sem_wait(&ready), 1);
	if (seen)
		own[0] = racy;
}

static uint8_t run_races(void (*body)(void *, unsigned), void *ctx)
{
	const sched_exec_config cfg = {
		.n_threads = 2, .step_budget = 10000, .races = true,
		.strategy = { .next_preemption = never, .pick = same },
		.body = body, .body_ctx = ctx,
	};
	REQUIRE(sched_exec_run(&exec, &cfg) == 0, "execution did not start");
	return exec.stop;
}

static void check_races(void)
{
	CHECK(run_races(unordered, NULL) == SCHED_STOP_RACE, "two unordered writes: no race");
	CHECK(strstr(exec.stop_message, "thread 1 writes test_access.c:") &&
	      strstr(exec.stop_message, "(unordered), unordered with") &&
	      strstr(exec.stop_message, "thread 0's write at test_access.c:"),
	      "the race names both accesses: %s", exec.stop_message);
	run(unordered, 2, SCHED_ACCESSES_SHARED);
	CHECK(exec.stop == SCHED_STOP_NONE, "races reported while not asked for");
	CHECK(run_races(locked, NULL) == SCHED_STOP_NONE, "a mutex does not order: %s",
	      exec.stop_message);
	int how = 0;
	CHECK(run_races(handshake, &how) == SCHED_STOP_RACE, "a plain flag orders");
	how = 1;
	flag_atomic = 0;
	CHECK(run_races(handshake, &how) == SCHED_STOP_NONE, "an atomic flag does not order: %s",
	      exec.stop_message);
	how = 2;
	sem_init(&ready, 0, 0);
	CHECK(run_races(handshake, &how) == SCHED_STOP_NONE, "a semaphore does not order: %s",
	      exec.stop_message);
	sem_destroy(&ready);
}

/*
 * The memory model through the pass (scheduler/access_memory.c).  Thread 0
 * stores a payload and a pointer to it relaxed, then publishes with an atomic
 * read-modify-write (how: 0 fetch_add release, 1 fetch_add relaxed, 2 a
 * compare-exchange that succeeds with release, 3 one that fails); thread 1
 * (after it: the strategy never preempts) loads the flag acquire, the payload
 * and the pointer relaxed.  The strategy's data choices: the `answer`s in turn
 * (0 = the newest store), counted.
 */
static int payload, seq, rmw_how;
static int *published, *got_ptr;
static int got_seq, got_payload;
static uint64_t answer[3];
static unsigned asked;

static uint64_t answers(void *self, uint64_t bound)
{
	(void)self;
	uint64_t a = asked < 3 ? answer[asked] : 0;
	asked++;
	return a < bound ? a : bound - 1;
}

static void rmw_publish(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	if (t == 0) {
		__atomic_store_n(&payload, 5, __ATOMIC_RELAXED);
		__atomic_store_n(&published, &payload, __ATOMIC_RELAXED);
		int expected = rmw_how == 3 ? 7 : 0;
		if (rmw_how < 2)
			__atomic_fetch_add(&seq, 1, rmw_how ? __ATOMIC_RELAXED : __ATOMIC_RELEASE);
		else
			__atomic_compare_exchange_n(&seq, &expected, 1, 0, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED);
		return;
	}
	got_seq = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
	got_payload = __atomic_load_n(&payload, __ATOMIC_RELAXED);
	got_ptr = __atomic_load_n(&published, __ATOMIC_RELAXED);
}

/*
 * A pointer read weakly and then dereferenced: thread 0 points `published` at
 * `payload`, then at `seq`; thread 1 reads the older pointer (answer 1) and
 * loads through it.  The access's hook must be given the pointer the program
 * uses (the model's), not the one real memory held: its event's address.
 * (clang passes an atomic's result through a temporary before any use, so
 * this holds even without the pass's retargeting of direct uses.)
 */
static const void *deref_addr;
static void weak_deref(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	if (t == 0) {
		__atomic_store_n(&published, &payload, __ATOMIC_RELAXED);
		__atomic_store_n(&published, &seq, __ATOMIC_RELAXED);
		return;
	}
	UNTRACED(got_payload) = __atomic_load_n(__atomic_load_n(&published, __ATOMIC_RELAXED),
						__ATOMIC_RELAXED);   /* no step after the load */
	const sched_trace *trace = untraced(&exec.trace);
	deref_addr = trace->events[trace->n - 1].addr;
}

static void run_memory(int how, uint8_t memory, uint64_t a0, uint64_t a1, uint64_t a2)
{
	payload = seq = 0;
	published = NULL;
	rmw_how = how;
	answer[0] = a0, answer[1] = a1, answer[2] = a2;
	asked = 0;
	const sched_exec_config cfg = {
		.n_threads = 2, .step_budget = 10000, .memory = memory,
		.strategy = { .next_preemption = never, .pick = same, .choose = answers },
		.body = rmw_publish,
	};
	REQUIRE(sched_exec_run(&exec, &cfg) == 0, "execution did not start");
}

static void check_memory(void)
{
	/* a release RMW read by an acquire load: the payload and pointer are visible */
	run_memory(0, SCHED_MEMORY_C11, 0, 1, 1);
	CHECK(asked == 1 && got_seq == 1 && got_payload == 5 && got_ptr == &payload,
	      "release fetch_add: %u choices (want 1), seq %d payload %d", asked, got_seq,
	      got_payload);
	run_memory(2, SCHED_MEMORY_C11, 0, 1, 1);
	CHECK(asked == 1 && got_payload == 5 && seq == 1, "release CAS: %u choices (want 1), payload %d",
	      asked, got_payload);
	/* a relaxed RMW publishes nothing: the older payload and the NULL pointer are readable */
	run_memory(1, SCHED_MEMORY_C11, 0, 1, 1);
	CHECK(asked == 3 && got_seq == 1 && got_payload == 0 && got_ptr == NULL,
	      "relaxed fetch_add: %u choices (want 3), payload %d (want the older 0), ptr %s",
	      asked, got_payload, got_ptr ? "set" : "NULL");
	CHECK(payload == 5, "real memory holds the newest store");
	run_memory(1, SCHED_MEMORY_C11, 0, 0, 0);
	CHECK(asked == 3 && got_payload == 5 && got_ptr == &payload,
	      "choice 0: the newest store, the pointer's bits whole");
	/* a failed CAS writes no message: the flag has one, the others two */
	run_memory(3, SCHED_MEMORY_C11, 1, 1, 1);
	CHECK(asked == 2 && got_seq == 0 && got_payload == 0 && seq == 0,
	      "failed CAS: %u choices (want 2), payload %d", asked, got_payload);
	/* sequential consistency: no choice, the newest store */
	run_memory(1, SCHED_MEMORY_SC, 1, 1, 1);
	CHECK(asked == 0 && got_payload == 5 && got_ptr == &payload, "sc: %u choices", asked);
	const sched_event *load = NULL;
	run_memory(1, SCHED_MEMORY_C11, 0, 1, 1);
	for (size_t i = 0; i < exec.trace.n; i++)
		if (exec.trace.events[i].kind == WEFT_ACCESS_LOAD)
			load = &exec.trace.events[i];
	CHECK(load && load->is_pointer && load->value == 0,
	      "the stale pointer load's event: NULL, as a pointer");

	payload = 5, seq = 9, published = NULL;
	asked = 0, answer[0] = 1;
	const sched_exec_config cfg = {
		.n_threads = 2, .step_budget = 10000, .memory = SCHED_MEMORY_C11,
		.strategy = { .next_preemption = never, .pick = same, .choose = answers },
		.body = weak_deref,
	};
	REQUIRE(sched_exec_run(&exec, &cfg) == 0, "execution did not start");
	CHECK(asked == 1 && got_payload == 5 && deref_addr == &payload,
	      "a weakly read pointer dereferenced: %u choices, read %d (want 5 through the older "
	      "pointer), the access's hook saw %s", asked, got_payload,
	      deref_addr == &payload ? "it" : "another address");
}

/* ---- first touches of globals; a thread's own memory, however big (issue 31, 30) ---- */

static int lone, pair_total;
static long fill[64 * 1024 / 8];
/* Thread 0 alone touches `lone` three times: only the first is a step. */
static void lone_global(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	lone = lone + 1;
	lone = lone + 1;
}

/* Each thread: total = total + 1 (2 accesses); the granule is new to thread 0 only. */
static void both_bump(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	pair_total = pair_total + 1;
}

/* A loop filling a 64 KiB global: a bounded number of first-touch steps. */
static void fill_global(void *ctx, unsigned t)
{
	(void)ctx;
	sched_call_begin(t);
	for (size_t i = 0; i < sizeof fill / sizeof *fill; i++)
		fill[i] = (long)i;
}

/* 256 KiB of the thread's own heap (through its argument), filled then summed twice. */
enum { OWN_WORDS = 256 * 1024 / sizeof(long) };
static long own_sum;
static void own_big(void *ctx, unsigned t)
{
	long *mine = *(long **)ctx;
	sched_call_begin(t);
	long sum = 0;
	for (size_t i = 0; i < OWN_WORDS; i++)
		mine[i] = (long)i;
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < OWN_WORDS; i++)
			sum += mine[i];
	*(long *)untraced(&own_sum) = sum;
}

static uint64_t run_ctx(void (*body)(void *, unsigned), void *ctx, uint8_t races)
{
	const sched_exec_config cfg = {
		.n_threads = 1, .step_budget = 10000, .accesses = SCHED_ACCESSES_SHARED,
		.races = races, .strategy = { .next_preemption = never, .pick = same },
		.body = body, .body_ctx = ctx,
	};
	REQUIRE(sched_exec_run(&exec, &cfg) == 0, "execution did not start");
	return exec.steps;
}

static void check_first_touch(uint64_t base1, uint64_t base2)
{
	CHECK(run(lone_global, 1, SCHED_ACCESSES_SHARED) == base1 + 1,
	      "a global's first access is a step, the same thread's later ones are not: %llu steps",
	      (unsigned long long)(exec.steps - base1));
	CHECK(run(both_bump, 2, SCHED_ACCESSES_SHARED) == base2 + 3,
	      "two threads' n = n + 1: thread 0's first load and thread 1's two accesses, %llu steps",
	      (unsigned long long)(exec.steps - base2));
	uint64_t filled = run(fill_global, 1, SCHED_ACCESSES_SHARED) - base1;
	CHECK(filled >= 1 && filled <= 16, "filling a 64 KiB global: %llu first-touch steps (1-16)",
	      (unsigned long long)filled);
	CHECK(run(fill_global, 1, SCHED_ACCESSES_SHARED) - base1 == filled, "the same steps again");

	long *mine = malloc(OWN_WORDS * sizeof *mine);
	REQUIRE(mine, "out of memory");
	for (uint8_t races = 0; races <= 1; races++) {
		uint64_t steps = run_ctx(own_big, &mine, races);
		CHECK(!exec.cut && steps == base1,
		      "races %u: 256 KiB of a thread's own memory took %llu steps (want none)", races,
		      (unsigned long long)(steps - base1));
		CHECK(own_sum == 2 * (long)OWN_WORDS * ((long)OWN_WORDS - 1) / 2, "the sum");
	}
	free(mine);
}

static const sched_event *find_kind(uint8_t kind)
{
	for (size_t i = 0; i < exec.trace.n; i++)
		if (exec.trace.events[i].kind == kind)
			return &exec.trace.events[i];
	return NULL;
}

int main(void)
{
	sched_pool_init(&pool, SCHED_BACKEND_FIBER);
	sched_exec_init(&exec, &pool);
	REQUIRE(sched_instrumented_binary(), "this file must be built with the pass plugin");

	uint64_t base1 = run(nothing, 1, SCHED_ACCESSES_SHARED);
	uint64_t base2 = run(nothing, 2, SCHED_ACCESSES_SHARED);
	CHECK(run(own_memory, 1, SCHED_ACCESSES_SHARED) == base1, "own memory took steps");
	CHECK(run(own_memory, 1, SCHED_ACCESSES_ALL) == base1 + 16, "all: %llu steps",
	      (unsigned long long)(exec.steps - base1));
	CHECK(run(own_memory, 1, SCHED_ACCESSES_ATOMICS) == base1, "atomics: plain accesses took steps");
	CHECK(run(two_threads, 2, SCHED_ACCESSES_SHARED) == base2 + 5,
	      "shared: %llu steps, want the 5 reads of the second thread",
	      (unsigned long long)(exec.steps - base2));
	const sched_event *load = find_kind(WEFT_ACCESS_LOAD);
	CHECK(load && load->thread == 1 && load->value == 1, "the shared load's event: thread 1, value 1");
	CHECK(load && strstr(load->site->file, "test_access.c") && load->site_id != 0,
	      "the site is the source location");
	CHECK(run(two_threads, 2, SCHED_ACCESSES_ALL) == base2 + 7, "all: 1 store + 5 loads + 1 store");
	CHECK(run(two_threads, 2, SCHED_ACCESSES_ATOMICS) == base2, "atomics: no plain step");
	CHECK(run(locals_only, 1, SCHED_ACCESSES_ALL) == base1, "a local that never escapes is a step");

	for (uint8_t mode = SCHED_ACCESSES_SHARED; mode <= SCHED_ACCESSES_ATOMICS; mode++) {
		counter = 7;
		CHECK(run(atomic_add, 1, mode) == base1 + 1, "mode %u: the atomic is not one step", mode);
		const sched_event *e = find_kind(WEFT_ACCESS_FETCH_ADD);
		CHECK(e && e->value == 7 && e->site->line == FETCH_ADD_LINE,
		      "mode %u: fetch_add event (old value 7, line %d)", mode, FETCH_ADD_LINE);
		CHECK(counter == 12, "the atomic's own effect");
	}

	block = malloc(4 * sizeof(int));
	forget = false;
	CHECK(run(free_forgets, 2, SCHED_ACCESSES_SHARED) == base2 + 2, "a touched block is not shared");
	forget = true;
	CHECK(run(free_forgets, 2, SCHED_ACCESSES_SHARED) == base2 + 1, "a freed block is still shared");
	free(block);

	copy_over = false;
	/* each thread reads copy_over too: thread 1's read is a step of its own */
	CHECK(run(memset_then_use, 2, SCHED_ACCESSES_SHARED) == base2 + 2,
	      "memset then another thread's load: %llu steps, want 2 (flag, the load)",
	      (unsigned long long)(exec.steps - base2));
	copy_over = true;
	CHECK(run(memset_then_use, 2, SCHED_ACCESSES_SHARED) == base2 + 2,
	      "a memcpy over another thread's word: %llu steps, want 2 (flag, the memcpy)",
	      (unsigned long long)(exec.steps - base2));
	const sched_event *range = find_kind(WEFT_ACCESS_STORE);
	CHECK(range && range->thread == 1 && strstr(range->site->file, "test_access.c"),
	      "the memcpy's event: a store by thread 1 at test_access.c");
	CHECK(area[7] == 8, "the memcpy's own effect");

	/* lock: 1 switch point; unlock: 1, and 1 after it (instrumented binary) */
	CHECK(run(lock_unlock, 1, SCHED_ACCESSES_SHARED) == base1 + 3,
	      "lock + unlock took %llu steps, want 3", (unsigned long long)(exec.steps - base1));

	check_first_touch(base1, base2);
	check_races();
	check_memory();

	/* outside an execution: plain C, nothing recorded, nothing crashes */
	size_t n = exec.trace.n;
	touch_outside();
	__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
	CHECK(exec.trace.n == n, "an access outside an execution was recorded");

	sched_pool_destroy(&pool);
	sched_exec_destroy(&exec);
	return check_summary("test_access");
}
