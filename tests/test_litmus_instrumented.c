/*
 * tests/test_litmus_instrumented.c - the litmus suite (tests/test_litmus.c)
 * with its atomics and fences reaching the memory model through the compiler
 * pass instead of <weft/atomic.h>'s macros (issue 18): with WEFT_NO_INSTRUMENT
 * the weft_atomic_* calls are plain C11 atomics, and this file is built with
 * the pass (tests/CMakeLists.txt), which makes each atomic instruction a switch
 * point and hands it to the model (scheduler/access_memory.c).  The exact
 * outcome sets must be the same as through the macros: SB, MP, LB, IRIW, 2+2W
 * and WRC, fences included, under c11, sc, tso and pso (its checks are
 * test_litmus.c's CHECKs, included below).  The bodies' plain stores of
 * their registers are no switch points (WEFT_ACCESSES=atomics): as steps they
 * would change no outcome and multiply IRIW's 4-thread executions by three.
 */
#include <stdlib.h>

#define WEFT_NO_INSTRUMENT 1
#define main litmus_main
#include "test_litmus.c"
#undef main

int main(void)
{
	setenv("WEFT_ACCESSES", "atomics", 1);
	return litmus_main();
}
