/*
 * report/report_drift.c - the warning for a run that drifted: the process's
 * first input, run again after many executions, ran differently
 * (runner/runner.c, probe_drift; issue 30).
 *
 * Design.  Printed once per runner, on its own line, without changing any
 * verdict: a pass whose interleaving depends on what ran before it is not a
 * failure, but every verdict of the process may then depend on its inputs'
 * order, and a user must hear it.  The sentence names steps by thread, kind
 * and site (basename:line), never addresses.
 */
#include "report.h"

void report_print_drift_warning(FILE *out, const char *target, const char *message)
{
	fprintf(out, "==weft== WARNING: state drifts between executions in %s: %s\n", target,
		message);
}
