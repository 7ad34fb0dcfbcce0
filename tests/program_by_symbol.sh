#!/bin/sh
# tests/program_by_symbol.sh DIR - a C++ program's outside world reached by
# symbol alone (issue 22, harness/program_interpose.c), on
# targets/cxx_outside_world.cpp, which no header renames:
#   - std::this_thread::sleep_for (nanosleep in libstdc++.so) and sleep() take
#     no real time; steady_clock, system_clock, time() and gettimeofday read the
#     logical clock: +5 s after main's sleep(5), at WEFT_LOGICAL_EPOCH + 5;
#   - std::exit(3) from a thread ends the execution with verdict validation and
#     the replay tool's exit status 1 (0 with --expect=validation), never 3;
#   - the same on fibers and on pthreads (the pool's worker threads are made
#     through the interposer's forwarding, not its managed twin);
#   - signal handlers run as nobody: libFuzzer with -timeout=1 for 3 s reports
#     no timeout (its alarm handler reads the real clock even while a fiber runs).
dir=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/empty"
for backend in fiber pthread; do
	export WEFT_BACKEND=$backend
	start=$(date +%s)
	"$dir/cxx_outside_world_replay" "$tmp/empty" > "$tmp/out" 2>&1 ||
		{ cat "$tmp/out"; fail "$backend: the program failed"; }
	end=$(date +%s)
	grep -q "^clocks: steady +5 s, system +5 s, time +5 s, gettimeofday 1000000005$" "$tmp/out" ||
		{ cat "$tmp/out"; fail "$backend: clocks not logical"; }
	grep -q "^weft-replay: scheduler backend $backend " "$tmp/out" ||
		fail "$backend: ran on another backend"
	[ $((end - start)) -lt 3 ] || fail "$backend: 7 logical seconds took $((end - start)) s"
	# The worker's std::thread state is freed by the thread's own end, which exit()
	# stops: a leak for LeakSanitizer once the stopped thread's stack is reused.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	"$dir/cxx_outside_world_exit_replay" "$tmp/empty" > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$backend: replay exited $rc after std::exit(3) in a thread, want 1"
	grep -q '^==weft== FAIL validation in cxx_outside_world_exit: thread 1 called exit(3)$' "$tmp/out" ||
		{ cat "$tmp/out"; fail "$backend: no validation verdict for std::exit(3)"; }
	"$dir/cxx_outside_world_exit_replay" --quiet --expect=validation "$tmp/empty" > /dev/null 2>&1 ||
		fail "$backend: --expect=validation"
done
# libFuzzer's SIGALRM handler reads system_clock, maybe while a fiber is current: it
# must see the real clock (handlers run as nobody), not report a timeout of minus
# 25 years.  -timeout=1 arms the alarm every second.
unset WEFT_BACKEND
if [ -x "$dir/cxx_outside_world_fuzz" ]; then
	(cd "$tmp" && "$dir/cxx_outside_world_fuzz" -seed=1 -timeout=1 -max_total_time=3 \
		> "$tmp/fuzz.log" 2>&1) || { tail -20 "$tmp/fuzz.log"; fail "fuzzing with -timeout=1 failed"; }
	grep -q "ALARM\|timeout" "$tmp/fuzz.log" && { tail -20 "$tmp/fuzz.log"; fail "spurious timeout"; }
	grep -q "^Done [0-9]* runs" "$tmp/fuzz.log" || { tail "$tmp/fuzz.log"; fail "fuzzing did not finish"; }
fi
echo "program_by_symbol: sleeps and clocks logical, std::exit(3) -> validation, fibers and pthreads; no spurious timeout"
