#!/bin/sh
# tests/cli_bad_input.sh BINDIR REPRODUCER - bad input to every mode of the replay tool gets
# a clear message and exit 2, never a surprise (issue 20, item 4): repeated options, empty
# values, overflowing ranges and counts, non-regular and oversized files, an empty
# directory, binary garbage in arguments, the full --expect word list.
# REPRODUCER fails the counter (lost update).
bin=$1 corpus=$2
replay=$bin/counter_buggy_replay hash=$bin/hash_set_buggy_replay
tmp=${TMPDIR:-/tmp}/weft-badin.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
run() {  # run CODE DESCRIPTION BINARY ARGS...: exit CODE within 20 s, output in $tmp/out
	want=$1 what=$2 b=$3; shift 3
	timeout 20 "$b" "$@" >"$tmp/out" 2>&1; got=$?
	[ "$got" = "$want" ] || { echo "FAIL: $what: exit $got, want $want"; head -5 "$tmp/out"; fail=1; }
}
says() {  # says DESCRIPTION TEXT: the last run printed TEXT
	grep -qF -- "$2" "$tmp/out" || { echo "FAIL: $1: no '$2' in:"; head -5 "$tmp/out"; fail=1; }
}

# replay: options given twice, empty values
run 2 "repeated --expect" "$replay" --expect=pass --expect=fail "$corpus"
says "repeated --expect" "repeated option '--expect=fail'"
run 2 "empty --simplify" "$replay" --simplify= "$corpus"
says "empty --simplify" "unknown or malformed option '--simplify='"
[ ! -e "$corpus.min" ] || { echo "FAIL: something was written"; fail=1; }
# the --expect error lists every verdict word, from the enum
run 2 "bad --expect" "$replay" --expect=maybe "$corpus"
for w in pass linearizability validation step-budget nondeterministic deadlock livelock \
	obstruction assertion misuse data-race fail; do
	says "--expect word list" "$w"
done
# binary garbage in an argument is escaped, not echoed raw
run 2 "garbage option" "$replay" "$(printf -- '--x\001\377')" "$corpus"
says "garbage escaped" "'--x\\x01\\xff'"
# files: a FIFO with no writer must not block, /dev/zero must not be read forever
mkfifo "$tmp/fifo"
run 2 "a FIFO" "$replay" "$tmp/fifo"
says "a FIFO" "not a regular file"
run 2 "/dev/zero" "$replay" /dev/zero
says "/dev/zero" "not a regular file"
truncate -s 65M "$tmp/huge" 2>/dev/null && {
	run 2 "a 65 MiB file" "$replay" "$tmp/huge"
	says "a 65 MiB file" "larger than 64 MiB"
}
# an empty directory checks nothing: never exit 0
mkdir "$tmp/empty"
run 2 "an empty directory" "$replay" "$tmp/empty"
says "an empty directory" "no input files found"
# and the good cases still work (the checks above must not refuse everything)
run 1 "the reproducer fails" "$replay" --quiet "$corpus"
run 0 "the reproducer, expected" "$replay" --quiet --expect=linearizability "$corpus"
mkdir "$tmp/one" && cp "$corpus" "$tmp/one/x.bin"
run 0 "a directory with the reproducer" "$replay" --quiet --expect=fail "$tmp/one"

# systematic: counts up to 2^64-1, ranges without signed overflow, options once
run 0 "--max-executions=2^64-1 is a count" "$replay" --systematic --quiet --ops=1 \
	--max-executions=18446744073709551615 --preemptions=0
run 2 "--max-executions=2^64" "$replay" --systematic --max-executions=18446744073709551616
says "--max-executions=2^64" "must be 1 to 18446744073709551615"
run 2 "--args over the whole int64 range" "$hash" --systematic \
	--args=-9223372036854775807..9223372036854775807
says "--args too wide" "--args=LO..HI must be a range of at most 16 values"
run 2 "--args from INT64_MIN" "$hash" --systematic --args=-9223372036854775808..0
run 2 "repeated --ops" "$replay" --systematic --ops=1 --ops=2
says "repeated --ops" "repeated option '--ops=2'"

# explore: a repeated strategy is an error, not the last one silently
run 2 "repeated --explore" "$replay" --explore=random --explore=pct --max-executions=2
says "repeated --explore" "repeated option '--explore=pct'"
run 2 "empty --explore" "$replay" --explore= --max-executions=2

# --html: one input file only, an unwritable page is exit 2 with the reason
run 2 "--html with two inputs" "$replay" --html="$tmp/page.html" "$corpus" "$corpus"
says "--html with two inputs" "--html takes exactly one input FILE"
run 2 "--html with a directory" "$replay" --html="$tmp/page.html" "$tmp"
says "--html with a directory" "--html takes exactly one input FILE"
[ ! -e "$tmp/page.html" ] || { echo "FAIL: a page was written for a refused command"; fail=1; }
run 2 "--html unwritable" "$replay" --expect=fail --html="$tmp/no/such/dir/page.html" "$corpus"
says "--html unwritable" "cannot write $tmp/no/such/dir/page.html"
run 2 "empty --html" "$replay" --html= "$corpus"
run 0 "--html" "$replay" --expect=fail --html="$tmp/page.html" "$corpus"
grep -q '"verdict": "linearizability"' "$tmp/page.html" ||
	{ echo "FAIL: --html page lacks the verdict"; fail=1; }

# file names hold any byte: every name echoed is escaped (found by tests/cli_fuzz.py)
esc=$(printf '\033x')
run 0 "an escape in a --simplify name" "$replay" --quiet --simplify="$tmp/$esc" "$corpus"
says "--simplify name escaped" "to $tmp/\x1bx ("
if grep -q "$(printf '\033')" "$tmp/out"; then echo "FAIL: a raw escape byte echoed"; fail=1; fi
cp "$corpus" "$tmp/one/$esc.bin"
run 1 "an escape in a name in a directory" "$replay" "$tmp/one"
says "directory name escaped" "==weft== input $tmp/one/\x1bx.bin"
if grep -q "$(printf '\033')" "$tmp/out"; then echo "FAIL: a raw escape byte echoed"; fail=1; fi
run 0 "an escape in an --html name" "$replay" --expect=fail --html="$tmp/$esc.html" "$corpus"
says "--html name escaped" "wrote $tmp/\x1bx.html"
# misspelt environment variables stop the process, like WEFT_BACKEND (found by cli_fuzz.py)
run 2 "WEFT_PIN=x" env WEFT_BACKEND=pthread WEFT_PIN=x "$replay" --quiet --expect=fail "$corpus"
says "WEFT_PIN=x" "WEFT_PIN=x: use 1"
run 2 "WEFT_SPIN=x" env WEFT_BACKEND=pthread WEFT_SPIN=x "$replay" --quiet --expect=fail "$corpus"
says "WEFT_SPIN=x" "WEFT_SPIN=x: use a number"
check=$bin/weft-check
if [ -x "$check" ]; then
	run 2 "weft-check: an escape in a file name" "$check" "$tmp/$esc.missing"
	says "weft-check name escaped" "cannot read $tmp/\x1bx"
	if grep -q "$(printf '\033')" "$tmp/out"; then echo "FAIL: weft-check echoed a raw escape"; fail=1; fi
	run 2 "weft-check: repeated option" "$check" --quiet --quiet "$tmp/$esc"
	says "weft-check repeated" "repeated option '--quiet'"
fi
exit $fail
