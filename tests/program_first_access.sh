#!/bin/sh
# tests/program_first_access.sh DIR - windows before a global's second thread
# (tests/program_first_access.c, issue 31): with the default WEFT_ACCESSES=shared,
# --explore=random finds the two threads' lost update on a global main never
# touches and the reader between a writer's two fields within 2,000 executions,
# and each fix passes 2,000.  Before a global's first touch was a switch point
# (scheduler/access.c) neither was found in 100,000.
dir=$1
fail() { echo "FAIL (program_first_access): $*"; exit 1; }
for p in counter fields; do
	out=$("$dir/first_access_${p}_buggy_replay" --explore=random --max-executions=2000 --quiet 2>/dev/null)
	[ $? -eq 1 ] && echo "$out" | grep -q ' verdict=assertion ' ||
		fail "random did not find first_access_$p's bug: $out"
	echo "$out" | sed 's/.* executions=\([0-9]*\) .*/first_access_'$p': found after \1 executions/'
	out=$("$dir/first_access_${p}_fixed_replay" --explore=random --max-executions=2000 --quiet 2>/dev/null) ||
		fail "random failed first_access_${p}_fixed: $out"
	echo "$out" | grep -q ' executions=2000 .* verdict=pass ' || fail "first_access_${p}_fixed: $out"
done
# The same lost update built without the pass: its threads are blind, and every mode says so.
note='[0-9]* of [0-9]* operations ran without a switch point: build with the pass'   # counted over every execution run
out=$("$dir/first_access_blind_replay" --systematic 2>/dev/null)
echo "$out" | grep -q "all 1 interleavings are fine" && echo "$out" | grep -q "^note: $note" ||
	fail "--systematic on the blind program: $out"
out=$("$dir/first_access_blind_replay" --explore=random --max-executions=10 --quiet 2>/dev/null)
echo "$out" | grep -q "^explore: note: 20 of 30 operations ran without a switch point" ||
	fail "--explore on the blind program: $out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '\000' > "$tmp/in"
out=$("$dir/first_access_blind_replay" --stats "$tmp/in" 2>/dev/null)
echo "$out" | grep -q "^operations without a switch point: 2 of 3" || fail "--stats: $out"
if [ -x "$dir/first_access_blind_fuzz" ]; then   # libFuzzer builds: a start-up warning
	out=$(cd "$tmp" && "$dir/first_access_blind_fuzz" -runs=50 -seed=1 2>&1)
	echo "$out" | grep -q "^==weft== warning: [0-9]* of [0-9]* operations ran without a switch point" ||
		fail "the fuzz binary did not warn: $(echo "$out" | grep '==weft==')"
fi
out=$("$dir/first_access_counter_fixed_replay" --systematic 2>/dev/null)
echo "$out" | grep -q "^note:" && fail "a note on an instrumented program: $out"
# A loop without a switch point: --timeout ends each search mode with the timeout line, exit 1.
for mode in --systematic --explore; do
	args=$mode; [ $mode = --explore ] && args=--explore=random
	out=$("$dir/loop_blind_replay" $args --timeout=1 --quiet 2>&1); rc=$?
	[ $rc -eq 1 ] && echo "$out" | grep -q "^==weft== TIMEOUT in loop_blind ($mode)" ||
		fail "$mode --timeout=1 on a loop (exit $rc): $out"
done
# --threads on a program: one program, explored once (not once per count)
once=$("$dir/first_access_counter_fixed_replay" --systematic 2>/dev/null | grep '^explored')
out=$("$dir/first_access_counter_fixed_replay" --systematic --threads=1..3 2>/dev/null | grep '^explored')
[ -n "$once" ] && [ "$out" = "$once" ] || fail "--threads=1..3 on a program: '$out', alone: '$once'"
echo "program_first_access: random finds both first-access windows; the fixes pass 2,000 executions; the blind build is flagged"

