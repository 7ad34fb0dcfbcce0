#!/usr/bin/env bash
# bench/bench_libfuzzer.sh - executions per second of a real libFuzzer campaign.
#
# Runs  $BUILD/counter_fixed_fuzz -seed=1 -runs=$RUNS  from an empty corpus in a
# temporary directory, three ways: default, WEFT_PIN=0 (no pinning), and the whole process pinned to
# one CPU with `taskset -c 0` (skipped when taskset is missing).  Prints libFuzzer's
# own figure (the "exec/s:" of its final DONE line: runs / whole seconds, coarse)
# and runs / wall-clock time measured here.
#
# Usage: bench/bench_libfuzzer.sh [BUILD_DIR]     (default ./build-clang)
#        RUNS=50000 bench/bench_libfuzzer.sh ...  (default 200000)
set -u

BUILD=${1:-./build-clang}
RUNS=${RUNS:-200000}
BIN=$BUILD/counter_fixed_fuzz

if [ ! -x "$BIN" ]; then
	echo "bench_libfuzzer.sh: $BIN not found or not executable." >&2
	echo "  Build it with clang first, e.g.:" >&2
	echo "    cmake -S . -B build-clang -DCMAKE_C_COMPILER=clang && cmake --build build-clang" >&2
	exit 1
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-libfuzzer.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT

now_ns() { date +%s%N; }

# run LABEL [env/taskset prefix...]: one campaign in a fresh corpus; prints a row.
run() {
	local label=$1
	shift
	local dir=$WORK/$(echo "$label" | tr -c 'A-Za-z0-9' _)
	mkdir -p "$dir/corpus"
	local t0 t1
	t0=$(now_ns)
	(cd "$dir" && "$@" "$BIN" -seed=1 -runs="$RUNS" corpus >"$dir/log" 2>&1)
	local rc=$?
	t1=$(now_ns)
	local done_line execs wall rate
	done_line=$(grep -E 'DONE .*exec/s: [0-9]+' "$dir/log" | tail -n 1)
	execs=$(printf '%s\n' "$done_line" | sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p')
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	rate=$(awk -v a="$t0" -v b="$t1" -v n="$RUNS" 'BEGIN { printf "%.0f", n / ((b - a) / 1e9) }')
	if [ $rc -ne 0 ] || [ -z "$execs" ]; then
		printf '%-44s %12s %12s %10s  (exit %d; log below)\n' "$label" "-" "-" "$wall" "$rc"
		tail -n 20 "$dir/log" | sed 's/^/    /'
		FAILED=1
		return
	fi
	printf '%-44s %12s %12s %10s\n' "$label" "$execs" "$rate" "$wall"
}

FAILED=0
echo "libFuzzer: $BIN -seed=1 -runs=$RUNS (empty corpus); $(nproc) CPU(s) online"
printf '%-44s %12s %12s %10s\n' "setting" "exec/s(DONE)" "runs/wall-s" "wall s"
run "default (workers follow the controller CPU)" env
run "WEFT_PIN=0 (no pinning)" env WEFT_PIN=0
if command -v taskset >/dev/null 2>&1; then
	run "taskset -c 0 (whole process on one CPU)" taskset -c 0
else
	printf '%-44s %s\n' "taskset -c 0" "skipped: taskset not found"
fi
exit $FAILED
