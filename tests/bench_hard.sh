#!/bin/sh
# tests/bench_hard.sh ROOT CC REPLAY_DIR - keeps the hard benchmark (bench/hard/,
# bench/hard.sh, issue 33) from rotting without building it in CI:
#   1. every program and target bench/hard/hard.cmake lists compiles
#      (-fsyntax-only, -Wall -Wextra -Werror, buggy and fixed, with the drop-in
#      header for the programs), and every bench/hard/*.c is listed;
#   2. bench/bench_search.sh's RAW/REUSE/HARD path on a build that has
#      counter_buggy_replay: it re-runs one strategy of counter, reuses the
#      other rows of an earlier raw file (counter's fuzz rows and every row of
#      a target not run now) and writes the hard sections: the provenance of
#      the rows, the per-strategy geometric means (a not-found median counted
#      as the cap) and the Done-when line.  About a second.
root=$1
cc=$2
build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
cmake_list="$root/bench/hard/hard.cmake"

# ---- 1. the sources compile ----
programs=$(sed -n 's/^set(weft_hard_programs *\(.*\))$/\1/p' "$cmake_list")
targets=$(sed -n 's/^set(weft_hard_targets *\(.*\))$/\1/p' "$cmake_list")
if [ -z "$programs" ] || [ -z "$targets" ]; then err "hard.cmake lists no programs or no targets"; fi
for f in "$root"/bench/hard/*.c; do
	n=$(basename "$f" .c)
	case " $programs $targets " in *" $n "*) ;; *) err "bench/hard/$n.c is not in hard.cmake" ;; esac
done
check() {   # NAME KIND [DEFINE]
	extra=""
	[ "$2" = program ] && extra="-include weft/dropin.h -Dmain=weft_program_main"
	# shellcheck disable=SC2086
	"$cc" -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -I"$root/include" $extra ${3:+-D$3} \
		"$root/bench/hard/$1.c" > "$tmp/cc.log" 2>&1 ||
		{ err "bench/hard/$1.c ${3:-(buggy)} does not compile"; head -20 "$tmp/cc.log"; }
}
for n in $programs; do
	check "$n" program
	check "$n" program "HARD_$(echo "$n" | tr '[:lower:]' '[:upper:]')_FIXED"
done
for n in $targets; do
	check "$n" target
	check "$n" target "HARD_$(echo "$n" | tr '[:lower:]' '[:upper:]')_FIXED"
done

# ---- 2. RAW, REUSE and the hard sections ----
printf 'counter\tfuzz\t1\tfound\t7\t0.5\tassertion\t-\t1\told1\t2026-01-01 00:00 UTC\n' > "$tmp/old.tsv"
printf 'counter\tfuzz\t2\tfound\t9\t0.5\tassertion\t-\t0\told1\t2026-01-01 00:00 UTC\n' >> "$tmp/old.tsv"
printf 'counter\trandom\t1\tfound\t999\t0.5\tassertion\t-\t0\told1\t2026-01-01 00:00 UTC\n' >> "$tmp/old.tsv"
for seed in 1 2; do   # a target not run now: reported from the old rows alone
	printf 'elsewhere\tfuzz\t%s\tcap\t100\t1.0\tpass\t-\t0\told2\t2026-01-02 00:00 UTC\n' "$seed"
	printf 'elsewhere\trandom\t%s\tfound\t25\t0.1\tassertion\t-\t0\told2\t2026-01-02 00:00 UTC\n' "$seed"
done >> "$tmp/old.tsv"
SEEDS=2 CAP=100 TIME_CAP=60 JOBS=1 TARGETS=counter STRATEGIES=random OUT="$tmp/r.md" \
	RAW="$tmp/raw.tsv" REUSE="$tmp/old.tsv" HARD=1 \
	bash "$root/bench/bench_search.sh" "$build" > "$tmp/log" 2>&1 ||
	{ err "bench_search.sh failed"; cat "$tmp/log"; }
r="$tmp/r.md"
[ -s "$r" ] || { err "no report"; exit 1; }
[ "$(wc -l < "$tmp/raw.tsv")" = 8 ] || err "raw file: $(wc -l < "$tmp/raw.tsv") rows, not 2 new + 6 reused"
grep -q '	counter	random	1	' "$tmp/raw.tsv" && err "the old counter/random row was reused though random ran now"
[ "$(awk -F'\t' '$1 == "counter" && $2 == "random"' "$tmp/raw.tsv" | wc -l)" = 2 ] ||
	err "counter/random: not the two new rows"
grep -q '^| fuzz | 2 | old1 | 2026-01-01 00:00 UTC |$' "$r" || err "no provenance row for the reused fuzz rows"
grep -q '^| random | 2 | old2 | 2026-01-02 00:00 UTC |$' "$r" || err "no provenance row for elsewhere's random rows"
# fuzz medians: counter 7 (nearest rank of 7, 9), elsewhere not found = the cap 100:
# geometric mean sqrt(7 * 100) = 26, a lower bound
grep -q '^| fuzz | ≥26 | ' "$r" || err "fuzz's geometric mean is not ≥26: $(grep '^| fuzz |' "$r" | head -3)"
grep -q '^| elsewhere | random | 25 | ≥100 (0/2) | ≥4.0 |' "$r" || err "elsewhere's ratio row is wrong"
grep -q -- '- `fuzz` <= 0.5x best baseline on [0-9]* of 2 targets (goal: half); <= 1x on [0-9]* of 2 (goal: all).' "$r" ||
	err "no Done-when line for fuzz over 2 targets"
[ $fail = 0 ] && echo "bench_hard: ok"
exit $fail
