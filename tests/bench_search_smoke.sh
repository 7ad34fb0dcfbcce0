#!/bin/sh
# tests/bench_search_smoke.sh BENCH_SCRIPT BUILD - bench/bench_search.sh with tiny
# settings (2 seeds, counter and hash_set, every strategy, cap 3,000 executions):
# (with issue 17's goals table: fuzz against the best baseline)
# it exits 0 and its report has the promised shape (machine lines, the overview
# with one cell per strategy, the summary's ratio table and default-strategy
# sentence, one table per target with every strategy and 8 columns); and it
# fails loudly (non-zero, a message) on a build directory without the binaries.
# A few seconds.
bench=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
strategies="fuzz fuzz+inner fuzz-nofeedback fuzz-bytes bytes random pct1 pct2 pct3 uniform pos stress"

SEEDS=2 CAP=3000 TIME_CAP=60 JOBS=2 TARGETS="counter hash_set" OUT="$tmp/results.md" \
	bash "$bench" "$build" > "$tmp/log" 2>&1 || { err "bench_search.sh failed"; cat "$tmp/log"; }
r="$tmp/results.md"
[ -s "$r" ] || { err "no report written"; cat "$tmp/log"; exit 1; }
for key in "date" "git commit" "compiler" "CPU" "nproc" "scheduler backend" "seeds per cell" \
	   "cap per run" "whole benchmark" "command"; do
	grep -q "^| $key | ..*|$" "$r" || err "the report has no '$key' line"
done
grep -q "^| seeds per cell | 2 |$" "$r" || err "seeds per cell is not 2"
# overview: header with every strategy, a row per target with one cell per strategy
header="| target | $(echo $strategies | sed 's/ / | /g') |"
grep -qF "$header" "$r" || err "the overview header is not '$header'"
for t in counter hash_set; do
	row=$(grep "^| $t | " "$r" | head -1)
	cells=$(echo "$row" | awk -F'|' '{ print NF - 3 }')
	[ "$cells" = 12 ] || err "overview row for $t has $cells cells, want 12: $row"
	echo "$row" | grep -q "([0-2]/2)" || err "overview row for $t shows no found/seeds: $row"
	# the counter is found by fuzz with both seeds well within 3,000 executions
	[ "$t" = counter ] && { echo "$row" | awk -F'|' '{ print $3 }' | grep -q "(2/2)" ||
		err "fuzz did not find the counter's bug with both seeds: $row"; }
done
grep -q "^| hash_set | " "$r" && grep -q "fuzz / fuzz\|pct3 / fuzz" "$r" ||
	err "no ratio table for hash_set"
grep -q "^| hash_set | [^|]* | [^|]* |" "$r" || err "the ratio table has no hash_set row"
grep -q "by the default strategy (\`fuzz\`)" "$r" || err "no default-strategy sentence"
# issue 17's goals: a row per target naming its best baseline, and the count line
grep -q "^## Goals (issue 17)" "$r" || err "no goals section"
for t in counter hash_set; do
	grep -q "^| $t | \(random\|pct[123]\|uniform\|pos\) | " "$r" || err "no goals row for $t"
done
grep -q "^Goal A met on [0-9]* of 2 targets" "$r" || err "no goal count line"
grep -q "^- .*stress: " "$r" && err "a stress cell is n/a for counter or hash_set"
# per target: every strategy, 8 columns
for t in counter hash_set; do
	awk -v t="### $t" '$0 == t { on = 1; next } /^### / { on = 0 } on && /^\| [a-z]/' "$r" \
		> "$tmp/$t.rows"
	n=$(grep -c "" "$tmp/$t.rows")
	[ "$n" = 13 ] || err "### $t has $n table rows, want 13 (header and 12 strategies)"
	for s in $strategies; do
		line=$(grep "^| $s | " "$tmp/$t.rows")
		cols=$(echo "$line" | awk -F'|' '{ print NF - 2 }')
		[ "$cols" = 8 ] || err "### $t, $s: $cols columns, want 8: $line"
		echo "$line" | grep -q "^| $s | [0-2]/2 | " || err "### $t, $s: no found count: $line"
	done
done
[ "$fail" = 0 ] && echo "ok: report shape ($(grep -c '' "$r") lines)"

# fails loudly without binaries
mkdir "$tmp/empty"
bash "$bench" "$tmp/empty" > "$tmp/e.log" 2>&1 && err "bench_search.sh passed on an empty build dir"
grep -q "bench_search: " "$tmp/e.log" || err "no message for an empty build dir"
bash "$bench" "$tmp/nowhere" > "$tmp/e.log" 2>&1 && err "bench_search.sh passed on a missing dir"
SEEDS=1 TARGETS="no_such_target" bash "$bench" "$build" > "$tmp/e.log" 2>&1 &&
	err "bench_search.sh passed with a target it has no binary for"
grep -q "no_such_target_buggy_replay is missing" "$tmp/e.log" || err "no message for a missing binary"
[ "$fail" = 0 ] && echo "bench_search_smoke: all passed"
exit "$fail"
