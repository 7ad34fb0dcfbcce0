#!/bin/sh
# scripts/weft_reduce.sh - a crash file in, the simplest reproducer and its report out.
#
# Two passes, in this order:
#   1. libFuzzer's own minimizer, one step at a time (TARGET_fuzz
#      -minimize_crash_internal_step=1, what -minimize_crash=1 runs in a loop): erases
#      bytes, which (docs/input-format.md) drops operations, threads and preemptions;
#   2. weft's simplifier (TARGET_replay --simplify): fewest preemptions, then
#      other switches, operations, threads; lowest arguments; canonical bytes.
# A candidate is judged by its symptom, not by "it crashes" (issue 29): weft's verdict
# and site ("symptom" in the replay's JSON: report/symptom.c), or for a death (a
# sanitizer's report, a signal) "died: KIND at SITE", the sanitizer's error kind and
# the first frame in the program (death_symptom below; reduce/judge.c reads the same).
# libFuzzer's minimizer keeps any crash, so each step's result is replayed: one that
# fails differently is another failure, not a smaller one, and the step is tried again
# with the next seed (3 misses in a row end the pass).  The simplifier keeps only
# candidates with the same symptom, and runs a dying target's candidates in child
# processes.
# Prints the complexity (preemptions, switches, operations, threads) after each
# pass and the final report; writes OUT (the reproducer) and OUT.txt (the report).
# Installed (cmake --install) as bin/weft-reduce; it then takes the binaries of the
# user's build: --build DIR, or the current directory.
# --progress FILE makes a reduction resumable: each smaller crash with the symptom is
# written to FILE (write-then-rename), so a reduction that is killed leaves its smallest
# crash there, and a later one given FILE as CRASH starts from it (scripts/weft_campaign.sh
# does both).
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
       $self [--build DIR] --symptom TARGET CRASH
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
  --symptom   only print CRASH's symptom (weft's verdict and site, or "died: KIND at
              SITE" for a sanitizer's report or a signal) and complexity, on two lines
              (what scripts/weft_campaign.sh signs a failure with)
Exit status: 0 done, 1 the crash does not reproduce, 2 bad usage, missing binaries
or an output that could not be written; --symptom: 3 the replay's output was lost
(neither a verdict nor a death: a full disk?).
USAGE
}
runs=20000 seed=1 progress= only_symptom=
while [ $# -gt 0 ]; do
	case $1 in
	--build|--runs|--seed|--progress)
		[ $# -ge 2 ] || { echo "$self: $1 needs a value" >&2; usage >&2; exit 2; }
		case $1 in --build) build=$2 ;; --runs) runs=$2 ;; --seed) seed=$2 ;; --progress) progress=$2 ;; esac
		shift 2 ;;
	--symptom) only_symptom=1; shift ;;
	--help|-h) usage; exit 0 ;;
	--*) echo "$self: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq $((3 - ${only_symptom:-0})) ] || { usage >&2; exit 2; }
target=$1 crash=$2 out=${3:-}
case $runs$seed in *[!0-9]*|'') echo "$self: --runs and --seed take numbers" >&2; exit 2 ;; esac
fuzz=$build/${target}_fuzz replay=$build/${target}_replay
set -- "$replay"; [ -n "$only_symptom" ] || set -- "$fuzz" "$replay"
for bin in "$@"; do
	[ -x "$bin" ] || { echo "$self: $bin not found (a build configured with CC=clang; --build DIR names it)" >&2; exit 2; }
