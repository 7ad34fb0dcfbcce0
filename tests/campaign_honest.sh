#!/bin/sh
# tests/campaign_honest.sh BUILD - the campaign files only real failures (issue 29).
#   1. two campaigns started at the same instant on one folder: one runs, the other
#      exits 2 ("another session");
#   2. an empty crash file (what an engine leaves when it saves the wrong unit) is not a
#      failure: the summary counts it apart; a crash that passes when replayed is
#      "unreproducible" with its reason; crashes of one bug spelled differently are one
#      failure that says how many crash files it covers; no "cat: ..." noise;
#   3. a session whose writes fail (ulimit -f 0: a full disk) exits 2 naming a file,
#      files no failure and leaves the previous summary as it was.
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
campaign=$root/scripts/weft_campaign.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (campaign_honest): $*"; [ -f "$tmp/$2" ] && cat "$tmp/$2"; exit 1; }
run() { sh "$campaign" --build "$build" --out "$tmp/out" --time "$1" --interval 1 counter_buggy; }

run 4 > "$tmp/a.log" 2>&1 & a=$!
run 4 > "$tmp/b.log" 2>&1 & b=$!
wait "$a"; ra=$?; wait "$b"; rb=$?
[ $((ra + rb)) -eq 2 ] && { [ "$ra" -eq 2 ] || [ "$rb" -eq 2 ]; } ||
	{ cat "$tmp/a.log" "$tmp/b.log"; fail "two campaigns at once: statuses $ra and $rb, want 0 and 2"; }
grep -q "another session" "$tmp/a.log" "$tmp/b.log" || fail "no 'another session' message"
echo "campaign_honest: two campaigns at once on one folder: one ran, the other exited 2"

out=$tmp/out
: > "$out/crashes/crash-empty"
cp "$root/corpus/counter/seed-three-threads.bin" "$out/crashes/crash-passes"
printf '\003\001\005\002\001\001\000\005\002\001\003\002\002\005\000\001\003\001\001' > "$out/crashes/crash-long"
printf '\005' > "$out/crashes/crash-short"
run 6 > "$tmp/c.log" 2>&1 || fail "the campaign exited non-zero" c.log
! grep -q "^cat: \|No such file" "$tmp/c.log" || fail "noise in the output" c.log
grep -q "^empty crash files from the engine: [1-9]" "$out/summary.txt" && grep -qx empty "$out/triage/crash-empty" || fail "the empty crash file is not counted apart" c.log
! ls -d "$out"/failures/*/ | xargs -n1 basename | grep -q "^died-\|^error-" || fail "a failure filed for the empty file" c.log
grep -q "does not replay in a fresh process: replayed in a fresh process, it gives the verdict pass" "$out/summary.txt" ||
	fail "no unreproducible entry with its reason" c.log
[ "$(ls -d "$out"/failures/linearizability-* | wc -l)" -eq 1 ] || fail "one bug, several failures" c.log
covers=$(sed -n 's/^    covers:     \([0-9]*\) crash file(s)$/\1/p' "$out/summary.txt" | head -n 1)
[ "${covers:-0}" -ge 2 ] || fail "the failure does not cover its crash files" c.log
grep -q "^    symptom:    linearizability$" "$out/summary.txt" || fail "no symptom in the summary" c.log
echo "campaign_honest: empty crash file counted apart, unreproducible with its reason, one failure covering its crash files"

cp "$out/summary.txt" "$tmp/summary.before"
ls "$out/failures" > "$tmp/failures.before"
printf '\000\005' > "$out/crashes/crash-new"
# through a pipe: under the limit no regular file takes the messages either
{ ( ulimit -f 0; run 4 2>&1 ); echo "status $?"; } | cat > "$tmp/d.log"
rc=$(sed -n 's/^status //p' "$tmp/d.log")
[ "$rc" -eq 2 ] || fail "a session whose writes fail exited $rc, not 2" d.log
grep -q "cannot write $out/" "$tmp/d.log" || fail "no error naming the file" d.log
cmp -s "$tmp/summary.before" "$out/summary.txt" || fail "the previous summary was changed" d.log
ls "$out/failures" | cmp -s - "$tmp/failures.before" || fail "failures filed while writes failed" d.log
echo "campaign_honest: failed writes stop the session (exit 2, the file named), the previous state kept"
