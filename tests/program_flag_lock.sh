#!/bin/sh
# tests/program_flag_lock.sh DIR - a test-and-set spin lock written with the GNU flag
# builtins and __sync_synchronize, in a program built with the drop-in header alone
# (tests/program_flag_lock.c): the renames in <weft/dropin.h> make them switch points,
# so random, PCT and POS each find the early release (an assertion) within 2,000
# executions, and the fixed lock passes 2,000 of each (its spinners never hang).
# Without those renames the buggy program passes every execution.
dir=$1
fail() { echo "FAIL (program_flag_lock): $*"; exit 1; }
for s in random pct pos; do
	out=$("$dir/program_flag_lock_buggy_replay" --explore=$s --max-executions=2000 --quiet 2>/dev/null)
	[ $? -eq 1 ] && echo "$out" | grep -q ' verdict=assertion ' ||
		fail "$s did not find the early release: $out"
	out=$("$dir/program_flag_lock_fixed_replay" --explore=$s --max-executions=2000 --quiet 2>/dev/null) ||
		fail "$s failed the fixed lock: $out"
	echo "$out" | grep -q ' executions=2000 .* verdict=pass ' || fail "$s on the fixed lock: $out"
done
echo "program_flag_lock: random, pct and pos find the early release; the fixed lock passes 2,000 executions of each"
