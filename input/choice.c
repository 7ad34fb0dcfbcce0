/*
 * input/choice.c - bytes -> choices (see choice.h for the contract).
 *
 * Worked example, input 00 00 00 03 on the counter target:
 *   front: 00 -> 2 threads; thread 0: increment (one op kind: no byte), 00 -> no
 *          more ops; thread 1: increment, 00 -> no more ops
 *   back:  03 -> preempt at the 3rd switch point where another thread can run
 *          (the 1-candidate pick takes no byte; then nothing is left: no more
 *          preemptions).
 */
#include "choice.h"

void input_choices_init(input_choices *c, const uint8_t *data, size_t size)
{
	c->data = data;
	c->front = 0;
	c->back = size;
}

/* '0' reads as 0 too: afl-tmin normalises bytes to '0', and that must simplify. */
static uint8_t zero_like(uint8_t b)
{
	return b == '0' ? 0 : b;
}

uint8_t input_take_front(input_choices *c)
{
	return c->front < c->back ? zero_like(c->data[c->front++]) : 0;
}

uint8_t input_peek_front(const input_choices *c)
{
	return c->front < c->back ? zero_like(c->data[c->front]) : 0;
}

uint8_t input_take_back(input_choices *c)
{
	return c->back > c->front ? zero_like(c->data[--c->back]) : 0;
}

/* Bytes needed to cover [0, bound): one per 8 bits of bound-1. */
unsigned input_choice_width(uint64_t bound)
{
	unsigned n = 0;
	for (uint64_t v = bound - 1; v; v >>= 8)
		n++;
	return n;
}

/* bound == 0 stands for 2^64 (a full-width range). */
static uint64_t choose(input_choices *c, uint64_t bound, uint8_t (*take)(input_choices *))
{
	if (bound == 1)
		return 0;
	uint64_t v = 0;
	unsigned n = input_choice_width(bound);
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)take(c) << (8 * i);
	return bound ? v % bound : v;
}

uint64_t input_choose_front(input_choices *c, uint64_t bound)
{
	return choose(c, bound, input_take_front);
}

uint64_t input_choose_back(input_choices *c, uint64_t bound)
{
	return choose(c, bound, input_take_back);
}

size_t input_used_front(const input_choices *c)
{
	return c->front;
}

size_t input_used_back(const input_choices *c, size_t size)
{
	return size - c->back;
}
