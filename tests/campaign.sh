#!/bin/sh
# tests/campaign.sh BUILD - scripts/weft_campaign.sh on the buggy counter.
#
#   1. a 10-second campaign with 2 jobs: exactly one unique failure, a linearizability,
#      whose reproducer is the minimal 05 with exactly the golden report, however many
#      crash files the workers wrote (if the deadline stopped the reduction, later
#      sessions, up to three, finish it); a summary that says so; bad flags exit 2;
#   2. resume: a campaign interrupted by SIGTERM (once it has triaged its failure) and
#      run again on the same directories keeps every corpus file, reports the failure
#      once, counts two sessions and adds up their executions.
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
campaign=$root/scripts/weft_campaign.sh
golden=$root/tests/golden/counter_buggy.report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (campaign): $*"; [ -f "$tmp/$2" ] && cat "$tmp/$2"; exit 1; }
field() { sed -n "s/^$1: \([0-9]*\).*/\1/p" "$2/summary.txt"; }

sh "$campaign" --jobs 0 counter_buggy > /dev/null 2>&1; [ $? -eq 2 ] || fail "--jobs 0 should exit 2"
sh "$campaign" --frobnicate counter_buggy > /dev/null 2>&1; [ $? -eq 2 ] || fail "an unknown flag should exit 2"
sh "$campaign" --help | grep -q "^usage: " || fail "--help prints no usage"

out=$tmp/one
sh "$campaign" --build "$build" --out "$out" --time 10 --jobs 2 --interval 2 counter_buggy > "$tmp/one.log" 2>&1 ||
	fail "campaign exited non-zero" one.log
grep -q '^\[ *[0-9]*s\] executions [0-9]* ([0-9]*/s)  coverage .* corpus [0-9]* .*unique failures 1$' "$tmp/one.log" ||
	fail "no progress line with one unique failure" one.log
# --time is a deadline for reduction too: on a busy machine later sessions finish it (up to
# three: at load 9 one 20-second session was once not enough; each resumes where the last
# stopped, which is what is asserted, not how fast)
for session in 2 3 4; do
	grep -q '^reductions pending' "$out/summary.txt" || break
	sh "$campaign" --build "$build" --out "$out" --time 20 --interval 5 counter_buggy > "$tmp/one.log" 2>&1 ||
		fail "resumed campaign exited non-zero" one.log
	echo "campaign: session $session resumed the pending reduction"
done
! grep -q '^reductions pending' "$out/summary.txt" || fail "three resumed sessions did not finish the reduction" one.log
[ "$(field "unique failures" "$out")" = 1 ] || fail "want exactly 1 unique failure" one.log
crashes=$(field "crash files" "$out")
f=$(ls -d "$out"/failures/linearizability-* 2>/dev/null)
[ "$(echo "$f" | wc -l)" = 1 ] && [ -n "$f" ] || fail "want one failures/linearizability-* directory" one.log
[ "$(od -An -tx1 "$f/reproducer.bin" | tr -d ' ')" = 05 ] || fail "reproducer is $(od -An -tx1 "$f/reproducer.bin"), not 05" one.log
cmp -s "$f/report.txt" "$golden" || { diff "$golden" "$f/report.txt"; fail "report differs from $golden"; }
grep -q "complexity (1, 1, 2, 2)" "$out/summary.txt" || fail "summary lacks the complexity" one.log
grep -q '"verdict": "linearizability"' "$f/report.html" || fail "no web page of the failure" one.log
grep -q "^  ==weft== statistics of [1-9][0-9]* executions of counter_buggy" "$out/summary.txt" &&
	grep -q "^    increment() " "$out/summary.txt" || fail "summary lacks the corpus statistics" one.log
[ "$(wc -l < "$f/crashes.txt")" = "$crashes" ] || fail "$crashes crash files but $(wc -l < "$f/crashes.txt") triaged into the failure"
echo "campaign: $crashes crash files -> 1 unique failure, reproducer 05, golden report"

out=$tmp/resume
sh "$campaign" --build "$build" --out "$out" --time 120 --interval 1 counter_buggy > "$tmp/first.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do   # wait (at most 60 s) until the failure is triaged, then interrupt
	[ -s "$out/signatures" ] && break
	sleep 0.5
done
[ -s "$out/signatures" ] || { kill "$pid"; fail "no failure triaged in 60 s" first.log; }
kill -TERM "$pid"
wait "$pid" || fail "interrupted campaign exited non-zero" first.log
grep -q "this one .*interrupted" "$out/summary.txt" || fail "summary does not say interrupted" first.log
ls "$out/corpus" > "$tmp/corpus.before"
execs1=$(field "executions" "$out")
sh "$campaign" --build "$build" --out "$out" --time 4 --interval 1 counter_buggy > "$tmp/second.log" 2>&1 ||
	fail "resumed campaign exited non-zero" second.log
ls "$out/corpus" > "$tmp/corpus.after"
missing=$(comm -23 "$tmp/corpus.before" "$tmp/corpus.after")
[ -z "$missing" ] || fail "corpus files lost on resume: $missing"
[ "$(field "sessions" "$out")" = 2 ] || fail "want 2 sessions" second.log
[ "$(field "unique failures" "$out")" = 1 ] || fail "the failure was counted again" second.log
execs2=$(field "executions" "$out")
[ "$execs2" -gt "$execs1" ] || fail "executions did not add up ($execs1 then $execs2)" second.log
echo "campaign resume: $(wc -l < "$tmp/corpus.before") corpus files kept, 1 failure, executions $execs1 -> $execs2"
