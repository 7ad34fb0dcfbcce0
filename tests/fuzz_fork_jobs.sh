#!/bin/sh
# tests/fuzz_fork_jobs.sh DIR - libFuzzer's -fork and -jobs children leave crash
# files that replay (issue 29): plain_unlock_free's use-after-free (ASan), found
# inside the structure-aware mutator, where libFuzzer's own crash file would hold
# its current unit (empty).  weft's death sink writes the execution that died
# (harness/crash_file.c) with the options each child was given: -fork=2 with
# -artifact_prefix (seeds 1-3) and -jobs=2 (each worker's log in fuzz-N.log).
# Every crash file left must be non-empty and replay, in the replay binary, to
# ASan's heap-use-after-free followed by weft's report.
dir=$(cd "$1" && pwd)
fuzz=$dir/plain_unlock_free_buggy_fuzz replay=$dir/plain_unlock_free_buggy_replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/log"; exit 1; }

# every crash file in $1 (at least one) is non-empty and replays to the error
check_crashes() {
	set -- "$1"/crash-*
	[ -e "$1" ] || fail "$what: no crash file"
	for crash; do
		[ -s "$crash" ] || fail "$what: empty crash file $crash"
		timeout 60 "$replay" "$crash" > "$tmp/log" 2>&1 && fail "$what: $crash replays as a pass"
		grep -q "ERROR: AddressSanitizer: heap-use-after-free" "$tmp/log" ||
			fail "$what: $crash does not replay to the use-after-free"
		sed -n '/ERROR: AddressSanitizer/,$p' "$tmp/log" |
			grep -q "^==weft== FAIL error in plain_unlock_free_buggy: the process died" ||
			fail "$what: no weft report after ASan's replaying $crash"
	done
}

for seed in 1 2 3; do
	what="-fork=2 -seed=$seed"
	mkdir -p "$tmp/fork$seed/out"
	(cd "$tmp/fork$seed" && timeout 120 "$fuzz" -fork=2 -seed=$seed -max_total_time=30 \
		-artifact_prefix=out/ > "$tmp/log" 2>&1) && fail "$what: nothing found"
	grep -q "Test unit written to out/crash-" "$tmp/log" || fail "$what: no child wrote a crash file"
	check_crashes "$tmp/fork$seed/out"
done
what="-jobs=2"
mkdir "$tmp/jobs"
(cd "$tmp/jobs" && timeout 120 "$fuzz" -jobs=2 -workers=2 -seed=1 -runs=100000 -max_total_time=30 \
	> "$tmp/log" 2>&1)
cat "$tmp/jobs"/fuzz-*.log > "$tmp/log"
grep -q "Test unit written to crash-" "$tmp/log" || fail "$what: no worker wrote a crash file"
check_crashes "$tmp/jobs"
echo "fuzz_fork_jobs: -fork=2 (seeds 1-3) and -jobs=2 children leave crash files that replay"
