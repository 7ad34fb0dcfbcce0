#!/bin/sh
# tests/campaign_kill.sh BUILD - scripts/weft_campaign.sh killed at many points loses nothing.
#
# Two campaign folders, each a chain of sessions that are killed, then resumed:
#   counter_buggy:  SIGKILL while a new failure is being triaged; SIGKILL once its
#                   reduction finished but before it was committed; Ctrl-C (SIGINT to
#                   the whole process group, as a terminal sends it) while the reducer
#                   runs; SIGTERM while the summary is written; a last session that ends.
#   hash_set_buggy: no seed corpus (a target outside weft's tree); SIGKILL while
#                   fuzzing; SIGTERM while fuzzing; a last session that ends.
# After every kill: no process of the campaign is left (its shell, its workers, the
# target's binaries) and every failure folder has a reproducer and a report.  After the
# last session: every crash file triaged exactly once (in exactly one crashes.txt), no
# two failures of one kind with the same reproducer, every report headed by its verdict,
# the counter's reproducer reduced to 05 with the golden report (within 4 more sessions
# of 20 s when a loaded machine needs them: reductions resume), --time kept as a deadline
# (reduction included), every session counted
# and the executions of all of them (killed ones included) adding up to the total.
# The points are reached with the campaign's test hook WEFT_CAMPAIGN_PAUSE_AT=STAGE (it
# waits at STAGE and writes OUT/paused-at-STAGE); without it the test kills after 8 s
# (40 s for the end of a reduction).
# After a kill the campaign's watchdog ends its children within about 3 s (two sweeps,
# weft_campaign.sh); the test allows 15 s, for sanitized binaries under a loaded suite
# (CI once saw a reducer outlive 8 s after a SIGKILL that came between two stages).
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
campaign=$root/scripts/weft_campaign.sh
golden=$root/tests/golden/counter_buggy.report
tmp=$(mktemp -d)
pid= out= target= sessions=0 extra= patience=8
cleanup() { [ -n "$pid" ] && kill -s KILL -- "-$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL (campaign_kill, $target session $sessions): $*"; [ -f "$tmp/log" ] && tail -n 20 "$tmp/log"; exit 1; }

