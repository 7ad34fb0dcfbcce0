/*
 * tests/test_oracle_sequential.c - a purely sequential run (each operation
 * returns before the next is invoked, results from the model itself) is always
 * linearizable, and the search never backtracks: cost == number of operations.
 *
 * Random lengths 0..2000 over a bounded queue and a register, one checker per
 * model reused for every history (its buffers grow and shrink back to use),
 * and one 100,000-operation history: the search must be iterative.  Also: one
 * result changed makes a long sequential history not linearizable, stuck at
 * exactly that operation.
 */
#include <string.h>

#include "tests/check.h"
#include "weft/check.h"

#include "tests/test_queue.h"

enum { R_READ, R_WRITE, R_CAS, R_NOPS };
enum { MAX_LEN = 2000, HUGE_LEN = 100000 };

static int64_t register_apply(void *s, unsigned op, const int64_t *args)
{
	int64_t *v = s;
	if (op == R_WRITE)
		*v = args[0];
	if (op == R_CAS && *v == args[0])
		return *v = args[1], 1;
	return op == R_READ ? *v : 0;
}

static const weft_model register_model = { .name = "register", .state_size = sizeof(int64_t),
					   .init = test_zero_init, .apply = register_apply };

/* A sequential run of n random operations: op i occupies times 2i+1 .. 2i+2. */
static void run_sequential(const weft_model *m, unsigned n_kinds, weft_op_record *h, size_t n,
			   uint64_t *rng)
{
	int64_t state[TEST_QUEUE_CAP + 1] = { 0 };
	_Static_assert(sizeof state >= sizeof(test_queue), "state buffer");
	m->init(state);
	for (size_t i = 0; i < n; i++) {
		weft_op_record *r = &h[i];
		*r = (weft_op_record){ .thread = (unsigned)(test_rand(rng) % 4),
				       .op = (unsigned)(test_rand(rng) % n_kinds),
				       .args = { (int64_t)(test_rand(rng) % 5),
						 (int64_t)(test_rand(rng) % 5) },
				       .invoked_at = (uint32_t)(2 * i + 1),
				       .returned_at = (uint32_t)(2 * i + 2) };
		r->result = m->apply(state, r->op, r->args);
	}
}

static void check_runs(const weft_model *m, unsigned n_kinds, weft_op_record *h, uint64_t *rng)
{
	weft_checker *c = weft_checker_new(m);
	REQUIRE(c, "checker");
	for (int run = 0; run < 60; run++) {
		size_t n = run == 0 ? 0 : (size_t)(test_rand(rng) % (MAX_LEN + 1));
		run_sequential(m, n_kinds, h, n, rng);
		weft_history hist = { h, n };
		weft_check_result res;
		CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_LINEARIZABLE,
		      "%s run %d (%zu ops): %s", m->name, run, n,
		      weft_check_verdict_name(res.verdict));
		CHECK(res.cost == n, "%s run %d: cost %llu for %zu ops", m->name, run,
		      (unsigned long long)res.cost, n);
	}
	weft_checker_free(c);
}

/* One wrong read in a long sequential run: everything before it linearizes, it cannot. */
static void check_one_wrong(weft_op_record *h, uint64_t *rng)
{
	weft_checker *c = weft_checker_new(&register_model);
	REQUIRE(c, "checker");
	run_sequential(&register_model, R_NOPS, h, MAX_LEN, rng);
	size_t bad = MAX_LEN / 2;
	h[bad].op = R_READ;
	h[bad].result = 1000;   /* arguments are 0..4: never written */
	weft_history hist = { h, MAX_LEN };
	weft_check_result res;
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_NOT_LINEARIZABLE, "one wrong read");
	CHECK(res.stuck == bad && res.n_longest == bad, "stuck %zu after %zu", res.stuck,
	      res.n_longest);
	for (size_t k = 0; k < res.n_longest; k++)
		if (res.longest[k] != k) {
			CHECK(0, "longest[%zu] = %zu", k, res.longest[k]);
			break;
		}
	CHECK(res.cost == bad + 1, "cost %llu", (unsigned long long)res.cost);
	weft_checker_free(c);
}

static void check_huge(weft_op_record *h, uint64_t *rng)
{
	weft_checker *c = weft_checker_new(&register_model);
	REQUIRE(c, "checker");
	run_sequential(&register_model, R_NOPS, h, HUGE_LEN, rng);
	weft_history hist = { h, HUGE_LEN };
	weft_check_result res;
	CHECK(weft_check(c, &hist, NULL, &res) == WEFT_CHECK_LINEARIZABLE, "100,000 ops");
	CHECK(res.cost == HUGE_LEN, "cost %llu", (unsigned long long)res.cost);
	weft_checker_free(c);
}

int main(void)
{
	static weft_op_record h[HUGE_LEN];
	uint64_t rng = 0x5EC0E17A1ULL;
	check_runs(&test_queue_model, TQ_NOPS, h, &rng);
	check_runs(&register_model, R_NOPS, h, &rng);
	check_one_wrong(h, &rng);
	check_huge(h, &rng);
	return check_summary("test_oracle_sequential");
}
