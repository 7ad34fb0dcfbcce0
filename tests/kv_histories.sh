#!/bin/sh
# tests/kv_histories.sh WEFT_CHECK - weft-check on Jepsen map-style EDN key-value
# histories (model kv, oracle/history_edn.c):
#   - tests/histories/kv/*.edn carry their expectations in EDN comments:
#       ; expect-exit: 1                 exit status (0 linearizable, 1 not)
#       ; expect-output: get("k") = "a"  a fixed string the output must contain
#   - tests/histories/kv/bad/*.edn carry "; expect-error: LINE: message": stderr
#     must say "FILE:LINE: message" and the exit status be 2;
#   - tests/gen_kv_history.py --suite with a fixed seed: 1 to 50 clients, each
#     anomaly (stale read, lost append, duplicated put) and none; every file's
#     first line says the verdict;
#   - options that do not apply to kv are refused.
checker=$1
dir=$(cd "$(dirname "$0")" && pwd)
[ -x "$checker" ] || { echo "FAIL: no executable '$checker'"; exit 1; }
tmp=${TMPDIR:-/tmp}/weft-kv.$$
trap 'rm -rf "$tmp" "$tmp".*' EXIT
mkdir -p "$tmp"
fail=0 checks=0
bad() { echo "FAIL: $*"; fail=1; }

# expect FILE: the file's expect-exit and expect-output comments hold.
expect() {
	f=$1; shift
	want=$(sed -n 's/^; expect-exit: \([0-9]\).*/\1/p' "$f" | head -1)
	[ -n "$want" ] || { bad "$f: no '; expect-exit:' line"; return; }
	"$checker" "$@" "$f" >"$tmp/out" 2>&1; got=$?
	checks=$((checks + 1))
	[ "$got" = "$want" ] || { bad "$f: exit $got, want $want"; sed 's/^/    /' "$tmp/out"; }
	! grep -qE "Sanitizer|runtime error:" "$tmp/out" || { bad "$f: sanitizer report"; cat "$tmp/out"; }
	sed -n 's/^; expect-output: //p' "$f" | while IFS= read -r s; do
		grep -qF -- "$s" "$tmp/out" || { echo "FAIL: $f: output lacks '$s'"; sed 's/^/    /' "$tmp/out"; echo x >"$tmp/lacks"; }
	done
	[ ! -f "$tmp/lacks" ] || { fail=1; rm -f "$tmp/lacks"; }
}

for f in "$dir"/histories/kv/*.edn; do expect "$f"; done

for f in "$dir"/histories/kv/bad/*.edn; do
	msg=$(sed -n 's/^; expect-error: //p' "$f")
	"$checker" --format=edn "$f" >"$tmp/out" 2>&1; got=$?
	checks=$((checks + 1))
	[ "$got" = 2 ] || bad "$f: exit $got, want 2"
	grep -qF -- "$f:$msg" "$tmp/out" || { bad "$f: want '$f:$msg'"; sed 's/^/    /' "$tmp/out"; }
done

if command -v python3 >/dev/null 2>&1; then
	python3 "$dir/gen_kv_history.py" --suite "$tmp/gen" --seed 1 || bad "generator failed"
	n=0
	for f in "$tmp"/gen/*.edn; do expect "$f" --quiet; n=$((n + 1)); done
	[ "$n" = 16 ] || bad "generator wrote $n files, want 16"
	# the same seed gives the same bytes
	python3 "$dir/gen_kv_history.py" --seed 5 --clients 50 --ops 300 --anomaly lost-append >"$tmp/a"
	python3 "$dir/gen_kv_history.py" --seed 5 --clients 50 --ops 300 --anomaly lost-append >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || bad "generator: same seed, different output"
else
	echo "kv_histories: no python3, generated histories skipped"
fi

f=$dir/histories/kv/example.edn
"$checker" --no-partition "$f" >"$tmp/out" 2>&1; got=$?
[ "$got" = 2 ] && grep -qF "key by key" "$tmp/out" || bad "--no-partition on kv: exit $got"
"$checker" --model=queue "$f" >"$tmp/out" 2>&1; got=$?
[ "$got" = 2 ] && grep -qF "not --model=queue" "$tmp/out" || bad "--model=queue on EDN: exit $got"
printf 'model kv\n0 invoke get 1\n' >"$tmp/t.txt"
"$checker" "$tmp/t.txt" >"$tmp/out" 2>&1; got=$?
[ "$got" = 2 ] && grep -qF "Jepsen EDN" "$tmp/out" || bad "model kv in the text format: exit $got"
"$checker" --model=kv --format=text "$tmp/t.txt" >"$tmp/out" 2>&1; got=$?
[ "$got" = 2 ] || bad "--model=kv on a text file: exit $got"
checks=$((checks + 4))

echo "kv_histories: $checks checks"
[ $fail = 0 ]
