#!/bin/sh
# tests/feedback_libfuzzer.sh FUZZ_BINARY - interleaving feedback reaches libFuzzer.
#
#   1. with a fixed seed and number of runs, the default (all kinds) and each kind alone
#      end with more features ("ft") than WEFT_FEEDBACK=none, and a bigger corpus, with
#      the same code coverage ("cov": the glue's export is not instrumented, so the extra
#      features can only come from the extra counters);
#   1b. a fixed corpus of one-operation-per-thread counter inputs that differ only in
#      where thread 0 is preempted (same code, other interleavings): libFuzzer keeps more
#      of them with feedback than without;
#   2. the same run twice gives the same final line (features are stable across
#      processes: ids never depend on addresses);
#   3. a bad WEFT_FEEDBACK stops the binary with exit status 2 and a message naming it.
set -u
fuzz=$1
runs=${2:-20000}
fail() { echo "FAIL (feedback_libfuzzer): $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# done_line FEEDBACK: the "#N DONE cov: .. ft: .. corp: .." line of a fixed run
done_line() {
	WEFT_FEEDBACK=$1 "$fuzz" -seed=1 -runs="$runs" -print_final_stats=1 > "$tmp/out" 2>&1 ||
		{ tail -20 "$tmp/out"; fail "WEFT_FEEDBACK=$1: the fuzzer failed"; }
	grep 'DONE' "$tmp/out" | tail -n 1 | sed 's/ exec\/s: [0-9]*//; s/ rss: [0-9]*Mb//'
}
field() { echo "$1" | sed -n "s/.* $2: \([0-9]*\).*/\1/p"; }

none=$(done_line none)
ft_none=$(field "$none" ft)
corp_none=$(echo "$none" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
[ -n "$ft_none" ] || fail "no ft in: $none"
echo "   none:    $none"
for kinds in all pairs rf outcome; do
	line=$(done_line $kinds)
	ft=$(field "$line" ft)
	corp=$(echo "$line" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
	echo "   $kinds: $line"
	[ -n "$ft" ] && [ "$ft" -gt "$ft_none" ] || fail "WEFT_FEEDBACK=$kinds: ft $ft, not more than none's $ft_none"
	[ "$corp" -gt "$corp_none" ] || fail "WEFT_FEEDBACK=$kinds: corpus $corp, not bigger than none's $corp_none"
	[ "$(field "$line" cov)" = "$(field "$none" cov)" ] || fail "WEFT_FEEDBACK=$kinds changed the code coverage"
done

mkdir "$tmp/seeds"
for b in 00 03 04 05 06 07; do printf "\\$(printf %o 0x$b)" > "$tmp/seeds/$b"; done
inited() {  # the corpus kept after loading the seeds (-runs=0: no mutation)
	WEFT_FEEDBACK=$1 "$fuzz" -runs=0 "$tmp/seeds" 2>&1 | sed -n 's/.*INITED.* corp: \([0-9]*\)\/.*/\1/p'
}
kept_none=$(inited none) kept_all=$(inited all)
echo "   seeds 00 03 04 05 06 07 kept: $kept_none without feedback, $kept_all with"
[ -n "$kept_none" ] && [ -n "$kept_all" ] && [ "$kept_all" -gt "$kept_none" ] ||
	fail "the seeds kept with feedback ($kept_all) are not more than without ($kept_none)"
again=$(done_line all)
[ "$again" = "$(done_line all)" ] || fail "the same run twice: '$again' vs another line"

for bad in bogus 'pairs,' PAIRS; do
	WEFT_FEEDBACK=$bad "$fuzz" -runs=10 > "$tmp/bad" 2>&1
	status=$?
	[ "$status" -eq 2 ] || { cat "$tmp/bad"; fail "WEFT_FEEDBACK=$bad: exit status $status, not 2"; }
	grep -q "weft: WEFT_FEEDBACK=$bad: expected none, all" "$tmp/bad" ||
		{ cat "$tmp/bad"; fail "WEFT_FEEDBACK=$bad: no message naming it"; }
done
echo "feedback_libfuzzer: every kind adds features (ft $ft_none without), stable, bad values exit 2"
