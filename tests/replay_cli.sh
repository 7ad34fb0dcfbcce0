#!/bin/sh
# tests/replay_cli.sh REPLAY CORPUS_DIR - the replay tool's command line: true
# --help, exit codes 0/1/2, clear messages on bad flags and unreadable files.
replay=$1 corpus=$2
fail=0
expect_exit() {  # expect_exit CODE DESCRIPTION -- ARGS...
	want=$1 what=$2; shift 3
	"$replay" "$@" >/tmp/weft-cli.$$ 2>&1; got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $what: exit $got, want $want"; cat /tmp/weft-cli.$$; fail=1
	fi
}
expect_exit 0 "--help" -- --help
grep -q -- "--expect=VALUE" /tmp/weft-cli.$$ || { echo "FAIL: --help does not list --expect"; fail=1; }
grep -q -- "--minimize=VALUE" /tmp/weft-cli.$$ || { echo "FAIL: --help does not list --minimize"; fail=1; }
expect_exit 2 "no input" --
expect_exit 2 "unknown flag" -- --bogus "$corpus"
grep -q "unknown or malformed option '--bogus'" /tmp/weft-cli.$$ || { echo "FAIL: no message for --bogus"; fail=1; }
expect_exit 2 "flag value missing" -- --expect "$corpus"
expect_exit 2 "bad --expect" -- --expect=maybe "$corpus"
expect_exit 2 "missing file" -- /nonexistent/weft-input
grep -q "cannot read /nonexistent/weft-input" /tmp/weft-cli.$$ || { echo "FAIL: no message for a missing file"; fail=1; }
expect_exit 1 "failing input, expecting pass" -- "$corpus"
grep -q "==weft== FAIL linearizability" /tmp/weft-cli.$$ || { echo "FAIL: no report printed"; fail=1; }
expect_exit 0 "failing input, expecting linearizability" -- --expect=linearizability "$corpus"
expect_exit 0 "--expect=fail" -- --quiet --expect=fail "$corpus"
expect_exit 2 "--minimize with two inputs" -- --minimize=/tmp/weft-min.$$ "$corpus"/* "$corpus"/*
printf '' > /tmp/weft-pass.$$
expect_exit 1 "--minimize on a passing input" -- --minimize=/tmp/weft-min.$$ /tmp/weft-pass.$$
grep -q "passes: nothing to minimize" /tmp/weft-cli.$$ || { echo "FAIL: no message for a passing input"; fail=1; }
printf '\000\006\000\000\006' > /tmp/weft-big.$$
"$replay" --quiet --expect=fail /tmp/weft-big.$$ >/dev/null 2>&1 || { echo "FAIL: test input should fail"; fail=1; }
expect_exit 0 "--minimize a failing input" -- --quiet --minimize=/tmp/weft-min.$$ /tmp/weft-big.$$
[ "$(od -An -tx1 /tmp/weft-min.$$ | tr -d ' ')" = 00000003 ] ||
	{ echo "FAIL: minimized to $(od -An -tx1 /tmp/weft-min.$$), want 00 00 00 03"; fail=1; }
rm -f /tmp/weft-cli.$$ /tmp/weft-min.$$ /tmp/weft-pass.$$ /tmp/weft-big.$$
[ $fail = 0 ] && echo "replay_cli: all checks passed"
exit $fail
