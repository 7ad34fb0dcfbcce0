#!/bin/sh
# bench/mutator_cost.sh - what weft's structure-aware mutator costs per
# execution under libFuzzer (issue 33 item 3: at most 1.25x over
# WEFT_MUTATOR=off on the counter).
#
#   bench/mutator_cost.sh [BUILD_DIR] [RUNS] [EXECUTIONS]
#
# BUILD_DIR (default build/clang): a clang build with counter_fixed_fuzz (the
# fixed counter never fails, so every run lasts its EXECUTIONS, default
# 200000, libFuzzer's -runs).  RUNS times (default 5) the binary runs with the
# mutator (default) and with WEFT_MUTATOR=off, alternating run by run with
# seeds 1..RUNS so that both see the same machine load, from an empty corpus;
# executions per CPU-second = EXECUTIONS / (user + system seconds, from
# /usr/bin/time: not wall-clock, the VM is shared).  Prints the medians side
# by side, the ratio off/on (the mutator's cost per execution; the goal is at
# most 1.25), and from the mutator's exit line (median over the runs) its own
# executions (measuring runs and verifications, not the fuzzer's) and the
# mutants it ran twice (a mutant sampled, not taken and run again by the
# fuzzer; failing samples, which must replay, excepted).
# The two modes do not run the same executions: the mutator's samples have
# more operations than libFuzzer's byte mutations of the same inputs (counter:
# about 5.2 against 4.0 operations per execution), so part of the ratio is
# longer executions, not the mutator's own work.
# Not a test: it prints figures and checks nothing.
set -u
build=${1:-build/clang}
runs=${2:-5}
n=${3:-200000}
bin=$build/counter_fixed_fuzz
[ -x "$bin" ] || { echo "mutator_cost.sh: $bin not built" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "mutator_cost.sh: needs /usr/bin/time" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

median() {   # numbers on stdin
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "?"; else if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# one run: appends "EXEC_PER_S" to $tmp/MODE.rate, the mutator's line to $tmp/MODE.log
run_once() {   # mode seed
	(cd "$tmp" && /usr/bin/time -f '%U %S' -o "$tmp/time" env WEFT_MUTATOR="$1" "$bin" \
		-seed="$2" -runs="$n" >/dev/null 2>"$tmp/err")
	awk -v n="$n" '{ c = $1 + $2; print (c > 0 ? int(n / c) : 0) }' "$tmp/time" >>"$tmp/$1.rate"
	grep '^==weft== mutator:' "$tmp/err" >>"$tmp/$1.log"
}

: >"$tmp/on.log"
s=1
while [ "$s" -le "$runs" ]; do
	run_once on "$s"
	run_once off "$s"
	s=$((s + 1))
done
on=$(median <"$tmp/on.rate")
off=$(median <"$tmp/off.rate")
own=$(sed -n 's/.*mutations, \([0-9]*\) executions inside.*/\1/p' "$tmp/on.log" | median)
twice=$(sed -n 's/.* \([0-9]*\) mutants run twice.*/\1/p' "$tmp/on.log" | median)
echo "counter_fixed_fuzz -runs=$n, seeds 1..$runs, median executions per CPU-second:"
echo "  mutator on:  $on"
echo "  mutator off: $off"
awk -v a="$on" -v b="$off" 'BEGIN { printf "  ratio off/on: %.2f (goal <= 1.25)\n", (a > 0 ? b / a : 0) }'
echo "  the mutator's own executions per run: ${own:-?}; mutants run twice: ${twice:-?}"