done
[ -r "$crash" ] || { echo "$self: cannot read $crash" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# death_symptom STATUS < STDERR: "died: KIND at SITE" (reduce/judge.c's rule): KIND from the
# sanitizer's SUMMARY line, else the signal; SITE the first frame of the error's stack with
# a source line outside the sanitizer runtime ("function file.c:59"), else UBSan's "file.c:12".
death_symptom() {
	awk -v rc="$1" '
	function base(loc) { sub(/.*\//, "", loc); return loc }
	function frame(l,   f, n, w) {
		n = index(l, " in "); if (!n) return ""
		split(substr(l, n + 4), w, " ")
		if (w[1] ~ /^__(interceptor_|asan|sanitizer|ubsan)/ || w[2] ~ /^\(/) return ""
		f = base(w[2]); if (!match(f, /^[^:]*:[0-9]+/)) return ""
		return w[1] " " substr(f, 1, RLENGTH)
	}
	/SUMMARY: / && kind == "" && index($0, "Sanitizer: ") {
		k = substr($0, index($0, "Sanitizer: ") + 11); sub(/ .*/, "", k); kind = k }
	/^    #/ { in_stack = 1; if (site == "" && !over) site = frame($0); next }
	in_stack { over = 1 }
	site == "" && index($0, ": runtime error:") {
		l = substr($0, 1, index($0, ": runtime error:") - 1); l = base(l)
		if (match(l, /^[^:]*:[0-9]+/)) site = substr(l, 1, RLENGTH) }
	END {
		if (kind == "") kind = rc > 128 ? "signal " (rc - 128) : "exit status " rc
		printf "died: %s%s\n", kind, site == "" ? "" : " at " site
	}'
}
# judge FILE: its symptom in $symptom ("" when it does not fail) and its complexity in
# $cx; a death's counts come from weft's dying report ("==weft== 2 threads, ...").
judge() {
	"$replay" --complexity --json "$1" > "$tmp/judge.out" 2> "$tmp/judge.err"; j_rc=$?
	symptom=$(sed -n 's/.*"symptom": *"\(\([^"\\]\|\\.\)*\)".*/\1/p' "$tmp/judge.out" | head -n 1)
	cx=$(sed -n 's/^\(([^)]*)\) .*/\1/p' "$tmp/judge.out" | head -n 1)
	case $symptom in error|'')
		symptom=
		if [ "$j_rc" -gt 128 ] || grep -q '^SUMMARY: \|: runtime error:' "$tmp/judge.err"; then
			symptom=$(death_symptom "$j_rc" < "$tmp/judge.err")
			cx=$(sed -n 's/^==weft== \([0-9]*\) threads, \([0-9]*\) operations, \([0-9]*\) preemptions*, \([0-9]*\) switches.*/\3 \4 \2 \1/p' \
				"$tmp/judge.err" | head -n 1 | awk '{ if (NF) printf "(%d, %d, %d, %d)", $1, $2 - $1, $3, $4 }')
		fi ;;
	esac
	[ -n "$cx" ] || cx="(unknown)"
}
# keep SRC DST: copy by write-then-rename; an output that cannot be written stops the reduction
keep() {
	{ cat "$1" > "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"; } 2> "$tmp/keep.err" ||
		{ rm -f "$2.tmp.$$"; echo "$self: cannot write $2: $(cat "$tmp/keep.err")" >&2; exit 2; }
}

judge "$crash"
if [ -n "$only_symptom" ]; then
	[ -n "$symptom" ] && { echo "$symptom"; echo "$cx"; exit 0; }
	grep -q '"verdict"' "$tmp/judge.out" || { echo "$self: no verdict from $replay:" >&2
		cat "$tmp/judge.err" >&2; exit 3; }
	exit 1
fi
if [ -z "$symptom" ]; then
	echo "$self: $crash does not fail on $target:" >&2; cat "$tmp/judge.err" >&2; exit 1
fi
want=$symptom
verdict=$(sed -n 's/^([^)]*) \([^ ]*\).*/\1/p' "$tmp/judge.out" | head -n 1)
echo "== $crash: $cx ${verdict:-died} (preemptions, switches, operations, threads, verdict)"
echo "   symptom: $want"
echo "== libFuzzer minimization (-minimize_crash_internal_step, -runs=$runs per step)"
# a progress file that is not the crash being reduced is another reduction's: not reused
[ -z "$progress" ] || [ "$progress" = "$crash" ] || rm -f "$progress"
cp "$crash" "$tmp/fuzzer.bin" || exit 2
step_seed=$seed misses=0 steps=0
while [ "$misses" -lt 3 ]; do
	rm -f "$tmp/step.bin"
	"$fuzz" -minimize_crash_internal_step=1 -runs="$runs" -seed="$step_seed" \
		-exact_artifact_path="$tmp/step.bin" "$tmp/fuzzer.bin" >> "$tmp/minimize.log" 2>&1
	[ -s "$tmp/step.bin" ] || break     # nothing smaller crashes (libFuzzer's own end)
	steps=$((steps + 1))
	judge "$tmp/step.bin"
	if [ "$symptom" = "$want" ] && [ "$(wc -c < "$tmp/step.bin")" -lt "$(wc -c < "$tmp/fuzzer.bin")" ]; then
		cp "$tmp/step.bin" "$tmp/fuzzer.bin" && misses=0
		[ -z "$progress" ] || keep "$tmp/fuzzer.bin" "$progress"
	else
		echo "   a step found another failure (${symptom:-no failure}): not kept"
		misses=$((misses + 1)) step_seed=$((step_seed + 1))
	fi
done
judge "$tmp/fuzzer.bin"
echo "   $(wc -c < "$crash") bytes -> $(wc -c < "$tmp/fuzzer.bin") bytes, complexity $cx"
echo "== weft simplification ($target""_replay --simplify)"
rm -f "$tmp/simple.bin"
"$replay" --quiet --simplify="$tmp/simple.bin" "$tmp/fuzzer.bin" > /dev/null 2> "$tmp/simplify.log"; s_rc=$?
if [ "$s_rc" -eq 2 ] && grep -q '^weft-replay: cannot write' "$tmp/simplify.log"; then
	cat "$tmp/simplify.log" >&2; exit 2
fi
# a dying target's result is written before its last run, which dies (reduce/judge.c)
[ -s "$tmp/simple.bin" ] && judge "$tmp/simple.bin" && [ "$symptom" = "$want" ] ||
	{ cat "$tmp/simplify.log" >&2; echo "$self: --simplify failed" >&2; exit 1; }
before=$(judge "$tmp/fuzzer.bin"; echo "$cx")
judge "$tmp/simple.bin"
if grep -q '^weft-replay: complexity' "$tmp/simplify.log"; then
	sed -n 's/^weft-replay: complexity/   complexity/p' "$tmp/simplify.log"
else   # the replay died after writing its result: the counts from weft's dying reports
	echo "   complexity (preemptions, switches, operations, threads) $before -> $cx"
fi
keep "$tmp/simple.bin" "$out"
echo "   $(wc -c < "$tmp/fuzzer.bin") bytes -> $(wc -c < "$out") bytes: $(od -An -tx1 "$out")"
echo "== report ($out.txt)"
"$replay" "$out" 2>&1 | grep -v '^weft-replay:\|^==weft== input ' > "$tmp/report.txt"
keep "$tmp/report.txt" "$out.txt"
cat "$out.txt"
