#!/bin/sh
# tests/reduce_resume.sh BUILD - scripts/weft_reduce.sh --progress: a reduction that is
# stopped can be resumed from the smallest crash it had found (what weft_campaign.sh does
# when a session's deadline or a kill stops a reduction; campaign_kill.sh kills it for real).
#   1. --progress FILE: FILE is left holding a failing crash smaller than the one given;
#   2. resumed (FILE given as the crash): the same reproducer and report as a whole run;
#   3. a FILE left by another reduction is not reused: reduced from the crash given, FILE
#      rewritten by this one.
# The crash is a fixed 19-byte input on which counter_buggy fails (3 threads, preemptions).
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
reduce=$root/scripts/weft_reduce.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (reduce_resume): $*"; exit 1; }
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }
fails() { "$build/counter_buggy_replay" --quiet --expect=fail "$1" > /dev/null 2>&1; }

printf '\003\001\005\002\001\001\000\005\002\001\003\002\002\005\000\001\003\001\001' > "$tmp/crash"
fails "$tmp/crash" || fail "the fixed crash does not fail on counter_buggy"

sh "$reduce" --build "$build" counter_buggy "$tmp/crash" "$tmp/whole.bin" > "$tmp/whole.log" 2>&1 ||
	{ cat "$tmp/whole.log"; fail "a whole reduction failed"; }
sh "$reduce" --build "$build" --progress "$tmp/progress" counter_buggy "$tmp/crash" "$tmp/out.bin" \
	> "$tmp/out.log" 2>&1 || { cat "$tmp/out.log"; fail "a reduction with --progress failed"; }
[ -s "$tmp/progress" ] || fail "--progress left no file"
[ "$(wc -c < "$tmp/progress")" -lt "$(wc -c < "$tmp/crash")" ] ||
	fail "the progress file ($(wc -c < "$tmp/progress") bytes) is no smaller than the crash (19)"
fails "$tmp/progress" || fail "the progress file does not fail"
[ "$(hex "$tmp/out.bin")" = "$(hex "$tmp/whole.bin")" ] || fail "--progress changed the result"

sh "$reduce" --build "$build" --progress "$tmp/progress" counter_buggy "$tmp/progress" "$tmp/resumed.bin" \
	> "$tmp/resumed.log" 2>&1 || { cat "$tmp/resumed.log"; fail "the resumed reduction failed"; }
[ "$(hex "$tmp/resumed.bin")" = "$(hex "$tmp/whole.bin")" ] ||
	fail "resumed: $(hex "$tmp/resumed.bin"), whole: $(hex "$tmp/whole.bin")"
cmp -s "$tmp/resumed.bin.txt" "$tmp/whole.bin.txt" || fail "resumed: the report differs"

printf 'stale' > "$tmp/progress"
sh "$reduce" --build "$build" --progress "$tmp/progress" counter_buggy "$tmp/crash" "$tmp/again.bin" \
	> "$tmp/again.log" 2>&1 || { cat "$tmp/again.log"; fail "a reduction over a stale progress file failed"; }
[ "$(hex "$tmp/again.bin")" = "$(hex "$tmp/whole.bin")" ] || fail "a stale progress file changed the result"
[ "$(cat "$tmp/progress")" != stale ] && fails "$tmp/progress" || fail "the stale progress file was not replaced"
echo "reduce_resume: --progress keeps a smaller failing crash ($(wc -c < "$tmp/progress") of 19 bytes);" \
	"resumed from it, the reproducer $(hex "$tmp/whole.bin") and report are a whole run's; a stale file is replaced"
