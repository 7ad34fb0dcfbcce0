/*
 * scheduler/fiber.h - user-space contexts: a stack and a saved stack pointer.
 *
 * Why: the managed scheduler runs exactly one thread at a time, so real OS
 * threads buy no parallelism; what they cost is a futex wake + wait and a
 * kernel context switch (about 3 us on the development machine) at every
 * hand-off, plus a few system calls per execution to keep the threads on one
 * CPU.  A fiber switch saves the callee-saved registers on the current stack,
 * stores the stack pointer, loads another and returns there: tens of
 * nanoseconds, no system call.  Every managed thread of a fiber pool runs on
 * the controlling (fuzzer's) thread; the scheduler decides every switch
 * anyway, so nothing about the interleaving changes.
 *
 * What a switch saves (the rest is caller-saved, so the compiler already
 * spilled whatever it needs around the call):
 *   x86-64   rbx, rbp, r12-r15, rsp, the MXCSR and the x87 control word
 *   aarch64  x19-x30 (x29 frame pointer, x30 return address), d8-d15, sp, FPCR
 *   other    ucontext (makecontext/swapcontext): portable, but glibc's
 *            swapcontext makes a sigprocmask system call per switch.
 * -DWEFT_FIBER_UCONTEXT forces the ucontext path (to test it on x86-64).
 *
 * Stacks: one mmap per fiber, SCHED_FIBER_STACK_SIZE bytes plus a PROT_NONE
 * guard page below it, made once per pool slot and reused by every later
 * execution (as the pthread workers are).  See fiber_switch.c for the size.
 *
 * AddressSanitizer must be told about every stack switch, or it takes the
 * fiber's frames for a wild stack and reports false stack-buffer errors (and
 * its fake stacks for use-after-return get mixed up): under ASan each switch is
 * bracketed by __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber.
 */
#ifndef WEFT_SCHED_FIBER_H
#define WEFT_SCHED_FIBER_H

#include <stddef.h>

#if !defined(WEFT_FIBER_UCONTEXT) && !defined(__x86_64__) && !defined(__aarch64__)
#define WEFT_FIBER_UCONTEXT 1
#endif
#ifdef WEFT_FIBER_UCONTEXT
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_FIBER_ASAN 1
#endif
#endif

typedef struct sched_fiber {
	void *sp;                  /* saved stack pointer while switched out (asm paths) */
	void *map;                 /* the stack mapping, guard page included; NULL: the
				      controlling thread's own stack */
	size_t map_size;
#ifdef WEFT_FIBER_UCONTEXT
	ucontext_t uc;
	void (*entry)(void *);     /* what the new context runs first */
	void *arg;
#endif
#ifdef WEFT_FIBER_ASAN
	void *asan_fake_stack;     /* ASan's fake stack while switched out */
	const void *asan_bottom;   /* stack bounds ASan is told when switching here */
	size_t asan_size;
	struct sched_fiber *asan_from;   /* who switched here last: gets its bounds */
#endif
} sched_fiber;

/*
 * Make `f` a fresh context that, when first switched to, runs entry(arg) on a
 * stack of its own.  entry must call sched_fiber_begin first and must never
 * return (it ends with sched_fiber_exit).  0, or -1 if the stack could not be
 * mapped.
 */
int sched_fiber_init(sched_fiber *f, void (*entry)(void *), void *arg);
/* Unmap the stack of a fiber that has exited (or never ran). */
void sched_fiber_free(sched_fiber *f);
/* The first call of an entry function, on its new stack. */
void sched_fiber_begin(sched_fiber *self);
/* Save the caller's context in `from`, resume `to`; returns when someone switches back. */
void sched_fiber_switch(sched_fiber *from, sched_fiber *to);
/* The last switch away from fiber `from`, which is never resumed. */
void sched_fiber_exit(sched_fiber *from, sched_fiber *to) __attribute__((noreturn));

#endif /* WEFT_SCHED_FIBER_H */
