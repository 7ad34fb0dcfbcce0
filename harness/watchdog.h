/*
 * harness/watchdog.h - --timeout for the search modes (harness/watchdog.c).
 */
#ifndef WEFT_HARNESS_WATCHDOG_H
#define WEFT_HARNESS_WATCHDOG_H

#include "weft/run.h"

#define HARNESS_WATCHDOG_DEFAULT 30   /* seconds, as the replay's --timeout */

/*
 * From now on, an execution of `runner` that runs longer than `seconds` (0: no
 * limit) ends the process: "==weft== TIMEOUT ..." on stderr with what was
 * running, exit 1.  `tool` prefixes nothing; it names the mode in the message.
 */
void harness_watchdog_start(const weft_runner *runner, unsigned seconds, const char *tool);
/* No more checks (the search is over). */
void harness_watchdog_stop(void);

#endif
