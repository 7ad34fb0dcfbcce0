#!/bin/sh
# bench/exec_cost.sh - the fixed cost per execution (issue 33): executions per
# CPU-second of explore mode's random walk (`NAME_replay --explore=random`) on a
# few small targets, one build or two side by side.
#
#   bench/exec_cost.sh NEW_BUILD_DIR [OLD_BUILD_DIR] [RUNS]
#
# Each row runs `--explore=random --seed=1 --max-executions=N --quiet` RUNS
# times (default 5) per build, the builds alternating run by run so that both
# see the same machine load, and prints the median executions per CPU-second
# (user + system, from /usr/bin/time: not wall-clock, the VM is shared) and the
# ratio new/old.  The rows: the counter (fixed: the buggy one fails at its first
# execution) with the default scenarios (2-3 threads x 1-3 increments) and with
# 2 threads x 1 increment, the weak-memory SPSC ring (C11 model, relaxed
# indices), and two whole programs (one made of mutexes, one built with the
# pass).  Targets missing from a build are skipped.
#
# With two builds it also checks determinism across them: the result line's
# trace= and digest= (the hash of every execution's verdict and trace) must be
# equal, else the row is marked DIFFERENT and the script exits 1; then the
# same for every strategy but stress on two more seeds (same_everywhere).  Build both
# with the same compiler and flags, e.g. the old one from main:
#   git archive main | tar -x -C /tmp/main && cmake -S /tmp/main -B build/old ...
# Not a test: it prints figures and checks nothing else.
set -u
new=${1:?usage: bench/exec_cost.sh NEW_BUILD_DIR [OLD_BUILD_DIR] [RUNS]}
old=${2:-}
runs=${3:-5}
[ -x /usr/bin/time ] || { echo "exec_cost.sh: needs /usr/bin/time" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# one run: prints "EXECUTIONS CPU_SECONDS TRACE DIGEST"
run_once() {   # binary executions extra-options...
	bin=$1 n=$2
	shift 2
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" --explore=random --seed=1 \
		--max-executions="$n" --quiet "$@" >"$tmp/out" 2>/dev/null
	line=$(grep '^explore:' "$tmp/out")
	execs=$(printf '%s\n' "$line" | sed -n 's/.* executions=\([0-9]*\).*/\1/p')
	trace=$(printf '%s\n' "$line" | sed -n 's/.* trace=\([0-9a-f]*\).*/\1/p')
	digest=$(printf '%s\n' "$line" | sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p')
	cpu=$(awk '{ print $1 + $2 }' "$tmp/time")
	echo "$execs $cpu $trace $digest"
}

median() {   # numbers on stdin
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

status=0
row() {   # label target executions extra-options...
	label=$1 target=$2 n=$3
	shift 3
	[ -x "$new/${target}_replay" ] || { echo "$label: ${target}_replay not built, skipped"; return; }
	if [ -n "$old" ] && [ ! -x "$old/${target}_replay" ]; then
		echo "$label: ${target}_replay not in $old, skipped"
		return
	fi
	: >"$tmp/new" && : >"$tmp/old"
	i=0
	while [ $i -lt "$runs" ]; do
		run_once "$new/${target}_replay" "$n" "$@" >>"$tmp/new"
		[ -n "$old" ] && run_once "$old/${target}_replay" "$n" "$@" >>"$tmp/old"
		i=$((i + 1))
	done
	rate_new=$(awk '$2 > 0 { printf "%.0f\n", $1 / $2 }' "$tmp/new" | median)
	same=$(cut -d' ' -f3,4 "$tmp/new" | sort -u | head -1)
	if [ -z "$old" ]; then
		printf '| %s | %s |\n' "$label" "$rate_new"
		return
	fi
	rate_old=$(awk '$2 > 0 { printf "%.0f\n", $1 / $2 }' "$tmp/old" | median)
	check=identical
	if [ "$(cut -d' ' -f3,4 "$tmp/new" "$tmp/old" | sort -u | wc -l)" -ne 1 ]; then
		check=DIFFERENT
		status=1
	fi
	ratio=$(awk -v a="$rate_new" -v b="$rate_old" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	printf '| %s | %s | %s | %sx | %s (%s) |\n' "$label" "$rate_old" "$rate_new" "$ratio" \
		"$check" "$same"
}

echo "exec_cost: random walk, seed 1, median of $runs runs, executions per CPU-second"
echo "new: $new${old:+   old: $old}   load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$old" ]; then
	echo "| row | old | new | new/old | trace, digest |"
	echo "|---|---:|---:|---:|---|"
else
	echo "| row | executions/s |"
	echo "|---|---:|"
fi
row "counter_fixed, default scenarios" counter_fixed 200000
row "counter_fixed, 2 threads x 1 op" counter_fixed 500000 --threads=2 --ops=1
row "spsc_relaxed_fixed (c11 model)" spsc_relaxed_fixed 100000
row "pthread_account_fixed (program)" pthread_account_fixed 100000
row "correct_mutex_counter (program, pass)" correct_mutex_counter 50000

# Determinism beyond the rows: every explore strategy but stress (real
# threads) on a few seeds, each target of the rows, the two builds' trace=
# and digest= compared (one run each; a few thousand executions).
same_everywhere() {
	n=0 differ=0
	for target in counter_fixed spsc_relaxed_fixed pthread_account_fixed correct_mutex_counter; do
		[ -x "$new/${target}_replay" ] && [ -x "$old/${target}_replay" ] || continue
		for strategy in random pct uniform pos bytes; do
			for seed in 2 3; do
				a=$("$new/${target}_replay" --explore=$strategy --seed=$seed \
					--max-executions=3000 --quiet 2>/dev/null | grep '^explore:' |
					sed 's/.* trace=/trace=/; s/ unknown=.*//')
				b=$("$old/${target}_replay" --explore=$strategy --seed=$seed \
					--max-executions=3000 --quiet 2>/dev/null | grep '^explore:' |
					sed 's/.* trace=/trace=/; s/ unknown=.*//')
				n=$((n + 1))
				if [ "$a" != "$b" ] || [ -z "$a" ]; then
					differ=$((differ + 1))
					echo "DIFFERENT: $target --explore=$strategy --seed=$seed: '$a' vs '$b'"
				fi
			done
		done
	done
	echo "determinism: $n runs (targets x random, pct, uniform, pos, bytes x seeds 2, 3)," \
		"$differ different"
	[ "$differ" -eq 0 ] || status=1
}
[ -n "$old" ] && same_everywhere
exit $status
