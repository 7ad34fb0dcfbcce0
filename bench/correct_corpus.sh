#!/bin/sh
# bench/correct_corpus.sh [BUILD_DIR] [RUNS] - the long version of tests/correct_corpus.sh
# (issue 30 item 7): every program of targets/correct/ and every *_fixed fuzz target in
# BUILD_DIR (default build/clang) runs RUNS libFuzzer executions (default 20,000, seed 1)
# under WEFT_MEMORY=sc, c11, tso, pso and, programs, WEFT_RACES=1.  The known false
# verdicts are the test's list (KNOWN in tests/correct_corpus.sh); anything else that
# fails is printed with the command that reproduces it, and the exit status is 1.
# 72 targets, 335 settings: about 20 minutes on the 2-core machine (2026-11-27, after the
# sixth session's merges: 333 pass, the 2 others are the KNOWN list, both intended).
here=$(dirname "$0")
build=${1:-build/clang} runs=${2:-20000}
targets=$(cd "$build" && ls correct_*_fuzz *_fixed_fuzz 2>/dev/null | sed 's/_fuzz$//' | sort -u)
[ -n "$targets" ] || { echo "bench/correct_corpus.sh: no fuzz binaries in $build"; exit 2; }
exec sh "$here/../tests/correct_corpus.sh" "$build" "$runs" $targets
