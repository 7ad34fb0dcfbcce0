#!/bin/sh
# tests/systematic_program_files.sh BUILD - the input systematic mode writes for
# a whole program replays its failure.  A program's spawned threads have a
# schedule only where the input lists them (the format's threads 1..15); the
# failures below need a preemption in a spawned thread, which used to be left
# out of the file ("does not replay to this failure").  Each is found with one
# preemption, written, and replays with the same verdict in the replay binary.
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

for s in tls_tally lazy_init barrier_rounds; do
	out="$tmp/$s.bin" log="$tmp/$s.log"
	"$build/${s}_buggy_replay" --systematic --preemptions=1 --quiet --out="$out" > "$log" 2>&1
	rc=$?
	[ "$rc" = 1 ] || { err "$s: exit $rc, want 1 (a failure)"; tail -5 "$log"; continue; }
	grep -q "^FAIL after [0-9]* executions (scenario 1): assertion with 1 preemption$" "$log" ||
		{ err "$s: not an assertion with 1 preemption"; grep '^FAIL' "$log"; }
	grep -q "^wrote $out (replays with ${s}_buggy_fuzz $out)$" "$log" ||
		{ err "$s: the file was not written or does not replay"; grep -A2 '^wrote\|^could' "$log"; continue; }
	"$build/${s}_buggy_replay" --quiet --expect=assertion "$out" > /dev/null 2>&1 ||
		err "$s: $out does not replay as assertion"
	echo "ok: $s: $(od -An -tx1 "$out" | tr -s ' ')"
done
exit $fail
