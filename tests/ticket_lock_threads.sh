#!/bin/sh
# tests/ticket_lock_threads.sh DIR - a bug that needs 9 threads at once
# (targets/ticket_lock.c: 3-bit tickets) is within reach now that scenarios have up
# to 16 threads, and only with 9 or more:
#   - random, POS and uniform sampling find no failure in 20,000 scenarios of 2..8
#     threads (the tickets never wrap onto the holder's);
#   - each finds it within 20,000 scenarios of 9..12 threads;
#   - the reproducer in corpus/ticket_lock runs 9 threads (its minimality:
#     corpus/README.md; corpus_ticket_lock replays it).
dir=$1
corpus=$(cd "$(dirname "$0")/../corpus/ticket_lock" && pwd)
fail() { echo "FAIL (ticket_lock_threads): $*"; exit 1; }
for s in random pos uniform; do
	out=$("$dir/ticket_lock_buggy_replay" --explore=$s --threads=2..8 --max-executions=20000 --quiet 2>&1) ||
		fail "$s found a failure with at most 8 threads: $out"
	out=$("$dir/ticket_lock_buggy_replay" --explore=$s --threads=9..12 --max-executions=20000 --quiet 2>&1)
	[ $? -eq 1 ] || fail "$s found nothing in 20,000 scenarios of 9..12 threads: $out"
	found="$found $s $(echo "$out" | sed -n 's/.* executions=\([0-9]*\) .*/\1/p')"
done
report=$("$dir/ticket_lock_buggy_replay" "$corpus/ticket-wrap.linearizability.bin" 2>&1)
echo "$report" | grep -q '^==weft== 9 threads, ' || fail "the reproducer does not run 9 threads: $(echo "$report" | head -2)"
echo "ticket_lock_threads: nothing with 2..8 threads in 20,000 scenarios each; with 9..12 found after (executions):$found"
