#!/bin/sh
# scripts/fuzz_demo.sh - the main job in one command: build the libFuzzer binaries
# with clang, fuzz a built-in target until weft reports a failure, minimize the
# crash (libFuzzer -minimize_crash, then weft's simplifier: scripts/weft_reduce.sh)
# and print the minimal interleaving as a trace.
usage() {
	cat <<USAGE
usage: scripts/fuzz_demo.sh [--target NAME] [--seed N] [--time SECONDS] [--help]
  --target NAME   built-in target to fuzz (default: counter_buggy; see targets/)
  --seed N        libFuzzer -seed (default: 1; the same seed finds the same crash)
  --time SECONDS  stop fuzzing after this long if nothing fails (default: 120)
Writes everything under out/<target>/: corpus/ (kept between runs), the crash,
minimized.bin (the minimal reproducer) and report.txt.
Exit status: 0 a failure was found and minimized, 1 none found in time, 2 bad usage or build.
USAGE
}
target=counter_buggy seed=1 time=120
while [ $# -gt 0 ]; do
	case $1 in
	--target) target=${2:?--target needs a value}; shift 2 ;;
	--seed) seed=${2:?--seed needs a value}; shift 2 ;;
	--time) time=${2:?--time needs a value}; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	*) echo "fuzz_demo: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
# libFuzzer reads a bad -max_total_time as 0, "no limit": check numbers here.
case $seed in ''|*[!0-9]*) echo "fuzz_demo: --seed takes a number, not '$seed'" >&2; exit 2 ;; esac
case $time in ''|*[!0-9]*|0) echo "fuzz_demo: --time takes a positive number of seconds, not '$time'" >&2; exit 2 ;; esac
case $target in ''|*[!A-Za-z0-9_]*) echo "fuzz_demo: --target takes a target name such as counter_buggy" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/clang
out=$root/out/$target
command -v clang >/dev/null 2>&1 || { echo "fuzz_demo: clang not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
echo "== building with clang into $build"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
	cmake --build "$build" -j "$(nproc)" --target "${target}_fuzz" "${target}_replay" >/dev/null ||
	{ echo "fuzz_demo: build failed (is '$target' a target? see targets/)" >&2; exit 2; }
mkdir -p "$out/corpus"
rm -f "$out"/crash-* "$out/minimized.bin"
echo "== fuzzing $target (seed $seed, at most ${time}s; progress every few seconds)"
"$build/${target}_fuzz" -seed="$seed" -max_total_time="$time" -print_final_stats=1 \
	-artifact_prefix="$out/" "$out/corpus" > "$out/fuzz.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 2
	grep -E '^#[0-9]+' "$out/fuzz.log" | tail -n 1 | sed 's/^/   /'
done
wait "$pid"
crash=$(ls "$out"/crash-* 2>/dev/null | head -n 1)
if [ -z "$crash" ]; then
	echo "== no failure found in ${time}s; the corpus in $out/corpus is kept for next time"
	exit 1
fi
echo "== found a failure: $crash"
sh "$root/scripts/weft_reduce.sh" --build "$build" --seed "$seed" "$target" "$crash" "$out/minimized.bin" ||
	{ echo "fuzz_demo: reducing the crash failed" >&2; exit 2; }
cp "$out/minimized.bin.txt" "$out/report.txt"
echo "== keep it as a regression test (corpus/README.md):"
echo "   cp $out/minimized.bin corpus/<structure>/<what-it-shows>.<verdict>.bin"
exit 0
