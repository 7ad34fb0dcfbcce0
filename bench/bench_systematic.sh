#!/bin/sh
# bench/bench_systematic.sh [BUILD] - systematic mode on every fixed target, at
# 2 threads x 1..3 operations and 3 threads x 1..2 operations, with and without
# partial-order reduction, unbounded and with at most 2 preemptions: prints a
# markdown table of interleavings explored, scenarios, and executions per second.
#
# A run that reaches MAX executions (default 200000; MAX=... to change) is cut by
# --max-executions and marked "cut": its count is a lower bound, not the total.
# Fixed targets, so that every exploration runs to its end (a buggy one stops at
# its first failure).  Figures in bench/README.md.
build=${1:-build}
max=${MAX:-200000}
[ -x "$build/counter_fixed_replay" ] || { echo "bench_systematic: no $build/counter_fixed_replay (build first)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| target | threads x ops | preemptions | reduction | interleavings | scenarios | runs | executions/s |"
echo "|---|---|---|---|---:|---:|---:|---:|"
for s in counter spsc_ring treiber_stack ms_queue hash_set; do
	for shape in "2 3" "3 2"; do
		set -- $shape
		threads=$1 ops=$2
		for bound in none 2; do
			for mode in on off; do
				flags="--threads=$threads --ops=$ops --max-executions=$max"
				[ "$bound" = none ] || flags="$flags --preemptions=$bound"
				[ "$mode" = on ] || flags="$flags --no-reduction"
				# shellcheck disable=SC2086
				"$build/${s}_fixed_replay" --systematic $flags > "$tmp/out" 2> "$tmp/err"
				rc=$?
				if [ "$rc" = 2 ]; then   # e.g. spsc_ring runs 2 threads only
					echo "| ${s}_fixed | $threads x $ops | $bound | $mode | n/a: $(head -1 "$tmp/err" | sed 's/weft-systematic: //') | | | |"
					continue
				fi
				count=$(sed -n 's/^explored \([0-9]*\) executions.*/\1/p' "$tmp/out")
				scen=$(sed -n 's/^explored [0-9]* executions (\([0-9]*\) scenarios).*/\1/p' "$tmp/out")
				if [ "$rc" = 3 ]; then
					count="cut at $max"
					scen=$(sed -n 's/.*--max-executions, \([0-9]*\) scenarios begun.*/\1 begun/p' "$tmp/out")
				elif [ "$rc" != 0 ]; then
					count="unexpected exit $rc"
				fi
				runs=$(sed -n 's/^weft-systematic: \([0-9]*\) executions in.*/\1/p' "$tmp/err")
				rate=$(sed -n 's/.*executions\/s.*(\([0-9]*\) executions\/s)/\1/p; s/.*s (\([0-9]*\) executions\/s)$/\1/p' "$tmp/err" | head -1)
				echo "| ${s}_fixed | $threads x $ops | $bound | $mode | $count | $scen | $runs | $rate |"
			done
		done
	done
done
