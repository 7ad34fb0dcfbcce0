#!/bin/sh
# tests/replay_timeout.sh REPLAY - an operation that loops without a switch point
# (tests/target_loops_forever.c) does not hang the replay tool: --timeout names
# the input and the looping operation and exits 1, on the backend WEFT_BACKEND
# names; an input that finishes is not touched by the watchdog; a bad --timeout
# is refused (issue 20, item 2).
replay=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
printf '' > "$tmp/loops.bin"          # the empty input: op 0, wait_forever
printf '\001' > "$tmp/finishes.bin"   # op 1, nothing
timeout 20 "$replay" --timeout=1 "$tmp/loops.bin" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: a looping input exits $rc, want 1"; fail=1; }
grep -q "^==weft== TIMEOUT in loops_forever: input $tmp/loops.bin ran longer than 1 s: thread 0 was running wait_forever()" "$tmp/out" ||
	{ echo "FAIL: the timeout does not name the input and the operation:"; cat "$tmp/out"; fail=1; }
timeout 20 "$replay" --timeout=1 "$tmp/finishes.bin" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 0 ] || { echo "FAIL: a finishing input exits $rc, want 0"; cat "$tmp/out"; fail=1; }
! grep -q TIMEOUT "$tmp/out" || { echo "FAIL: the watchdog fired on a finishing input"; fail=1; }
for bad in --timeout= --timeout=x --timeout=86401 --timeout=-1; do
	timeout 20 "$replay" "$bad" "$tmp/finishes.bin" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 2 ] || { echo "FAIL: $bad exits $rc, want 2"; fail=1; }
done
[ "$fail" = 0 ] && echo "replay_timeout: a loop without a switch point is reported, not hung ($WEFT_BACKEND)"
exit $fail
