#!/bin/sh
# tests/program_globals.sh REPLAY N [globals|-] [HEX...] - a program's state is a fresh
# process's at every execution: for each of N generated inputs (and each HEX, an input
# written in hex) replayed one after another in one process, exactly the verdict and
# trace hash it gives in a fresh process, and the inputs include passing and failing ones.
#   - targets/lazy_init.c never resets its globals (issue 22: harness/program_main.c
#     restores the program's data and bss before every execution).  With "globals" the
#     test must also be able to fail: with the reset off (WEFT_PROGRAM_GLOBALS=keep)
#     the same comparison must differ.
#   - tests/program_rand.c draws from rand() and drand48(), whose state is libc's, not
#     the program's (runner/program_env.c resets it); "-": no globals to keep.
replay=$1 n=${2:-1000} keep=${3:-globals}
[ $# -ge 3 ] && shift 3 || shift $#
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
unhex() {  # unhex HEX: the bytes (POSIX printf has octal escapes only)
	h=$1 o=
	while [ -n "$h" ]; do o="$o$(printf '\\%03o' $((0x${h%"${h#??}"})))"; h=${h#??}; done
	printf "$o"
}
for hex in "$@"; do   # named after the generated ones, so they run last
	n=$((n + 1))
	unhex "$hex" > "$tmp/in/x-$hex"
done
# one process, every input in order (exit 1 when some fail: expected)
"$replay" --hash "$tmp/in" > "$tmp/one" 2>/dev/null
[ "$(wc -l < "$tmp/one")" -eq "$n" ] || fail "one process: $(wc -l < "$tmp/one") lines for $n inputs"
# a fresh process per input
for f in "$tmp"/in/*; do
	"$replay" --hash "$f" 2>/dev/null
done > "$tmp/fresh"
cmp -s "$tmp/one" "$tmp/fresh" || { diff "$tmp/one" "$tmp/fresh" | head -5; fail "verdicts in one process differ from fresh processes"; }
passes=$(grep -c ' pass ' "$tmp/fresh") failures=$(grep -c ' assertion ' "$tmp/fresh")
[ "$passes" -gt 0 ] && [ "$failures" -gt 0 ] || fail "want passing and failing inputs: $passes pass, $failures assertion"
summary="$n inputs ($passes pass, $failures assertion) give the fresh-process verdict and trace in one process"
if [ "$keep" = globals ]; then
	WEFT_PROGRAM_GLOBALS=keep "$replay" --hash "$tmp/in" > "$tmp/keep" 2>/dev/null
	cmp -s "$tmp/keep" "$tmp/fresh" && fail "with the globals kept the verdicts are the same: this test cannot fail"
	summary="$summary; with the globals kept, $(diff "$tmp/keep" "$tmp/fresh" | grep -c '^<') differ"
fi
echo "program_globals ($(basename "$replay")): $summary"
