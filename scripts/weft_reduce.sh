#!/bin/sh
# scripts/weft_reduce.sh - a crash file in, the simplest reproducer and its report out.
#
# Two passes, in this order:
#   1. libFuzzer's own minimizer (TARGET_fuzz -minimize_crash=1): erases bytes,
#      which (docs/input-format.md) drops operations, threads and preemptions;
#   2. weft's simplifier (TARGET_replay --simplify): fewest preemptions, then
#      other switches, operations, threads; lowest arguments; canonical bytes.
# Prints the complexity (preemptions, switches, operations, threads) after each
# pass and the final report; writes OUT (the reproducer) and OUT.txt (the report).
# Installed (cmake --install) as bin/weft-reduce; it then takes the binaries of the
# user's build: --build DIR, or the current directory.
# --progress FILE makes a reduction resumable: libFuzzer's minimizer writes each smaller
# crash it finds to FILE (its -exact_artifact_path, rewritten at every step), so a
# reduction that is killed leaves its smallest crash there, and a later one given FILE
# as CRASH starts from it (scripts/weft_campaign.sh does both).
self=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/../CMakeLists.txt" ] && [ -f "$here/weft_campaign.sh" ]; then
	build=$(cd "$here/.." && pwd)/build/clang   # weft's source tree
	build_default="build/clang in weft's source tree"
else
	build=. build_default="the current directory"   # installed: bin/weft-reduce
fi
usage() {
	cat <<USAGE
usage: $self [--build DIR] [--runs N] [--seed N] [--progress FILE] TARGET CRASH OUT
  TARGET      a built target, e.g. counter_buggy or my_queue (DIR/TARGET_fuzz, a
              libFuzzer build, and DIR/TARGET_replay)
  CRASH       the crash file the fuzzer wrote
  OUT         where to write the simplified reproducer (and OUT.txt, its report)
  --build DIR the build tree with TARGET_fuzz and TARGET_replay, configured with clang
              (default: $build_default)
  --runs N    libFuzzer -runs per minimization step (default: 20000)
  --seed N    libFuzzer -seed for the minimization (default: 1)
  --progress FILE  keep the minimizer's smallest crash so far in FILE (kept if killed;
              pass FILE as CRASH to resume from it)
Exit status: 0 done, 1 the crash does not reproduce, 2 bad usage or missing binaries.
USAGE
}
runs=20000 seed=1 progress=
while [ $# -gt 0 ]; do
	case $1 in
	--build|--runs|--seed|--progress)
		[ $# -ge 2 ] || { echo "$self: $1 needs a value" >&2; usage >&2; exit 2; }
		case $1 in --build) build=$2 ;; --runs) runs=$2 ;; --seed) seed=$2 ;; --progress) progress=$2 ;; esac
		shift 2 ;;
	--help|-h) usage; exit 0 ;;
	--*) echo "$self: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 3 ] || { usage >&2; exit 2; }
target=$1 crash=$2 out=$3
case $runs$seed in *[!0-9]*|'') echo "$self: --runs and --seed take numbers" >&2; exit 2 ;; esac
fuzz=$build/${target}_fuzz replay=$build/${target}_replay
for bin in "$fuzz" "$replay"; do
	[ -x "$bin" ] || { echo "$self: $bin not found (a build configured with CC=clang; --build DIR names it)" >&2; exit 2; }
done
[ -r "$crash" ] || { echo "$self: cannot read $crash" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$replay" --quiet --expect=fail --complexity "$crash" > "$tmp/crash.txt" 2> "$tmp/check.log" ||
	{ echo "$self: $crash does not fail on $target:" >&2; cat "$tmp/check.log" >&2; exit 1; }
# the complexity tuple (it may start with weak reads), then the verdict
complexity() { sed 's/^\(([^)]*)\).*/\1/' "$1"; }
echo "== $crash: $(complexity "$tmp/crash.txt") $(sed 's/^([^)]*) \([^ ]*\).*/\1/' "$tmp/crash.txt") (preemptions, switches, operations, threads, verdict)"
echo "== libFuzzer -minimize_crash=1 (-runs=$runs per step)"
artifact=${progress:-$tmp/fuzzer.bin}
# a progress file that is not the crash being reduced is another reduction's: not reused
[ -z "$progress" ] || [ "$progress" = "$crash" ] || rm -f "$progress"
"$fuzz" -minimize_crash=1 -runs="$runs" -seed="$seed" -exact_artifact_path="$artifact" \
	"$crash" > "$tmp/minimize.log" 2>&1
# fuzzer.bin: the minimizer's smallest crash, or the crash itself when it wrote none
if [ ! -s "$artifact" ]; then cp "$crash" "$tmp/fuzzer.bin"
elif [ "$artifact" != "$tmp/fuzzer.bin" ]; then cp "$artifact" "$tmp/fuzzer.bin"; fi
"$replay" --quiet --expect=fail --complexity "$tmp/fuzzer.bin" > "$tmp/fuzzer.txt" 2> /dev/null
echo "   $(wc -c < "$crash") bytes -> $(wc -c < "$tmp/fuzzer.bin") bytes, complexity $(complexity "$tmp/fuzzer.txt")"
echo "== weft simplification ($target""_replay --simplify)"
"$replay" --quiet --simplify="$out" "$tmp/fuzzer.bin" 2> "$tmp/simplify.log" ||
	{ cat "$tmp/simplify.log" >&2; echo "$self: --simplify failed" >&2; exit 1; }
sed -n 's/^weft-replay: complexity/   complexity/p' "$tmp/simplify.log"
echo "   $(wc -c < "$tmp/fuzzer.bin") bytes -> $(wc -c < "$out") bytes: $(od -An -tx1 "$out")"
echo "== report ($out.txt)"
"$replay" "$out" 2>&1 | grep -v '^weft-replay:\|^==weft== input ' > "$out.txt"
cat "$out.txt"
