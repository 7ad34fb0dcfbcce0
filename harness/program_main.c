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
 * Constructors and destructors: a fresh process builds the program's C++
 * global objects and runs its __attribute__((constructor))s before main, and
 * their destructors and atexit() handlers when main returns.  Restoring the
 * globals' bytes alone would bring back pointers to heap memory an earlier
 * execution freed or changed (issue 30: 38 of 40 trace hashes of a program
 * with a global std::map differed between one process and fresh processes).
 * So the launcher also moves the program's .init_array and .fini_array into
 * sections of their own (weft_prog_init, weft_prog_fini and their _prio
 * twins for priorities 101 and up), which no longer run at start-up, and
 * every execution, on managed thread 0 before main: forgets the handlers an
 * earlier execution registered but never ran, restores the globals (the
 * snapshot is taken before any constructor ran: a fresh process's bytes),
 * runs the constructors (priorities first, as the linker orders them);
 * when main returns, as exit() does: the handlers registered during the
 * execution (__cxa_atexit from the program's own objects, which is how C++
 * registers a global object's destructor and how atexit() reaches libc) in
 * reverse order, then the .fini_array functions.  All of it is managed code:
 * a destructor that races with a thread still running is a finding, as in a
 * real process.  An execution stopped before main returns (a failure, exit(),
 * the step budget) runs none of them: their objects' heap memory leaks, as
 * the thread stopped where it stands leaks its own.
 *
 * assert(): glibc's assert() calls __assert_fail; the definition here takes
 * precedence over libc's (the executable defines it), so a failed assertion in
 * a managed execution stops the execution with verdict "assertion" and the
 * full report instead of aborting the fuzzer without one.  Outside an
 * execution it prints and aborts as usual.
 */
#define _GNU_SOURCE   /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * WEFT_PROGRAM_GLOBALS=keep: the old behaviour, for tests (tests/program_globals.sh):
 * globals never restored, constructors run once, destructors never.
 */
static int program_globals_kept(void)
{
	static int keep = -1;
	if (keep < 0) {
		const char *e = getenv("WEFT_PROGRAM_GLOBALS");
		if (e && *e && strcmp(e, "keep") != 0 && strcmp(e, "reset") != 0) {
			fprintf(stderr, "weft: WEFT_PROGRAM_GLOBALS=%s: use reset (default) or keep\n", e);
			weft_impl_current = NULL;   /* weft's exit, not the program's */
			exit(2);
		}
		keep = e && strcmp(e, "keep") == 0;
	}
	return keep;
}

/* The program's globals as at start-up (see the top of the file). */
static void reset_program_globals(void)
{
	static program_section data, bss;
	if (program_globals_kept())
		return;
	data.start = __start_weft_prog_data;
	data.stop = __stop_weft_prog_data;
	bss.start = __start_weft_prog_bss;
	bss.stop = __stop_weft_prog_bss;
	reset_section(&data);
	reset_section(&bss);
}

/* ---- constructors and destructors, per execution (see the top of the file) ---- */

typedef void (*program_init_fn)(int, char **, char **);
typedef void (*program_fini_fn)(void);
extern program_init_fn __start_weft_prog_init_prio[] __attribute__((weak));
extern program_init_fn __stop_weft_prog_init_prio[] __attribute__((weak));
extern program_init_fn __start_weft_prog_init[] __attribute__((weak));
extern program_init_fn __stop_weft_prog_init[] __attribute__((weak));
extern program_fini_fn __start_weft_prog_fini[] __attribute__((weak));
extern program_fini_fn __stop_weft_prog_fini[] __attribute__((weak));
extern program_fini_fn __start_weft_prog_fini_prio[] __attribute__((weak));
extern program_fini_fn __stop_weft_prog_fini_prio[] __attribute__((weak));
extern char **environ;

/* The executable's own handle: what its objects pass to __cxa_atexit. */
extern void *__dso_handle;

typedef struct program_exit_handler {
	void (*fn)(void *);
	void *arg;
} program_exit_handler;

/* This execution's handlers, in registration order (one execution at a time). */
static program_exit_handler *exit_handlers;
static size_t n_exit_handlers, cap_exit_handlers;

static void run_inits(program_init_fn *from, program_init_fn *to, char **argv)
{
	for (program_init_fn *f = from; f && f < to; f++)
		(*f)(1, argv, environ);
}

static void run_finis(program_fini_fn *from, program_fini_fn *to)
{
	for (program_fini_fn *f = to; from && f > from; f--)
		f[-1]();
}

static void program_constructors(char **argv)
{
	run_inits(__start_weft_prog_init_prio, __stop_weft_prog_init_prio, argv);
	run_inits(__start_weft_prog_init, __stop_weft_prog_init, argv);
}

/* What exit() does after main returns: handlers last-in first-out, then .fini_array. */
static void program_destructors(void)
{
	while (n_exit_handlers > 0) {
		program_exit_handler h = exit_handlers[--n_exit_handlers];
		h.fn(h.arg);   /* may register more: they run next, as in glibc */
	}
	run_finis(__start_weft_prog_fini, __stop_weft_prog_fini);
	run_finis(__start_weft_prog_fini_prio, __stop_weft_prog_fini_prio);
}

static int record_exit_handler(void (*fn)(void *), void *arg)
{
	if (n_exit_handlers == cap_exit_handlers) {
		size_t cap = cap_exit_handlers ? 2 * cap_exit_handlers : 16;
		program_exit_handler *h = realloc(exit_handlers, cap * sizeof *h);
		if (!h)
			return -1;
		exit_handlers = h;
		cap_exit_handlers = cap;
	}
	exit_handlers[n_exit_handlers++] = (program_exit_handler){ fn, arg };
	return 0;
}

/*
 * __cxa_atexit, defined in the executable: the program's objects (and libc's
 * static atexit()) bind to it at link time.  A registration by the program's
 * own code during an execution (a managed thread; the executable's handle:
 * not libstdc++'s own, which registers with its handle) is this execution's,
 * run when main returns; any other goes to the real one (ASan's interceptor
 * when linked, else libc's).
 */
extern int __interceptor___cxa_atexit(void (*)(void *), void *, void *) __attribute__((weak));

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
	static int (*real)(void (*)(void *), void *, void *);
	if (weft_impl_current && dso == &__dso_handle)
		return record_exit_handler(fn, arg);
	if (!real)
		real = __interceptor___cxa_atexit ? __interceptor___cxa_atexit
			: (int (*)(void (*)(void *), void *, void *))dlsym(RTLD_NEXT, "__cxa_atexit");
	if (!real) {
		static const char msg[] = "weft: libc's __cxa_atexit is missing\n";
		(void)!write(2, msg, sizeof msg - 1);
		_exit(2);
	}
	return real(fn, arg, dso);
}

static int call_program_main(char **argv)
{
	if (!weft_program_main)
		return weft_program_main_cxx();
	return weft_program_main(1, argv);
}

/*
 * WEFT_PROGRAM_CONSTRUCTORS=once: the behaviour before issue 30, for tests
 * (tests/program_constructors.sh): the constructors run once, before the
 * globals' snapshot, the destructors never.  WEFT_PROGRAM_GLOBALS=keep
 * implies it.
 */
static int program_constructors_once(void)
{
	static int once = -1;
	if (once < 0) {
		const char *e = getenv("WEFT_PROGRAM_CONSTRUCTORS");
		if (e && *e && strcmp(e, "once") != 0 && strcmp(e, "each") != 0) {
			fprintf(stderr, "weft: WEFT_PROGRAM_CONSTRUCTORS=%s: use each (default) or "
				"once\n", e);
			weft_impl_current = NULL;   /* weft's exit, not the program's */
			exit(2);
		}
		once = (e && strcmp(e, "once") == 0) || program_globals_kept();
	}
	return once;
}

static int run_program_main(void)
{
	static int executions;
	int once = program_constructors_once();
	char name[] = WEFT_PROGRAM_NAME;
	char *argv[] = { name, NULL };
	n_exit_handlers = 0;   /* an earlier execution stopped before main returned */
	if (once && executions++ == 0)
		program_constructors(argv);
	reset_program_globals();
	weft_program_env_reset();   /* the logical clock to its epoch */
	if (!once)
		program_constructors(argv);
	int status = call_program_main(argv);
	if (!once)
		program_destructors();
	return status;
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
