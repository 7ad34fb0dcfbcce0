#!/bin/sh
# tests/fuzz_fixed_survives.sh FUZZ RUNS - the fixed counter survives RUNS
# libFuzzer executions with no report.
fuzz=$1 runs=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$fuzz" -seed=1 -runs="$runs" -artifact_prefix="$dir/" > fuzz.log 2>&1
rc=$?
if [ $rc != 0 ] || ls "$dir"/crash-* >/dev/null 2>&1; then
	echo "FAIL: exit $rc"; tail -40 fuzz.log; exit 1
fi
grep -q "Done $runs runs" fuzz.log || { echo "FAIL: did not complete $runs runs"; tail fuzz.log; exit 1; }
tail -n 1 fuzz.log
echo "fuzz_fixed_survives: $runs runs, no failure"
