#!/bin/sh
# tests/systematic_cli.sh BUILD - systematic mode through the command line
# (NAME_replay --systematic, harness/systematic_cli.c):
#   - every buggy target fails within small bounds, with and without reduction;
#   - the input file it writes replays to the same failure with
#     NAME_replay --expect=linearizability and, when the libFuzzer binaries are
#     built (clang), with NAME_fuzz, whose report is the same text;
#   - every fixed target passes at the same bounds ("all N interleavings are fine");
#   - --help is true, bad flags exit 2, --max-executions exits 3.
# About a second per target on the 2-core machine.
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

# structure|bounds: small enough for CI, large enough for each seeded bug
specs="counter|--ops=1
spsc_ring|--ops=3 --preemptions=2
treiber_stack|--ops=3 --preemptions=1
ms_queue|--ops=2 --preemptions=1
hash_set|--ops=2 --preemptions=1"

# The report between "==weft== FAIL" and what follows it, as pipeline.sh cuts it.
report_of() { awk '/^==weft== FAIL/ {on=1} /^ASSERTION FAILED:|^==[0-9]+==|^wrote / {on=0} on' "$1"; }

check_buggy() {  # check_buggy STRUCTURE BOUNDS [--no-reduction]
	s=$1 bounds=$2 mode=${3:-}
	bin="$build/${s}_buggy_replay" out="$tmp/$s.bin" log="$tmp/$s.log"
	rm -f "$out"
	# shellcheck disable=SC2086
	"$bin" --systematic $bounds $mode --quiet --out="$out" > "$log" 2>&1
	rc=$?
	[ "$rc" = 1 ] || { err "$s $bounds $mode: exit $rc, want 1 (a failure)"; cat "$log"; return; }
	grep -q "^FAIL after [0-9]* executions" "$log" || err "$s: no FAIL line"
	grep -q "^wrote $out (replays with ${s}_buggy_fuzz $out)" "$log" ||
		{ err "$s $mode: the failure was not written or does not replay"; cat "$log"; return; }
	"$build/${s}_buggy_replay" --quiet --expect=linearizability "$out" > "$tmp/replay.log" 2>&1 ||
		{ err "$s: $out does not replay as linearizability"; cat "$tmp/replay.log"; }
	if [ -x "$build/${s}_buggy_fuzz" ]; then
		"$build/${s}_buggy_fuzz" "$out" > "$tmp/fuzz.log" 2>&1 && err "$s: ${s}_buggy_fuzz did not crash on $out"
		report_of "$log" > "$tmp/a.txt"
		report_of "$tmp/fuzz.log" > "$tmp/b.txt"
		[ -s "$tmp/a.txt" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt" ||
			{ err "$s: the fuzz binary's report differs"; diff "$tmp/a.txt" "$tmp/b.txt"; }
	fi
	echo "ok: ${s}_buggy $bounds $mode: $(grep '^FAIL after' "$log")"
}

check_fixed() {  # check_fixed STRUCTURE BOUNDS
	s=$1 bounds=$2 log="$tmp/$1.fixed.log"
	# shellcheck disable=SC2086
	"$build/${s}_fixed_replay" --systematic $bounds --quiet > "$log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { err "${s}_fixed $bounds: exit $rc, want 0"; cat "$log"; return; }
	grep -q "^explored \([0-9]*\) executions ([0-9]* scenarios): all \1 interleavings are fine\(,.*\)\{0,1\}$" "$log" ||
		{ err "${s}_fixed: no 'all N interleavings are fine' line"; cat "$log"; }
	echo "ok: ${s}_fixed $bounds: $(grep '^explored' "$log")"
}

echo "$specs" | while IFS='|' read -r s bounds; do
	check_buggy "$s" "$bounds"
	check_buggy "$s" "$bounds" --no-reduction
	check_fixed "$s" "$bounds"
	[ "$fail" = 0 ] || exit 1
done || fail=1

# The command line itself.
counter="$build/counter_buggy_replay"
expect_exit() {  # expect_exit CODE DESCRIPTION ARGS...
	want=$1 what=$2
	shift 2
	"$counter" "$@" > "$tmp/cli.log" 2>&1
	got=$?
	[ "$got" = "$want" ] || { err "$what: exit $got, want $want"; cat "$tmp/cli.log"; }
}
expect_exit 0 "--systematic --help" --systematic --help
for flag in --threads=A..B --ops=N --args=LO..HI --preemptions=C --deepen=D --no-reduction \
	    --max-executions=N --out=FILE; do
	grep -q -- "$flag" "$tmp/cli.log" || err "--systematic --help does not list $flag"
done
expect_exit 0 "replay --help lists --systematic" --help
grep -q -- "--systematic" "$tmp/cli.log" || err "replay --help does not list --systematic"
expect_exit 2 "unknown flag" --systematic --bogus
grep -q "unknown or malformed option '--bogus'" "$tmp/cli.log" || err "no message for --bogus"
expect_exit 2 "threads beyond the target's" --systematic --threads=2..9
grep -q "the target runs 2..3 threads" "$tmp/cli.log" || err "no message for --threads=2..9"
expect_exit 2 "malformed --ops" --systematic --ops=two
expect_exit 2 "--ops without a value" --systematic --ops
expect_exit 2 "reversed --args" --systematic --args=3..1
expect_exit 2 "--deepen with --preemptions" --systematic --deepen=2 --preemptions=1
expect_exit 2 "--deepen out of range" --systematic --deepen=65
# What "fine" covers (issue 31): a bound that cut the search is named on the result
# line; without --preemptions the search deepens through bounds 0..2, then runs
# unbounded, and the line names no bound.
fixed_counter="$build/counter_fixed_replay"
"$fixed_counter" --systematic --preemptions=1 --quiet > "$tmp/cut.log" 2>&1 ||
	err "counter_fixed --preemptions=1: exit $?"
grep -q "^explored \([0-9]*\) executions (4 scenarios): all \1 interleavings are fine, within at most 1 preemption: the bound cut [1-9][0-9]* runs short$" "$tmp/cut.log" ||
	{ err "a bounded search that cut does not say so"; cat "$tmp/cut.log"; }
"$fixed_counter" --systematic --quiet > "$tmp/deep.log" 2>&1 || err "counter_fixed: exit $?"
grep -q "no preemption bound (bounds 0..2 first)" "$tmp/deep.log" &&
	grep -q "^explored \([0-9]*\) executions (4 scenarios): all \1 interleavings are fine$" "$tmp/deep.log" ||
	{ err "the default search does not deepen, or names a cut"; cat "$tmp/deep.log"; }
"$fixed_counter" --systematic --deepen=0 --quiet > "$tmp/flat.log" 2>&1 || err "--deepen=0: exit $?"
grep -q "no preemption bound, partial-order" "$tmp/flat.log" &&
	[ "$(grep '^explored' "$tmp/flat.log")" = "$(grep '^explored' "$tmp/deep.log")" ] ||
	{ err "--deepen=0 explores another set than the deepened search's last pass"; cat "$tmp/flat.log"; }
expect_exit 3 "--max-executions reached" --systematic --ops=2 --preemptions=0 --max-executions=1 --quiet
grep -q "^stopped after 1 executions" "$tmp/cli.log" || err "no 'stopped after' line"

[ "$fail" = 0 ] && echo "systematic_cli: all passed"
exit "$fail"
