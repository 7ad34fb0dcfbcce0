#!/bin/sh
# tests/spin_handoff.sh BUILD explore|fuzz - a correct spin-wait hand-off never
# fails (issue 30, item 1), and a CAS is printed with its success and the value
# it read (item 5).  Two threads take turns through an atomic, each waiting with
# an acquire load and a yield (tests/target_spin_handoff.c, a data-structure
# target with low progress limits; tests/program_spin_handoff.c, a program built
# with the pass, default limits).
#   explore: under c11, tso, pso and sc, --explore=random and pos pass 2,000
#            executions of the target; the program's simplest run prints its
#            seat-taking CASes (text and JSON): the first succeeds reading 0,
#            the second fails reading 1, then succeeds reading 1.  Before fair
#            visibility random failed with a false livelock at execution 1 and
#            pos at 5 under c11; before the CAS fix the winning CAS printed
#            "-> failed" (its old value was 0).
#   fuzz:    libFuzzer seed 1 survives 3,000 runs of the target and 5,000 of
#            the program under each model, and seed 3 40,000 runs of the
#            program under c11 (which failed with a false livelock at run 4 and
#            at run 37,179 before).
# The long version is bench/spin_handoff.sh.
build=$1 mode=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

survives() {   # MODEL BINARY SEED RUNS
	(cd "$tmp" && WEFT_MEMORY=$1 "$build/$2" -seed="$3" -runs="$4" > "$tmp/fuzz.log" 2>&1) ||
		{ err "$2 under $1, seed $3: $(grep -m1 '==weft== FAIL' "$tmp/fuzz.log")"; return; }
	grep -q "^Done $4 runs" "$tmp/fuzz.log" || { err "$2 under $1: not $4 runs"; tail -3 "$tmp/fuzz.log"; }
}

if [ "$mode" = fuzz ]; then
	for m in c11 tso pso sc; do
		survives $m spin_handoff_fuzz 1 3000
		survives $m program_spin_handoff_fuzz 1 5000
	done
	survives c11 program_spin_handoff_fuzz 3 40000
	[ $fail = 0 ] && echo "spin_handoff: the target and the program survive libFuzzer under c11, tso, pso and sc"
	exit $fail
fi

for m in c11 tso pso sc; do
	for s in random pos; do
		out=$(WEFT_MEMORY=$m "$build/spin_handoff_replay" --explore=$s --max-executions=2000 --quiet 2>/dev/null)
		echo "$out" | grep -q ' executions=2000 .* verdict=pass ' || err "$s under $m: $out"
	done
done

: > "$tmp/empty"
"$build/program_spin_handoff_replay" --trace "$tmp/empty" > "$tmp/report" 2>&1
cas=$(grep -o 'cas program_spin_handoff.c:[0-9]* -> .*' "$tmp/report" | sed 's/:[0-9]*//' | tr '\n' '|')
[ "$cas" = "cas program_spin_handoff.c -> ok, read 0|cas program_spin_handoff.c -> failed, read 1|cas program_spin_handoff.c -> ok, read 1|" ] ||
	{ err "the simplest run's CASes print as '$cas'"; cat "$tmp/report"; }
"$build/program_spin_handoff_replay" --json "$tmp/empty" > "$tmp/json" 2>/dev/null
cas=$(grep -o '"kind": "cas", "site": "[^"]*", "value": [0-9]*, "succeeded": [a-z]*' "$tmp/json" |
	sed 's/"site": "[^"]*", //' | tr '\n' '|')
[ "$cas" = '"kind": "cas", "value": 0, "succeeded": true|"kind": "cas", "value": 1, "succeeded": false|"kind": "cas", "value": 1, "succeeded": true|' ] ||
	err "the simplest run's CASes in JSON: '$cas'"
[ $fail = 0 ] && echo "spin_handoff: random and pos pass 2,000 executions under c11, tso, pso and sc; CASes print right"
exit $fail
