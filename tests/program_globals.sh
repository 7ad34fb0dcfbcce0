#!/bin/sh
# tests/program_globals.sh REPLAY N - a program that never resets its globals
# (targets/lazy_init.c) gives, for each of N generated inputs replayed one after
# another in one process, exactly the verdict and trace hash it gives in a fresh
# process (issue 22: harness/program_main.c restores the program's data and bss
# before every execution).  It must also be able to fail: with the reset off
# (WEFT_PROGRAM_GLOBALS=keep) the same comparison must differ, and the inputs
# must include both passing and failing ones.
replay=$1 n=${2:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/in"
# N inputs of 1..6 bytes from a fixed seed, biased to small bytes (the format's choices)
awk -v n="$n" -v dir="$tmp/in" 'BEGIN {
	srand(22)
	for (i = 0; i < n; i++) {
		f = sprintf("%s/%04d", dir, i); len = 1 + int(rand() * 6); s = ""
		for (k = 0; k < len; k++) s = s sprintf("%c", 1 + int(rand() * (rand() < 0.5 ? 8 : 255)))
		printf "%s", s > f; close(f)
	}
}'
[ "$(ls "$tmp/in" | wc -l)" -eq "$n" ] || fail "could not write $n inputs"
# one process, every input in order (exit 1 when some fail: expected)
"$replay" --hash "$tmp/in" > "$tmp/one" 2>/dev/null
[ "$(wc -l < "$tmp/one")" -eq "$n" ] || fail "one process: $(wc -l < "$tmp/one") lines for $n inputs"
WEFT_PROGRAM_GLOBALS=keep "$replay" --hash "$tmp/in" > "$tmp/keep" 2>/dev/null
# a fresh process per input
for f in "$tmp"/in/*; do
	"$replay" --hash "$f" 2>/dev/null
done > "$tmp/fresh"
cmp -s "$tmp/one" "$tmp/fresh" || { diff "$tmp/one" "$tmp/fresh" | head -5; fail "verdicts in one process differ from fresh processes"; }
passes=$(grep -c ' pass ' "$tmp/fresh") failures=$(grep -c ' assertion ' "$tmp/fresh")
[ "$passes" -gt 0 ] && [ "$failures" -gt 0 ] || fail "want passing and failing inputs: $passes pass, $failures assertion"
cmp -s "$tmp/keep" "$tmp/fresh" && fail "with the globals kept the verdicts are the same: this test cannot fail"
differ=$(diff "$tmp/keep" "$tmp/fresh" | grep -c '^<')
echo "program_globals: $n inputs ($passes pass, $failures assertion) give the fresh-process verdict and trace in one process; with the globals kept, $differ differ"
