#!/usr/bin/env bash
# bench/hard.sh [BUILD_DIR] - the hard benchmark (issue 33) in one command:
# configures (if needed) and builds a clang build with WEFT_BENCH_HARD=ON, runs
# bench/bench_search.sh over the programs of bench/hard/ (hard.cmake lists them)
# and writes bench/results.md: executions and seconds per target x strategy,
# per-strategy geometric means, fuzz / best baseline per target and the
# Done-when line.  The raw rows go to bench/hard/raw.tsv (committed).
#
# Knobs (environment): SEEDS=20 CAP=100000 TIME_CAP=15 JOBS=2
# STRATEGIES="fuzz random pct1 pct2 pct3 uniform pos" TARGETS="hard_... ..."
# OUT=bench/results.md RAW=bench/hard/raw.tsv.  When STRATEGIES leaves out
# some of the default ones and RAW exists, their rows are reused from it (the
# baselines are deterministic per seed), e.g. after a mutator change:
#     STRATEGIES=fuzz bench/hard.sh
# re-runs only the fuzz column, and TARGETS="hard_new" runs only that target and
# reports it with the others' rows; the report says which rows came from which run.
# BUILD_DIR (default build/hard).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build/hard}
all_strategies="fuzz random pct1 pct2 pct3 uniform pos"
export SEEDS=${SEEDS:-20} CAP=${CAP:-100000} TIME_CAP=${TIME_CAP:-15} JOBS=${JOBS:-2}
export STRATEGIES=${STRATEGIES:-$all_strategies}
export OUT=${OUT:-$here/results.md} RAW=${RAW:-$here/hard/raw.tsv} HARD=1

targets_given=${TARGETS:-}
# every NAME_buggy that bench/hard/hard.cmake builds, in its order
names=$(sed -n 's/^set(weft_hard_\(programs\|targets\) *\(.*\))$/\2/p' "$here/hard/hard.cmake")
variants=$(sed -n 's/^weft_add_\(program\|target\)(\(hard_[a-z0-9_]*\)_buggy .*/\2/p' "$here/hard/hard.cmake")
# shellcheck disable=SC2086   # the lists are split into words on purpose
export TARGETS=${TARGETS:-$(for n in $names $variants; do printf '%s ' "hard_${n#hard_}"; done)}

if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q '^WEFT_BENCH_HARD:BOOL=ON' "$build/CMakeCache.txt"; then
	cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
		-DWEFT_SANITIZE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_BENCH_HARD=ON > /dev/null
fi
bins=""
for t in $TARGETS; do bins="$bins ${t}_buggy_replay ${t}_buggy_fuzz"; done
# shellcheck disable=SC2086
cmake --build "$build" -j"$JOBS" --target $bins > /dev/null

reuse=""
if { [ "$STRATEGIES" != "$all_strategies" ] || [ -n "$targets_given" ]; } && [ -s "$RAW" ]; then
	reuse=$(mktemp)
	cp "$RAW" "$reuse"
fi
trap '[ -z "$reuse" ] || rm -f "$reuse"' EXIT
REUSE=$reuse bash "$here/bench_search.sh" "$build"
