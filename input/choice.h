/*
 * input/choice.h - the fuzzer's bytes as a finite source of choices.
 *
 * Two readers share one byte string: the scenario reads from the front, the
 * schedule from the back, each taking a byte only if the other has not.  So an
 * insertion or deletion in the scenario's bytes leaves the schedule's bytes
 * where they were (counted from the end), and the other way round.
 *
 * Finite entropy: a reader with no bytes left gets 0, and 0 is always the
 * simplest answer (fewest threads, fewest operations, smallest argument, no
 * preemption).  So the empty input and an all-zero input give the simplest run,
 * and shortening an input can only make the tail of its run simpler.
 *
 * The byte '0' (0x30) reads as 0x00: afl-tmin overwrites bytes with '0' and
 * libFuzzer's minimizer with 0x00, and both should simplify the run.
 *
 * A choice with only one possible answer (bound == 1) consumes no byte.
 */
#ifndef WEFT_INPUT_CHOICE_H
#define WEFT_INPUT_CHOICE_H

#include <stddef.h>
#include <stdint.h>

typedef struct input_choices {
	const uint8_t *data;
	size_t front;   /* next byte for the front reader */
	size_t back;    /* one past the next byte for the back reader; [front, back) unread */
} input_choices;

void input_choices_init(input_choices *c, const uint8_t *data, size_t size);
/* Next byte from the front / back, or 0 when none is left. */
uint8_t input_take_front(input_choices *c);
/* The next front byte without taking it (as input_take_front would read it); 0 at the end. */
uint8_t input_peek_front(const input_choices *c);
uint8_t input_take_back(input_choices *c);
/* A value in [0, bound) from the front / back: little-endian bytes, modulo bound. */
uint64_t input_choose_front(input_choices *c, uint64_t bound);
uint64_t input_choose_back(input_choices *c, uint64_t bound);
/* Bytes a choice in [0, bound) reads (0 for bound 1; bound 0 = 2^64 reads 8). */
unsigned input_choice_width(uint64_t bound);
/* Bytes consumed by each reader so far. */
size_t input_used_front(const input_choices *c);
size_t input_used_back(const input_choices *c, size_t size);

#endif /* WEFT_INPUT_CHOICE_H */
