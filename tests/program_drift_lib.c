/*
 * tests/program_drift_lib.c - the library tests/program_drift.c links: session
 * numbers from a static counter that only grows, as a library keeps handles.
 * Built as a plain static library (tests/CMakeLists.txt), not by weft's
 * program launcher, so its counter survives from one execution to the next.
 * Called from the program's main thread only.
 */
static int next_session;

int drift_session_open(void);

int drift_session_open(void)
{
	return next_session++;
}


/*
 * A program, not a test: tests/program_fresh.sh (through tests/program_drift.c) runs it
 * and fails unless the drifting failure is reported as nondeterministic.
 */
