#!/bin/sh
# tests/weft_check_cli.sh WEFT_CHECK - the standalone checker end to end.
#
# Good histories (tests/histories/*.txt) carry their expectations in comments:
#   # expect-args: --model=queue      extra arguments (optional)
#   # expect-exit: 1                  exit status
#   # expect-output: deq() = 2        a fixed string the output must contain (any number)
# Malformed ones (tests/histories/bad/*.txt) carry
#   # expect-error: LINE: message     stderr must contain "FILE:LINE: message", exit 2.
# Jepsen files cannot hold comments: their expectations are listed below.
# Then the command line: --help, bad flags, unreadable files, --max-cost, stdin,
# --quiet, --format, exit-status precedence.
checker=$1
dir=$(cd "$(dirname "$0")" && pwd)/histories
[ -x "$checker" ] || { echo "FAIL: no executable '$checker'"; exit 1; }
tmp=${TMPDIR:-/tmp}/weft-check-cli.$$
trap 'rm -f "$tmp" "$tmp".*' EXIT
fail=0 checks=0
bad() { echo "FAIL: $*"; fail=1; }

# run WANT_EXIT DESCRIPTION ARGS...: output (stdout + stderr) in $tmp
run() {
	want=$1 what=$2; shift 2
	checks=$((checks + 1))
	"$checker" "$@" >"$tmp" 2>&1; got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; sed 's/^/    /' "$tmp"; }
	sanitizer_clean "$what"
}
# A sanitizer report can hide behind an expected exit status 1: look for it.
sanitizer_clean() {
	! grep -qE "Sanitizer|runtime error:" "$tmp" || { bad "$1: sanitizer report"; cat "$tmp"; }
}
# has STRING DESCRIPTION: the last run printed STRING (fixed string)
has() {
	checks=$((checks + 1))
	grep -qF -- "$1" "$tmp" || { bad "$2: output lacks '$1'"; sed 's/^/    /' "$tmp"; }
}
hasnt() {
	checks=$((checks + 1))
	! grep -qF -- "$1" "$tmp" || { bad "$2: output has '$1'"; sed 's/^/    /' "$tmp"; }
}

