#!/bin/sh
# tests/replay_timeout_batch.sh REPLAY - a batch replay reports every input, the one
# that hung included (issue 30 item 6): REPLAY is program_blind_wait_replay
# (tests/program_blind_wait.c), whose input 07 02 spins without a switch point for good
# and whose empty input passes.  With --timeout=1, inputs pass, hang, pass, then a
# directory (pass, hang, pass): each gets its line in order, the two that hung the
# timeout, and the batch goes on after them (before: it stopped at the first hang, with
# no line for any later input); the summary counts all six, exit 1.
replay=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$replay" ] || fail "$replay is missing"
: > "$tmp/ok"
printf '\007\002' > "$tmp/hang"
printf '\001' > "$tmp/ok2"
mkdir "$tmp/dir"
: > "$tmp/dir/a"
printf '\007\002' > "$tmp/dir/b"
: > "$tmp/dir/c"
set -- "$tmp/ok" "$tmp/hang" "$tmp/ok2" "$tmp/dir"

"$replay" --timeout=1 --hash "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "--hash: exit $rc, expected 1: $(cat "$tmp/err")"
verdicts=$(awk '{print $2}' "$tmp/out" | tr '\n' ' ')   # "<hash> <verdict> ..." or "- timeout - <file>"
[ "$verdicts" = "pass timeout pass pass timeout pass " ] ||
	fail "--hash: the lines' verdicts are '$verdicts': $(cat "$tmp/out")"
[ "$(sed -n 5p "$tmp/out")" = "- timeout - $tmp/dir/b" ] || fail "--hash: line 5 is '$(sed -n 5p "$tmp/out")'"
[ "$(grep -c '^==weft== TIMEOUT in program_blind_wait: input .*hang\|^==weft== TIMEOUT in program_blind_wait: input .*dir/b' "$tmp/err")" -eq 2 ] ||
	fail "--hash: not two TIMEOUT lines: $(grep TIMEOUT "$tmp/err")"
grep -q "^weft-replay: 6 inputs, 2 with an unexpected verdict" "$tmp/err" ||
	fail "--hash: the summary: $(grep '^weft-replay' "$tmp/err")"

"$replay" --timeout=1 --json "$@" > "$tmp/json" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/json")" -eq 6 ] && [ "$(grep -c '"verdict": "timeout"' "$tmp/json")" -eq 2 ] &&
	sed -n 2p "$tmp/json" | grep -q '"verdict": "timeout"' || fail "--json: exit $rc: $(cut -c1-80 "$tmp/json")"

"$replay" --timeout=1 "$@" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^==weft== TIMEOUT' "$tmp/err")" -eq 2 ] &&
	grep -q "^weft-replay: 6 inputs, 2 with an unexpected verdict" "$tmp/err" ||
	fail "plain: exit $rc: $(cat "$tmp/err")"
echo "replay_timeout_batch: six inputs, two hang: every input gets its line, the batch goes on, exit 1"
