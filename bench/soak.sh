#!/bin/sh
# bench/soak.sh - does a long fuzzing run keep its memory flat?  (a benchmark, not a test)
#
# Builds TARGET_fuzz with clang, libFuzzer and AddressSanitizer (+UBSan) in its own
# tree, runs it for RUNS executions (default 10,000,000) on an empty corpus, and reads
# the process's resident set size (VmRSS in /proc/PID/status) every INTERVAL seconds.
# Why these choices:
#   - ASan: a leak or an unbounded buffer in the runner, the scheduler's trace or the
#     checker's memo shows up both as growth and, at exit, in LeakSanitizer's report;
#   - the fixed counter by default: a buggy target stops at its first failure;
#   - "flat" is judged after a warm-up (the first 10% of samples), when libFuzzer's
#     corpus, ASan's quarantine and the worker pool have settled: the RSS may then grow by at most SLACK_MB (default 16) between the
#     warm-up sample and the last one.  ASan's quarantine is capped (quarantine_size_mb=64)
#     so that its filling does not hide or mimic a leak.
# Prints one line per sample (executions so far, RSS) and a verdict; exit 0 flat,
# 1 grew, 2 bad usage or the run failed.
usage() {
	cat <<USAGE
usage: bench/soak.sh [--target NAME] [--runs N] [--interval SECONDS] [--slack-mb N] [--build DIR]
  --target NAME      built-in target (default: counter_fixed; must not fail)
  --runs N           executions (default: 10000000)
  --interval SECONDS seconds between RSS samples (default: 10)
  --slack-mb N       growth after warm-up still called flat (default: 16)
  --build DIR        build tree (default: build/soak; configured with clang, WEFT_SANITIZE=ON)
Writes DIR/soak-TARGET.log (libFuzzer) and DIR/soak-TARGET.rss (samples: seconds executions kB).
USAGE
}
root=$(cd "$(dirname "$0")/.." && pwd)
target=counter_fixed runs=10000000 interval=10 slack=16 build=$root/build/soak
while [ $# -gt 0 ]; do
	case $1 in
	--target) target=${2:?}; shift 2 ;;
	--runs) runs=${2:?}; shift 2 ;;
	--interval) interval=${2:?}; shift 2 ;;
	--slack-mb) slack=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	*) echo "soak: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case $runs$interval$slack in *[!0-9]*) echo "soak: --runs, --interval, --slack-mb take numbers" >&2; exit 2 ;; esac

mkdir -p "$(dirname "$build")" &&
	cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DWEFT_SANITIZE=ON -DWEFT_BUILD_TESTS=OFF \
	-DWEFT_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build.configure.log" 2>&1 &&
	cmake --build "$build" -j 2 --target "${target}_fuzz" > "$build.build.log" 2>&1 ||
	{ echo "soak: build failed (see $build.build.log)" >&2; exit 2; }

log=$build/soak-$target.log rss=$build/soak-$target.rss
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64} \
	"$build/${target}_fuzz" -runs="$runs" -seed=1 -print_final_stats=1 "$work" > "$log" 2>&1 &
pid=$!
: > "$rss"
start=$(date +%s)
executions() { grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#'; }
while kill -0 "$pid" 2>/dev/null; do
	kb=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null)
	[ -n "$kb" ] || break
	now=$(( $(date +%s) - start ))
	echo "$now $(executions) $kb" >> "$rss"
	echo "  ${now}s  $(executions) executions  RSS $((kb / 1024)) MB"
	sleep "$interval"
done
wait "$pid"
status=$?
[ "$status" -eq 0 ] || { tail -n 20 "$log"; echo "soak: ${target}_fuzz exited with $status" >&2; exit 2; }
done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
elapsed=$(( $(date +%s) - start ))
# Warm-up sample: the first one 10% of the executions in; compare it with the peak after it.
awk -v slack="$slack" -v runs="$done_runs" -v secs="$elapsed" '
	{ t[NR] = $1; ex[NR] = $2 + 0; kb[NR] = $3 }
	END {
		w = 0; peak = 0
		for (i = NR; i >= 1; i--) if (ex[i] >= runs / 10) w = i
		if (w == 0 || NR - w < 2) { print "soak: too few samples after the warm-up for a verdict"; exit 2 }
		for (i = w; i <= NR; i++) if (kb[i] > peak) peak = kb[i]
		grow = (peak - kb[w]) / 1024
		printf "soak: %d executions in %d s (%d/s); RSS %.0f MB at %ds (warm-up), peak after %.0f MB, last %.0f MB: grew %.1f MB\n",
			runs, secs, runs / (secs ? secs : 1), kb[w] / 1024, t[w], peak / 1024, kb[NR] / 1024, grow
		if (grow <= slack) { print "soak: FLAT (growth within " slack " MB)"; exit 0 }
		print "soak: GREW by more than " slack " MB"; exit 1
	}' "$rss"
