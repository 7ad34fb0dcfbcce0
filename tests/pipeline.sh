#!/bin/sh
# tests/pipeline.sh BUILD TARGET SEED MINIMUM REPRODUCER GOLDEN [--regenerate]
#
# The whole path a user takes, on one buggy target, asserted end to end:
#   1. libFuzzer (-seed=SEED) finds a failure;
#   2. scripts/weft_reduce.sh: libFuzzer's -minimize_crash, then weft's simplifier,
#      must reach the known MINIMUM complexity "(preemptions, switches, operations,
#      threads)" and write the canonical reproducer.  With WEFT_PIPELINE_STRICT=1
#      libFuzzer's erase-only minimizer must reach it alone (the counter's test).
#      Not for every target: which crash libFuzzer finds first depends on the seed
#      and on the build (ASan changes its run), and from some of them erasing bytes
#      stops one preemption short, which the simplifier then removes;
#   3. that reproducer replays the corpus's interleaving (REPRODUCER: the bytes may
#      spell it differently, a note says so; the report below is what must match);
#   4. its report is exactly GOLDEN, through the replay binary twice and through
#      the fuzz binary (the same text before libFuzzer's own lines).
# --regenerate rewrites REPRODUCER and GOLDEN from this run instead of comparing.
build=$1 target=$2 seed=$3 minimum=$4 reproducer=$5 golden=$6 mode=${7:-}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($target): $*"; exit 1; }

"$build/${target}_fuzz" -seed="$seed" -runs=2000000 -artifact_prefix="$tmp/" > "$tmp/fuzz.log" 2>&1
crash=$(ls "$tmp"/crash-* 2>/dev/null | head -n 1)
[ -n "$crash" ] || { tail -5 "$tmp/fuzz.log"; fail "no failure within 2,000,000 runs (seed $seed)"; }
echo "found after $(grep -o '^#[0-9]*' "$tmp/fuzz.log" | tail -n 1 | tr -d '#') runs (last status line)"

sh "$root/scripts/weft_reduce.sh" --build "$build" "$target" "$crash" "$tmp/out.bin" > "$tmp/reduce.log" 2>&1 ||
	{ cat "$tmp/reduce.log"; fail "weft_reduce.sh"; }
sed -n '1,/^== report/p' "$tmp/reduce.log"
after_fuzzer=$(sed -n 's/.*bytes, complexity \(([0-9, ]*)\).*/\1/p' "$tmp/reduce.log")
after_weft=$(sed -n 's/.*complexity (preemptions, switches, operations, threads) (.*) -> \(([0-9, ]*)\).*/\1/p' "$tmp/reduce.log")
[ -n "$after_fuzzer" ] || fail "no complexity after libFuzzer's -minimize_crash"
[ "${WEFT_PIPELINE_STRICT:-0}" != 1 ] || [ "$after_fuzzer" = "$minimum" ] ||
	fail "libFuzzer's -minimize_crash reached $after_fuzzer, the minimum is $minimum"
[ "$after_weft" = "$minimum" ] || fail "weft's simplifier ended at $after_weft, the minimum is $minimum"

if [ "$mode" = --regenerate ]; then
	cp "$tmp/out.bin" "$reproducer" && cp "$tmp/out.bin.txt" "$golden" && echo "wrote $reproducer and $golden"
	exit $?
fi
# The report is the contract: the same interleaving, verdict and explanation.  The bytes
# may spell it differently (a preemption's `to` byte names the same thread modulo the
# runnable ones, and which spelling the fuzzer's crash had depends on the build).
cmp -s "$tmp/out.bin.txt" "$golden" || { diff "$golden" "$tmp/out.bin.txt"; fail "report differs from $golden"; }
cmp -s "$tmp/out.bin" "$reproducer" ||
	echo "note: reproducer $(od -An -tx1 "$tmp/out.bin") spells the interleaving of $reproducer ($(od -An -tx1 "$reproducer")) differently"
report() { "$build/${target}_replay" "$1" 2>&1 | grep -v '^weft-replay:\|^==weft== input '; }
report "$reproducer" > "$tmp/again.txt"
cmp -s "$tmp/again.txt" "$golden" || { diff "$golden" "$tmp/again.txt"; fail "second replay differs"; }
"$build/${target}_fuzz" "$reproducer" > "$tmp/via_fuzz.log" 2>&1 && fail "the fuzz binary did not crash on the reproducer"
awk '/^==weft== FAIL/ {on=1} /^ASSERTION FAILED:|^==[0-9]+==/ {on=0} on' "$tmp/via_fuzz.log" > "$tmp/via_fuzz.txt"
cmp -s "$tmp/via_fuzz.txt" "$golden" || { diff "$golden" "$tmp/via_fuzz.txt"; fail "the fuzz binary's report differs"; }
grep -q "^ASSERTION FAILED: weft: " "$tmp/via_fuzz.log" || fail "no ASSERTION FAILED line from the fuzz binary"
echo "pipeline ($target, seed $seed): found, libFuzzer reaches $after_fuzzer and weft $minimum, reproducer and report match the golden files"
