#!/bin/sh
# tests/replay_exits.sh REPLAY - an operation that calls exit() ends its execution with a
# failure, never the tool (tests/target_exits.c, runner/exit_guard.c; issue 20, item 2),
# and so do _exit, _Exit and quick_exit (issue 29: they ended the process with their
# status, 0 a silent pass), on the backend WEFT_BACKEND names:
#   - replay: exit(0), exit(3), _exit(0), quick_exit(0), _Exit(4) are `validation`
#     failures naming the call and the operation, exit 1 (also with --json), 0 with
#     --expect=fail, and a later input in the same process still runs (the guard is
#     registered again);
#   - --systematic: finds the exit and exits 1 (0 would claim every interleaving fine);
#   - --explore=random: exits 1, not 3 (3 means --max-executions reached);
#   - an input without an exiting operation still passes, and the process's own exit
#     after the last input is untouched (exit 0).
replay=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
mkdir "$tmp/in"
trap 'rm -rf "$tmp"' EXIT
fail=0
printf '' > "$tmp/in/a-pass.bin"             # thread 0: bump
printf '\001' > "$tmp/in/b-exit0.bin"        # thread 0: exit_zero
printf '\002' > "$tmp/in/c-exit3.bin"        # thread 0: exit_three
printf '\003' > "$tmp/in/e-_exit0.bin"       # thread 0: underscore_exit, _exit(0)
printf '\004' > "$tmp/in/f-quick0.bin"       # thread 0: quick_exit_zero, quick_exit(0)
printf '\005' > "$tmp/in/g-_Exit4.bin"       # thread 0: big_exit, _Exit(4)
printf '' > "$tmp/in/h-pass.bin"
for spec in b-exit0:exit_zero:"exit(0)" c-exit3:exit_three:"exit(3)" \
	    e-_exit0:underscore_exit:"_exit(0)" f-quick0:quick_exit_zero:"quick_exit(0)" \
	    g-_Exit4:big_exit:"_Exit(4)"; do
	f=${spec%%:*} rest=${spec#*:}
	name=${rest%%:*} call=${rest#*:}
	timeout 20 "$replay" "$tmp/in/$f.bin" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 1 ] || { echo "FAIL: $f replays with exit $rc, want 1"; cat "$tmp/out"; fail=1; }
	grep -qF "==weft== FAIL validation in exits: thread 0 called $call in $name(): an operation must return" "$tmp/out" ||
		{ echo "FAIL: $f's report does not name $call:"; cat "$tmp/out"; fail=1; }
	timeout 20 "$replay" --expect=validation "$tmp/in/$f.bin" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 0 ] || { echo "FAIL: $f with --expect=validation exits $rc, want 0"; cat "$tmp/out"; fail=1; }
	timeout 20 "$replay" --expect=fail "$tmp/in/$f.bin" > "$tmp/out" 2>&1; rc=$?
	[ "$rc" = 0 ] || { echo "FAIL: $f with --expect=fail exits $rc, want 0"; cat "$tmp/out"; fail=1; }
	timeout 20 "$replay" --json "$tmp/in/$f.bin" > "$tmp/out" 2> /dev/null; rc=$?
	[ "$rc" = 1 ] && grep -q '"validation"' "$tmp/out" ||
		{ echo "FAIL: $f with --json exits $rc, or its JSON has no validation verdict"; cat "$tmp/out"; fail=1; }
done
# every input of a directory runs, in one process, after five exits
timeout 20 "$replay" "$tmp/in" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: the directory replays with exit $rc, want 1"; fail=1; }
grep -q "7 inputs, 5 with an unexpected verdict" "$tmp/out" ||
	{ echo "FAIL: not every input of the directory ran:"; tail -3 "$tmp/out"; fail=1; }
printf '' > "$tmp/pass.bin"
timeout 20 "$replay" "$tmp/pass.bin" > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 0 ] || { echo "FAIL: a passing input exits $rc, want 0"; cat "$tmp/out"; fail=1; }
(cd "$tmp" && timeout 60 "$replay" --systematic --quiet --threads=2 --out="$tmp/sys.bin") > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: --systematic exits $rc, want 1 (a failure found)"; tail -5 "$tmp/out"; fail=1; }
grep -q "called exit(0)" "$tmp/out" || { echo "FAIL: --systematic does not report the exit:"; tail -5 "$tmp/out"; fail=1; }
(cd "$tmp" && timeout 60 "$replay" --explore=random --max-executions=200 --quiet) > "$tmp/out" 2>&1; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: --explore=random exits $rc, want 1 (a failure found)"; tail -5 "$tmp/out"; fail=1; }
[ "$fail" = 0 ] && echo "replay_exits: exit() inside an execution is a failure, in every mode ($WEFT_BACKEND)"
exit $fail
