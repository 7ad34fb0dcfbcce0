/*
 * weft/export.h - WEFT_API marks the library's interface.  libweft is compiled
 * with hidden visibility, so everything else (the scheduler's sched_*, the
 * runner's runner_*, the input's input_*, ...) stays internal; tests/exported_symbols.sh checks it.
 */
#ifndef WEFT_EXPORT_H
#define WEFT_EXPORT_H

#define WEFT_API __attribute__((visibility("default")))

#endif /* WEFT_EXPORT_H */
