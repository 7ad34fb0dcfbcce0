#!/usr/bin/env bash
# bench/bench_search.sh [BUILD_DIR] - how fast does each way of choosing schedules
# find each seeded bug?  For every buggy target x strategy, SEEDS independent runs
# from nothing (empty corpus, fresh explorer) until the first failure or CAP
# executions; writes a markdown report (bench/results-classic.md by default): per target,
# median and p90 executions and seconds to the first failure, executions per
# second, how many seeds found the bug, the verdicts seen; then a summary.
#
# BUILD_DIR (default ./build-clang): a clang build with the libFuzzer binaries
# (NAME_buggy_fuzz) and the replay binaries (NAME_buggy_replay, which carry
# --explore).  Strategies (STRATEGIES, default all):
#   fuzz             NAME_buggy_fuzz -seed=S -runs=CAP from an empty corpus, with
#                    weft's structure-aware mutator (the default binary);
#                    executions = libFuzzer's stat::number_of_executed_units,
#                    and the mutator's own (unjudged) executions are recorded too
#   fuzz-nofeedback  the same with WEFT_FEEDBACK=none in the environment
#   fuzz-bytes       the same with WEFT_MUTATOR=off: libFuzzer's byte mutations
#                    alone (the fuzzer before issue 17)
#   fuzz-only:ARM    the same with WEFT_MUTATOR=only:ARM: every mutation that may
#                    be that one (weft/mutate.h names them: uniform-fresh,
#                    pos-fresh, ..., flip, splice); executions = units + the
#                    mutator's own runs, for measuring one mutation alone
#   bytes random pct1 pct2 pct3 uniform pos stress
#                    NAME_buggy_replay --explore=... --seed=S --max-executions=CAP
# Seconds are wall-clock seconds of the whole process (start-up included),
# measured here.  A run that reaches CAP counts as ">= CAP" executions; one
# that reaches TIME_CAP seconds is killed and counts as not found.
#
# Knobs (environment): SEEDS=10 CAP=100000 TIME_CAP=60 JOBS=2 (runs at a time;
# stress runs always one at a time, they need every CPU) TARGETS="counter ..."
# (default: every NAME_buggy_replay in BUILD_DIR) STRATEGIES="fuzz ..."
# OUT=bench/results-classic.md.  WEFT_BACKEND, if set, is passed on and printed.
# RAW=FILE: also keep the raw rows (one per run; bench_search_report.py says the
# columns; each row ends with the run's commit and date) in FILE.  REUSE=FILE:
# take from FILE (an earlier RAW) the rows of the targets run now whose strategy
# is not among STRATEGIES, and every row of the other targets in FILE, and
# report them with the new ones (the baselines are deterministic per seed:
# re-run only what changed, e.g. STRATEGIES=fuzz, or only new TARGETS).
# HARD=1: the report's hard-benchmark sections (bench/hard.sh sets it).
# Exit status: 0 when the report was written; 1 (with a message) when the
# build directory lacks a binary or a run fails in an unexpected way.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

