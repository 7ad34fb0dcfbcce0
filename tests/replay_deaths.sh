#!/bin/sh
# tests/replay_deaths.sh DIR - the replay binary prints weft's report of an
# execution that a signal ends (issue 29): tests/program_deaths.c's null_race
# (the worker dereferences the pointer main cleared in between: a SIGSEGV in
# program code) in DIR's plain build (no sanitizer takes the signal).
# --explore=random finds it and leaves the input; replaying that input prints
# weft's report of the interleaving up to the fault ("signal SIGSEGV"), then the
# replay tool's CRASH line naming the input, and the process still dies of the
# signal (runner/death.c chains to the previous handlers).  Before, the replay
# binary hooked ASan's report only: a bare CRASH line.
dir=$(cd "$1" && pwd)
replay=$dir/program_deaths_replay
backend=${WEFT_BACKEND:-fiber}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($backend): $*"; cat "$tmp/log"; exit 1; }
export WEFT_TEST_DEATH=null_race

(cd "$tmp" && timeout 60 "$replay" --explore=random --max-executions=5000 > "$tmp/log" 2>&1) &&
	fail "--explore=random finds no SIGSEGV"
set -- "$tmp"/crash-*
[ $# = 1 ] && [ -s "$1" ] || fail "--explore left not one non-empty input: $*"
timeout 60 "$replay" "$1" > "$tmp/log" 2>&1; rc=$?
[ "$rc" -gt 128 ] || fail "the replay exits $rc, not by the signal"
grep -q "^==weft== FAIL error in program_deaths: the process died during this execution (signal SIGSEGV, a segmentation fault)" \
	"$tmp/log" || fail "no weft report of the SIGSEGV"
grep -q "^interleaving:" "$tmp/log" || fail "the report has no interleaving"
sed -n '/^==weft== FAIL error/,$p' "$tmp/log" |
	grep -q "^==weft== CRASH in program_deaths: input .*: segmentation fault" ||
	fail "no CRASH line naming the input after the report"
echo "replay_deaths: a SIGSEGV in the program replays with weft's report ($backend)"
