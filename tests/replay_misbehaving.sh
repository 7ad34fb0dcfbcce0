#!/bin/sh
# tests/replay_misbehaving.sh REPLAY - the replay tool names what a misbehaving target
# did instead of hanging or dying mute (tests/target_misbehaves.c; issue 20, item 2), on
# the backend WEFT_BACKEND names:
#   - an operation looping without a switch point: --timeout names the input and the
#     operation, exit 1; an input that finishes is untouched; a bad --timeout is exit 2;
#     in a batch with --hash, stdout (a pipe) has every input's line, the one that hung
#     included ("- timeout - FILE"; issue 30: the lines before it were lost with it);
#   - 2 MiB of recursion: on fibers, a crash that says the fiber stack overflowed and how
#     to get bigger stacks; on pthreads, it fits and passes.
replay=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
printf '' > "$tmp/finishes.bin"      # op 0, nothing
printf '\001' > "$tmp/loops.bin"     # op 1, wait_forever
printf '\002' > "$tmp/recurse.bin"   # op 2, recurse
timeout 20 "$replay" --timeout=1 "$tmp/loops.bin" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: a looping input exits $rc, want 1"; fail=1; }
grep -q "^==weft== TIMEOUT in misbehaves: input $tmp/loops.bin ran longer than 1 s: thread 0 was running wait_forever()" "$tmp/out" ||
	{ echo "FAIL: the timeout does not name the input and the operation:"; cat "$tmp/out"; fail=1; }
timeout 20 "$replay" --timeout=1 "$tmp/finishes.bin" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 0 ] || { echo "FAIL: a finishing input exits $rc, want 0"; cat "$tmp/out"; fail=1; }
! grep -q "TIMEOUT\|CRASH" "$tmp/out" || { echo "FAIL: the watchdog fired on a finishing input"; fail=1; }
cp "$tmp/finishes.bin" "$tmp/finishes2.bin"
timeout 20 "$replay" --timeout=1 --hash "$tmp/finishes.bin" "$tmp/finishes2.bin" "$tmp/loops.bin" 2>/dev/null |
	cat > "$tmp/out"
[ "$(cut -d' ' -f2,4 "$tmp/out" | tr '\n' '|')" = "pass $tmp/finishes.bin|pass $tmp/finishes2.bin|timeout $tmp/loops.bin|" ] ||
	{ echo "FAIL: a batch with --hash does not print a line per input:"; cat "$tmp/out"; fail=1; }
for bad in --timeout= --timeout=x --timeout=86401 --timeout=-1; do
	timeout 20 "$replay" "$bad" "$tmp/finishes.bin" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 2 ] || { echo "FAIL: $bad exits $rc, want 2"; fail=1; }
done
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=0" \
	timeout 20 "$replay" "$tmp/recurse.bin" > "$tmp/out" 2>&1; rc=$?
case $WEFT_BACKEND in
fiber)
	[ "$rc" != 0 ] && [ "$rc" != 124 ] || { echo "FAIL: overflowing a fiber stack exits $rc"; fail=1; }
	grep -q "^==weft== CRASH in misbehaves: input $tmp/recurse.bin: a managed thread overflowed its [0-9]* KiB fiber stack" "$tmp/out" &&
		grep -q "WEFT_BACKEND=pthread" "$tmp/out" ||
		{ echo "FAIL: a fiber stack overflow is not named:"; head -5 "$tmp/out"; fail=1; } ;;
pthread)
	[ "$rc" = 0 ] || { echo "FAIL: 2 MiB of recursion on a pthread exits $rc:"; head -5 "$tmp/out"; fail=1; } ;;
*)	echo "FAIL: WEFT_BACKEND is '$WEFT_BACKEND'"; fail=1 ;;
esac
[ "$fail" = 0 ] && echo "replay_misbehaving: loops and stack overflows are named ($WEFT_BACKEND)"
exit $fail
