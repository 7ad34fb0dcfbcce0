#!/bin/sh
# tests/systematic_spinners.sh BUILD - systematic mode on spin loops.
#
# Systematic mode asks the strategy at every switch point.  Such a decision that
# let the thread go on used to skip the scheduler's spin count (progress.c), so
# a spinner behind a preempted lock holder was never descheduled: a correct
# Peterson lock "failed" with step-budget, in an input that replayed as a pass.
# And under the C11 model a spinner could read a stale flag forever, a false
# livelock.  Now a decision that does not switch counts as a quiet step, and a
# spinner past the spin limit reads the newest store.
#   - the fixed Peterson and spinlock pass every interleaving with 2 preemptions;
#   - peterson_ra's bug (release/acquire, store buffering) is found, with
#     2 preemptions and one weak read, and the file replays to the same verdict;
#   - so is the seqlock's torn pair (a reader without its acquire), and its fix
#     passes every interleaving of one operation per thread with 2 preemptions;
#   - under TSO, peterson_tso's bug is found with 2 preemptions and 1 delayed
#     commit, and its fix passes (no false livelock behind a buffered store).
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

for s in peterson spinlock peterson_ra; do
	log="$tmp/$s.log"
	"$build/${s}_fixed_replay" --systematic --preemptions=2 --quiet > "$log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { err "${s}_fixed: exit $rc, want 0 (every interleaving fine)"; head -5 "$log"; continue; }
	grep -q "^explored \([0-9]*\) executions ([0-9]* scenarios): all \1 interleavings are fine$" "$log" ||
		{ err "${s}_fixed: no 'all N interleavings are fine' line"; cat "$log"; }
	echo "ok: ${s}_fixed: $(grep '^explored' "$log")"
done

out="$tmp/pra.bin" log="$tmp/pra.log"
"$build/peterson_ra_buggy_replay" --systematic --ops=1 --preemptions=2 --quiet --out="$out" > "$log" 2>&1
rc=$?
[ "$rc" = 1 ] || { err "peterson_ra_buggy: exit $rc, want 1 (a failure)"; head -20 "$log"; }
grep -q "^FAIL after [0-9]* executions (scenario 1): assertion with 2 preemptions$" "$log" ||
	{ err "peterson_ra_buggy: not the assertion with 2 preemptions"; head -20 "$log"; }
grep -q "^wrote $out (replays with " "$log" || err "peterson_ra_buggy: the file was not written or does not replay"
"$build/peterson_ra_buggy_replay" --quiet --expect=assertion "$out" > /dev/null 2>&1 ||
	err "peterson_ra_buggy: $out does not replay as assertion"
echo "ok: peterson_ra_buggy: $(grep '^FAIL after' "$log")"

# The seqlock's reader retries in a loop: found with one preemption at one
# operation per thread; the fix explored with two (about 76,000 executions, 1 s).
out="$tmp/sq.bin" log="$tmp/sq.log"
"$build/seqlock_buggy_replay" --systematic --ops=1 --preemptions=1 --quiet --out="$out" > "$log" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "^FAIL after [0-9]* executions (scenario [0-9]*): linearizability with 1 preemption$" "$log" ||
	{ err "seqlock_buggy: exit $rc, want the linearizability failure with 1 preemption"; head -20 "$log"; }
"$build/seqlock_buggy_replay" --quiet --expect=linearizability "$out" > /dev/null 2>&1 ||
	err "seqlock_buggy: $out does not replay as linearizability"
"$build/seqlock_fixed_replay" --systematic --ops=1 --preemptions=2 --quiet > "$log" 2>&1 ||
	{ err "seqlock_fixed: exit $?, want 0"; head -20 "$log"; }
echo "ok: seqlock: $(grep '^explored' "$log")"
# Under TSO (peterson_tso declares it): a spinner waits until every store buffer has
# drained (scheduler/memory_tso.c), else a spin behind a buffered store was a livelock.
out="$tmp/pt.bin" log="$tmp/pt.log"
"$build/peterson_tso_buggy_replay" --systematic --ops=1 --preemptions=2 --quiet --out="$out" > "$log" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "^FAIL after [0-9]* executions (scenario 1): assertion with 2 preemptions$" "$log" ||
	{ err "peterson_tso_buggy: exit $rc, want the assertion with 2 preemptions"; head -20 "$log"; }
"$build/peterson_tso_buggy_replay" --quiet --expect=assertion "$out" > /dev/null 2>&1 ||
	err "peterson_tso_buggy: $out does not replay as assertion"
"$build/peterson_tso_fixed_replay" --systematic --ops=1 --preemptions=2 --quiet > "$log" 2>&1 ||
	{ err "peterson_tso_fixed: exit $?, want 0"; head -20 "$log"; }
echo "ok: peterson_tso: $(grep '^explored' "$log")"
exit $fail
