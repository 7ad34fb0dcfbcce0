#!/bin/sh
# tests/run_all.sh - build weft three ways and run every test in each:
#   gcc        ASan + UBSan           (library, replay binaries, unit tests; -Wall -Wextra
#                                      clean under gcc)
#   clang      plain, with libFuzzer  (adds the fuzzing tests; the few tests run once)
#   clang      ASan + UBSan, with libFuzzer (the tests gcc-asan did not run, and only the
#                                      binaries they run: tests/ci_needed_targets.py)
# then, once, the ecosystem stage (tests/ecosystem/): AFL++ end to end, OSS-Fuzz's build
# emulated for both engines (libFuzzer+ASan, AFL+++ASan; `tests/ecosystem/oss_fuzz.sh`
# alone adds libFuzzer+UBSan), the installed package (gcc, clang, afl-clang-fast), and
# weft-cc from the clang tree installed (a Makefile project, `make CC=weft-cc`).
# A plain gcc build is not run: gcc's warnings come from the gcc-asan build (the same
# RelWithDebInfo flags) and the unsanitized tests from the plain clang one; the suite
# must stay under 20 minutes on an idle machine (each stage's time is printed).
# Build trees go under build/ (or $WEFT_BUILD_ROOT).  Exit status 0 only if all pass.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
builds=${WEFT_BUILD_ROOT:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)
for tool in cmake gcc clang afl-fuzz zip unzip pkg-config; do
	command -v "$tool" >/dev/null 2>&1 || { echo "run_all: '$tool' not found (see README: Requirements)"; exit 2; }
done

# CI's time, per stage: wall seconds, and the CPU seconds of what the stage ran (`times`,
# in this shell: its finished children), and the load average (on a shared machine the
# CPU figure is the one that compares runs)
t0=$(date +%s) cpu0=0
took() {
	times > "$builds/times.txt"
	cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$builds/times.txt")
	echo "=== $1 took $(($(date +%s) - t0)) s ($((cpu - cpu0)) s of CPU; load $(cut -d' ' -f1-3 /proc/loadavg)) ==="
	t0=$(date +%s) cpu0=$cpu
}
configure() {  # configure NAME CC SANITIZE [CMAKE ARGS...]
	name=$1 cc=$2 sanitize=$3
	shift 3
	cmake -S "$root" -B "$builds/$name" -DCMAKE_C_COMPILER="$cc" -DWEFT_SANITIZE="$sanitize" \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > "$builds/$name.configure.log" 2>&1 ||
		{ cat "$builds/$name.configure.log"; exit 1; }
}
# run_suite NAME CC SANITIZE all|tested [CTEST ARGS...]: build everything, or only the
# binaries the selected tests run (tests/ci_needed_targets.py; clang's build of every
# target and unit test under ASan took CI ~200 s, for ~80 tests), then run the tests.
run_suite() {
	name=$1 cc=$2 sanitize=$3 what=$4
	shift 4
	echo "=== $name: configure and build ==="
	configure "$name" "$cc" "$sanitize" -UWEFT_CI_TARGETS
	target=all
	if [ "$what" = tested ]; then
		needed=$(python3 "$root/tests/ci_needed_targets.py" "$builds/$name" "$@") ||
			{ echo "run_all: $name: tests/ci_needed_targets.py failed"; exit 1; }
		if [ -n "$needed" ]; then   # nothing: not the Makefile generator, build all
			echo "$name: building the $(echo "$needed" | wc -l) binaries its tests run"
			needed=$(echo "$needed" | paste -sd ';' -)
			configure "$name" "$cc" "$sanitize" "-DWEFT_CI_TARGETS=$needed"
			target=weft_ci_targets
		fi
	fi
	# once, to a log (a second, no-op build for the exit status cost each suite seconds)
	built=0
	cmake --build "$builds/$name" -j "$jobs" --target "$target" > "$builds/$name.build.log" 2>&1 || built=$?
	grep -E "warning|error|Error" "$builds/$name.build.log" && {
		echo "run_all: $name build has warnings or errors (-Wall -Wextra must be clean)"; exit 1; } || true
	[ $built = 0 ] || { tail -30 "$builds/$name.build.log"; echo "run_all: $name build failed"; exit 1; }
	took "$name build"
	echo "=== $name: test ==="
	(cd "$builds/$name" && ctest --output-on-failure -j "$jobs" "$@")
	took "$name tests"
}

mkdir -p "$builds"
# ASan's leak checker cannot run under some tracers; everything else stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
run_suite gcc-asan gcc ON all
run_suite clang clang OFF all
# under the sanitizers once: clang-asan runs what gcc-asan could not (the libFuzzer and
# instrumentation-pass tests), not the ones gcc-asan already ran
asan_once=$( (cd "$builds/gcc-asan" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: *//p' | paste -sd '|' -)
run_suite clang-asan clang ON tested -E "^($asan_once)\$"
echo "=== ecosystem: AFL++, OSS-Fuzz build (emulated), installed package ==="
sh "$root/tests/ecosystem/afl.sh" "$builds/afl"
took "ecosystem: AFL++"
sh "$root/tests/ecosystem/oss_fuzz.sh" libfuzzer-address afl-address
took "ecosystem: OSS-Fuzz build"
sh "$root/tests/ecosystem/install.sh"
took "ecosystem: installed package"
sh "$root/tests/ecosystem/weft_cc.sh" "$builds/clang"
took "ecosystem: weft-cc (make CC=weft-cc)"
echo "run_all: all three suites and the ecosystem stage passed"
