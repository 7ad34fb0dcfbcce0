#!/bin/sh
# tests/program_constructors.sh DIR N PROGRAM... - every execution starts as in a fresh
# process, constructors included (issue 30): for each PROGRAM (DIR/PROGRAM_replay), N
# generated inputs replayed one after another in one process give exactly the trace hash
# and verdict each gives in a fresh process, all pass; and the test can fail: with the
# constructors run once per process, as before (WEFT_PROGRAM_CONSTRUCTORS=once), the one
# process differs (targets/correct/cxx_globals.cpp crashes with a double free,
# c_constructor.c fails its assertion from the second execution on).
dir=$1 n=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/in"
awk -v n="$n" -v dir="$tmp/in" 'BEGIN {   # N inputs of 1..8 bytes from a fixed seed
	srand(30)
	for (i = 0; i < n; i++) {
		f = sprintf("%s/%04d", dir, i); len = 1 + int(rand() * 8); s = ""
		for (k = 0; k < len; k++) s = s sprintf("%c", 1 + int(rand() * (rand() < 0.5 ? 8 : 255)))
		printf "%s", s > f; close(f)
	}
}'
for program in "$@"; do
	replay=$dir/${program}_replay
	[ -x "$replay" ] || fail "$replay is missing"
	"$replay" --hash "$tmp/in" > "$tmp/one" 2>/dev/null
	for f in "$tmp"/in/*; do "$replay" --hash "$f" 2>/dev/null; done > "$tmp/fresh"
	[ "$(grep -c ' pass ' "$tmp/fresh")" -eq "$n" ] || fail "$program: not every fresh process passes"
	cmp -s "$tmp/one" "$tmp/fresh" || { diff "$tmp/one" "$tmp/fresh" | head -5
		fail "$program: one process differs from fresh processes"; }
	WEFT_PROGRAM_CONSTRUCTORS=once "$replay" --hash "$tmp/in" > "$tmp/once" 2>/dev/null
	cmp -s "$tmp/once" "$tmp/fresh" && fail "$program: constructors run once give the same: this test cannot fail"
	echo "program_constructors ($program): $n inputs in one process give the fresh-process trace and pass;" \
		"with the constructors run once, $(grep -c ' pass ' "$tmp/once") of $n pass"
done
