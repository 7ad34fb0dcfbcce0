/*
 * tests/check.h - the assertions every weft test uses.  A failed CHECK prints
 * where and what, and the test exits 1 at the end (CHECK) or at once (REQUIRE).
 */
#ifndef WEFT_TESTS_CHECK_H
#define WEFT_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...) do {                                                 \
	check_count++;                                                        \
	if (!(cond)) {                                                        \
		check_failures++;                                             \
		fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);                                 \
		fputc('\n', stderr);                                          \
	}                                                                     \
} while (0)

#define REQUIRE(cond, ...) do {                                               \
	int require_ok_ = (cond) != 0;   /* evaluated once */                 \
	CHECK(require_ok_, __VA_ARGS__);                                      \
	if (!require_ok_)                                                     \
		exit(1);                                                      \
} while (0)

/* End of main: a test that checked nothing has failed too. */
static inline int check_summary(const char *name)
{
	if (check_count == 0) {
		fprintf(stderr, "%s: no checks ran\n", name);
		return 1;
	}
	fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

/* xorshift64*: the tests' only randomness, always seeded explicitly. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
