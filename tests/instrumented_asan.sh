#!/bin/sh
# tests/instrumented_asan.sh BUGGY_REPLAY FIXED_REPLAY DIR FUNCTION - a
# use-after-free between threads, in an ASan build of a program built with
# weft's instrumentation pass (targets/plain_session_uaf.c, plain_unlock_free.c,
# plain_refcount.c):
# replaying each reproducer DIR/NAME.assertion.bin (the verdict a build without
# ASan gives) makes ASan report heap-use-after-free at a read in FUNCTION, the
# program's own code, and nothing in weft's, followed by weft's report of the
# interleaving up to the error; the fixed variant passes it; seeds
# pass both.  The pass must neither hide the bug from ASan nor trip ASan itself.
buggy=$1 fixed=$2 dir=$3 function=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
for f in "$dir"/*.bin; do
	case $(basename "$f") in
	seed-*)
		"$buggy" --quiet --expect=pass "$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$f: buggy, want pass"; }
		"$fixed" --quiet --expect=pass "$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$f: fixed, want pass"; } ;;
	*)
		"$buggy" "$f" > "$tmp/log" 2>&1 && { cat "$tmp/log"; fail "$f: the buggy variant exited 0"; }
		grep -q "ERROR: AddressSanitizer: heap-use-after-free" "$tmp/log" ||
			{ cat "$tmp/log"; fail "$f: no heap-use-after-free from ASan"; }
		sed -n '/ERROR: AddressSanitizer/,/^$/p' "$tmp/log" | grep -m1 ' #0 ' > "$tmp/frame0"
		grep -q " in $function " "$tmp/frame0" ||
			{ cat "$tmp/log"; fail "$f: ASan's first frame is not $function: $(cat "$tmp/frame0")"; }
		grep -q "weft_impl_\|scheduler/access.c" "$tmp/frame0" && fail "$f: reported inside weft"
		# then weft's report of the execution up to the error (weft_runner_report_on_death)
		sed -n '/ERROR: AddressSanitizer/,$p' "$tmp/log" |
			grep -q "^==weft== FAIL error in .*the process died during this execution" ||
			{ cat "$tmp/log"; fail "$f: no weft report after ASan's"; }
		grep -q "^interleaving:" "$tmp/log" || fail "$f: weft's report has no interleaving"
		# on pthreads, ASan knows the worker threads: the program's pthread_create
		# (harness/program_interpose.c) forwards to ASan's interceptor
		if [ "${WEFT_BACKEND:-}" = pthread ]; then
			grep -A1 "^Thread T1 created by T0 here:" "$tmp/log" | grep -q "__interceptor_pthread_create" ||
				{ cat "$tmp/log"; fail "$f: ASan did not see weft's worker created"; }
		fi
		"$fixed" --quiet --expect=pass "$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$f: fixed, want pass"; }
		n=$((n + 1)) ;;
	esac
done
[ "$n" -gt 0 ] || fail "no reproducers in $dir"
echo "instrumented_asan: $dir: $n reproducers make ASan report heap-use-after-free in $function; the fixed variant passes"
