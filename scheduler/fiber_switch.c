/*
 * scheduler/fiber_switch.c - the stack switch, the stacks, and what ASan is told.
 *
 * The switch is hand-written (top-level asm below) because it is the whole
 * point of the fiber backend: swapcontext would cost a sigprocmask system call
 * per switch, which is what fibers are meant to avoid.  A switch is an
 * ordinary function call, so the compiler has already saved every
 * caller-saved register; the asm pushes the callee-saved ones (and the
 * floating-point control state, which is per thread under pthreads and must be
 * per fiber here for the two backends to compute the same), stores the stack
 * pointer in *save_sp, loads load_sp and pops the other context's registers.
 * Its `ret` returns into whoever switched away last from that context.
 *
 * A new context's stack is laid out as if it had switched away itself, with
 * the return address pointing at a trampoline that calls entry(arg) with a
 * properly aligned stack and a zero frame pointer (so unwinders, ASan's
 * included, stop there).  The trampoline is entered by `ret`, never by an
 * indirect jump, so it needs no CET/BTI landing pad; user-space shadow stacks
 * (CET SHSTK, off unless the process asks glibc for them) are not supported.
 *
 * Stack size: 256 KiB, 1 MiB under ASan.  The mapping is lazily committed, so
 * only the pages a managed thread touches cost memory; what the size must
 * cover is the target's deepest operation plus whatever runs on the current
 * stack when something goes wrong: a signal handler (libFuzzer's -timeout
 * SIGALRM arrives on the controlling thread, which is running a fiber) or an
 * ASan report with its unwinder and symbolizer.  ASan's redzones make frames
 * several times larger, hence the bigger size there.  pthread workers get
 * glibc's default (8 MiB); a target that needs more than 256 KiB of stack in
 * one operation should set WEFT_TARGET_REAL_THREADS.  Below the stack lies a
 * PROT_NONE guard page: an overflow faults instead of corrupting the next
 * mapping.
 */
#define _GNU_SOURCE
#include "fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef WEFT_FIBER_ASAN
#define SCHED_FIBER_STACK_SIZE (1024u * 1024u)
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
				     size_t *size_old);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#else
#define SCHED_FIBER_STACK_SIZE (256u * 1024u)
#endif

#define HIDDEN __attribute__((visibility("hidden")))

/* ---- the switch: x86-64 --------------------------------------------------- */

#if !defined(WEFT_FIBER_UCONTEXT) && defined(__x86_64__)
HIDDEN void sched_fiber_swap_(void **save_sp, void *load_sp);
HIDDEN void sched_fiber_trampoline_(void);
/*
 * Frame of a switched-out context, from its saved rsp up:
 *   0 x87 control word, 8 MXCSR, 16 r15, 24 r14, 32 r13, 40 r12, 48 rbx,
 *   56 rbp, 64 return address.
 */
__asm__(
	".text\n"
	".p2align 4\n"
	".globl sched_fiber_swap_\n"
	".hidden sched_fiber_swap_\n"
	".type sched_fiber_swap_, %function\n"
	"sched_fiber_swap_:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $16, %rsp\n"
	"	stmxcsr 8(%rsp)\n"
	"	fnstcw (%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr 8(%rsp)\n"
	"	fldcw (%rsp)\n"
	"	addq $16, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size sched_fiber_swap_, .-sched_fiber_swap_\n"
	/* r12 = entry, r13 = arg; rsp is 16-aligned here, so the call is ABI-correct */
	".p2align 4\n"
	".globl sched_fiber_trampoline_\n"
	".hidden sched_fiber_trampoline_\n"
	".type sched_fiber_trampoline_, %function\n"
	"sched_fiber_trampoline_:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	movq %r13, %rdi\n"
	"	callq *%r12\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size sched_fiber_trampoline_, .-sched_fiber_trampoline_\n");

