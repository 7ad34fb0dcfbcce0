#!/bin/sh
# tests/program_rand.sh REPLAY N - libc's pseudo-random generators start every
# execution as in a fresh process (runner/program_env.c, weft_program_env_reset):
# tests/program_rand.c, whose verdict is which of two threads drew first from
# rand() and drand48(), gives for each of N generated inputs and two failing ones,
# replayed one after another in one process, exactly the verdict and trace hash of
# a fresh process, and the inputs include passing and failing ones.  Without the
# reset the comparison fails (most inputs after the first draw other values).
replay=$1 n=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (program_rand): $*"; exit 1; }
mkdir "$tmp/in"
awk -v n="$n" -v dir="$tmp/in" 'BEGIN {
	srand(23)
	for (i = 0; i < n; i++) {
		f = sprintf("%s/%04d", dir, i); len = 1 + int(rand() * 6); s = ""
		for (k = 0; k < len; k++) s = s sprintf("%c", 1 + int(rand() * (rand() < 0.5 ? 8 : 255)))
		printf "%s", s > f; close(f)
	}
}'
# and two inputs on which the second worker draws first (the assertion fails), so that
# failing inputs are there whatever N is
printf '\007\002\057\006' > "$tmp/in/fail-1"
printf '\002\003\007\012\236\001' > "$tmp/in/fail-2"
n=$((n + 2))
"$replay" --hash "$tmp/in" > "$tmp/one" 2>/dev/null
[ "$(wc -l < "$tmp/one")" -eq "$n" ] || fail "one process: $(wc -l < "$tmp/one") lines for $n inputs"
for f in "$tmp"/in/*; do
	"$replay" --hash "$f" 2>/dev/null
done > "$tmp/fresh"
cmp -s "$tmp/one" "$tmp/fresh" || { diff "$tmp/one" "$tmp/fresh" | head -5; fail "verdicts in one process differ from fresh processes (a generator's state carried over)"; }
passes=$(grep -c ' pass ' "$tmp/fresh") failures=$(grep -c ' assertion ' "$tmp/fresh")
[ "$passes" -gt 0 ] && [ "$failures" -gt 0 ] || fail "want passing and failing inputs: $passes pass, $failures assertion"
echo "program_rand: $n inputs ($passes pass, $failures assertion) give the fresh-process verdict and trace in one process"
