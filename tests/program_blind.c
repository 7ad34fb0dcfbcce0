/*
 * tests/program_blind.c - tests/program_first_access.c's lost update built
 * without the pass (a source of its own: CMake keeps one set of compile options
 * per source file and directory).  Its threads run without a switch point, so
 * no strategy can find the bug: the fuzz binary, --stats, --explore and
 * --systematic must say so (runner/blind_ops.c; tests/program_first_access.sh).
 *
 * A program, not a test: tests/program_first_access.sh runs it and fails unless the
 * blind-operation warning, the --stats line and the notes appear.
 */
#include "program_first_access.c"
