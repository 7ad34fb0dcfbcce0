#!/bin/sh
# tests/program_ubsan.sh DIR - a concurrency bug that only UBSan sees (issue 29):
# tests/program_ubsan.c's lost check writes journal[2] of an int[2] in one
# interleaving, which -fsanitize=bounds reports and, with halt_on_error (or
# -fno-sanitize-recover, WEFT_SANITIZE=ON), ends the process through the
# sanitizers' death callback (runner/death.c).  In DIR's ASan+UBSan build:
#   - the default fuzz binary (the structure-aware mutator on), seeds 1-3, prints
#     UBSan's error, then weft's report of the dying execution, and leaves one
#     non-empty crash file;
#   - that file replays to the same UBSan error in the replay binary and in the
#     fuzz binary, each followed by weft's report (the replay binary printed
#     none after a UBSan error: only ASan's report callback was hooked).
dir=$(cd "$1" && pwd)
replay=$dir/program_ubsan_replay fuzz=$dir/program_ubsan_fuzz
backend=${WEFT_BACKEND:-fiber}
error="program_ubsan.c:[0-9]*:[0-9]*: runtime error: index 2 out of bounds for type 'int *\[2\]'"
report="^==weft== FAIL error in program_ubsan: the process died during this execution (the sanitizer's report above)"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($backend): $*"; cat "$tmp/log"; exit 1; }

# UBSan's error first, weft's report after it (the order a reader and weft_reduce.sh expect)
ubsan_then_weft() {
	grep -q "$error" "$tmp/log" || fail "$1: not UBSan's out-of-bounds index"
	sed -n "/runtime error:/,\$p" "$tmp/log" | grep -q "$report" ||
		fail "$1: no weft report after UBSan's"
}

: > "$tmp/empty"
timeout 60 "$replay" "$tmp/empty" > "$tmp/log" 2>&1 || fail "the simplest run fails"

[ -x "$fuzz" ] || { echo "program_ubsan: no fuzz binary (WEFT_FUZZ off)"; exit 0; }
for seed in 1 2 3; do
	mkdir "$tmp/$seed"
	(cd "$tmp/$seed" && timeout 120 "$fuzz" -seed=$seed -runs=200000 > "$tmp/log" 2>&1) &&
		fail "seed $seed: the fuzz binary found nothing"
	ubsan_then_weft "seed $seed, fuzz binary"
	set -- "$tmp/$seed"/crash-*
	[ $# = 1 ] && [ -s "$1" ] || fail "seed $seed: not one non-empty crash file: $*"
	crash=$1
	timeout 60 "$replay" "$crash" > "$tmp/log" 2>&1 && fail "seed $seed: the crash file replays as a pass"
	ubsan_then_weft "seed $seed, replay binary"
	timeout 60 "$fuzz" "$crash" > "$tmp/log" 2>&1 && fail "seed $seed: the fuzz binary passes the crash file"
	ubsan_then_weft "seed $seed, fuzz binary on the crash file"
done
echo "program_ubsan: UBSan's error, weft's report and a crash file that replays it, seeds 1-3 ($backend)"
