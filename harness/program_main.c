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
 * Globals: the program's writable globals and statics are the same at the
 * start of every execution as when the process started, without the program
 * resetting anything.  weft_add_program's compiler launcher
 * (cmake/weft_program_cc.sh) moves the program's own .data and .bss into the
 * sections weft_prog_data and weft_prog_bss; the first execution copies them
 * (after static initialisation and relocation: what a fresh process has), and
 * every execution starts by copying them back, on managed thread 0 before main
 * and before any other thread exists.  Only those sections: libweft, this glue
 * and the fuzzer keep their state.  The heap is not reset: memory a program
 * leaks across executions stays leaked, and a global that pointed to the heap
 * points to what it pointed to at start-up again.  A program built without the
 * launcher has no such sections and keeps its globals (weak symbols: NULL);
 * so does any program with WEFT_PROGRAM_GLOBALS=keep in the environment (what
 * tests/program_globals.sh uses to show that its check can fail).
 *
 * assert(): glibc's assert() calls __assert_fail; the definition here takes
 * precedence over libc's (the executable defines it), so a failed assertion in
 * a managed execution stops the execution with verdict "assertion" and the
 * full report instead of aborting the fuzzer without one.  Outside an
 * execution it prints and aborts as usual.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/program.h"
#include "weft/sync.h"
#include "weft/target.h"

#ifndef WEFT_PROGRAM_NAME
#define WEFT_PROGRAM_NAME "program"
#endif

/*
 * The program's main, renamed: C's (any spelling), or C++'s `int main(int,
 * char **)` (C linkage from weft/dropin.h's declaration), or C++'s `int
 * main()`, an overload with C++ linkage found by its Itanium-mangled name.
 */
int weft_program_main(int argc, char **argv) __attribute__((weak));
int weft_program_main_cxx(void) __asm__("_Z17weft_program_mainv") __attribute__((weak));

/* The linker's bounds of the program's renamed sections (absent: NULL). */
extern char __start_weft_prog_data[] __attribute__((weak));
extern char __stop_weft_prog_data[] __attribute__((weak));
extern char __start_weft_prog_bss[] __attribute__((weak));
extern char __stop_weft_prog_bss[] __attribute__((weak));

#if defined(__SANITIZE_ADDRESS__)
#define PROGRAM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROGRAM_ASAN 1
#endif
#endif

/*
 * Copy a section, redzones included: under ASan the globals are separated by
 * poisoned redzones that memcpy's interceptor would report, so the copy is a
 * plain uninstrumented loop there (volatile: not turned back into memcpy).
 */
#ifdef PROGRAM_ASAN
__attribute__((no_sanitize_address))
static void copy_section(char *to, const char *from, size_t n)
{
	volatile char *t = to;
	const volatile char *f = from;
	for (size_t i = 0; i < n; i++)
		t[i] = f[i];
}
#else
static void copy_section(char *to, const char *from, size_t n)
{
	memcpy(to, from, n);
}
#endif

typedef struct program_section {
	char *start, *stop;
	char *saved;             /* the start-up contents, taken once */
} program_section;

static void reset_section(program_section *s)
{
	size_t n = (size_t)(s->stop - s->start);
	if (!s->start || n == 0)
		return;
	if (!s->saved) {
		s->saved = malloc(n);
		if (!s->saved) {
			fprintf(stderr, "weft: out of memory saving the program's globals\n");
			abort();
		}
		copy_section(s->saved, s->start, n);
		return;
	}
	copy_section(s->start, s->saved, n);
}

/* The program's globals as at start-up (see the top of the file). */
static void reset_program_globals(void)
{
	static program_section data, bss;
	static int keep = -1;   /* WEFT_PROGRAM_GLOBALS=keep: the old behaviour, for tests */
	if (keep < 0) {
		const char *e = getenv("WEFT_PROGRAM_GLOBALS");
		if (e && *e && strcmp(e, "keep") != 0 && strcmp(e, "reset") != 0) {
			fprintf(stderr, "weft: WEFT_PROGRAM_GLOBALS=%s: use reset (default) or keep\n", e);
			exit(2);
		}
		keep = e && strcmp(e, "keep") == 0;
	}
	if (keep)
		return;
	data.start = __start_weft_prog_data;
	data.stop = __stop_weft_prog_data;
	bss.start = __start_weft_prog_bss;
	bss.stop = __stop_weft_prog_bss;
	reset_section(&data);
	reset_section(&bss);
}

static int run_program_main(void)
{
	reset_program_globals();
	weft_program_env_reset();   /* the logical clock to its epoch */
	char name[] = WEFT_PROGRAM_NAME;
	char *argv[] = { name, NULL };
	if (!weft_program_main)
		return weft_program_main_cxx();
	return weft_program_main(1, argv);
}

/*
 * The target: WEFT_PROGRAM_TARGET's, spelt out so that its flags can say
 * whether the program may run on fibers.  weft_add_program's launcher
 * (cmake/weft_program_cc.sh) defines the weak symbol below in an object that
 * has thread-local data or asks for thread identity itself: such a program
 * needs real threads (fibers share the controlling thread's); any other runs
 * on fibers by default (runner/runner.c), ~20x faster.
 */
extern const char weft_program_needs_threads[] __attribute__((weak));

static int64_t program_main_op(void *instance, const int64_t *args)
{
	(void)instance;
	(void)args;
	return run_program_main();
}

static int64_t program_thread_op(void *instance, const int64_t *args)
{
	(void)instance;
	(void)args;
	return 0;
}

static const weft_op program_ops[] = {
	{ .name = "main", .run = program_main_op },
	{ .name = "thread", .run = program_thread_op, .flags = WEFT_OP_FINAL_ONLY },
};

static weft_target program_target = {
	.name = WEFT_PROGRAM_NAME, .ops = program_ops, .n_ops = 2,
	.flags = WEFT_TARGET_PROGRAM,
};

const weft_target *weft_fuzz_target(void)
{
	if (weft_program_needs_threads)
		program_target.flags |= WEFT_TARGET_REAL_THREADS;
	return &program_target;
}

void __assert_fail(const char *expr, const char *file, unsigned line, const char *function)
{
	const char *base = strrchr(file, '/');
	char message[160];
	(void)function;   /* gcc and clang spell it differently: reports must not */
	snprintf(message, sizeof message, "assertion `%s' failed at %s:%u", expr,
		 base ? base + 1 : file, line);
	weft_fail(message);
}
