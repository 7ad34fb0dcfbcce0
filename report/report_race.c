/*
 * report/report_race.c - the warning WEFT_RACES=warn prints for a data race
 * (scheduler/race.c finds it, runner/runner.c decides it is new).
 *
 * Design.  In warn mode a race does not stop the execution: the scheduler lists
 * the races of an execution (a sentence naming both accesses), the runner keeps
 * each pair of sites it has seen, and a new pair is printed here, once per
 * process and runner, on its own line, so that a user hunting races sees each
 * distinct one without the run being cut.  The verdict is unchanged.  The
 * sentence holds sites (basename:line), functions and thread numbers only: no
 * addresses, so the warnings are as stable as the reports.
 */
#include "report.h"

void report_print_race_warning(FILE *out, const char *target, const char *message)
{
	fprintf(out, "==weft== WARNING: data race in %s: %s\n", target, message);
}
