#!/bin/sh
# tests/tls_probe.sh LIBWEFT.a STASH_REPLAY - a data-structure target whose own
# code keeps a _Thread_local runs on pthreads whatever WEFT_BACKEND says, and a
# search over its interleavings finds no (false) failure (issue 20;
# runner/tls_probe.c).  Also: the probe's list of libweft's own thread-locals is
# exactly the library's, so a thread-local added to weft without it there would
# send every target to pthreads.
lib=$1 replay=$2
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$lib" ] && [ -x "$replay" ] || fail "usage: tls_probe.sh LIBWEFT.a STASH_REPLAY"
src=$(dirname "$0")/../runner/tls_probe.c
have=$(readelf -sW "$lib" | awk '$4 == "TLS" && $7 != "UND" { print $8 }' | sort -u | tr '\n' ' ')
listed=$(sed -n '/^static const char \*const weft_own/,/^};/p' "$src" | grep -o '"[a-z_]*"' |
	tr -d '"' | sort -u | tr '\n' ' ')
[ -n "$have" ] || fail "no thread-locals found in $lib: is it libweft?"
[ "$have" = "$listed" ] || fail "libweft's thread-locals are '$have', tls_probe.c lists '$listed'"
empty=$(mktemp)
trap 'rm -f "$empty"' EXIT
for env in "" WEFT_BACKEND=fiber; do
	out=$(env $env "$replay" "$empty" 2>&1)
	echo "$out" | grep -q "scheduler backend pthread: the target defines the thread-local 'scratch' (target_thread_local.c)" ||
		fail "${env:-default}: not on pthreads with the reason: $out"
done
out=$("$replay" --explore=random --max-executions=3000 --seed=1 2>&1); rc=$?
[ $rc -eq 0 ] || fail "a search found a failure on a correct target (exit $rc): $out"
echo "tls_probe: the thread-local target runs on pthreads and passes; libweft's list is exact"
