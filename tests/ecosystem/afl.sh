#!/bin/sh
# tests/ecosystem/afl.sh [BUILD_DIR] - AFL++ end to end on the buggy counter.
#
#   1. the counter's and the Treiber stack's targets build with afl-clang-fast
#      (CC=afl-clang-fast, libAFLDriver.a found by cmake/WeftFuzzEngine.cmake) in
#      persistent mode; libweft carries no AFL instrumentation, the targets do (every
#      target: oss_fuzz.sh afl-address);
#   2. afl-fuzz (-s 1, from the counter's seeds) runs until its first crash
#      (AFL_BENCH_UNTIL_CRASH), capped at 300 s: a crash must be saved, and it must
#      replay as a linearizability failure;
#   3. afl-tmin shrinks that crash, and a longer known crash
#      (counter_long_crash.bin, 5 bytes, 3 operations); each result still fails and is no
#      longer; weft's --simplify then reaches the minimal interleaving libFuzzer reaches
#      (tests/pipeline.sh): complexity (1, 1, 2, 2), the bytes 05, and exactly the report
#      tests/golden/counter_buggy.report;
#   4. interleaving feedback reaches AFL++ as code edges (harness/fuzz_libfuzzer.c,
#      feedback_edge): on the fixed counter, inputs 03 and 04 (thread 0 preempted at its
#      start, or before its fetch_add) cover the same code with WEFT_FEEDBACK=none, but
#      different edges with feedback on, the difference being edges that appear only
#      with feedback; the same input gives the same map twice.
#   5. weft's mutator under AFL++ (issue 17): afl-fuzz with
#      AFL_CUSTOM_MUTATOR_LIBRARY=treiber_stack_buggy_afl_mutator.so and
#      AFL_CUSTOM_MUTATOR_ONLY=1 (-s 1, at most 120 s) finds the Treiber stack's ABA, the
#      crash names the library as its operation and replays as linearizability in the
#      replay binary, and with WEFT_MUTATOR=verify every sampled schedule replayed from
#      its bytes with the sampled trace (0 mismatches, printed at exit).
# The AFL_* variables below are what a container needs (README: AFL++).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${WEFT_BUILD_ROOT:-$root/build}/afl}
fail() { echo "FAIL (afl): $*"; exit 1; }
for tool in afl-clang-fast afl-clang-fast++ afl-fuzz afl-tmin; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (apt-get install afl++)"
done
export AFL_SKIP_CPUFREQ=1                      # no cpufreq governor to check in a container
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 # core_pattern may pipe to a host program
export AFL_NO_AFFINITY=1                       # a container may not own the core AFL picks
export AFL_NO_UI=1 AFL_QUIET=1
# afl-fuzz refuses sanitizer settings that do not abort (run_all.sh's do not).
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The targets used below; every target under afl-clang-fast (with ASan) is built and
# started by tests/ecosystem/oss_fuzz.sh afl-address.
echo "== building the counter's and the Treiber stack's targets with afl-clang-fast into $build"
CC=afl-clang-fast CXX=afl-clang-fast++ cmake -S "$root" -B "$build" -DWEFT_BUILD_TESTS=OFF \
	-DWEFT_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$tmp/configure.log" 2>&1 ||
	{ cat "$tmp/configure.log"; fail "configure"; }
cmake --build "$build" -j 2 --target counter_buggy_fuzz counter_buggy_replay counter_fixed_fuzz \
	treiber_stack_buggy_fuzz treiber_stack_buggy_replay treiber_stack_buggy_afl_mutator \
	> "$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; fail "build"; }