wait_for() {  # wait_for SECONDS CMD...: until CMD succeeds (0) or SECONDS pass (1)
	n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
procs() { pgrep -f -- "$out"; pgrep -f -- "$build/${target}_"; }
no_procs() { [ -z "$(procs)" ]; }
paused() { [ -f "$out/paused-at-$1" ]; }
reducing() { pgrep -f -- "weft_reduce.sh.*$out" > /dev/null; }
fuzzing() { grep -q '^\[ *[0-9]*s\] executions' "$tmp/log"; }

session() {  # session PAUSE TIME EXTRA...: a campaign session in the background
	rm -f "$out"/paused-at-*
	# emptied here, not only by the background job's redirection: under load that may come
	# after the first wait_for, which would then read the last session's progress lines and
	# signal the new shell before it has set its trap (exit 130)
	: > "$tmp/log"
	sessions=$((sessions + 1))
	# its own process group (as a terminal's job), SIGINT not ignored (as it is for "&")
	WEFT_CAMPAIGN_PAUSE_AT=$1 setsid env --default-signal=INT sh "$campaign" --build "$build" --out "$out" --time "$2" --interval 1 \
		--seed "$sessions" $extra "$target" > "$tmp/log" 2>&1 &
	pid=$! t0=$(date +%s)
}
stop() {  # stop SIGNAL [group] WHAT...: once WHAT holds (or after $patience s), signal the campaign
	sig=$1 to=$pid; shift
	[ "$1" = group ] && { to=-$pid; shift; }
	wait_for "$patience" "$@" || echo "   ($* not reached in $patience s: $sig anyway)"
	kill -s "$sig" -- "$to"
	{ wait "$pid"; } 2> /dev/null; rc=$?; pid=
	[ "$sig" = KILL ] || [ "$rc" -eq 0 ] || fail "SIG$sig: the campaign exited $rc"
	wait_for 15 no_procs || fail "left behind after SIG$sig: $(procs | sort -u | xargs ps -o pid=,args= -p)"
	check_folders
	echo "   session $sessions: SIG$sig at '$*': nothing left running, every failure has its files ($(($(date +%s) - t0)) s)"
}
check_folders() {  # every failure folder has a reproducer and a report, whatever happened
	for d in "$out"/failures/*/; do
		[ -d "$d" ] || continue
		[ -s "$d/reproducer.bin" ] && [ -s "$d/report.txt" ] ||
			fail "$(basename "$d") lacks its reproducer or report: $(ls "$d" | tr '\n' ' ')"
	done
}
check_final() {  # after a session that ended: nothing lost, nothing twice, executions add up
	session '' "$1"; wait "$pid" || fail "the last session exited non-zero"; pid=
	# --time is a deadline: stopping takes a few seconds at most (the summary's corpus
	# statistics run after it); 15 s of slack, as a sanitized build under a loaded suite
	# took 29 s for --time 20 in CI (2026-11-26)
	took=$(($(date +%s) - t0))
	[ "$took" -le $(($1 + 15)) ] || fail "--time $1 took $took s"
	wait_for 15 no_procs || fail "left behind after the last session: $(procs | xargs ps -o pid=,args= -p)"
	check_folders
	s=$out/summary.txt
	ls "$out/crashes" | sort > "$tmp/crashes"
	cat "$out"/failures/*/crashes.txt 2>/dev/null | sort > "$tmp/triaged"
	twice=$(uniq -d "$tmp/triaged")
	[ -z "$twice" ] || fail "triaged more than once: $twice"
	cmp -s "$tmp/crashes" "$tmp/triaged" || fail "crash files and triaged ones differ: $(diff "$tmp/crashes" "$tmp/triaged" | grep '^[<>]' | head -n 5)"
	for d in "$out"/failures/*/; do
		[ -d "$d" ] || continue
		id=$(basename "$d")
		echo "${id%-*} $(od -An -tx1 -v "$d/reproducer.bin" | tr -d ' \n')"
		head -n 1 "$d/report.txt" | grep -q '^==weft== FAIL ' || fail "$id's report starts '$(head -n 1 "$d/report.txt")'"
	done | sort | uniq -d > "$tmp/dups"
	[ ! -s "$tmp/dups" ] || fail "two failures with one kind and reproducer: $(cat "$tmp/dups")"
	field() { sed -n "s/^$1: \([0-9]*\).*/\1/p" "$s"; }
	[ "$(field sessions)" = "$sessions" ] || fail "summary counts $(field sessions) sessions, $sessions ran"
	ls "$out"/sessions.d/* > /dev/null 2>&1 || fail "no per-session records in $out/sessions.d"
	sum=$(cat "$out"/sessions.d/* | awk '{ s += $2 } END { print s + 0 }')
	[ "$(field executions)" = "$sum" ] || fail "executions: summary $(field executions), sessions $sum"
	# sessions killed once they had fuzzed a while (progress printed) count what they ran
	counted=$(awk '$2 > 0' "$out"/sessions.d/* | wc -l)
	[ "$counted" -ge "$2" ] || fail "only $counted session(s) counted executions, want $2: $(cat "$out"/sessions.d/*)"
	echo "   session $sessions ended: $(wc -l < "$tmp/crashes") crash files each triaged once, $(field 'unique failures') failure(s), $sessions sessions, $sum executions"
}

target=counter_buggy out=$tmp/counter
echo "$target:"
session triage 60; stop KILL paused triage
# a whole reduction takes 10 s or more with ASan: waited for longer than the other points
session reduce 60; patience=40 stop KILL paused reduce; patience=8
session '' 60;     stop INT group reducing
session summary 3; stop TERM paused summary
grep -q "^sessions: 4 " "$out/summary.txt" || fail "no summary of session 4"
check_final 6 2
# a slow machine (sanitizers, a loaded suite) may need more sessions to finish the reduction;
# each resumes from the smallest crash the last one reached (failures/ID/reduce.progress)
extra_sessions=0
while grep -q '^reductions pending' "$out/summary.txt"; do
	[ "$extra_sessions" -lt 4 ] || fail "the reduction still pending after 4 more sessions of 20 s"
	extra_sessions=$((extra_sessions + 1))
	check_final 20 2
done
f=$(ls -d "$out"/failures/linearizability-* 2>/dev/null)
[ "$(echo "$f" | wc -l)" = 1 ] && [ -n "$f" ] || fail "want one linearizability failure: $(ls "$out/failures")"
[ "$(od -An -tx1 "$f/reproducer.bin" | tr -d ' ')" = 05 ] || fail "reproducer $(od -An -tx1 "$f/reproducer.bin"), not 05 (reduction not resumed?)"
cmp -s "$f/report.txt" "$golden" || fail "report differs from $golden"

target=hash_set_buggy out=$tmp/hash_set sessions=0
echo "$target:"
extra="--seeds $tmp/none"     # no such folder
session '' 60 && stop KILL fuzzing
grep -q 'cannot stat\|No such file' "$tmp/log" && fail "an error about the missing seeds"
session '' 60 && stop INT fuzzing
grep -q "this one .*interrupted" "$out/summary.txt" || fail "the summary does not say interrupted"
check_final 4 3
echo "campaign_kill: passed"
