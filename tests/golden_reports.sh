#!/bin/sh
# tests/golden_reports.sh BUILD CORPUS GOLDEN STRUCTURE/REPRODUCER... - the report
# NAME_buggy_replay prints for each corpus reproducer is exactly the golden one
# (tests/golden/STRUCTURE_buggy.report, which pipeline.sh checks libFuzzer's way in
# the clang suites), on the scheduler backend WEFT_BACKEND names, and that backend
# is the one the replay says it used.  Cheap: one replay per reproducer.  A
# reproducer in a subdirectory (STRUCTURE/SUB/REPRODUCER, e.g. the data-race one
# replayed with WEFT_RACES=1) has the golden file STRUCTURE_SUB_buggy.report.
build=$1 corpus=$2 golden=$3; shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -n "${WEFT_BACKEND:-}" ] || fail "WEFT_BACKEND is not set: which backend is under test?"
n=0
for spec in "$@"; do
	structure=${spec%%/*}
	replay="$build/${structure}_buggy_replay"
	tag=
	case $spec in */*/*) tag=_$(echo "$spec" | cut -d/ -f2) ;; esac
	"$replay" "$corpus/$spec.bin" > "$tmp/out" 2>&1
	grep -q "^weft-replay: scheduler backend $WEFT_BACKEND " "$tmp/out" ||
		fail "$structure: the replay did not run on $WEFT_BACKEND: $(grep backend "$tmp/out")"
	grep -v '^weft-replay:\|^==weft== input ' "$tmp/out" > "$tmp/report"
	cmp -s "$tmp/report" "$golden/${structure}${tag}_buggy.report" ||
		{ diff "$golden/${structure}${tag}_buggy.report" "$tmp/report" | head -20; fail "$spec: report differs on $WEFT_BACKEND"; }
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no reproducers given"
echo "golden_reports: $n reports equal the golden files on $WEFT_BACKEND"
