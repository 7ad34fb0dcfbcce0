#!/bin/sh
# tests/explore_death.sh BUGGY_REPLAY KIND - an execution that kills the process
# under --explore (here ASan's KIND, e.g. heap-use-after-free) leaves weft's
# report, the count so far and its input as crash-<sha1> in the working
# directory, which replays to the same error (issue 29; runner/death.c,
# harness/crash_file.c): with --explore=bytes (the input is the execution's
# own bytes), with a sampled strategy (--explore=pct, seeds 1-3: the schedule
# written down as it ran, harness/death_record.c) and under --systematic (the
# DFS's schedule, the same way).  Before, the process died with ASan's report
# alone (no count, no input); then, under a strategy, "not known in this mode".
replay=$1 kind=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/log"; exit 1; }
cd "$tmp" || exit 1
# check TOOL MODE...: one dying run of MODE leaves one input that replays to KIND
check() {
	tool=$1; shift
	rm -f crash-*
	"$replay" "$@" > log 2>&1 && fail "$* exited 0"
	grep -q "ERROR: AddressSanitizer: $kind" log || fail "$*: no $kind from ASan"
	grep -q "^==weft== FAIL error in .*the process died during this execution" log ||
		fail "$*: no weft report of the dying execution"
	grep -q "^$tool: the process died in execution [0-9]" log || fail "$*: no count"
	set -- crash-*
	[ $# = 1 ] && [ -s "$1" ] || fail "not one non-empty input file: $*"
	grep -q "Test unit written to $1" log || fail "the input's path is not printed"
	"$replay" "$1" > log 2>&1 && fail "$1 replays as a pass"
	grep -q "ERROR: AddressSanitizer: $kind" log || fail "$1 does not replay to $kind"
}
check weft-explore --explore=bytes --bytes=32
for seed in 1 2 3; do
	check weft-explore --explore=pct --seed=$seed
done
check weft-systematic --systematic
echo "explore_death: a dying execution under --explore=bytes, --explore=pct and --systematic left an input that replays to $kind"
