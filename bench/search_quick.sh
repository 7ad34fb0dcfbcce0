#!/usr/bin/env bash
# bench/search_quick.sh BUILD_DIR - the quick loop for work on the fuzzer's
# search (issue 33): on a few hard targets, the default fuzz binary against the
# baselines it contains, SEEDS seeds each, medians side by side.
#
# Why: bench/bench_search.sh answers for the whole suite in about half an hour;
# a change to the mutator needs an answer in minutes, on the targets where the
# fuzzer loses to its own samplers.  This reuses its one-run mode
# (bench_search.sh --run-one), so executions are counted the same way:
# fuzz+inner = libFuzzer's stat::number_of_executed_units plus the mutator's
# own runs libFuzzer did not take.
#
# Knobs (environment): TARGETS (default: the hardest of bench/results-classic.md),
# STRATEGIES (default "fuzz uniform pos random pct3"), SEEDS=5 (seeds FIRST_SEED,
# default 1, onwards: another set of seeds tells a change from noise), CAP=100000,
# TIME_CAP=60, JOBS=2, RAW=FILE (keep the per-run lines; default a temporary
# file).  Prints one line per target: the median of fuzz (executions, and
# fuzz+inner), of each baseline, the best baseline and fuzz+inner / best.
# A run that did not find the bug counts as CAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bench/search_quick.sh BUILD_DIR}
build=$(cd "$build" && pwd)
export SEEDS=${SEEDS:-5} CAP=${CAP:-100000} TIME_CAP=${TIME_CAP:-60}
FIRST_SEED=${FIRST_SEED:-1}
JOBS=${JOBS:-2}
TARGETS=${TARGETS:-"treiber_stack spsc_ring blocking_queue chase_lev key_lock_set pool_stack resize_set"}
STRATEGIES=${STRATEGIES:-"fuzz uniform pos random pct3"}
raw=${RAW:-$(mktemp)}
: > "$raw"
for t in $TARGETS; do
	for s in $STRATEGIES; do
		for seed in $(seq "$FIRST_SEED" $((FIRST_SEED + SEEDS - 1))); do
			printf '%s %s %s\n' "$t" "$s" "$seed"
		done
	done
done | xargs -P "$JOBS" -n 3 sh -c \
	'"$0" --run-one "$1" "$3" "$4" "$5" "$2"' "$here/bench_search.sh" "$build" "$raw" \
	2> /dev/null || true
python3 - "$raw" "$CAP" "$TARGETS" "$STRATEGIES" <<'EOF'
import sys
raw, cap, targets, strategies = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
runs = {}
for line in open(raw):
    # bench_search.sh's row; later fields (the commit and date of the run) are not read
    t, s, seed, status, execs, secs, verdict, note, inner = line.rstrip('\n').split('\t')[:9]
    n = int(execs) + int(inner) if status == 'found' else cap
    runs.setdefault((t, s), []).append((n, int(execs) if status == 'found' else cap, status == 'found'))
def median(v):   # nearest rank, as bench_search_report.py
    v = sorted(v)
    return v[(len(v) - 1) // 2] if v else None
cols = [s for s in strategies if s != 'fuzz']
print('%-16s %12s %12s ' % ('target', 'fuzz', 'fuzz+inner') +
      ' '.join('%10s' % c for c in cols) + '  best       ratio')
for t in targets:
    f = runs.get((t, 'fuzz'), [])
    fm, fi = median([x[1] for x in f]), median([x[0] for x in f])
    found = sum(x[2] for x in f)
    meds = {c: median([x[1] for x in runs.get((t, c), [])]) for c in cols}
    best = min((m, c) for c, m in meds.items() if m is not None) if meds else (None, '-')
    ratio = '%.2f' % (fi / best[0]) if fi is not None and best[0] else '-'
    print('%-16s %12s %12s ' % (t, '%s(%d/%d)' % (fm, found, len(f)) if f else '-', fi) +
          ' '.join('%10s' % meds[c] for c in cols) + '  %-10s %s' % (best[1], ratio))
EOF
