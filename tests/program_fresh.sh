#!/bin/sh
# tests/program_fresh.sh DIR CORPUS - a verdict that depends on earlier executions is
# detected (issue 30; runner/fresh.c): program_drift (tests/program_drift.c) fails only
# once its library's counter, which weft cannot reset, reached 64.
#   1. a batch replay of one input 66 times: 64 passes, then `nondeterministic` with the
#      reason and the fresh process's report (before: `assertion`, which is what
#      WEFT_FRESH_CHECK=0 still gives: the test can fail);
#   2. a real failure after other inputs is confirmed, not changed: counter_buggy's
#      lost update after two passing inputs keeps its verdict and trace hash;
#   3. the fuzz binary (libFuzzer builds) aborts with `nondeterministic`, and the crash
#      file it wrote passes when replayed alone, as its report says;
#   4. drift on passes: program_drift_passes never fails, but from its 100th execution on
#      it runs differently; the probe (the first input again after 1,000 executions)
#      warns once, naming the first differing step; counter_fixed, which does not
#      drift, draws no warning.
dir=$(cd "$1" && pwd) corpus=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
replay=$dir/program_drift_replay
[ -x "$replay" ] || fail "$replay is missing"
: > "$tmp/empty"
inputs=$(i=0; while [ $i -lt 66 ]; do echo "$tmp/empty"; i=$((i + 1)); done)

# 1. the batch
"$replay" --hash $inputs > "$tmp/hash" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "batch: exit $rc, expected 1"
[ "$(grep -c ' pass ' "$tmp/hash")" -eq 64 ] || fail "batch: not 64 passes: $(sort "$tmp/hash" | uniq -c)"
[ "$(sed -n '65,66p' "$tmp/hash" | grep -c ' nondeterministic ')" -eq 2 ] ||
	fail "batch: inputs 65 and 66 are not nondeterministic: $(sed -n '65,66p' "$tmp/hash")"
grep -q "FAIL nondeterministic in program_drift: fails only after 64 earlier executions in this process: state left by earlier executions" "$tmp/err" ||
	fail "batch: no reason in the report: $(grep FAIL "$tmp/err" | head -2)"
grep -q "here it failed: assertion: thread 0: assertion .session < SESSIONS" "$tmp/err" ||
	fail "batch: the failure seen here is not named"
grep -q "^in a fresh process this input passes; that run's report:" "$tmp/err" &&
	grep -q "^  | ==weft== PASS program_drift" "$tmp/err" || fail "batch: no fresh run's report"
"$replay" --json $inputs 2>/dev/null | sed -n 65p | grep -q '"verdict": "nondeterministic".*"fresh_run_report": "==weft== PASS' ||
	fail "batch: the JSON report has no fresh run"
WEFT_FRESH_CHECK=0 "$replay" --hash $inputs 2>/dev/null | sed -n '65,66p' > "$tmp/off"
[ "$(grep -c ' assertion ' "$tmp/off")" -eq 2 ] ||
	fail "WEFT_FRESH_CHECK=0: expected the unconfirmed assertion (this test cannot fail): $(cat "$tmp/off")"
WEFT_FRESH_CHECK=maybe "$replay" $inputs > "$tmp/bad" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "WEFT_FRESH_CHECK=maybe" "$tmp/bad" || fail "WEFT_FRESH_CHECK=maybe: exit $rc"

# 2. a real failure stays as it is
counter=$dir/counter_buggy_replay
[ -x "$counter" ] || fail "$counter is missing"
lost=$corpus/counter/lost-update.linearizability.bin
"$counter" --hash "$corpus/counter/seed-simplest.bin" "$corpus/counter/seed-three-threads.bin" "$lost" \
	2> "$tmp/err" | tail -1 > "$tmp/batch"
"$counter" --hash "$lost" 2>/dev/null > "$tmp/alone"
cmp -s "$tmp/batch" "$tmp/alone" || fail "counter_buggy: after two inputs '$(cat "$tmp/batch")', alone '$(cat "$tmp/alone")'"
grep -q "fresh process" "$tmp/err" && fail "counter_buggy: a note on a confirmed failure: $(grep 'fresh process' "$tmp/err")"

# 3. the fuzz binary
mkdir "$tmp/fuzz"
if [ -x "$dir/program_drift_fuzz" ]; then
	(cd "$tmp/fuzz" && "$dir/program_drift_fuzz" -seed=1 -runs=3000 > log 2>&1); rc=$?
	[ $rc -ne 0 ] || fail "the fuzz binary found nothing in 3000 runs"
	grep -q "^ASSERTION FAILED: weft: nondeterministic in program_drift: fails only after [0-9]* earlier executions" "$tmp/fuzz/log" ||
		fail "the fuzz binary: $(grep 'ASSERTION FAILED' "$tmp/fuzz/log")"
	crash=$(ls "$tmp"/fuzz/crash-* 2>/dev/null | head -1)
	[ -n "$crash" ] || fail "the fuzz binary wrote no crash file"
	"$replay" "$crash" > /dev/null 2>&1 || fail "the crash file does not pass alone, as its report says"
	WEFT_FRESH_CHECK=0 "$dir/program_drift_fuzz" -seed=1 -runs=3000 -artifact_prefix="$tmp/fuzz/off-" \
		> "$tmp/fuzz/log.off" 2>&1
	grep -q "^ASSERTION FAILED: weft: assertion in program_drift" "$tmp/fuzz/log.off" ||
		fail "WEFT_FRESH_CHECK=0, the fuzz binary: $(grep 'ASSERTION FAILED' "$tmp/fuzz/log.off")"
fi
# 4. drift on passes
inputs=$(i=0; while [ $i -lt 1001 ]; do echo "$tmp/empty"; i=$((i + 1)); done)
"$dir/program_drift_passes_replay" --hash $inputs > "$tmp/hash" 2> "$tmp/err" || fail "drift on passes: a failure"
[ "$(grep -c ' pass ' "$tmp/hash")" -eq 1001 ] || fail "drift on passes: not 1001 passes"
[ "$(grep -c '^==weft== WARNING: state drifts between executions in program_drift_passes: the first input of this process ran differently after 1000 executions (pass, now pass); first difference at step 2: thread 0: spawn program_drift.c:[0-9]* thread 1, now thread 0: yield program_drift.c:[0-9]*: state left' "$tmp/err")" -eq 1 ] ||
	fail "drift on passes: not one warning: $(grep WARNING "$tmp/err")"
"$dir/counter_fixed_replay" $inputs 2> "$tmp/err" > /dev/null || fail "counter_fixed: a failure"
grep -q "WARNING" "$tmp/err" && fail "counter_fixed: $(grep WARNING "$tmp/err")"
if [ -x "$dir/program_drift_passes_fuzz" ]; then
	(cd "$tmp/fuzz" && "$dir/program_drift_passes_fuzz" -seed=1 -runs=1500 > log.passes 2>&1) ||
		fail "drift on passes: the fuzz binary failed"
	grep -q "^==weft== WARNING: state drifts between executions in program_drift_passes" "$tmp/fuzz/log.passes" ||
		fail "drift on passes: the fuzz binary did not warn"
fi
echo "program_fresh: after 64 executions the drifting program is nondeterministic, with the fresh run's" \
	"report; a real failure after other inputs keeps its verdict and trace; drift on passes is warned once"
