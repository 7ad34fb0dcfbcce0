#!/bin/sh
# tests/corpus_replay.sh BUGGY_REPLAY FIXED_REPLAY DIR - the regression corpus of
# one data structure (naming in corpus/README.md):
#   NAME.KIND.bin  a reproducer: the buggy variant fails with verdict KIND, the
#                  fixed one passes, and it is already as simple as weft makes it
#                  (REPLAY --simplify leaves it byte for byte unchanged, twice);
#   seed-NAME.bin  a seed input: both variants pass.
# Any other file name is an error, so a misnamed reproducer cannot go unchecked.
buggy=$1 fixed=$2 dir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect REPLAY VERDICT FILE
	"$1" --quiet --expect="$2" "$3" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$(basename "$1") on $3: want $2"; }
}
reproducers=0 seeds=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case $name in
	README*) continue ;;
	seed-*.bin)
		expect "$buggy" pass "$f"; expect "$fixed" pass "$f"
		seeds=$((seeds + 1)) ;;
	*.*.bin)
		kind=${name%.bin}; kind=${kind##*.}
		expect "$buggy" "$kind" "$f"; expect "$fixed" pass "$f"
		"$buggy" --quiet --simplify="$tmp/a" "$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "--simplify $f"; }
		"$buggy" --quiet --simplify="$tmp/b" "$f" > "$tmp/log" 2>&1 || fail "--simplify $f (again)"
		cmp -s "$tmp/a" "$tmp/b" || fail "simplifying $f is not deterministic"
		cmp -s "$tmp/a" "$f" || fail "$f is not simplest; weft simplifies it to: $(od -An -tx1 "$tmp/a")"
		reproducers=$((reproducers + 1)) ;;
	*) fail "$f: name it NAME.KIND.bin (a reproducer) or seed-NAME.bin (a seed)" ;;
	esac
done
[ "$reproducers" -gt 0 ] || fail "no reproducers in $dir"
echo "corpus_replay: $dir: $reproducers reproducers fail as named and are simplest, $seeds seeds pass; the fixed variant passes all"
