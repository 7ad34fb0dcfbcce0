#!/bin/sh
# tests/death_outside.sh DIR - a sanitizer's death outside any execution says so
# (issue 29): tests/target_dies_outside.c's destructor overflows a signed int at
# process exit (UBSan, fatal in WEFT_SANITIZE=ON builds).  The replay binary and
# the fuzz binary (whose death callback weft replaced, so libFuzzer writes
# nothing) print UBSan's error, then weft's line that the process died outside an
# execution with no interleaving and no reproducer; no crash file is written.
# Without WEFT_TEST_DIE_AT_EXIT both exit 0 with no such line.
dir=$(cd "$1" && pwd)
replay=$dir/dies_outside_replay fuzz=$dir/dies_outside_fuzz
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
line="^==weft== the process died outside an execution (between executions, in the harness or at exit): weft has no interleaving to report and wrote no input that replays it"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/log"; exit 1; }
: > "$tmp/empty"

timeout 60 "$replay" "$tmp/empty" > "$tmp/log" 2>&1 || fail "replay: a passing run fails"
grep -q "outside an execution" "$tmp/log" && fail "replay: the line without a death"
WEFT_TEST_DIE_AT_EXIT=1 timeout 60 "$replay" "$tmp/empty" > "$tmp/log" 2>&1 && fail "replay: no death at exit"
grep -q "runtime error: signed integer overflow" "$tmp/log" || fail "replay: not UBSan's error"
sed -n '/runtime error/,$p' "$tmp/log" | grep -q "$line" || fail "replay: no line after UBSan's error"
grep -q "^==weft== FAIL" "$tmp/log" && fail "replay: a report of an execution that was not running"
if [ -x "$fuzz" ]; then
	(cd "$tmp" && WEFT_TEST_DIE_AT_EXIT=1 timeout 60 "$fuzz" -runs=20 -seed=1 > "$tmp/log" 2>&1) &&
		fail "fuzz: no death at exit"
	sed -n '/runtime error/,$p' "$tmp/log" | grep -q "$line" || fail "fuzz: no line after UBSan's error"
	set -- "$tmp"/crash-*
	[ -e "$1" ] && fail "fuzz: a crash file written for a death outside an execution: $*"
fi
echo "death_outside: a death outside an execution says so"
