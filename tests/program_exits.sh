#!/bin/sh
# tests/program_exits.sh REPLAY - a program thread's _exit, _Exit and quick_exit
# end the execution, never the process (issue 29; runner/exit_guard.c,
# tests/program_exits.c), through the drop-in header and by symbol: status 0
# passes (the rule of exit(0): the process would have succeeded), any other
# status is `validation` naming the call; the replay tool always goes on to its
# summary line.  Before, the process ended with the program's status: _exit(0)
# was a silent pass even with --expect=fail.
replay=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
: > "$tmp/in"
for how in _exit _Exit quick_exit sym_exit sym_quick_exit; do
	case $how in sym_exit) call=_exit ;; sym_quick_exit) call=quick_exit ;; *) call=$how ;; esac
	WEFT_TEST_EXIT=$how WEFT_TEST_STATUS=0 timeout 20 "$replay" "$tmp/in" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 0 ] && grep -q "weft-replay: 1 inputs, 0 with an unexpected verdict" "$tmp/out" ||
		{ echo "FAIL: $how(0) exits $rc, or the tool did not go on to its summary"; cat "$tmp/out"; fail=1; }
	WEFT_TEST_EXIT=$how WEFT_TEST_STATUS=0 timeout 20 "$replay" --expect=fail "$tmp/in" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 1 ] || { echo "FAIL: $how(0) with --expect=fail exits $rc, want 1 (a pass)"; cat "$tmp/out"; fail=1; }
	WEFT_TEST_EXIT=$how WEFT_TEST_STATUS=3 timeout 20 "$replay" "$tmp/in" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 1 ] || { echo "FAIL: $how(3) exits $rc, want 1"; cat "$tmp/out"; fail=1; }
	grep -q "^==weft== FAIL validation in program_exits: thread 1 called $call(3)$" "$tmp/out" ||
		{ echo "FAIL: $how(3) is not a validation failure naming $call(3):"; cat "$tmp/out"; fail=1; }
done
(cd "$tmp" && WEFT_TEST_EXIT=sym_exit WEFT_TEST_STATUS=3 timeout 60 "$replay" --systematic --quiet) \
	> "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q "called _exit(3)" "$tmp/out" ||
	{ echo "FAIL: --systematic exits $rc without the _exit(3) failure"; tail -5 "$tmp/out"; fail=1; }
(cd "$tmp" && WEFT_TEST_EXIT=quick_exit WEFT_TEST_STATUS=3 timeout 60 "$replay" --explore=random \
	--max-executions=20 --quiet) > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: --explore=random exits $rc, want 1 (a failure found)"; tail -5 "$tmp/out"; fail=1; }
[ "$fail" = 0 ] && echo "program_exits: _exit, _Exit, quick_exit end the execution, never the process ($WEFT_BACKEND)"
exit $fail
