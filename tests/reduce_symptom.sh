#!/bin/sh
# tests/reduce_symptom.sh BUILD - a reduction keeps the failure's symptom (issue 29).
#   1. program_two_bugs (two assertions): a crash of bug 1 (`first >= 3', two lost updates)
#      is one moved preemption from bug 2's simpler failure; --simplify and
#      scripts/weft_reduce.sh must end at bug 1's assertion, not bug 2's (they ended at
#      bug 2's when they kept any assertion, or any crash);
#   2. in an ASan build: plain_unlock_free_buggy's use-after-free, a death with no weft
#      verdict, reduces (weft_reduce.sh: minimizer and simplifier) to the corpus's known
#      minimum 02 09 with the same symptom (before: "does not fail"; --simplify died on
#      its first run).
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (reduce_symptom): $*"; exit 1; }
symptom() { "$build/$1_replay" --json "$2" 2> /dev/null | sed -n 's/.*"symptom": *"\([^"]*\)".*/\1/p'; }
bug1="assertion: thread: assertion \`first >= 3' failed at program_two_bugs.c:34"

# bug 1's crash (libFuzzer seed 3): 25 bytes, 5 preemptions
printf '\002\005\002\007\002\010\002\002\005\001\011\001\002\002\002\002\002\002\002\002\002\002\002\002\002' \
	> "$tmp/two.bin"
[ "$(symptom program_two_bugs "$tmp/two.bin")" = "$bug1" ] || fail "the fixed crash is not bug 1's"
"$build/program_two_bugs_replay" --quiet --simplify="$tmp/simple.bin" "$tmp/two.bin" 2> "$tmp/simplify.log" ||
	{ cat "$tmp/simplify.log"; fail "--simplify failed"; }
got=$(symptom program_two_bugs "$tmp/simple.bin")
[ "$got" = "$bug1" ] || fail "--simplify swapped the bug: $got"
sh "$root/scripts/weft_reduce.sh" --build "$build" program_two_bugs "$tmp/two.bin" "$tmp/reduced.bin" \
	> "$tmp/reduce.log" 2>&1 || { cat "$tmp/reduce.log"; fail "weft_reduce.sh failed"; }
got=$(symptom program_two_bugs "$tmp/reduced.bin")
[ "$got" = "$bug1" ] || { cat "$tmp/reduce.log"; fail "weft_reduce.sh swapped the bug: $got"; }
grep -q "first >= 3" "$tmp/reduced.bin.txt" || fail "the report is not bug 1's"
echo "program_two_bugs: bug 1's crash stays bug 1 ($(od -An -tx1 "$tmp/reduced.bin"))"

# a death: only where the replay dies under ASan
"$build/plain_unlock_free_buggy_replay" "$root/corpus/plain_unlock_free/use-after-unlock.assertion.bin" \
	> /dev/null 2> "$tmp/asan.log"
grep -q '^SUMMARY: AddressSanitizer: heap-use-after-free' "$tmp/asan.log" || {
	echo "reduce_symptom: not an ASan build, the death part skipped"; exit 0; }
# the known failing start 02 09 followed by 30 bytes of noise
printf '\002\011\331\136\134\103\056\300\102\314\145\352\371\106\215\156\040\002\027\016\100\232\246\163\235\000\315\222\210\172\374\052' \
	> "$tmp/uaf.bin"
sh "$root/scripts/weft_reduce.sh" --build "$build" --runs 2000 plain_unlock_free_buggy "$tmp/uaf.bin" "$tmp/uaf.out" \
	> "$tmp/uaf.log" 2>&1 || { cat "$tmp/uaf.log"; fail "weft_reduce.sh on a sanitizer crash failed"; }
grep -q 'symptom: died: heap-use-after-free at job_count plain_unlock_free.c:59' "$tmp/uaf.log" ||
	{ cat "$tmp/uaf.log"; fail "no death symptom"; }
cmp -s "$tmp/uaf.out" "$root/corpus/plain_unlock_free/use-after-unlock.assertion.bin" ||
	fail "reduced to $(od -An -tx1 "$tmp/uaf.out"), the known minimum is 02 09"
grep -q 'heap-use-after-free' "$tmp/uaf.out.txt" || fail "the report is not ASan's"
# the simplifier alone, from a crash the minimizer would not shorten first
"$build/plain_unlock_free_buggy_replay" --quiet --simplify="$tmp/simple.bin" "$tmp/uaf.bin" > /dev/null 2>&1
cmp -s "$tmp/simple.bin" "$root/corpus/plain_unlock_free/use-after-unlock.assertion.bin" ||
	fail "--simplify on the use-after-free left $(od -An -tx1 "$tmp/simple.bin" 2>&1)"
echo "plain_unlock_free_buggy (ASan): the use-after-free reduces to 02 09, symptom kept"