n=0
for bin in "$build"/*_fuzz; do
	grep -q '##SIG_AFL_PERSISTENT##' "$bin" || fail "$bin is not an AFL++ persistent-mode binary"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n fuzz binaries built"
nm "$build/libweft.a" 2>/dev/null | grep -q '__afl_\|__sancov' && fail "libweft.a is coverage-instrumented"
nm "$build/counter_buggy_fuzz" | grep -q '__afl_area_ptr' || fail "counter_buggy_fuzz has no AFL instrumentation"
echo "   $n persistent-mode fuzz binaries; libweft.a uninstrumented"

echo "== interleaving feedback as AFL++ edges (afl-showmap, counter_fixed)"
[ "$(nm "$build/counter_fixed_fuzz" | grep -c ' feedback_edge_[0-9]*$')" -eq 64 ] ||
	fail "counter_fixed_fuzz lacks the 64 feedback_edge_* functions (4096 cases)"
printf '\003' > "$tmp/in03"
printf '\004' > "$tmp/in04"
showmap() {  # showmap FEEDBACK INPUT OUT: the input as a file argument (stdin is not read)
	WEFT_FEEDBACK=$1 afl-showmap -q -o "$3" -- "$build/counter_fixed_fuzz" "$2" > /dev/null 2>&1
	[ -s "$3" ] || fail "afl-showmap (WEFT_FEEDBACK=$1) wrote no map for $2"
}
for i in 03 04; do
	showmap none "$tmp/in$i" "$tmp/map$i.none"
	showmap all "$tmp/in$i" "$tmp/map$i.all"
	cut -d: -f1 "$tmp/map$i.none" | sort > "$tmp/edges$i.none"
	cut -d: -f1 "$tmp/map$i.all" | sort > "$tmp/edges$i.all"
	comm -13 "$tmp/edges$i.none" "$tmp/edges$i.all" > "$tmp/extra$i"   # only with feedback
done
cmp -s "$tmp/edges03.none" "$tmp/edges04.none" || fail "03 and 04 cover different code without feedback"
cmp -s "$tmp/edges03.all" "$tmp/edges04.all" && fail "03 and 04 give the same edges with feedback"
cmp -s "$tmp/extra03" "$tmp/extra04" && fail "03 and 04 give the same feedback edges"
showmap all "$tmp/in04" "$tmp/map04.again"
cmp -s "$tmp/map04.all" "$tmp/map04.again" || fail "the same input gave two different maps"
echo "   03 and 04: the same $(wc -l < "$tmp/edges03.none") code edges; with feedback" \
	"$(wc -l < "$tmp/extra03") and $(wc -l < "$tmp/extra04") more, $(comm -3 "$tmp/extra03" "$tmp/extra04" | wc -l) differing; same map twice"

fuzz=$build/counter_buggy_fuzz replay=$build/counter_buggy_replay
golden=$root/tests/golden/counter_buggy.report
mkdir "$tmp/in"
cp "$root"/corpus/counter/seed-*.bin "$tmp/in/"
find "$tmp/in" -size 0 -delete   # afl-fuzz refuses empty seeds
echo "== afl-fuzz -s 1 until the first crash (at most 300 s)"
start=$(date +%s)
AFL_BENCH_UNTIL_CRASH=1 afl-fuzz -s 1 -V 300 -i "$tmp/in" -o "$tmp/out" -- "$fuzz" > "$tmp/fuzz.log" 2>&1
status=$?
crash=$(ls "$tmp"/out/default/crashes/id:* 2>/dev/null | head -n 1)
[ -n "$crash" ] || { tr '\r' '\n' < "$tmp/fuzz.log" | tail -20; fail "afl-fuzz (exit $status) saved no crash"; }
execs=$(sed -n 's/^execs_done *: //p' "$tmp/out/default/fuzzer_stats")
echo "   crash saved after $(( $(date +%s) - start )) s, $execs executions: $(od -An -tx1 "$crash")"
"$replay" --quiet --expect=linearizability "$crash" 2>/dev/null || fail "the crash does not replay as linearizability"

report() { "$replay" "$1" 2>&1 | grep -v '^weft-replay:\|^==weft== input '; }
shrink() {  # shrink NAME FILE: afl-tmin, then --simplify, asserted
	afl-tmin -i "$2" -o "$tmp/$1.tmin" -- "$fuzz" > "$tmp/$1.tmin.log" 2>&1 || { cat "$tmp/$1.tmin.log"; fail "afl-tmin on $1"; }
	[ "$(wc -c < "$tmp/$1.tmin")" -le "$(wc -c < "$2")" ] || fail "afl-tmin made $1 longer"
	c=$("$replay" --quiet --expect=linearizability --complexity "$tmp/$1.tmin" 2>/dev/null) ||
		fail "afl-tmin's $1 result no longer fails with linearizability"
	echo "   $1: $(od -An -tx1 "$2") -> afl-tmin $(od -An -tx1 "$tmp/$1.tmin"), $(echo "$c" | cut -d' ' -f1-4)"
	"$replay" --quiet --simplify="$tmp/$1.min" "$tmp/$1.tmin" 2>/dev/null || fail "--simplify on $1"
	c=$("$replay" --quiet --expect=linearizability --complexity "$tmp/$1.min" 2>/dev/null | cut -d' ' -f1-4)
	[ "$c" = "(1, 1, 2, 2)" ] || fail "$1 simplified to $c, the minimum is (1, 1, 2, 2)"
	[ "$(od -An -tx1 "$tmp/$1.min" | tr -d ' ')" = 05 ] || fail "$1 simplified to $(od -An -tx1 "$tmp/$1.min"), not 05"
	report "$tmp/$1.min" > "$tmp/$1.report"
	cmp -s "$tmp/$1.report" "$golden" || { diff "$golden" "$tmp/$1.report"; fail "$1's report differs from $golden"; }
	echo "   $1: --simplify -> 05 (1, 1, 2, 2), report = $golden"
}
echo "== afl-tmin, then weft's simplifier"
shrink afl-crash "$crash"
shrink long-crash "$root/tests/ecosystem/counter_long_crash.bin"
echo "== weft's mutator in afl-fuzz (treiber_stack_buggy, AFL_CUSTOM_MUTATOR_ONLY, at most 120 s)"
lib=$build/treiber_stack_buggy_afl_mutator.so
[ -f "$lib" ] || fail "$lib was not built"
nm "$lib" | grep -q '__afl_area_ptr\|__sanitizer_cov' && fail "$lib is coverage-instrumented"
mkdir "$tmp/tin"
printf '\001' > "$tmp/tin/seed"
WEFT_MUTATOR=verify AFL_CUSTOM_MUTATOR_LIBRARY=$lib AFL_CUSTOM_MUTATOR_ONLY=1 AFL_BENCH_UNTIL_CRASH=1 \
	afl-fuzz -s 1 -V 120 -i "$tmp/tin" -o "$tmp/tout" -- "$build/treiber_stack_buggy_fuzz" > "$tmp/tfuzz.log" 2>&1
tcrash=$(ls "$tmp"/tout/default/crashes/id:* 2>/dev/null | head -n 1)
[ -n "$tcrash" ] || { tr '\r' '\n' < "$tmp/tfuzz.log" | tail -20; fail "afl-fuzz with weft's mutator saved no crash"; }
case $tcrash in *op:treiber_stack_buggy_afl_mutator.so*) ;; *) fail "the crash $tcrash was not made by weft's mutator" ;; esac
"$build/treiber_stack_buggy_replay" --quiet --expect=linearizability "$tcrash" 2>/dev/null ||
	fail "the crash from weft's mutator does not replay as linearizability"
stats=$(grep '^==weft== afl mutator:' "$tmp/tfuzz.log")
echo "$stats" | grep -q ' [1-9][0-9]* verified, 0 mismatches' || fail "sampled schedules did not replay exactly: $stats"
echo "   found after $(sed -n 's/^execs_done *: //p' "$tmp/tout/default/fuzzer_stats") executions; ${stats#==weft== }"
echo "afl: persistent builds, crash found and shrunk to the minimal interleaving; weft's mutator finds the ABA"
