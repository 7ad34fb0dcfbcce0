#!/bin/sh
# tests/simplify_canonical.sh REPLAY CANONICAL INPUT... - crashes of one bug
# that the simplifier used to leave at different places (another spelling of
# the minimum: the same complexity, another interleaving or other arguments;
# or a fixed point above it) all simplify to CANONICAL byte for byte, and so
# report the same interleaving (reduce/simplify.c: the canonical tie-break,
# threads exchanged under new schedules, argument pairs).  Each input must
# differ from CANONICAL, so the test cannot pass by a copied reproducer.
replay=$1 canonical=$2; shift 2
fail=0 out=/tmp/weft-canonical.$$
want=$("$replay" --quiet --expect=fail --complexity "$canonical" 2>/dev/null | cut -d' ' -f1-4)
[ -n "$want" ] || { echo "FAIL: $canonical does not fail"; exit 1; }
for input in "$@"; do
	was=$("$replay" --quiet --expect=fail --complexity "$input" 2>/dev/null | cut -d' ' -f1-4)
	if [ -z "$was" ] || cmp -s "$input" "$canonical"; then
		echo "FAIL: $input: does not fail ('$was') or is $canonical itself"; fail=1; continue
	fi
	if ! "$replay" --quiet --simplify="$out" "$input" 2>"$out.log"; then
		echo "FAIL: $input: --simplify failed"; cat "$out.log"; fail=1; continue
	fi
	if ! cmp -s "$out" "$canonical"; then
		echo "FAIL: $input $was simplifies to$(od -An -tx1 "$out"), not $canonical$(od -An -tx1 "$canonical") $want"
		grep complexity "$out.log"; fail=1; continue
	fi
	echo "ok: $input $was -> $want ($(sed -n 's/.* in \([0-9]*\) runs$/\1/p' "$out.log") runs)"
done
rm -f "$out" "$out.log"
exit $fail
