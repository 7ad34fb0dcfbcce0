#!/bin/sh
# tests/fuzz_counter.sh FUZZ REPLAY - libFuzzer with a fixed seed finds the lost
# update within a bounded number of runs; libFuzzer's -minimize_crash followed by
# weft's own pass (REPLAY --minimize) reaches the known minimum (00 00 00 03:
# 2 threads, 1 increment each, 1 preemption); the crash file replays to the same
# report through the fuzz binary and the replay binary.
fuzz=$1 replay=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$fuzz" -seed=1 -runs=200000 -artifact_prefix="$dir/" > fuzz.log 2>&1
crash=$(ls "$dir"/crash-* 2>/dev/null | head -n 1)
[ -n "$crash" ] || { echo "FAIL: no crash within 200000 runs"; tail -20 fuzz.log; exit 1; }
runs=$(grep -o '^#[0-9]*' fuzz.log | tail -n 1)
echo "found the lost update after ${runs#\#} runs (last status line)"
"$fuzz" -minimize_crash=1 -runs=20000 -seed=1 -exact_artifact_path="$dir/fuzzer-min.bin" "$crash" > min.log 2>&1
echo "libFuzzer minimized to: $(od -An -tx1 fuzzer-min.bin)"
"$replay" --quiet --minimize="$dir/min.bin" fuzzer-min.bin > weft-min.log 2>&1 ||
	{ echo "FAIL: replay --minimize"; cat weft-min.log; exit 1; }
printf '\000\000\000\003' > expected.bin
cmp -s min.bin expected.bin || { echo "FAIL: minimized to:"; od -An -tx1 min.bin; tail min.log; exit 1; }
echo "minimized to the known minimum: 00 00 00 03"
extract() { awk '/^==weft== FAIL/ {on=1} /^==[0-9]+==|^weft-replay:|^INFO:/ {on=0} on' "$1"; }
"$fuzz" min.bin > via_fuzz.log 2>&1 && { echo "FAIL: fuzz binary did not crash on replay"; exit 1; }
"$replay" min.bin > via_replay.log 2>&1; [ $? = 1 ] || { echo "FAIL: replay exit code"; exit 1; }
extract via_fuzz.log > a.txt; extract via_replay.log > b.txt
[ -s a.txt ] || { echo "FAIL: no report from the fuzz binary"; cat via_fuzz.log; exit 1; }
cmp -s a.txt b.txt || { echo "FAIL: reports differ"; diff a.txt b.txt; exit 1; }
grep -q "2 threads, 2 operations, 1 preemption" a.txt || { echo "FAIL: not minimal"; cat a.txt; exit 1; }
cat a.txt
echo "fuzz_counter: found, minimized, same report through both binaries"
