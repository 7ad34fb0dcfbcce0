#!/bin/sh
# tests/correct_corpus.sh DIR RUNS TARGET... - correct code never fails (issue 30).
# Each TARGET's fuzz binary (DIR/TARGET_fuzz) runs RUNS libFuzzer executions (seed 1)
# under every memory model (WEFT_MEMORY=sc, c11, tso, pso) and, for programs (a binary
# with the program glue), with WEFT_RACES=1 (default model): every run must end with no
# failure.  Settings listed in KNOWN below are false verdicts other work is fixing: the
# test reports them but does not fail on them, and says when one passes (delete its line
# then).  The CI runs targets/correct/ with a few hundred runs (tests/CMakeLists.txt);
# bench/correct_corpus.sh runs it and every *_fixed target with 20,000.
# Output: one line per target and setting; a failure names the command that reproduces it.
dir=$(cd "$1" && pwd) runs=$2
shift 2
fail() { echo "FAIL: $*"; exit 1; }

# ---- expected to fail (intended, or until fixed): TARGET SETTING  reason (one line each) ----
KNOWN='
plain_check_then_use_fixed races  intended, permanent: the fixed build keeps its data race on `current` (its header says so)
peterson_tso_fixed c11  intended, permanent: a fix for x86 (release stores, one SC fence), not for C11, where it is the R shape with release and an SC fence (R+lwsync+sync, allowed): thread 1 reads flag[0] down while thread 0 reads the turn store of thread 1 (targets/peterson.c says so)
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
known_reason() {   # known_reason TARGET SETTING: the reason, or nothing
	printf '%s\n' "$KNOWN" | awk -v t="$1" -v s="$2" '$1 == t && $2 == s { $1 = $2 = ""; sub(/^ +/, ""); print; exit }'
}
# run TARGET SETTING: 0 when RUNS executions end with no failure
run() {
	bin=$dir/$1_fuzz
	rm -rf "$tmp/art" && mkdir "$tmp/art"
	case $2 in
	races) env="WEFT_RACES=1" ;;
	*) env="WEFT_MEMORY=$2" ;;
	esac
	(cd "$tmp/art" && env $env "$bin" -seed=1 -runs="$runs" -artifact_prefix="$tmp/art/" \
		> "$tmp/log" 2>&1)
	rc=$?
	cmd="$env $bin -seed=1 -runs=$runs"
	[ $rc = 0 ] && ! ls "$tmp"/art/crash-* > /dev/null 2>&1 && grep -q "Done $runs runs" "$tmp/log"
}
bad=0 known=0 fixed=0 checked=0
for target in "$@"; do
	[ -x "$dir/${target}_fuzz" ] || fail "$dir/${target}_fuzz is missing"
	settings="sc c11 tso pso"
	nm "$dir/${target}_fuzz" 2>/dev/null | grep -q ' weft_program_main' && settings="$settings races"
	for s in $settings; do
		checked=$((checked + 1))
		reason=$(known_reason "$target" "$s")
		if run "$target" "$s"; then
			if [ -n "$reason" ]; then
				fixed=$((fixed + 1))
				echo "correct_corpus: $target $s: no failure in $runs runs, though listed as known ($reason): if its fix has landed, delete its KNOWN line"
			fi
			continue
		fi
		verdict=$(grep -m1 '==weft== FAIL' "$tmp/log" | sed 's/^==weft== FAIL //' | cut -c1-160)
		[ -n "$verdict" ] || verdict="exit $rc: $(tail -n 3 "$tmp/log" | tr '\n' ' ' | cut -c1-160)"
		if [ -n "$reason" ]; then
			known=$((known + 1))
			echo "correct_corpus: $target $s: listed in KNOWN ($reason): $verdict"
		else
			bad=$((bad + 1))
			echo "FAIL: $target $s: $verdict"
			echo "  reproduce: $cmd"
		fi
	done
done
echo "correct_corpus: $# targets, $checked settings of $runs runs: $((checked - bad - known)) pass," \
	"$known listed in KNOWN, $fixed listed ones pass now, $bad unexpected failures"
[ $bad = 0 ]