# ---- good histories: verdicts and key lines ----
n_good=0
for f in "$dir"/*.txt; do
	want=$(sed -n 's/^# expect-exit: //p' "$f")
	[ -n "$want" ] || { bad "$f: no '# expect-exit:' line"; continue; }
	run "$want" "$f" $(sed -n 's/^# expect-args: //p' "$f") "$f"
	sed -n 's/^# expect-output: //p' "$f" > "$tmp.want"
	[ -s "$tmp.want" ] || bad "$f: no '# expect-output:' line"
	while IFS= read -r line; do has "$line" "$f"; done < "$tmp.want"
	has "$f: " "$f (verdict line names the file)"
	n_good=$((n_good + 1))
done
[ "$n_good" -ge 20 ] || bad "only $n_good good histories found in $dir"

# ---- malformed text histories: exit 2, FILE:LINE: message ----
n_bad=0
for f in "$dir"/bad/*.txt; do
	msg=$(sed -n 's/^# expect-error: //p' "$f")
	[ -n "$msg" ] || { bad "$f: no '# expect-error:' line"; continue; }
	run 2 "$f" $(sed -n 's/^# expect-args: //p' "$f") "$f"
	has "$f:$msg" "$f"
	n_bad=$((n_bad + 1))
done
[ "$n_bad" -ge 20 ] || bad "only $n_bad malformed histories found in $dir/bad"

# ---- Jepsen logs ----
run 0 "small Jepsen log (tabs, spaces, :info, :fail)" "$dir/jepsen_small.log"
has "jepsen_small.log: linearizable (4 operations" "small Jepsen log"
run 0 "--format=jepsen" --format=jepsen "$dir/jepsen_small.log"
run 0 "--model=register on a Jepsen log" --model=register "$dir/jepsen_small.log"
while IFS='|' read -r name msg; do
	run 2 "$name" "$dir/bad/$name"
	has "$dir/bad/$name:$msg" "$name"
done <<'EOF'
jepsen_noise.log|3: not a Jepsen event line
jepsen_wrong_f.log|2: process 0: :ok :cas answers an :invoke :write
jepsen_bad_value.log|2: :invoke :cas needs [old new] as its value
jepsen_ok_differs.log|2: process 4: :ok value differs from its :invoke's
jepsen_no_invoke.log|3: process 1: :ok without an :invoke outstanding
jepsen_bad_type.log|2: bad type ':done'
jepsen_second_invoke.log|2: process 7 invokes again while its call from line 1 is outstanding
jepsen_bad_pair.log|1: bad or missing value
jepsen_ok_keyword.log|2: process 0: :ok :read needs nil or an integer as its value
EOF
run 2 "--model=queue on a Jepsen log" --model=queue "$dir/jepsen_small.log"
has "a Jepsen log is a register history" "--model=queue on a Jepsen log"
run 2 "--format=text on a Jepsen log" --format=text "$dir/jepsen_small.log"
has "jepsen_small.log:1: " "--format=text on a Jepsen log"
run 2 "--format=jepsen on a text file" --format=jepsen "$dir/queue_exercise_1.txt"
has "queue_exercise_1.txt:1: not a Jepsen event line" "--format=jepsen on a text file"

# ---- the command line ----
run 0 "--help" --help
for opt in --help --format=VALUE --model=VALUE --max-cost=VALUE --max-memory=VALUE \
	   --relaxed=VALUE --no-partition --quiet "Exit status" register counter queue stack set map deque kv edn; do
	has "$opt" "--help"
done
run 2 "no file" --quiet
run 2 "unknown flag" --bogus "$dir/empty.txt"
has "unknown or malformed option '--bogus'" "unknown flag"
run 2 "flag without its value" --max-cost "$dir/empty.txt"
run 2 "value on a flag without one" --quiet=yes "$dir/empty.txt"
run 2 "bad --max-cost" --max-cost=lots "$dir/empty.txt"
has "--max-cost needs a number" "bad --max-cost"
run 2 "--max-cost=0" --max-cost=0 "$dir/empty.txt"
run 2 "bad --format" --format=xml "$dir/empty.txt"
run 2 "unknown --model" --model=heap "$dir/empty.txt"
run 2 "bad --relaxed" --relaxed=-1 "$dir/empty.txt"
has "--relaxed needs a number" "bad --relaxed"
run 2 "--relaxed on a register history" --relaxed=1 "$dir/register_ok.txt"
has "--relaxed is for queue and stack histories, not register" "--relaxed on a register"
run 1 "--relaxed=0 is the strict queue" --relaxed=0 "$dir/queue_relaxed_1_ok.txt"
has "but the model gives 1" "--relaxed=0"
run 2 "missing file" /nonexistent/weft-history.txt
has "cannot read /nonexistent/weft-history.txt" "missing file"
run 2 "a directory" "$dir"
has "cannot read $dir" "a directory"

run 3 "--max-cost=1 on a hard history" --max-cost=1 "$dir/hard_register.txt"
has "hard_register.txt: unknown (gave up after" "--max-cost=1"
for v in 0 -1 lots 1x 99999999999999999999; do
	run 2 "--max-memory=$v" --max-memory=$v "$dir/empty.txt"
	has "--max-memory needs a number of megabytes > 0" "--max-memory=$v"
done
# etcd_002 memoizes megabytes before it is decided: 1 MB is not enough, 1000 MB is.
etcd=$dir/../data/jepsen-etcd/etcd_002.log
run 3 "--max-memory=1 on a big etcd log" --max-memory=1 --quiet "$etcd"
has "unknown (the memo reached --max-memory after" "--max-memory=1"
run 0 "--max-memory=1000 on a big etcd log" --max-memory=1000 --quiet "$etcd"
run 1 "not linearizable beats unknown" --max-cost=20 "$dir/hard_register.txt" \
	"$dir/queue_exercise_2.txt"
run 2 "bad input beats not linearizable" "$dir/queue_exercise_2.txt" "$dir/bad/unknown_op.txt"
has "queue_exercise_2.txt: NOT linearizable" "bad input beats not linearizable"
run 0 "several linearizable files" "$dir/queue_exercise_1.txt" "$dir/set_ok.txt" "$dir/empty.txt"

run 1 "--quiet" --quiet "$dir/queue_exercise_2.txt"
has "queue_exercise_2.txt: NOT linearizable (3 operations" "--quiet"
[ "$(wc -l < "$tmp")" -eq 1 ] || bad "--quiet printed more than the verdict line"
run 1 "--no-partition" --no-partition "$dir/set_double_add.txt"
hasnt "sub-history of key" "--no-partition"
run 0 "--no-partition, linearizable" --no-partition "$dir/map_ok.txt"

checks=$((checks + 1))
"$checker" - < "$dir/queue_exercise_2.txt" > "$tmp" 2>&1; got=$?
[ "$got" = 1 ] || bad "stdin: exit $got, want 1"
sanitizer_clean stdin
has "<stdin>: NOT linearizable" "stdin"
checks=$((checks + 1))
printf 'model queue\n0 invoke enq\n' | "$checker" - > "$tmp" 2>&1; got=$?
[ "$got" = 2 ] || bad "malformed stdin: exit $got, want 2"
sanitizer_clean "malformed stdin"
has "<stdin>:2: enq takes 1 argument, got 0" "malformed stdin"

sed 's/$/\r/' "$dir/queue_exercise_2.txt" > "$tmp.crlf"
run 1 "CRLF line ends" "$tmp.crlf"

# --html: one history file only; the page holds the history and the explanation
run 2 "--html with two files" --html="$tmp.html" "$dir/queue_exercise_2.txt" "$dir/counter_ok.txt"
has "--html takes exactly one history FILE" "--html with two files"
run 2 "--html unwritable" --html="$tmp.no/such.html" "$dir/queue_exercise_2.txt"
has "cannot write $tmp.no/such.html" "--html unwritable"
run 1 "--html" --quiet --html="$tmp.html" "$dir/queue_exercise_2.txt"
checks=$((checks + 1))
grep -q '"lin": {"prefix": \[0, 1\], "stuck": 2' "$tmp.html" || bad "--html page lacks the explanation"
run 0 "--html of a linearizable history" --html="$tmp.html" "$dir/counter_ok.txt"
checks=$((checks + 1))
grep -q '"lin": null' "$tmp.html" || bad "--html page of a linearizable history has an explanation"

echo "weft_check_cli: $n_good histories, $n_bad malformed, $checks checks, $([ $fail = 0 ] && echo all passed || echo FAILURES)"
[ $fail = 0 ] || exit 1
exit 0
