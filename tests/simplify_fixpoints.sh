#!/bin/sh
# tests/simplify_fixpoints.sh REPLAY MINIMUM INPUT... - inputs at which the
# simplifier's rounds alone stop (local minima found by libFuzzer, more complex
# than the known minimum) simplify to the known minimum MINIMUM byte for byte:
# two threads merged, a call of another kind under a new schedule
# (reduce/reschedule.c).  Each input must start more complex than MINIMUM, so
# the test cannot pass by a copied reproducer.
replay=$1 minimum=$2; shift 2
fail=0 out=/tmp/weft-fixpoints.$$
want=$("$replay" --quiet --expect=fail --complexity "$minimum" 2>/dev/null | cut -d' ' -f1-4)
for input in "$@"; do
	was=$("$replay" --quiet --expect=fail --complexity "$input" 2>/dev/null | cut -d' ' -f1-4)
	if [ -z "$was" ] || [ "$was" = "$want" ]; then
		echo "FAIL: $input: complexity '$was' is not above the minimum $want"; fail=1; continue
	fi
	if ! "$replay" --quiet --simplify="$out" "$input" 2>"$out.log"; then
		echo "FAIL: $input: --simplify failed"; cat "$out.log"; fail=1; continue
	fi
	if ! cmp -s "$out" "$minimum"; then
		echo "FAIL: $input $was simplifies to$(od -An -tx1 "$out"), not $minimum $want"
		grep complexity "$out.log"; fail=1; continue
	fi
	echo "ok: $input $was -> $want ($(sed -n 's/.* in \([0-9]*\) runs$/\1/p' "$out.log") runs)"
done
rm -f "$out" "$out.log"
exit $fail