/* The new context's saved frame (layout above), at the top of its stack. */
static void *first_frame(char *top, void (*entry)(void *), void *arg)
{
	uint32_t mxcsr;
	uint16_t fpcw;
	__asm__ __volatile__("stmxcsr %0" : "=m"(mxcsr));
	__asm__ __volatile__("fnstcw %0" : "=m"(fpcw));
	uint64_t *sp = (uint64_t *)(void *)top;
	*--sp = 0;                                   /* padding: keeps rsp 16-aligned */
	*--sp = 0;                                   /* the trampoline's rsp points here */
	*--sp = (uint64_t)(uintptr_t)sched_fiber_trampoline_;   /* popped by ret */
	*--sp = 0;                                   /* rbp = 0: unwinders stop */
	*--sp = 0;                                   /* rbx */
	*--sp = (uint64_t)(uintptr_t)entry;          /* r12 */
	*--sp = (uint64_t)(uintptr_t)arg;            /* r13 */
	*--sp = 0;                                   /* r14 */
	*--sp = 0;                                   /* r15 */
	*--sp = mxcsr;                               /* the creator's rounding and masks */
	*--sp = fpcw;
	return sp;
}

/* ---- the switch: aarch64 -------------------------------------------------- */

#elif !defined(WEFT_FIBER_UCONTEXT) && defined(__aarch64__)
HIDDEN void sched_fiber_swap_(void **save_sp, void *load_sp);
HIDDEN void sched_fiber_trampoline_(void);
/*
 * Frame of a switched-out context, 176 bytes from its saved sp:
 *   0 x19 x20, 16 x21 x22, 32 x23 x24, 48 x25 x26, 64 x27 x28, 80 x29 x30,
 *   96 d8 d9, 112 d10 d11, 128 d12 d13, 144 d14 d15, 160 FPCR.
 * FPCR is written back only when it differs: msr fpcr can be slow.
 */
__asm__(
	".text\n"
	".p2align 4\n"
	".globl sched_fiber_swap_\n"
	".hidden sched_fiber_swap_\n"
	".type sched_fiber_swap_, %function\n"
	"sched_fiber_swap_:\n"
	"	sub sp, sp, #176\n"
	"	stp x19, x20, [sp, #0]\n"
	"	stp x21, x22, [sp, #16]\n"
	"	stp x23, x24, [sp, #32]\n"
	"	stp x25, x26, [sp, #48]\n"
	"	stp x27, x28, [sp, #64]\n"
	"	stp x29, x30, [sp, #80]\n"
	"	stp d8, d9, [sp, #96]\n"
	"	stp d10, d11, [sp, #112]\n"
	"	stp d12, d13, [sp, #128]\n"
	"	stp d14, d15, [sp, #144]\n"
	"	mrs x9, fpcr\n"
	"	str x9, [sp, #160]\n"
	"	mov x10, sp\n"
	"	str x10, [x0]\n"
	"	mov sp, x1\n"
	"	ldr x10, [sp, #160]\n"
	"	cmp x9, x10\n"
	"	b.eq 1f\n"
	"	msr fpcr, x10\n"
	"1:\n"
	"	ldp x19, x20, [sp, #0]\n"
	"	ldp x21, x22, [sp, #16]\n"
	"	ldp x23, x24, [sp, #32]\n"
	"	ldp x25, x26, [sp, #48]\n"
	"	ldp x27, x28, [sp, #64]\n"
	"	ldp x29, x30, [sp, #80]\n"
	"	ldp d8, d9, [sp, #96]\n"
	"	ldp d10, d11, [sp, #112]\n"
	"	ldp d12, d13, [sp, #128]\n"
	"	ldp d14, d15, [sp, #144]\n"
	"	add sp, sp, #176\n"
	"	ret\n"
	".size sched_fiber_swap_, .-sched_fiber_swap_\n"
	/* x19 = entry, x20 = arg, x29 = 0 (frame chain ends); sp is 16-aligned */
	".p2align 4\n"
	".globl sched_fiber_trampoline_\n"
	".hidden sched_fiber_trampoline_\n"
	".type sched_fiber_trampoline_, %function\n"
	"sched_fiber_trampoline_:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined x30\n"
	"	mov x0, x20\n"
	"	blr x19\n"
	"	brk #0\n"
	"	.cfi_endproc\n"
	".size sched_fiber_trampoline_, .-sched_fiber_trampoline_\n");

static void *first_frame(char *top, void (*entry)(void *), void *arg)
{
	uint64_t fpcr;
	__asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
	uint64_t *sp = (uint64_t *)(void *)(top - 176);
	memset(sp, 0, 176);
	sp[0] = (uint64_t)(uintptr_t)entry;                     /* x19 */
	sp[1] = (uint64_t)(uintptr_t)arg;                       /* x20 */
	sp[10] = 0;                                             /* x29 */
	sp[11] = (uint64_t)(uintptr_t)sched_fiber_trampoline_;  /* x30: where ret goes */
	sp[20] = fpcr;
	return sp;
}
#endif

