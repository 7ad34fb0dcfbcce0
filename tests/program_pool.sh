#!/bin/sh
# tests/program_pool.sh DIR - every thread of a program has control bytes
# (tests/program_pool.c: the bug needs the 20th worker, managed thread 20,
# preempted between a load and a store):
#   - the fuzz binary (libFuzzer builds) finds it, every sampled switch written
#     ("0 switches lost"), and its crash file replays the assertion; before, a
#     program's threads 16 and up had no control bytes: no input could preempt
#     them, and 0 of 30,000 runs failed;
#   - on a pool of 100 (program_pool_wide), every schedule the mutator samples replays
#     from the bytes it wrote (WEFT_MUTATOR=verify: "0 mismatches"); before, a switch
#     to thread 48 was written as the byte '0', which reads as 0: 9 in 10 did not;
#     and past 128 forced switches (threads ending) a sample lost its switches;
#   - the fixed twin passes 2,000 random-walk executions.
dir=$1
fail() { echo "FAIL (program_pool): $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -x "$dir/program_pool_buggy_fuzz" ]; then
	(cd "$tmp" && "$dir/program_pool_buggy_fuzz" -seed=1 -runs=30000 > fuzz.log 2>&1)
	grep -q "^ASSERTION FAILED: weft: assertion in program_pool_buggy" "$tmp/fuzz.log" ||
		{ tail -5 "$tmp/fuzz.log"; fail "the fuzz binary did not find the lost update in 30,000 runs"; }
	grep -q " 0 switches lost" "$tmp/fuzz.log" ||
		fail "sampled switches were lost: $(grep 'switches lost' "$tmp/fuzz.log")"
	crash=$(ls "$tmp"/crash-* 2>/dev/null | head -n 1)
	[ -n "$crash" ] || fail "no crash file"
	"$dir/program_pool_buggy_replay" "$crash" > "$tmp/replay.txt" 2>&1 && fail "the crash file passes"
	grep -q "assertion" "$tmp/replay.txt" || { cat "$tmp/replay.txt"; fail "the crash file does not replay the assertion"; }
	(cd "$tmp" && WEFT_MUTATOR=verify "$dir/program_pool_wide_fuzz" -seed=1 -runs=300 > wide.log 2>&1) ||
		{ tail -5 "$tmp/wide.log"; fail "the pool of 100 failed"; }
	grep -q " 0 switches lost, [1-9][0-9]* verified, 0 mismatches" "$tmp/wide.log" ||
		fail "a pool of 100: samples that do not replay: $(grep 'mismatches' "$tmp/wide.log")"
fi
"$dir/program_pool_fixed_replay" --explore=random --seed=1 --max-executions=2000 --quiet > "$tmp/out" 2>&1 ||
	{ tail -20 "$tmp/out"; fail "the fixed pool failed"; }
echo "program_pool: the fuzz binary preempts the 20th thread and finds the lost update; the fixed pool passes"
