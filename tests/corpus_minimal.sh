#!/bin/sh
# tests/corpus_minimal.sh REPLAY DIR - every reproducer in DIR is already as
# simple as weft's minimizer can make it (REPLAY --minimize leaves it byte for
# byte unchanged), and minimizing is deterministic (twice, same bytes).  A
# reproducer that stops being minimal after a code change shows up here.
replay=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	"$replay" --quiet --minimize="$tmp/a" "$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "--minimize $f"; }
	"$replay" --quiet --minimize="$tmp/b" "$f" > "$tmp/log" 2>&1 || fail "--minimize $f (again)"
	cmp -s "$tmp/a" "$tmp/b" || fail "minimizing $f is not deterministic"
	cmp -s "$tmp/a" "$f" || fail "$f is not minimal; weft minimizes it to: $(od -An -tx1 "$tmp/a")"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no reproducers in $dir"
echo "corpus_minimal: $n reproducers in $dir are minimal"