/* ---- the raw switch, either way ------------------------------------------- */

#ifdef WEFT_FIBER_UCONTEXT
/* makecontext passes ints: the fiber's address in two halves. */
static void ucontext_entry(unsigned hi, unsigned lo)
{
	sched_fiber *f = (sched_fiber *)(uintptr_t)(((uint64_t)hi << 32) | lo);
	f->entry(f->arg);
}

static void prepare(sched_fiber *f, char *bottom, size_t size, void (*entry)(void *), void *arg)
{
	uint64_t self = (uint64_t)(uintptr_t)f;
	f->entry = entry;
	f->arg = arg;
	getcontext(&f->uc);
	f->uc.uc_stack.ss_sp = bottom;
	f->uc.uc_stack.ss_size = size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, (void (*)(void))ucontext_entry, 2, (unsigned)(self >> 32),
		    (unsigned)self);
}

static void raw_switch(sched_fiber *from, sched_fiber *to)
{
	swapcontext(&from->uc, &to->uc);
}
#else
static void prepare(sched_fiber *f, char *bottom, size_t size, void (*entry)(void *), void *arg)
{
	f->sp = first_frame(bottom + size, entry, arg);
}

static void raw_switch(sched_fiber *from, sched_fiber *to)
{
	sched_fiber_swap_(&from->sp, to->sp);
}
#endif

/* ---- stacks ----------------------------------------------------------------- */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

int sched_fiber_init(sched_fiber *f, void (*entry)(void *), void *arg)
{
	size_t guard = page_size();
	size_t size = SCHED_FIBER_STACK_SIZE + guard;
	memset(f, 0, sizeof *f);
	void *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (map == MAP_FAILED)
		return -1;
	if (mprotect(map, guard, PROT_NONE) != 0) {   /* the guard page, below the stack */
		munmap(map, size);
		return -1;
	}
	f->map = map;
	f->map_size = size;
	char *bottom = (char *)map + guard;
#ifdef WEFT_FIBER_ASAN
	f->asan_bottom = bottom;
	f->asan_size = SCHED_FIBER_STACK_SIZE;
#endif
	prepare(f, bottom, SCHED_FIBER_STACK_SIZE, entry, arg);
	return 0;
}

void sched_fiber_free(sched_fiber *f)
{
	if (!f->map)
		return;
#ifdef WEFT_FIBER_ASAN
	/* Frames left poisoned on this stack must not poison the next user of the range. */
	size_t guard = page_size();
	__asan_unpoison_memory_region((char *)f->map + guard, f->map_size - guard);
#endif
	munmap(f->map, f->map_size);
	f->map = NULL;
}

/* ---- switching, with what ASan must know ------------------------------------ */

void sched_fiber_begin(sched_fiber *self)
{
#ifdef WEFT_FIBER_ASAN
	sched_fiber *from = self->asan_from;
	__sanitizer_finish_switch_fiber(NULL, &from->asan_bottom, &from->asan_size);
#else
	(void)self;
#endif
}

void sched_fiber_switch(sched_fiber *from, sched_fiber *to)
{
#ifdef WEFT_FIBER_ASAN
	/*
	 * `to` learns who came (sched_fiber_begin or the finish below, on its side,
	 * records our stack's bounds there: that is how the controlling thread's
	 * bounds, which nobody else knows, reach the fibers that switch back to it).
	 */
	to->asan_from = from;
	__sanitizer_start_switch_fiber(&from->asan_fake_stack, to->asan_bottom, to->asan_size);
#endif
	raw_switch(from, to);
#ifdef WEFT_FIBER_ASAN
	sched_fiber *came = from->asan_from;
	__sanitizer_finish_switch_fiber(from->asan_fake_stack, &came->asan_bottom, &came->asan_size);
#endif
}

void sched_fiber_exit(sched_fiber *from, sched_fiber *to)
{
#ifdef WEFT_FIBER_ASAN
	to->asan_from = from;
	/* NULL: this context ends, ASan frees its fake stack */
	__sanitizer_start_switch_fiber(NULL, to->asan_bottom, to->asan_size);
#endif
	raw_switch(from, to);
	__builtin_unreachable();
}
