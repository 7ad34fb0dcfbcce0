#!/bin/sh
# tests/replay_stats.sh BINDIR CORPUS - `NAME_replay --stats` counts what it ran: on
# three hash_set inputs (the two seeds and the double-add reproducer, copied so a new
# corpus file cannot change the figures) the table is exactly the one below, and the
# same on either backend; a malformed --stats is refused.  The figures, by hand:
# seed-simplest is 2 threads x add(1); seed-three-threads is add(1); contains(1) |
# remove(1) | add(2) (one thread with 2 operations); the reproducer is 2 threads x
# add(1) with 1 preemption and fails: 8 operations, add 6 of them, add(1) 5.
bin=$1 corpus=$2
replay=$bin/hash_set_buggy_replay
tmp=${TMPDIR:-/tmp}/weft-stats.$$
mkdir -p "$tmp/in" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for f in seed-simplest seed-three-threads double-add.linearizability; do
	cp "$corpus/hash_set/$f.bin" "$tmp/in/" || fail "no $corpus/hash_set/$f.bin"
done
"$replay" --stats --quiet --expect=pass "$tmp/in" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ "$rc" = 1 ] || fail "exit $rc, want 1 (one input fails, --expect=pass)"
cat > "$tmp/want" <<'TABLE'
==weft== statistics of 3 executions of hash_set_buggy
threads per execution                       count       %
  2                                             2    66.7  #############
  3                                             1    33.3  #######
operations per thread                       count       %
  1                                             6    85.7  #################
  2                                             1    14.3  ###
operation kinds                             count       %  (every kind the threads may run, 0 too)
  add                                           6    75.0  ###############
  remove                                        1    12.5  ###
  contains                                      1    12.5  ###
calls with their arguments                  count       %  (in order first seen)
  add(1)                                        5    62.5  #############
  contains(1)                                   1    12.5  ###
  remove(1)                                     1    12.5  ###
  add(2)                                        1    12.5  ###
preemptions per execution                   count       %
  0                                             2    66.7  #############
  1                                             1    33.3  #######
verdicts                                    count       %
  pass                                          2    66.7  #############
  linearizability                               1    33.3  #######
linearizability checks that gave up (unknown): 0 of 3 executions
operations without a switch point: 0 of 8
TABLE
cmp -s "$tmp/want" "$tmp/out" || { diff "$tmp/want" "$tmp/out"; fail "the table differs"; }
"$replay" --stats=yes "$tmp/in" > /dev/null 2> "$tmp/err"; rc=$?
[ "$rc" = 2 ] || fail "--stats=yes: exit $rc, want 2"
grep -q "unknown or malformed option '--stats=yes'" "$tmp/err" || fail "--stats=yes: $(cat "$tmp/err")"
echo "replay_stats: the table of 3 inputs is exact on ${WEFT_BACKEND:-the default backend}"