# ---- one run (the script calls itself: --run-one BUILD TARGET STRATEGY SEED RESULTS) ----
run_one() {
	build=$1 target=$2 strategy=$3 seed=$4 results=$5
	tmp=$(mktemp -d)
	start=$(date +%s.%N)
	case $strategy in
	fuzz|fuzz-nofeedback|fuzz-bytes|fuzz-only:*)
		case $strategy in
		fuzz) feedback="-u WEFT_FEEDBACK -u WEFT_MUTATOR" ;;
		fuzz-nofeedback) feedback="-u WEFT_MUTATOR WEFT_FEEDBACK=none" ;;
		fuzz-only:*) feedback="-u WEFT_FEEDBACK WEFT_MUTATOR=only:${strategy#fuzz-only:}" ;;
		*) feedback="-u WEFT_FEEDBACK WEFT_MUTATOR=off" ;;
		esac
		# No symbolizer for the crash's stack trace: libFuzzer would start
		# llvm-symbolizer, about 0.5 s that has nothing to do with the search.
		# shellcheck disable=SC2086
		(cd "$tmp" && env $feedback UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}symbolize=0" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0" timeout -k 5 "$TIME_CAP" \
			"$build/${target}_buggy_fuzz" -seed="$seed" -runs="$CAP" -print_final_stats=1 \
			-artifact_prefix="$tmp/" > "$tmp/log" 2>&1)
		rc=$?
		end=$(date +%s.%N)
		execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$tmp/log" | tail -1)
		inner=$(sed -n 's/^==weft== mutator: [0-9]* mutations, \([0-9]*\) executions.*/\1/p' "$tmp/log" | tail -1)
		case $strategy in   # one arm alone: every execution counts
		fuzz-only:*) [ -z "$execs" ] || execs=$((execs + ${inner:-0})) inner=0 ;;
		esac
		verdict=$(sed -n 's/^ASSERTION FAILED: weft: \([a-z-]*\) in .*/\1/p' "$tmp/log" | head -1)
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then status=timeout
		elif [ "$rc" = 0 ]; then status=cap verdict=pass
		elif [ -n "$verdict" ]; then status=found
		else status=error verdict=rc$rc
		fi
		;;
	*)
		case $strategy in
		pct[0-9]*) args="--explore=pct --depth=${strategy#pct}" ;;
		*) args="--explore=$strategy" ;;
		esac
		# shellcheck disable=SC2086
		timeout -k 5 "$TIME_CAP" "$build/${target}_buggy_replay" $args --seed="$seed" \
			--max-executions="$CAP" --quiet > "$tmp/log" 2>&1
		rc=$?
		end=$(date +%s.%N)
		execs=$(sed -n 's/^explore: .* executions=\([0-9]*\) .*/\1/p' "$tmp/log" | head -1)
		inner=0
		verdict=$(sed -n 's/^explore: .* verdict=\([a-z/-]*\) .*/\1/p' "$tmp/log" | head -1)
		case $rc in
		1) status=found ;;
		0) status=cap ;;
		3) status=na ;;
		124|137) status=timeout ;;
		*) status=error verdict=rc$rc ;;
		esac
		;;
	esac
	if [ "$status" = error ] || { [ "$status" != timeout ] && [ -z "$execs" ]; }; then
		echo "bench_search: $target $strategy seed $seed: unexpected exit $rc; its output:" >&2
		tail -20 "$tmp/log" >&2
		status=error
	fi
	seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
	note=$(sed -n 's/^explore: n\/a: //p' "$tmp/log" | head -1 | tr '\t' ' ')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$strategy" "$seed" "$status" \
		"${execs:-0}" "$seconds" "${verdict:-none}" "${note:--}" "${inner:-0}" \
		"${BENCH_RUN_COMMIT:--}" "${BENCH_RUN_DATE:--}" >> "$results"
	rm -rf "$tmp"
}

if [ "${1:-}" = --run-one ]; then
	shift
	run_one "$@"
	exit 0
fi

die() { echo "bench_search: $*" >&2; exit 1; }

build=${1:-$root/build-clang}
[ -d "$build" ] || die "no build directory '$build' (configure and build with clang first: see bench/README.md)"
build=$(cd "$build" && pwd)
export SEEDS=${SEEDS:-10} CAP=${CAP:-100000} TIME_CAP=${TIME_CAP:-60}
JOBS=${JOBS:-2}
OUT=${OUT:-$here/results-classic.md}
TARGETS_GIVEN=${TARGETS:-} STRATEGIES_GIVEN=${STRATEGIES:-}
STRATEGIES=${STRATEGIES:-"fuzz fuzz-nofeedback fuzz-bytes bytes random pct1 pct2 pct3 uniform pos stress"}
order="counter spsc_ring treiber_stack ms_queue hash_set blocking_queue transfer spinlock
       peterson spin_barrier rw_counter mailbox pthread_account chase_lev key_lock_set
       pool_stack resize_set"
if [ -z "${TARGETS:-}" ]; then   # every buggy target the build has, known ones first
	found=$(cd "$build" && ls -- *_buggy_replay 2>/dev/null | sed 's/_buggy_replay$//')
	[ -n "$found" ] || die "no NAME_buggy_replay binaries in $build (build it first)"
	TARGETS=""
	for t in $order; do echo "$found" | grep -qx "$t" && TARGETS="$TARGETS $t"; done
	for t in $found; do echo " $TARGETS " | grep -q " $t " || TARGETS="$TARGETS $t"; done
fi
for t in $TARGETS; do
	[ -x "$build/${t}_buggy_replay" ] || die "$build/${t}_buggy_replay is missing"
	case " $STRATEGIES " in
	*" fuzz "*|*" fuzz-nofeedback "*|*" fuzz-bytes "*|*" fuzz-only:"*)
		[ -x "$build/${t}_buggy_fuzz" ] ||
			die "$build/${t}_buggy_fuzz is missing (the fuzz strategies need a clang build with WEFT_FUZZ)" ;;
	esac
done
for s in $STRATEGIES; do
	case $s in
	fuzz|fuzz-nofeedback|fuzz-bytes|bytes|random|uniform|pos|stress|pct[1-9]|pct1[0-6]) ;;
	fuzz-only:uniform-fresh|fuzz-only:pos-fresh|fuzz-only:walk-fresh|fuzz-only:pct-fresh) ;;
	fuzz-only:uniform-same|fuzz-only:pos-same|fuzz-only:prefix|fuzz-only:edit-plan) ;;
	fuzz-only:edit-call|fuzz-only:flip|fuzz-only:splice) ;;
	*) die "unknown strategy '$s'" ;;
	esac
