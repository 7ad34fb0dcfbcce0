#!/bin/sh
# tests/program_sem.sh DIR - POSIX semaphores caught by symbol (issue 32's
# by-symbol path, harness/program_interpose.c) in tests/program_sem_cxx.cpp:
#   - the correct program passes 3,000 random-walk executions on fibers and 300 on
#     pthreads, each within --timeout=10 (before, its first sem_wait blocked on the
#     real semaphore: a hang, then a false "timeout" verdict);
#   - the buggy one (one free slot too many) fails with an assertion, found by the
#     random walk, and its reproducer's report names sem_wait;
#   - the fuzz binary (plain clang) finds it too;
#   - both use pthread_mutex_timedlock by symbol; tests/program_timedlock.c uses it
#     through the drop-in header: correct passes, buggy (goes on after a timeout)
#     fails, its report shows the timed-out lock;
#   - C11 <threads.h> (tests/program_c11_threads.c): thrd_create makes managed threads
#     (before: real threads outside every execution, no interleaving explored).
dir=$1
fail() { echo "FAIL (program_sem): $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for backend in fiber pthread; do
	n=3000
	[ $backend = pthread ] && n=300
	WEFT_BACKEND=$backend "$dir/program_sem_fixed_replay" --explore=random --seed=1 \
		--max-executions=$n --timeout=10 --quiet > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { cat "$tmp/out"; fail "$backend: the correct program exited $rc"; }
	grep -q "executions=$n .*verdict=pass" "$tmp/out" || { cat "$tmp/out"; fail "$backend: not $n passing executions"; }
done
"$dir/program_sem_buggy_replay" --explore=random --seed=1 --max-executions=20000 --timeout=10 > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || { tail -20 "$tmp/out"; fail "the buggy program: exit $rc, want 1 (a failure found)"; }
grep -q "verdict=assertion" "$tmp/out" || { tail -20 "$tmp/out"; fail "the buggy program's failure is not an assertion"; }
grep -q "sem_wait" "$tmp/out" || { tail -40 "$tmp/out"; fail "the report does not show sem_wait"; }
if [ -x "$dir/program_sem_buggy_fuzz" ]; then
	(cd "$tmp" && "$dir/program_sem_buggy_fuzz" -seed=1 -runs=20000 > "$tmp/fuzz.log" 2>&1)
	grep -q "^ASSERTION FAILED: weft: assertion" "$tmp/fuzz.log" || { tail -20 "$tmp/fuzz.log"; fail "the fuzz binary did not find the bug"; }
fi
# pthread_mutex_timedlock (drop-in): the correct program never loses an update; in the
# buggy one a timed-out try goes on unlocked: found, and the report shows the timeout.
"$dir/program_timedlock_fixed_replay" --explore=random --seed=1 --max-executions=3000 --timeout=10 \
	--quiet > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the correct timed-lock program failed"; }
"$dir/program_timedlock_buggy_replay" --explore=random --seed=1 --max-executions=20000 --timeout=10 \
	> "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "verdict=assertion" "$tmp/out" ||
	{ tail -20 "$tmp/out"; fail "the buggy timed-lock program: no assertion found"; }
grep -q "trylock program_timedlock.c:[0-9]* #1 -> busy" "$tmp/out" ||
	{ tail -40 "$tmp/out"; fail "the report does not show the timed-out lock"; }
# C11 threads: the workers are managed threads (the correct program passes, taking no real
# time for its logical 5 s sleeps; the buggy one loses an update, found).
start=$(date +%s)
"$dir/program_c11_threads_fixed_replay" --explore=random --seed=1 --max-executions=3000 --timeout=10 \
	--quiet > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the correct C11 threads program failed"; }
[ $(($(date +%s) - start)) -lt 20 ] || fail "3,000 executions with logical 5 s sleeps took real time"
"$dir/program_c11_threads_buggy_replay" --explore=random --seed=1 --max-executions=20000 --timeout=10 \
	> "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "verdict=assertion" "$tmp/out" ||
	{ tail -20 "$tmp/out"; fail "the buggy C11 threads program: no assertion found"; }
grep -q "spawn thrd_create:0 thread 1" "$tmp/out" ||
	{ tail -40 "$tmp/out"; fail "the report does not show thrd_create"; }
echo "program_sem: semaphores by symbol: the correct program passes on fibers and pthreads, the buggy one fails with an assertion; timed locks; C11 threads"
