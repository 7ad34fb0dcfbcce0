#!/bin/sh
# tests/check_outputs.sh WEFT_CHECK REPLAY INPUT - every output is checked and
# weft-check reads only what the replay tool reads (issue 29, item 6):
#   1. a write that fails (/dev/full) is an error naming the file, exit 2, never
#      "wrote": weft-check --html and its verdicts on stdout; REPLAY's --html, its
#      --json on stdout, its --simplify output;
#   2. weft-check refuses a device (/dev/zero), a FIFO and a file over 64 MiB with
#      exit 2, as REPLAY does, instead of reading until memory runs out or blocking;
#   3. the kv history's web page shows its strings, and its page data is UTF-8 JSON
#      even when a key holds a byte that is not UTF-8;
#   4. a failing kv history's explanation counts its key's sub-history and is a
#      screenful; --full lists the whole prefix.
# INPUT: a reproducer REPLAY reports as failing.  `timeout` only guards against the
# old hang (a FIFO); nothing here depends on time.
set -u
check=$1 replay=$2 input=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checks=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect NAME WANT_EXIT WANT_TEXT COMMAND...: exit status and a line of its stderr+stdout.
expect() {
	name=$1 want=$2 text=$3
	shift 3
	checks=$((checks + 1))
	timeout 60 "$@" > "$tmp/out" 2>&1
	got=$?
	[ "$got" = "$want" ] || bad "$name: exit $got, want $want"
	grep -qF -- "$text" "$tmp/out" || { bad "$name: no '$text' in:"; head -5 "$tmp/out"; }
	if grep -q "wrote /dev/full" "$tmp/out"; then bad "$name: says it wrote /dev/full"; fi
}

h=$here/histories/queue_exercise_2.txt
# 1. failed writes
expect "check --html=/dev/full" 2 "cannot write /dev/full" "$check" --html=/dev/full "$h"
checks=$((checks + 1))
"$check" "$h" > /dev/full 2> "$tmp/err"; got=$?
[ "$got" = 2 ] || bad "check > /dev/full: exit $got, want 2"
grep -q "cannot write <stdout>" "$tmp/err" || bad "check > /dev/full: no message"
expect "replay --html=/dev/full" 2 "cannot write /dev/full" "$replay" --expect=fail --html=/dev/full "$input"
checks=$((checks + 1))
"$replay" --expect=fail --json "$input" > /dev/full 2> "$tmp/err"; got=$?
[ "$got" = 2 ] || bad "replay --json > /dev/full: exit $got, want 2"
grep -q "cannot write <stdout>" "$tmp/err" || bad "replay --json > /dev/full: no message"
expect "replay --simplify=/dev/full" 2 "cannot write /dev/full" "$replay" --simplify=/dev/full "$input"
# the same outputs to a real file still work
expect "check --html=FILE" 1 "NOT linearizable" "$check" --html="$tmp/page.html" "$h"
[ -s "$tmp/page.html" ] || bad "check --html=FILE: empty page"

# 2. what weft-check refuses, as the replay tool does
expect "check /dev/zero" 2 "not a regular file" "$check" /dev/zero
expect "replay /dev/zero" 2 "not a regular file" "$replay" /dev/zero
mkfifo "$tmp/fifo"
expect "check FIFO" 2 "not a regular file" "$check" "$tmp/fifo"
truncate -s 65M "$tmp/huge.txt"
expect "check > 64 MiB" 2 "larger than 64 MiB" "$check" "$tmp/huge.txt"
expect "check - (stdin) still reads" 1 "<stdin>: NOT linearizable" sh -c "'$check' - < '$h'"

# 3. the kv page: strings, and UTF-8 JSON data (a key with the byte 0xff)
kv=$here/histories/kv/example.edn
expect "check --html kv" 1 "NOT linearizable" "$check" --html="$tmp/kv.html" "$kv"
checks=$((checks + 1))
grep -qF 'put(\"k\", \"a\")' "$tmp/kv.html" || bad "kv page: no put(\"k\", \"a\")"
grep -qF '"res": "\"ab\""' "$tmp/kv.html" || bad "kv page: no get result \"ab\""
printf '{:process 0, :type :invoke, :f :put, :key "k\377", :value "a"}\n{:process 0, :type :ok, :f :put, :key "k\377", :value "a"}\n{:process 1, :type :invoke, :f :get, :key "k\377"}\n{:process 1, :type :ok, :f :get, :key "k\377", :value "b"}\n' > "$tmp/latin1.edn"
expect "check --html non-UTF-8 key" 1 "NOT linearizable" "$check" --html="$tmp/latin1.html" "$tmp/latin1.edn"
checks=$((checks + 1))
python3 - "$tmp/latin1.html" <<'EOF' || bad "non-UTF-8 kv page: data not UTF-8 JSON"
import json, sys
page = open(sys.argv[1], 'rb').read().decode('utf-8')   # strict: raises on a bad byte
data = page.split('id="weft-data">\n', 1)[1].split('\n</script>', 1)[0]
d = json.loads(data)
assert d['history'][0]['call'] == 'put("k\ufffd", "a")', d['history'][0]['call']   # the byte as U+FFFD
EOF

# 4. a failing kv history with a long prefix: counted by key, a screenful
python3 "$here/gen_kv_history.py" --seed 3 --clients 10 --ops 2000 --keys 8 \
	--anomaly stale-read > "$tmp/long.edn"
expect "check long kv" 1 'in the sub-history of key "k5" (241 operations)' "$check" "$tmp/long.edn"
checks=$((checks + 1))
grep -qF "longest linearizable prefix: 117 of 241 operations" "$tmp/out" || bad "prefix not counted by key"
grep -qF "    ... 97 earlier operations" "$tmp/out" || bad "no '... 97 earlier operations'"
lines=$(wc -l < "$tmp/out")
[ "$lines" -le 30 ] || bad "explanation is $lines lines, not a screenful"
expect "check --full long kv" 1 "    1. thread" "$check" --full "$tmp/long.edn"
checks=$((checks + 1))
lines=$(wc -l < "$tmp/out")
[ "$lines" = 121 ] || bad "--full: $lines lines, want 121 (the 117 operations and 4 more)"
grep -qF "earlier operations" "$tmp/out" && bad "--full still cuts the prefix"

[ "$failures" = 0 ] || { echo "check_outputs: $failures of $checks checks failed"; exit 1; }
echo "check_outputs: $checks checks, all passed"
