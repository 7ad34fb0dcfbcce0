#!/bin/sh
# tests/replay_cli.sh REPLAY REPRODUCER - the replay tool's command line: true
# --help, exit codes 0/1/2, clear messages on bad flags and unreadable files,
# --simplify, --complexity, --json.  REPRODUCER fails the counter (lost update).
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
for flag in --simplify=VALUE --json --complexity; do
	grep -q -- "$flag" /tmp/weft-cli.$$ || { echo "FAIL: --help does not list $flag"; fail=1; }
done
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
expect_exit 2 "--simplify with two inputs" -- --simplify=/tmp/weft-min.$$ "$corpus" "$corpus"
printf '' > /tmp/weft-pass.$$
expect_exit 1 "--simplify on a passing input" -- --simplify=/tmp/weft-min.$$ /tmp/weft-pass.$$
grep -q "does not fail (pass): nothing to simplify" /tmp/weft-cli.$$ || { echo "FAIL: no message for a passing input"; fail=1; }
expect_exit 2 "--simplify to an unwritable file" -- --simplify=/nonexistent/dir/out "$corpus"
grep -q "cannot write /nonexistent/dir/out" /tmp/weft-cli.$$ || { echo "FAIL: no message for an unwritable output"; fail=1; }
# three increments, the second preempted at its store: simplifies to the minimum
printf '\001\005\000\000' > /tmp/weft-big.$$
"$replay" --quiet --expect=fail /tmp/weft-big.$$ >/dev/null 2>&1 || { echo "FAIL: test input should fail"; fail=1; }
expect_exit 0 "--simplify a failing input" -- --quiet --simplify=/tmp/weft-min.$$ /tmp/weft-big.$$
[ "$(od -An -tx1 /tmp/weft-min.$$ | tr -d ' ')" = 05 ] ||
	{ echo "FAIL: simplified to $(od -An -tx1 /tmp/weft-min.$$), want 05"; fail=1; }
grep -q "complexity (preemptions, switches, operations, threads) (1, 1, 3, 2) -> (1, 1, 2, 2)" /tmp/weft-cli.$$ ||
	{ echo "FAIL: complexity line"; cat /tmp/weft-cli.$$; fail=1; }
expect_exit 0 "--complexity" -- --complexity --quiet --expect=fail /tmp/weft-big.$$
grep -q "^(1, 1, 3, 2) linearizability /tmp/weft-big" /tmp/weft-cli.$$ || { echo "FAIL: --complexity output"; cat /tmp/weft-cli.$$; fail=1; }
"$replay" --json --expect=fail "$corpus" > /tmp/weft-json.$$ 2>/dev/null || { echo "FAIL: --json exit"; fail=1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]=="linearizability" and d["preemptions"]==1, d' /tmp/weft-json.$$ ||
	{ echo "FAIL: --json is not the expected JSON"; cat /tmp/weft-json.$$; fail=1; }
# JSON Lines (issue 20, item 5): one object per input on one line each, passing inputs
# too, steps numbered from 1 as in the text report
printf '' > /tmp/weft-pass.$$
"$replay" --json --expect=fail "$corpus" /tmp/weft-pass.$$ > /tmp/weft-json.$$ 2>/dev/null
python3 -c '
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and len(lines) == 3, "want 2 lines, got %r" % lines
a, b = (json.loads(l) for l in lines[:2])
assert a["verdict"] == "linearizability" and b["verdict"] == "pass", (a["verdict"], b["verdict"])
assert a["interleaving"][0]["step"] == 1 and a["history"][0]["invoked_at"] == 1, a["interleaving"][0]
text = [e["step"] for e in a["interleaving"]]
assert text == list(range(1, len(text) + 1)), text
' /tmp/weft-json.$$ || { echo "FAIL: --json is not JSON Lines"; cat /tmp/weft-json.$$; fail=1; }
rm -f /tmp/weft-json.$$
rm -f /tmp/weft-cli.$$ /tmp/weft-min.$$ /tmp/weft-pass.$$ /tmp/weft-big.$$
[ $fail = 0 ] && echo "replay_cli: all checks passed"
exit $fail
