#!/bin/sh
# tests/explore_cli.sh BUILD - explore mode through the command line
# (NAME_replay --explore=STRATEGY, harness/explore_cli.c):
#   - every deterministic strategy finds the buggy counter's lost update (exit 1),
#     prints the machine-readable line and the report (none with --quiet);
#   - the same seed prints the same line (all but seconds), another seed another
#     digest;
#   - the fixed counter runs to the cap (exit 0, verdict=pass, executions=cap);
#   - stress runs (its finding the bug is not asserted: real threads), and is n/a
#     (exit 3, a reason) for a target with locks and for a program;
#   - --help is true (lists every flag, names every strategy), and bad flags exit 2.
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
counter="$build/counter_buggy_replay"
line_re='^explore: target=[a-z_]* strategy=[a-z0-9]* seed=[0-9]* executions=[0-9]* scenarios=[0-9]* seconds=[0-9.]* verdict=[a-z/-]* preemptions=[0-9]* trace=[0-9a-f]\{16\} digest=[0-9a-f]\{16\} unknown=[0-9]*$'

run() {  # run WANT_EXIT LOG BINARY ARGS...: the exit status must be WANT_EXIT
	want=$1 log=$2 bin=$3
	shift 3
	"$bin" "$@" > "$log" 2>&1
	got=$?
	[ "$got" = "$want" ] || { err "$(basename "$bin") $*: exit $got, want $want"; cat "$log"; return 1; }
	return 0
}
strip_seconds() { grep '^explore:' "$1" | sed 's/ seconds=[0-9.]*//'; }

for strategy in random pct "pct --depth=2" uniform bytes; do
	# shellcheck disable=SC2086
	run 1 "$tmp/a.log" "$counter" --explore=$strategy --seed=5 || continue
	grep -q "$line_re" "$tmp/a.log" || { err "$strategy: no result line"; cat "$tmp/a.log"; }
	grep -q "verdict=linearizability " "$tmp/a.log" || err "$strategy: verdict is not linearizability"
	grep -q "^==weft== FAIL linearizability in counter_buggy" "$tmp/a.log" ||
		err "$strategy: no report"
	# shellcheck disable=SC2086
	run 1 "$tmp/b.log" "$counter" --explore=$strategy --seed=5 --quiet
	[ "$(strip_seconds "$tmp/a.log")" = "$(strip_seconds "$tmp/b.log")" ] ||
		{ err "$strategy: seed 5 does not repeat"; strip_seconds "$tmp/a.log"; strip_seconds "$tmp/b.log"; }
	[ "$(wc -l < "$tmp/b.log")" = 1 ] || err "$strategy --quiet printed more than the line"
	# shellcheck disable=SC2086
	run 0 "$tmp/c.log" "$build/counter_fixed_replay" --explore=$strategy --seed=6 --max-executions=300 --quiet
	grep -q " executions=300 .* verdict=pass " "$tmp/c.log" || { err "$strategy: fixed counter"; cat "$tmp/c.log"; }
	# shellcheck disable=SC2086
	run 0 "$tmp/d.log" "$build/counter_fixed_replay" --explore=$strategy --seed=7 --max-executions=300 --quiet
	[ "$(sed 's/.*digest=//' "$tmp/c.log")" != "$(sed 's/.*digest=//' "$tmp/d.log")" ] ||
		err "$strategy: seeds 6 and 7 have the same digest"
	echo "ok: $strategy: $(cat "$tmp/b.log")"
done

# stress: runs, prints its line; n/a for waiting targets and programs
"$counter" --explore=stress --max-executions=20000 --quiet > "$tmp/s.log" 2>&1
rc=$?
{ [ "$rc" = 0 ] || [ "$rc" = 1 ]; } && grep -q "$line_re" "$tmp/s.log" ||
	{ err "stress on counter_buggy: exit $rc"; cat "$tmp/s.log"; }
echo "ok: stress (finding the bug not asserted): $(cat "$tmp/s.log")"
for t in blocking_queue_buggy pthread_account_buggy; do
	run 3 "$tmp/n.log" "$build/${t}_replay" --explore=stress || continue
	grep -q "verdict=n/a " "$tmp/n.log" && grep -q "^explore: n/a: ." "$tmp/n.log" ||
		{ err "$t stress: no n/a line and reason"; cat "$tmp/n.log"; }
	echo "ok: $t stress: $(grep '^explore: n/a' "$tmp/n.log")"
done

# --help is true
run 0 "$tmp/h.log" "$counter" --explore --help
for flag in --explore=STRATEGY --seed=N --depth=D --max-executions=N --threads=A..B --ops=N \
	    --schedules=R --bytes=L --quiet; do
	grep -q -- "$flag" "$tmp/h.log" || err "--explore --help does not list $flag"
done
for strategy in random pct uniform bytes stress; do
	grep -q "^  $strategy " "$tmp/h.log" || err "--explore --help does not describe $strategy"
done
grep -q "Exit status: 0 no failure within the cap, 1 a failure found, 2 bad usage" "$tmp/h.log" ||
	err "--explore --help does not give the exit status"
run 0 "$tmp/h2.log" "$counter" --help
grep -q -- "--explore=VALUE" "$tmp/h2.log" || err "replay --help does not mention --explore"

# bad flags: exit 2 with a message
for args in "--explore" "--explore=" "--explore=dfs" "--explore=pct --depth=0" \
	    "--explore=pct --depth=17" "--explore=random --depth=2" "--explore=random --seed=abc" \
	    "--explore=random --seed=-1" "--explore=random --max-executions=0" \
	    "--explore=random --threads=1..9" "--explore=random --threads=3..2" \
	    "--explore=random --ops=0" "--explore=random --ops=4" "--explore=random --schedules=0" \
	    "--explore=random --bytes=8" "--explore=bytes --threads=2" "--explore=bytes --bytes=70000" \
	    "--explore=random --frobnicate" "--explore=random --quiet=1" "--explore=random file.bin"; do
	# shellcheck disable=SC2086
	run 2 "$tmp/bad.log" "$counter" $args || continue
	grep -q "weft-explore: " "$tmp/bad.log" || { err "$args: no message"; cat "$tmp/bad.log"; }
done
echo "ok: --help, bad flags"
[ "$fail" = 0 ] && echo "explore_cli: all passed"
exit "$fail"
