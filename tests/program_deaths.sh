#!/bin/sh
# tests/program_deaths.sh DIR BUILD - the ways a program's process can end that
# issue 29 lists, each a verdict with weft's report (tests/program_deaths.c,
# WEFT_TEST_DEATH picks one), in DIR's program_deaths_replay and, if built,
# program_deaths_fuzz; BUILD is `asan` (libweft and the program under ASan) or
# `plain`.  On the backend WEFT_BACKEND names:
#   - kill: pthread_kill on a managed thread is `misuse`, named (it segfaulted
#     inside glibc on weft's thread handle);
#   - recursion (fiber backend): the fiber stack overflow is named, with
#     WEFT_BACKEND=pthread as the way out, by the replay tool and by the fuzz
#     binary's report of the dying execution (in a program, handlers ran with
#     no current thread: a bare "segmentation fault"); on pthreads it passes;
#   - double_free (asan): ASan reports "attempting double-free", never
#     "malloc_usable_size() for pointer which is not owned", then weft's
#     report of the execution;
#   - null_race (plain, fuzz binary): a SIGSEGV in program code found by the
#     default fuzz binary (seeds 1-3) leaves weft's report and a non-empty
#     crash file that replays to the segmentation fault in both binaries.
dir=$(cd "$1" && pwd) build=$2
replay=$dir/program_deaths_replay fuzz=$dir/program_deaths_fuzz
backend=${WEFT_BACKEND:-fiber}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($backend): $*"; cat "$tmp/log"; exit 1; }
: > "$tmp/empty"
run() { death=$1; shift; WEFT_TEST_DEATH=$death timeout 60 "$@" > "$tmp/log" 2>&1; }

run kill "$replay" "$tmp/empty"; rc=$?
[ "$rc" = 1 ] || fail "kill: replay exits $rc, want 1"
grep -q "^==weft== FAIL misuse in program_deaths: thread 0 sends signal 10 (.*) to thread 1 with pthread_kill" \
	"$tmp/log" || fail "kill: no misuse verdict naming pthread_kill"

run recursion "$replay" "$tmp/empty"; rc=$?
if [ "$backend" = fiber ]; then
	[ "$rc" != 0 ] || fail "recursion: replay exits 0"
	grep -q "^==weft== CRASH in program_deaths: .*overflowed its .* fiber stack.*WEFT_BACKEND=pthread" \
		"$tmp/log" || fail "recursion: the replay tool does not name the fiber stack overflow"
	if [ -x "$fuzz" ] && [ "$build" = plain ]; then
		run recursion "$fuzz" "$tmp/empty"
		grep -q "^==weft== FAIL error in program_deaths: the process died during this execution (a managed thread overflowed its fiber stack: run it on pthreads (WEFT_BACKEND=pthread)" \
			"$tmp/log" || fail "recursion: the fuzz binary's report does not name the overflow"
	fi
else
	[ "$rc" = 0 ] || fail "recursion: replay on pthreads exits $rc, want 0 (the system's stack suffices)"
fi

if [ "$build" = asan ]; then
	run double_free "$replay" "$tmp/empty"; rc=$?
	[ "$rc" != 0 ] || fail "double_free: replay exits 0"
	grep -q "ERROR: AddressSanitizer: attempting double-free" "$tmp/log" ||
		fail "double_free: ASan does not report a double free"
	grep -q "malloc_usable_size" "$tmp/log" && fail "double_free: reported as malloc_usable_size"
	sed -n '/ERROR: AddressSanitizer/,$p' "$tmp/log" |
		grep -q "^==weft== FAIL error in .*the process died during this execution" ||
		fail "double_free: no weft report after ASan's"
fi

if [ "$build" = plain ] && [ -x "$fuzz" ]; then
	for seed in 1 2 3; do
		mkdir "$tmp/$seed"
		(cd "$tmp/$seed" && run null_race "$fuzz" -seed=$seed -runs=200000) && fail "null_race: seed $seed found nothing"
		cp "$tmp/log" "$tmp/$seed.log"
		grep -q "^==weft== FAIL error in program_deaths: the process died during this execution (signal SIGSEGV" \
			"$tmp/log" || fail "null_race: seed $seed: no weft report of the SIGSEGV"
		set -- "$tmp/$seed"/crash-*
		[ $# = 1 ] && [ -s "$1" ] || fail "null_race: seed $seed: not one non-empty crash file: $*"
		run null_race "$replay" "$1" && fail "null_race: seed $seed: the crash file replays as a pass"
		grep -q "^==weft== CRASH in program_deaths: input .*: segmentation fault" "$tmp/log" ||
			fail "null_race: seed $seed: the crash file does not replay to the SIGSEGV"
		run null_race "$fuzz" "$1" && fail "null_race: seed $seed: the fuzz binary passes the crash file"
		grep -q "(signal SIGSEGV" "$tmp/log" ||
			fail "null_race: seed $seed: the fuzz binary does not replay the crash file to the SIGSEGV"
	done
fi
echo "program_deaths: pthread_kill, stack overflow, double free, SIGSEGV are verdicts with weft's report ($build, $backend)"
