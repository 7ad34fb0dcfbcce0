#!/bin/sh
# tests/determinism_across_processes.sh REPLAY - the same inputs give the same
# trace hashes in two separate processes, and the hashes recorded in
# golden/counter_buggy_hashes.txt (made once, by another build and compiler):
# determinism across processes, compilers and machines.
# Regenerate the golden file after changing targets/counter.c or the trace format:
#   sh tests/determinism_across_processes.sh $PWD/build/clang/counter_buggy_replay --regenerate
replay=$1
here=$(cd "$(dirname "$0")" && pwd)
golden=$here/golden/counter_buggy_hashes.txt
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 200 inputs from a fixed LCG (no unseeded randomness), 0..31 bytes each.
LC_ALL=C awk -v dir="$dir" 'BEGIN {
	x = 12345
	for (i = 0; i < 200; i++) {
		f = sprintf("%s/in%03d", dir, i); printf "" > f
		x = (x * 1103515245 + 12345) % 2147483648; n = int(x / 65536) % 32
		for (j = 0; j < n; j++) {
			x = (x * 1103515245 + 12345) % 2147483648
			printf "%c", int(x / 65536) % (j % 4 == 0 ? 256 : 8) > f   # small values: preemptions
		}
		close(f)
	}
}'
(cd "$dir" && "$replay" --hash --quiet --expect=fail in*) > "$dir/first" 2>/dev/null
(cd "$dir" && "$replay" --hash --quiet --expect=fail in*) > "$dir/second" 2>/dev/null
n=$(wc -l < "$dir/first")
[ "$n" = 200 ] || { echo "FAIL: expected 200 hash lines, got $n"; exit 1; }
cmp -s "$dir/first" "$dir/second" || { echo "FAIL: two processes disagree"; diff "$dir/first" "$dir/second" | head; exit 1; }
if [ "${2:-}" = --regenerate ]; then
	mkdir -p "$here/golden" && cp "$dir/first" "$golden" && echo "wrote $golden"; exit 0
fi
cmp -s "$dir/first" "$golden" || { echo "FAIL: hashes differ from $golden"; diff "$golden" "$dir/first" | head; exit 1; }
fails=$(grep -c " linearizability " "$dir/first")
echo "determinism: 200 inputs, same hashes in two processes and as recorded ($fails failing)"
