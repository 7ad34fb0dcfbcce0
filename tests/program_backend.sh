#!/bin/sh
# tests/program_backend.sh DIR - programs run on fibers by default, unless their
# objects have thread-local data or ask for thread identity (issue 22;
# cmake/weft_program_cc.sh marks them, harness/program_main.c flags them
# WEFT_TARGET_REAL_THREADS, runner/runner.c chooses).  The choice is the one
# NAME_replay prints; WEFT_BACKEND=fiber cannot put the thread-local program on
# fibers, WEFT_BACKEND=pthread can put any program on pthreads.
dir=$1
fail() { echo "FAIL: $*"; exit 1; }
empty=$(mktemp)
trap 'rm -f "$empty"' EXIT
backend() {  # backend NAME [ENV...]: the backend NAME_replay reports
	name=$1; shift
	env "$@" "$dir/${name}_replay" "$empty" 2>&1 | sed -n 's/^weft-replay: scheduler backend \([a-z]*\).*/\1/p'
}
for p in pthread_account_fixed flag_pointer_fixed lazy_init_fixed many_threads_fixed; do
	[ "$(backend $p)" = fiber ] || fail "$p runs on '$(backend $p)', want fiber"
	[ "$(backend $p WEFT_BACKEND=pthread)" = pthread ] || fail "$p ignores WEFT_BACKEND=pthread"
done
[ "$(backend tls_tally_fixed)" = pthread ] || fail "tls_tally (a _Thread_local) runs on '$(backend tls_tally_fixed)'"
[ "$(backend tls_tally_fixed WEFT_BACKEND=fiber)" = pthread ] ||
	fail "WEFT_BACKEND=fiber put tls_tally on fibers"
echo "program_backend: programs on fibers by default, the one with a thread-local on pthreads"
