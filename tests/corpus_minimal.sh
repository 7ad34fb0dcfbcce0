#!/bin/sh
# tests/corpus_minimal.sh REPLAY DIR - every reproducer in DIR is already as
# simple as weft's minimizer can make it (REPLAY --minimize leaves it byte for
# byte unchanged), and minimizing is deterministic (twice, same bytes).  A
# reproducer that stops being minimal after a code change shows up here.
replay=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	"$replay" --quiet --minimize="$tmp/a" "$f" > "$tmp/log" 2>&1 || { echo "FAIL: --minimize $f"; cat "$tmp/log"; exit 1; }
	"$replay" --quiet --minimize="$tmp/b" "$f" > "$tmp/log" 2>&1 || { echo "FAIL: --minimize $f (again)"; exit 1; }
	cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: minimizing $f is not deterministic"; exit 1; }
	cmp -s "$tmp/a" "$f" || { echo "FAIL: $f is not minimal; weft minimizes it to: $(od -An -tx1 "$tmp/a")"; exit 1; }
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no reproducers in $dir"; exit 1; }
echo "corpus_minimal: $n reproducers in $dir are minimal"
