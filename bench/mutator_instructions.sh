#!/bin/sh
# bench/mutator_instructions.sh - the mutator's cost per execution counted in
# instructions (valgrind's callgrind), not CPU seconds: the same figure on
# every run, where bench/mutator_cost.sh's CPU-time medians of one binary
# vary by 10-30% on this shared VM (issue 33: its goal is at most 1.25x).
#
#   bench/mutator_instructions.sh [BUILD_DIR] [OLD_BUILD_DIR] [EXECUTIONS]
#
# For counter_fixed_fuzz of each build (default build/clang; the old one
# optional, e.g. main's), mutator on and WEFT_MUTATOR=off, seed 1: the
# instructions of -runs=EXECUTIONS (default 20000) minus those of -runs=1
# (start-up), divided by EXECUTIONS; then the ratio on/off.  An instruction
# is not a nanosecond (a cache miss costs more, `rep stos` counts per byte),
# so this ranks changes and sizes them roughly; CPU time stays the goal's
# measure.  valgrind 3.19 cannot read clang 14's DWARF 5, so a copy of each
# binary without debug information runs.  About a minute per 20,000
# executions and mode.  Not a test: it prints figures and checks nothing.
set -u
new=${1:-build/clang}
old=${2:-}
n=${3:-20000}
command -v valgrind >/dev/null || { echo "mutator_instructions.sh: needs valgrind" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

instructions() {   # binary runs mode
	(cd "$tmp" && WEFT_MUTATOR=$3 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$1" -seed=1 -runs="$2" 2>&1 >/dev/null) | sed -n 's/.*Collected : *//p'
}

row() {   # build-dir label
	bin=$1/counter_fixed_fuzz
	[ -x "$bin" ] || { echo "mutator_instructions.sh: $bin not built" >&2; exit 2; }
	cp "$bin" "$tmp/$2" && strip --strip-debug "$tmp/$2"
	for mode in on off; do
		start=$(instructions "$tmp/$2" 1 "$mode")
		all=$(instructions "$tmp/$2" "$n" "$mode")
		echo "$(( (all - start) / n ))" >"$tmp/$2.$mode"
	done
	awk -v l="$2" -v a="$(cat "$tmp/$2.on")" -v b="$(cat "$tmp/$2.off")" \
		'BEGIN { printf "  %-4s mutator on %7d, off %7d instructions per execution: on/off %.2f\n", l, a, b, a / b }'
}

echo "counter_fixed_fuzz -runs=$n -seed=1, instructions per execution (start-up subtracted):"
row "$new" new
[ -n "$old" ] && row "$old" old
exit 0
