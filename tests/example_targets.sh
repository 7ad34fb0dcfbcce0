#!/bin/sh
# tests/example_targets.sh BUILD - the README's example targets (examples/):
#   - short_queue (30 lines against weft_model_queue): the buggy build fails
#     (linearizability), the fixed one passes 2,000 PCT executions;
#   - try_queue (a non-deterministic model: deq may fail): passes, and the same
#     target with one outcome allowed (the strict queue) fails.
build=$1
fail=0
tmp=${TMPDIR:-/tmp}/example_targets.$$
expect() {  # expect EXIT VERDICT BINARY: explore with PCT, seed 1
	"$build/$3" --explore=pct --seed=1 --max-executions=2000 --quiet > "$tmp" 2>&1
	got=$?
	[ "$got" = "$1" ] && grep -q "verdict=$2 " "$tmp" ||
		{ echo "FAIL: $3: exit $got, want $1 and verdict=$2"; cat "$tmp"; fail=1; }
	rm -f "$tmp"
}
expect 1 linearizability short_queue_buggy_replay
expect 0 pass short_queue_fixed_replay
expect 0 pass try_queue_replay
expect 1 linearizability try_queue_strict_replay
[ "$fail" = 0 ] && echo "example_targets: 4 verdicts as expected"
exit $fail
