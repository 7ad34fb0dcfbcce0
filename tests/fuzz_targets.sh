#!/bin/sh
# tests/fuzz_targets.sh DIR BUGGY_RUNS FIXED_RUNS NAME[:KIND]... - the
# data-structure targets under libFuzzer.  For each NAME: with each of the seeds
# 1, 2, 3, DIR/NAME_buggy_fuzz finds a failure with verdict KIND (default
# linearizability; deadlock, livelock, ...; heap-use-after-free and other
# heap-* words: AddressSanitizer's report; KIND,KIND...: any one of them, for a
# bug with more than one symptom) within BUGGY_RUNS runs (the runs it
# needed are printed); DIR/NAME_fixed_fuzz survives FIXED_RUNS runs (seed 1)
# with no report.  A failure that kills the process (KIND heap-*: ASan's report)
# leaves one crash file, not empty, that replays to that error in
# DIR/NAME_buggy_replay and in the fuzz binary (issue 29: inside the
# structure-aware mutator libFuzzer's own crash file was empty; runner/death.c).
# The generalization of fuzz_counter.sh and
# fuzz_fixed_survives.sh; minimization is fuzz_counter.sh's business.
dir=$(cd "$1" && pwd) || exit 1
buggy_runs=$2 fixed_runs=$3
shift 3
for spec in "$@"; do
	name=${spec%%:*}
	for v in buggy fixed; do
		[ -x "$dir/${name}_${v}_fuzz" ] || { echo "FAIL: no $dir/${name}_${v}_fuzz"; exit 1; }
	done
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0

fail() { echo "FAIL: $*"; failed=1; }

# finds NAME SEED KIND: the buggy variant fails, with verdict KIND, in time.
finds()
{
	rm -f crash-*
	"$dir/$1_buggy_fuzz" -seed="$2" -runs="$buggy_runs" -print_final_stats=1 \
		-artifact_prefix="$work/" > fuzz.log 2>&1
	if ! ls crash-* > /dev/null 2>&1; then
		fail "$1_buggy, seed $2: no failure within $buggy_runs runs"; tail -5 fuzz.log; return
	fi
	found=
	for k in $(echo "$3" | tr , ' '); do    # KIND,KIND: either symptom
		case $k in
		heap-*) pattern="ERROR: AddressSanitizer: $k" ;;   # a memory error ASan catches
		*) pattern="^==weft== FAIL $k " ;;
		esac
		grep -q "$pattern" fuzz.log && { found=$k; break; }
	done
	[ -n "$found" ] ||
		{ fail "$1_buggy, seed $2: not a $3 failure"; grep '^==weft==' fuzz.log; return; }
	case $found in heap-*) replays "$1" "$2" "$found" || return ;; esac
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' fuzz.log)
	echo "$1_buggy seed $2: $found failure after ${runs:-?} runs"
}

# replays NAME SEED KIND: the one crash file holds the execution that died.
replays()
{
	set -- "$1" "$2" "$3" crash-*
	[ $# = 4 ] || { fail "$1_buggy, seed $2: $(($# - 3)) crash files: $*"; return 1; }
	[ -s "$4" ] || { fail "$1_buggy, seed $2: the crash file is empty"; return 1; }
	for bin in "$dir/$1_buggy_replay" "$dir/$1_buggy_fuzz"; do
		"$bin" "$4" > replay.log 2>&1
		grep -q "ERROR: AddressSanitizer: $3" replay.log ||
			{ fail "$1_buggy, seed $2: $4 does not replay to $3 in $bin"
			  tail -5 replay.log; return 1; }
	done
}

# survives NAME: the fixed variant completes FIXED_RUNS runs with no report.
survives()
{
	rm -f crash-*
	"$dir/$1_fixed_fuzz" -seed=1 -runs="$fixed_runs" -artifact_prefix="$work/" > fuzz.log 2>&1
	rc=$?
	if [ $rc != 0 ] || ls crash-* > /dev/null 2>&1; then
		fail "$1_fixed: exit $rc"; grep '^==weft==' fuzz.log | head; tail -40 fuzz.log; return
	fi
	grep -q "Done $fixed_runs runs" fuzz.log ||
		{ fail "$1_fixed: did not complete $fixed_runs runs"; tail fuzz.log; return; }
	echo "$1_fixed: $(grep -m 1 '^Done' fuzz.log), no failure"
}

for spec in "$@"; do
	name=${spec%%:*} kind=linearizability
	[ "$spec" = "$name" ] || kind=${spec#*:}
	for seed in 1 2 3; do
		finds "$name" "$seed" "$kind"
	done
	survives "$name"
done
[ $failed = 0 ] && echo "fuzz_targets: every bug found, every fix survived $fixed_runs runs"
exit $failed
