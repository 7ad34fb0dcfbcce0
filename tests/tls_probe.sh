#!/bin/sh
# tests/tls_probe.sh LIBWEFT.a STASH_REPLAY - a data-structure target whose own
# code keeps a _Thread_local runs on pthreads whatever WEFT_BACKEND says, and a
# search over its interleavings finds no (false) failure (issue 20;
# runner/tls_probe.c).  Also: the probe's list of libweft's own thread-locals is
# exactly the library's, so a thread-local added to weft without it there would
# send every target to pthreads.  A stripped copy of the target (no symbol table)
# runs on pthreads too (the probe reads the PT_TLS segment then, issue 30); a
# stripped copy of a target without thread-locals of its own stays on fibers.
lib=$1 replay=$2 plain_replay=$3
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$lib" ] && [ -x "$replay" ] || fail "usage: tls_probe.sh LIBWEFT.a STASH_REPLAY"
src=$(dirname "$0")/../runner/tls_probe.c
have=$(readelf -sW "$lib" | awk '$4 == "TLS" && $7 != "UND" { print $8 }' | sort -u | tr '\n' ' ')
listed=$(sed -n '/^static const char \*const weft_own/,/^};/p' "$src" | grep -o '"[a-z_]*"' |
	tr -d '"' | sort -u | tr '\n' ' ')
[ -n "$have" ] || fail "no thread-locals found in $lib: is it libweft?"
[ "$have" = "$listed" ] || fail "libweft's thread-locals are '$have', tls_probe.c lists '$listed'"
sizes=$(readelf -sW "$lib" | awk '$4 == "TLS" && $7 != "UND" { print $3 }' | sort -u | tr '\n' ' ')
[ "$sizes" = "8 " ] || fail "libweft's thread-locals are not all pointers (sizes '$sizes'): WEFT_OWN_TLS_BYTES"
empty=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$empty" "$tmp"' EXIT
cp "$replay" "$tmp/stash" && strip "$tmp/stash" || fail "cannot strip a copy"
readelf -SW "$tmp/stash" | grep -q ' \.symtab ' && fail "the stripped copy has a symbol table"
for env in "" WEFT_BACKEND=fiber; do
	out=$(env $env "$tmp/stash" "$empty" 2>&1)
	echo "$out" | grep -q "scheduler backend pthread: the target defines the thread-local 'unknown: the executable is stripped'" ||
		fail "stripped, ${env:-default}: not on pthreads with the reason: $out"
done
out=$("$tmp/stash" --explore=random --max-executions=3000 --seed=1 2>&1) ||
	fail "stripped: a search found a failure on a correct target: $out"
# (only where libweft's pointers are its only thread-local storage: not under ASan)
if [ -n "$plain_replay" ] && readelf -lW "$plain_replay" | grep -q 'TLS .* 0x000018 R '; then
	cp "$plain_replay" "$tmp/plain" && strip "$tmp/plain" || fail "cannot strip a copy"
	out=$(WEFT_BACKEND=fiber "$tmp/plain" "$empty" 2>&1)
	echo "$out" | grep -q "scheduler backend fiber" ||
		fail "a stripped target without thread-locals left fibers: $out"
fi
for env in "" WEFT_BACKEND=fiber; do
	out=$(env $env "$replay" "$empty" 2>&1)
	echo "$out" | grep -q "scheduler backend pthread: the target defines the thread-local 'scratch' (target_thread_local.c)" ||
		fail "${env:-default}: not on pthreads with the reason: $out"
done
out=$("$replay" --explore=random --max-executions=3000 --seed=1 2>&1); rc=$?
[ $rc -eq 0 ] || fail "a search found a failure on a correct target (exit $rc): $out"
echo "tls_probe: the thread-local target runs on pthreads and passes, stripped too; libweft's list is exact"
