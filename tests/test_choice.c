/*
 * tests/test_choice.c - bytes -> choices: finite entropy, the two readers, '0'.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../input/choice.h"

static void test_exhausted_reads_zero(void)
{
	input_choices c;
	input_choices_init(&c, NULL, 0);
	CHECK(input_take_front(&c) == 0, "empty front");
	CHECK(input_take_back(&c) == 0, "empty back");
	CHECK(input_choose_front(&c, 1000) == 0, "empty choose");
}

static void test_readers_never_share_a_byte(void)
{
	const uint8_t data[] = { 1, 2, 3, 4, 5 };
	input_choices c;
	input_choices_init(&c, data, sizeof data);
	CHECK(input_take_front(&c) == 1, "front 1");
	CHECK(input_take_back(&c) == 5, "back 5");
	CHECK(input_take_front(&c) == 2, "front 2");
	CHECK(input_take_back(&c) == 4, "back 4");
	CHECK(input_take_back(&c) == 3, "back 3");
	CHECK(input_take_front(&c) == 0, "front meets back: exhausted");
	CHECK(input_take_back(&c) == 0, "back exhausted");
	CHECK(input_used_front(&c) == 2 && input_used_back(&c, sizeof data) == 3, "usage");
}

static void test_ascii_zero_reads_as_zero(void)
{
	const uint8_t data[] = { '0', '1' };
	input_choices c;
	input_choices_init(&c, data, sizeof data);
	CHECK(input_take_front(&c) == 0, "'0' is 0");
	CHECK(input_take_front(&c) == '1', "'1' is itself");
}

static void test_bound_one_consumes_nothing(void)
{
	const uint8_t data[] = { 7 };
	input_choices c;
	input_choices_init(&c, data, sizeof data);
	CHECK(input_choose_front(&c, 1) == 0, "bound 1 gives 0");
	CHECK(input_used_front(&c) == 0, "and takes no byte");
	CHECK(input_choose_front(&c, 5) == 2, "7 mod 5");
}

static void test_wide_bounds_take_more_bytes(void)
{
	const uint8_t data[] = { 0x34, 0x12, 0xff };
	input_choices c;
	input_choices_init(&c, data, sizeof data);
	CHECK(input_choose_front(&c, 0x10000) == 0x1234, "two bytes little-endian");
	CHECK(input_used_front(&c) == 2, "took two");
}

int main(void)
{
	test_exhausted_reads_zero();
	test_readers_never_share_a_byte();
	test_ascii_zero_reads_as_zero();
	test_bound_one_consumes_nothing();
	test_wide_bounds_take_more_bytes();
	return check_summary("test_choice");
}
