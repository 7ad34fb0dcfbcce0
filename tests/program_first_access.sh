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
echo "program_first_access: random finds both first-access windows; the fixes pass 2,000 executions"