done
command -v python3 > /dev/null || die "python3 is needed for the statistics"
case $SEEDS$CAP$JOBS in *[!0-9]*) die "SEEDS, CAP and JOBS must be numbers" ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results.tsv
: > "$results"
for t in $TARGETS; do
	for s in $STRATEGIES; do
		for seed in $(seq 1 "$SEEDS"); do
			if [ "$s" = stress ]; then
				echo "$build $t $s $seed $results" >> "$work/jobs.stress"
			else
				echo "$build $t $s $seed $results" >> "$work/jobs"
			fi
		done
	done
done
n_jobs=$(cat "$work/jobs" "$work/jobs.stress" 2>/dev/null | wc -l)
echo "bench_search: $n_jobs runs ($(echo $TARGETS | wc -w) targets, strategies: $STRATEGIES;" \
     "$SEEDS seeds, cap $CAP executions or $TIME_CAP s), $JOBS at a time" >&2
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
startup=-
case " $STRATEGIES " in   # what a libFuzzer process costs before its first execution
*" fuzz "*|*" fuzz-nofeedback "*|*" fuzz-bytes "*|*" fuzz-only:"*)
	first=$(echo $TARGETS | cut -d' ' -f1)
	mkdir "$work/startup"
	a=$(date +%s.%N)
	(cd "$work/startup" && "$build/${first}_buggy_fuzz" -runs=0 > /dev/null 2>&1)
	b=$(date +%s.%N)
	startup=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }')
	;;
esac
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | head -1)
export BENCH_RUN_COMMIT="$commit${dirty:+-dirty}" BENCH_RUN_DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$(date +%s.%N)
if [ -s "$work/jobs" ]; then
	xargs -P "$JOBS" -L 1 bash "$0" --run-one < "$work/jobs" || die "a run failed to start"
fi
if [ -s "$work/jobs.stress" ]; then
	xargs -P 1 -L 1 bash "$0" --run-one < "$work/jobs.stress" || die "a run failed to start"
fi
t1=$(date +%s.%N)
total=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
[ "$(wc -l < "$results")" = "$n_jobs" ] || die "only $(wc -l < "$results") of $n_jobs runs reported"
if awk -F'\t' '$4 == "error" { bad = 1 } END { exit !bad }' "$results"; then
	die "some runs ended in an unexpected way (see above)"
fi

[ -z "${RAW:-}" ] || cp "$results" "$RAW.new" || die "cannot write $RAW"
report_strategies=$STRATEGIES
if [ -n "${REUSE:-}" ]; then   # the other strategies' rows of the targets run now
	[ -r "$REUSE" ] || die "cannot read REUSE=$REUSE"
	# a target run now: the strategies not run now; another target: all its rows
	awk -F'\t' -v t=" $TARGETS " -v s=" $STRATEGIES " \
		'!index(t, " " $1 " ") || !index(s, " " $2 " ")' "$REUSE" > "$work/reused"
	cat "$work/reused" >> "$results"
	[ -z "${RAW:-}" ] || cat "$work/reused" >> "$RAW.new"
	for s in $(cut -f2 "$work/reused" | awk '!seen[$0]++'); do
		case " $report_strategies " in *" $s "*) ;; *) report_strategies="$report_strategies $s" ;; esac
	done
	for t in $(cut -f1 "$work/reused" | awk '!seen[$0]++'); do
		case " $TARGETS " in *" $t "*) ;; *) TARGETS="$TARGETS $t" ;; esac
	done
fi
[ -z "${RAW:-}" ] || mv "$RAW.new" "$RAW"

# ---- the report ----
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -1)
compiler_version=$("${compiler:-cc}" --version 2>/dev/null | head -1)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -1)
sanitize=$(sed -n 's/^WEFT_SANITIZE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
python3 "$here/bench_search_report.py" "$results" > "$work/report.md" \
	--date "$(date -u '+%Y-%m-%d %H:%M UTC')" --commit "$commit${dirty:+ (with uncommitted changes)}" \
	--compiler "$compiler_version ($build_type${sanitize:+, WEFT_SANITIZE=$sanitize})" \
	--cpu "${cpu:-unknown}" --nproc "$(nproc 2>/dev/null || echo '?')" --load "$load" \
	--backend "${WEFT_BACKEND:-default (WEFT_BACKEND not set)}" \
	--startup "$startup" --seeds "$SEEDS" --cap "$CAP" --time-cap "$TIME_CAP" --jobs "$JOBS" --total "$total" \
	--strategies "$report_strategies" --targets "$TARGETS" ${HARD:+--hard} \
	--command "SEEDS=$SEEDS CAP=$CAP JOBS=$JOBS${TARGETS_GIVEN:+ TARGETS=\"$TARGETS_GIVEN\"}${STRATEGIES_GIVEN:+ STRATEGIES=\"$STRATEGIES_GIVEN\"} bench/bench_search.sh $build" ||
	die "the statistics failed"
cp "$work/report.md" "$OUT" || die "cannot write $OUT"
echo "bench_search: wrote $OUT ($n_jobs runs in $total s)" >&2
