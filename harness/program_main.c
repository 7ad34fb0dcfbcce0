/*
 * harness/program_main.c - glue that makes an unmodified pthread program a weft
 * target.  Compile the program with
 *
 *     -include weft/dropin.h -Dmain=weft_program_main -UNDEBUG
 *
 * and link this file (plus fuzz_libfuzzer.c or replay_main.c and libweft).
 * Each input runs the program's main once, on managed thread 0, with argv =
 * { WEFT_PROGRAM_NAME }; its pthread_create calls make managed threads.
 *
 * assert(): glibc's assert() calls __assert_fail; the definition here takes
 * precedence over libc's (the executable defines it), so a failed assertion in
 * a managed execution stops the execution with verdict "assertion" and the
 * full report instead of aborting the fuzzer without one.  Outside an
 * execution it prints and aborts as usual.
 */
#include <stdio.h>
#include <string.h>

#include "weft/sync.h"
#include "weft/target.h"

#ifndef WEFT_PROGRAM_NAME
#define WEFT_PROGRAM_NAME "program"
#endif

int weft_program_main(int argc, char **argv);

static int run_program_main(void)
{
	char name[] = WEFT_PROGRAM_NAME;
	char *argv[] = { name, NULL };
	return weft_program_main(1, argv);
}

WEFT_PROGRAM_TARGET(WEFT_PROGRAM_NAME, run_program_main)

void __assert_fail(const char *expr, const char *file, unsigned line, const char *function)
{
	const char *base = strrchr(file, '/');
	char message[160];
	(void)function;   /* gcc and clang spell it differently: reports must not */
	snprintf(message, sizeof message, "assertion `%s' failed at %s:%u", expr,
		 base ? base + 1 : file, line);
	weft_fail(message);
}
