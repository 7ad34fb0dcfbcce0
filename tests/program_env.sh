#!/bin/sh
# tests/program_env.sh DIR CORPUS - a program's outside world under weft (issue
# 22, <weft/program.h>), on targets/watchdog.c:
#   - exit(3) from a thread ends the execution with verdict validation and the
#     replay tool's own exit status (1: unexpected verdict; 0 with --expect),
#     never status 3;
#   - the program's stdout is quiet unless WEFT_PROGRAM_STDOUT=1;
#   - sleep() does not sleep and the clock is logical: main prints how long the
#     watchdog waited by clock_gettime, exactly as predicted, the same in every
#     run, and 9 logical seconds take well under 3 real ones.
dir=$1 corpus=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/empty"
repro=$corpus/watchdog/early-giveup.validation.bin
"$dir/watchdog_buggy_replay" "$repro" > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "replay exited $rc after the program's exit(3), want 1"
grep -q '^==weft== FAIL validation in watchdog_buggy: thread 2 called exit(3)$' "$tmp/out" ||
	{ cat "$tmp/out"; fail "no validation verdict for exit(3)"; }
"$dir/watchdog_buggy_replay" --quiet --expect=validation "$repro" > /dev/null 2>&1 ||
	fail "--expect=validation"
grep -q 'giving up\|job done\|waited' "$tmp/out" && fail "the program's stdout was not quiet"
"$dir/watchdog_fixed_replay" "$tmp/empty" "$repro" > "$tmp/quiet" 2>&1 || fail "fixed variant failed"
grep -q 'job done\|waited' "$tmp/quiet" && fail "the fixed program's stdout was not quiet"
# weft's own exit during an execution (a misspelt variable) ends the process, status 2,
# though exit() is caught by symbol (harness/program_interpose.c)
WEFT_PROGRAM_STDOUT=yes "$dir/watchdog_buggy_replay" "$tmp/empty" > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || { cat "$tmp/out"; fail "WEFT_PROGRAM_STDOUT=yes: exit $rc, want 2"; }
start=$(date +%s)
for i in 1 2 3; do
	{ WEFT_PROGRAM_STDOUT=1 "$dir/watchdog_buggy_replay" "$tmp/empty"
	  WEFT_PROGRAM_STDOUT=1 "$dir/watchdog_fixed_replay" "$tmp/empty" "$repro"; } 2>/dev/null |
		grep 'waited' > "$tmp/waited.$i"
done
end=$(date +%s)
# buggy, no choice: one sleep(1), ended when nobody else could run (the worker done): 1 s;
# fixed: the worker runs first (0 s); with the reproducer two sleeps (the first ended early)
[ "$(cat "$tmp/waited.1")" = "main: the watchdog waited 1 s
main: the watchdog waited 0 s
main: the watchdog waited 2 s" ] || fail "logical clock: $(cat "$tmp/waited.1")"
cmp -s "$tmp/waited.1" "$tmp/waited.2" && cmp -s "$tmp/waited.1" "$tmp/waited.3" || fail "clock readings differ between runs"
[ $((end - start)) -lt 3 ] || fail "9 logical seconds of sleep took $((end - start)) s: they really slept"
echo "program_env: exit(3) -> validation, stdout quiet unless asked, 1 logical second, no real sleep"
