#!/bin/sh
# tests/fuzz_timeout.sh DIR - a hang found by the default fuzz binary leaves a
# timeout file that replays to the hang (issue 29).  tests/program_hang.c hangs
# in one interleaving only, in a loop without a switch point.  libFuzzer's
# -timeout acts only inside LLVMFuzzerTestOneInput, so a hang in a run the
# structure-aware mutator samples hung the fuzzer for good (seed 1 did, -timeout=2,
# until coreutils' timeout killed it at 40 s); weft's own check (weft_runner_on_timeout,
# runner/death.c) at libFuzzer's alarm ticks ends it: weft's report of the
# execution that hung, a non-empty timeout-<sha1> of its bytes, libFuzzer's
# timeout lines and -timeout_exitcode (70).  The file replays as a timeout in the
# replay binary (--timeout) and in the fuzz binary.  About 5 s per seed (-timeout=1: a tick a second).
dir=$(cd "$1" && pwd)
fuzz=$dir/program_hang_fuzz replay=$dir/program_hang_replay
backend=${WEFT_BACKEND:-fiber}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($backend): $*"; cat "$tmp/log"; exit 1; }

: > "$tmp/empty"
timeout 60 "$replay" --timeout=1 "$tmp/empty" > "$tmp/log" 2>&1 || fail "the simplest run does not pass"
for seed in 1 2 3; do
	mkdir "$tmp/$seed"
	(cd "$tmp/$seed" && timeout 60 "$fuzz" -seed=$seed -timeout=1 -runs=100000 > "$tmp/log" 2>&1)
	rc=$?
	[ "$rc" = 70 ] || fail "seed $seed: the fuzz binary exits $rc, want 70 (libFuzzer's timeout status; 124: it hung)"
	grep -q "^==weft== FAIL error in program_hang: the process died during this execution (a timeout" \
		"$tmp/log" || fail "seed $seed: no weft report of the execution that hung"
	grep -q "^SUMMARY: libFuzzer: timeout" "$tmp/log" || fail "seed $seed: no libFuzzer timeout summary"
	set -- "$tmp/$seed"/timeout-*
	[ $# = 1 ] && [ -s "$1" ] || fail "seed $seed: not one non-empty timeout file: $*"
	timeout 60 "$replay" --timeout=1 "$1" > "$tmp/log" 2>&1 && fail "seed $seed: the timeout file replays as a pass"
	grep -q "^==weft== TIMEOUT in program_hang: input .* ran longer than 1 s" "$tmp/log" ||
		fail "seed $seed: the timeout file does not hang the replay binary"
	timeout 60 "$fuzz" -timeout=1 "$1" > "$tmp/log" 2>&1
	rc=$?
	[ "$rc" = 70 ] || fail "seed $seed: the fuzz binary on the timeout file exits $rc, want 70"
done
echo "fuzz_timeout: a hang in the mutator's runs leaves a timeout file that hangs again, seeds 1-3 ($backend)"
