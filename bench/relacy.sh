#!/usr/bin/env bash
# bench/relacy.sh [BUILD_DIR] - weft's executions per CPU-second beside Relacy's, on the
# same four small correct tests (issue 33): a 2-thread counter, message passing, a
# seqlock with fences, a Treiber stack.  Each test is written twice by weft, once for
# each tool: bench/relacy/rl_tests.cpp (Relacy's test_suite) and bench/relacy/NAME.c (a
# plain pthread program, built with weft's pass).  Both use their random scheduler
# (Relacy's random_scheduler_type; weft's --explore=random, the random walk) and run
# ITERATIONS executions; the rate is executions / (user + system CPU seconds) of the
# whole process, start-up included, median of REPS alternating runs.  The counter is
# also run as weft's data-structure target (counter_fixed, 2 threads x 1 operation,
# scenarios drawn: the form the issue measured at 0.15x).
#
# Relacy is not vendored: it comes from Debian's relacy-dev (header-only,
# /usr/include/relacy); the script says so and exits 2 when it is missing.
# BUILD_DIR (default build/relacy): configured here with clang and
# -DWEFT_BENCH_RELACY=ON (the pass is needed: llvm-14-dev), only the needed binaries
# built.  Knobs: ITERATIONS=200000 REPS=5 CXX=g++ (compiles Relacy's side, -O2).
# Prints a table; passes or fails nothing, except a run that fails or a test that does
# not pass (the benchmark would be broken): exit 1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build/relacy}
ITERATIONS=${ITERATIONS:-200000} REPS=${REPS:-5} CXX=${CXX:-g++}
die() { echo "bench/relacy.sh: $*" >&2; exit "${2:-1}"; }
case $ITERATIONS$REPS in *[!0-9]*|'') die "ITERATIONS and REPS must be numbers" 2 ;; esac
[ -f /usr/include/relacy/relacy.hpp ] ||
	die "Relacy is not installed (Debian: apt-get install relacy-dev)" 2
tests="counter message_pass seqlock stack"

mkdir -p "$build" || die "cannot create $build"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DWEFT_SANITIZE=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_BENCH_RELACY=ON -DWEFT_BUILD_TESTS=OFF \
	> "$build/relacy.configure.log" 2>&1 || { cat "$build/relacy.configure.log"; die "configure failed"; }
bins="counter_fixed_replay"
for t in $tests; do bins="$bins relacy_${t}_replay"; done
# shellcheck disable=SC2086
cmake --build "$build" -j2 --target $bins > "$build/relacy.build.log" 2>&1 ||
	{ tail -30 "$build/relacy.build.log"; die "build failed"; }
for t in $tests; do
	[ -x "$build/relacy_${t}_replay" ] || die "$build/relacy_${t}_replay was not built (is the pass built? llvm-14-dev)"
done
"$CXX" -O2 -std=c++11 -o "$build/rl_tests" "$here/relacy/rl_tests.cpp" 2> "$build/rl_tests.log" ||
	{ cat "$build/rl_tests.log"; die "Relacy's side did not compile with $CXX"; }

TIMEFORMAT='%U %S'
cpu() {  # cpu CMD...: run, print "user+sys" CPU seconds; the command's output in $work/out
	{ time "$@" > "$work/out" 2>&1; } 2> "$work/time" || { cat "$work/out" >&2; die "failed: $*"; }
	awk '{ printf "%.4f", $1 + $2 }' "$work/time"
}
rate() { awk -v n="$ITERATIONS" -v s="$1" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

relacy() { cpu "$build/rl_tests" "$1" "$ITERATIONS"; grep -q "iterations: $ITERATIONS" "$work/out" ||
	{ cat "$work/out" >&2; die "Relacy's $1 did not pass $ITERATIONS iterations"; }; }
weft() {  # weft BIN [ARGS]: --explore=random, must pass every execution
	bin=$1; shift
	cpu "$build/$bin" --explore=random --seed=1 --max-executions="$ITERATIONS" --quiet "$@"
	grep -q "executions=$ITERATIONS .*verdict=pass" "$work/out" ||
		{ cat "$work/out" >&2; die "$bin did not pass $ITERATIONS executions"; }
}

echo "bench/relacy.sh: $ITERATIONS executions per run, median of $REPS alternating runs," \
     "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); weft $(git -C "$root" rev-parse --short HEAD 2>/dev/null)," \
     "Relacy $(dpkg-query -W -f '${Version}' relacy-dev 2>/dev/null || echo '?')"
printf '\n| test | Relacy exec/CPU-s | weft program exec/CPU-s | weft / Relacy |\n|---|---:|---:|---:|\n'
for t in $tests; do
	: > "$work/r" && : > "$work/w"
	for _ in $(seq "$REPS"); do
		rate "$(relacy "$t")" >> "$work/r" && echo >> "$work/r"
		rate "$(weft "relacy_${t}_replay")" >> "$work/w" && echo >> "$work/w"
	done
	r=$(median < "$work/r") w=$(median < "$work/w")
	printf '| %s | %s | %s | %sx |\n' "$t" "$r" "$w" "$(awk -v a="$w" -v b="$r" 'BEGIN { printf "%.2f", a / b }')"
done
: > "$work/r" && : > "$work/w"
for _ in $(seq "$REPS"); do
	rate "$(relacy counter)" >> "$work/r" && echo >> "$work/r"
	rate "$(weft counter_fixed_replay --threads=2 --ops=1)" >> "$work/w" && echo >> "$work/w"
done
r=$(median < "$work/r") w=$(median < "$work/w")
printf '| counter as a weft target (counter_fixed, 2 threads x 1 op) | %s | %s | %sx |\n' "$r" "$w" \
	"$(awk -v a="$w" -v b="$r" 'BEGIN { printf "%.2f", a / b }')"
