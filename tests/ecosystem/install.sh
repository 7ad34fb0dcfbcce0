#!/bin/sh
# tests/ecosystem/install.sh - weft as an installed package, used the way a user would.
#
#   1. weft is built (gcc) and `cmake --install`ed into a temporary prefix;
#   2. examples/id_allocator, a separate project, finds it with find_package(weft 0.1)
#      and weft_add_fuzz_target():
#      - gcc: only the standalone replay builds; the buggy variant fails its reproducer
#        (lost-id.linearizability.bin) with linearizability, the fixed one passes it;
#      - clang: libFuzzer (-seed=1) finds the seeded bug; the crash replays as
#        linearizability and --simplify reduces it to 05, (1, 1, 2, 2); the fixed
#        variant survives 20,000 runs;
#      - afl-clang-fast (when AFL++ is installed): a persistent-mode binary that crashes
#        on the reproducer and not on the fixed variant;
#      - the installed bin/weft-reduce (on PATH) reduces the libFuzzer crash to the same
#        reproducer; weft-reduce and weft-campaign answer --help and refuse bad usage;
#   3. a whole pthread program (targets/pthread_account.c) built with the package's
#      weft_add_program() (gcc): its globals are moved to weft's sections, the buggy
#      program fails its golden reproducer with its assertion, the fixed one passes;
#   4. the Debian package (cpack -G DEB): as root, and when no weft package is installed
#      already, installed with dpkg -i (and removed at the end); otherwise unpacked with
#      dpkg-deb -x.  The example builds against it with clang and the weft-reduce it put
#      on PATH reduces the crash; its weft.pc builds the replay;
#   5. pkg-config: the replay built from weft.pc's cflags, libs and harnessdir works;
#   6. weft as a subproject (add_subdirectory): no tests, benchmarks or bundled targets
#      in the build, and a parent's program links weft::weft.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/id_allocator
repro=$example/lost-id.linearizability.bin
fail() { echo "FAIL (install): $*"; exit 1; }
tmp=$(mktemp -d)
dpkg_installed=
cleanup() {
	[ -z "$dpkg_installed" ] || dpkg -r weft > /dev/null 2>&1 || echo "install: could not dpkg -r weft"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
path0=$PATH
prefix=$tmp/prefix

echo "== cmake --install into a temporary prefix"
cmake -S "$root" -B "$tmp/weft" -DCMAKE_C_COMPILER=gcc -DCMAKE_INSTALL_PREFIX="$prefix" \
	-DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=OFF > "$tmp/weft.log" 2>&1 &&
	cmake --build "$tmp/weft" -j 2 >> "$tmp/weft.log" 2>&1 &&
	cmake --install "$tmp/weft" >> "$tmp/weft.log" 2>&1 || { tail -30 "$tmp/weft.log"; fail "build or install"; }
for f in lib/libweft.a include/weft/weft.h include/weft/run.h lib/cmake/weft/weftConfig.cmake \
	lib/cmake/weft/weftConfigVersion.cmake lib/pkgconfig/weft.pc share/weft/harness/fuzz_libfuzzer.c \
	share/weft/harness/replay_main.c share/weft/oracle/tool_files.h share/weft/harness/program_main.c bin/weft-check \
	lib/cmake/weft/weft_program_cc.sh; do
	[ -f "$prefix/$f" ] || fail "$f not installed"
done
PATH=$prefix/bin:$PATH
export PATH
for tool in weft-reduce weft-campaign; do
	[ "$(command -v $tool)" = "$prefix/bin/$tool" ] || fail "$tool not installed in bin/"
	$tool --help > "$tmp/help.txt" 2>&1 || fail "$tool --help"
	grep -q "^usage: $tool " "$tmp/help.txt" || fail "$tool --help: $(head -n 1 "$tmp/help.txt")"
	$tool --bogus > /dev/null 2>&1; [ $? -eq 2 ] || fail "$tool accepts --bogus"
	(cd "$tmp" && $tool --build "$tmp" no_such_target x y > /dev/null 2>&1); [ $? -eq 2 ] ||
		fail "$tool does not refuse missing binaries"
done

build_example() {  # build_example NAME CC [CXX [SOURCE]]: configure and build the example
	dir=$tmp/example-$1
	CC=$2 CXX=${3:-} cmake -S "${4:-$example}" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/$1.log" 2>&1 &&
		cmake --build "$dir" -j 2 >> "$tmp/$1.log" 2>&1 || { tail -30 "$tmp/$1.log"; fail "example with $2"; }
	grep -E "warning:" "$tmp/$1.log" && fail "example with $2 has warnings"
	return 0
}

echo "== example with gcc (standalone replay)"
build_example gcc gcc
ex=$tmp/example-gcc
[ -x "$ex/id_allocator_buggy_replay" ] && [ ! -e "$ex/id_allocator_buggy_fuzz" ] || fail "gcc: want the replay binaries only"
"$ex/id_allocator_buggy_replay" --quiet --expect=linearizability "$repro" 2>/dev/null || fail "buggy does not fail $repro"
"$ex/id_allocator_fixed_replay" --quiet "$repro" 2>/dev/null || fail "fixed fails $repro"

echo "== example with clang (libFuzzer)"
build_example clang clang
fx=$tmp/example-clang
mkdir "$tmp/corpus"
"$fx/id_allocator_buggy_fuzz" -seed=1 -runs=200000 -artifact_prefix="$tmp/" "$tmp/corpus" > "$tmp/fuzz.log" 2>&1 &&
	fail "libFuzzer did not find the seeded bug in 200,000 runs"
crash=$(ls "$tmp"/crash-* 2>/dev/null | head -n 1)
[ -n "$crash" ] || { tail "$tmp/fuzz.log"; fail "no crash file"; }
grep -q "^ASSERTION FAILED: weft: linearizability in id_allocator_buggy" "$tmp/fuzz.log" || fail "no weft report from the fuzz binary"
"$ex/id_allocator_buggy_replay" --quiet --simplify="$tmp/min.bin" "$crash" 2>/dev/null || fail "--simplify"
c=$("$ex/id_allocator_buggy_replay" --quiet --expect=linearizability --complexity "$tmp/min.bin" 2>/dev/null | cut -d' ' -f1-4)
[ "$c" = "(1, 1, 2, 2)" ] && cmp -s "$tmp/min.bin" "$repro" || fail "simplified to $c $(od -An -tx1 "$tmp/min.bin"), not 05 (1, 1, 2, 2)"
(cd "$fx" && weft-reduce --runs 2000 id_allocator_buggy "$crash" "$tmp/reduced.bin") > "$tmp/reduce.log" 2>&1 ||
	{ tail "$tmp/reduce.log"; fail "weft-reduce from PATH"; }
cmp -s "$tmp/reduced.bin" "$repro" || fail "weft-reduce gave $(od -An -tx1 "$tmp/reduced.bin"), not 05"
grep -q "^==weft== FAIL linearizability" "$tmp/reduced.bin.txt" || fail "weft-reduce wrote no report"
"$fx/id_allocator_fixed_fuzz" -seed=1 -runs=20000 "$tmp/corpus" > "$tmp/fixed.log" 2>&1 || { tail "$tmp/fixed.log"; fail "the fixed variant failed under libFuzzer"; }
echo "   found after $(grep -o '^#[0-9]*' "$tmp/fuzz.log" | tail -n 1 | tr -d '#') runs, simplified (and weft-reduce'd) to 05 (1, 1, 2, 2); fixed survives 20,000 runs"

if command -v afl-clang-fast >/dev/null 2>&1; then
	echo "== example with afl-clang-fast (AFL++)"
	build_example afl afl-clang-fast afl-clang-fast++
	ax=$tmp/example-afl
	grep -q '##SIG_AFL_PERSISTENT##' "$ax/id_allocator_buggy_fuzz" || fail "AFL++ binary not in persistent mode"
	"$ax/id_allocator_buggy_fuzz" "$repro" > "$tmp/afl.log" 2>&1 && fail "AFL++ binary did not crash on $repro"
	grep -q "^ASSERTION FAILED: weft: linearizability" "$tmp/afl.log" || fail "no weft report from the AFL++ binary"
	"$ax/id_allocator_fixed_fuzz" "$repro" > "$tmp/afl.log" 2>&1 || fail "AFL++ fixed binary crashed on $repro"
else
	echo "== afl-clang-fast not installed: AFL++ build of the example skipped"
fi

echo "== a whole program with weft_add_program() (gcc)"
mkdir "$tmp/program"
cat > "$tmp/program/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(weft_program_example LANGUAGES C)
find_package(weft 0.1 REQUIRED)
weft_add_program(account_buggy SOURCES $root/targets/pthread_account.c)
weft_add_program(account_fixed SOURCES $root/targets/pthread_account.c
                 DEFINES WEFT_PTHREAD_ACCOUNT_FIXED)
EOF
build_example program gcc "" "$tmp/program"
px=$tmp/example-program
objdump -h "$px/account_buggy_replay" | grep -q weft_prog_bss || fail "the program's globals are not in weft_prog_bss"
nm -D --defined-only "$px/account_buggy_replay" | grep -qw pthread_create ||
	fail "the program does not export weft's pthread_create (program_interpose.c not linked)"
account=$root/corpus/pthread_account/check-then-act.assertion.bin
"$px/account_buggy_replay" --quiet --expect=assertion "$account" 2>/dev/null || fail "program: buggy does not fail $account"
"$px/account_fixed_replay" --quiet "$account" 2>/dev/null || fail "program: fixed fails $account"

echo "== the Debian package (cpack -G DEB)"
(cd "$tmp/weft" && cpack -G DEB) > "$tmp/cpack.log" 2>&1 || { tail -20 "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/weft/weft_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "cpack wrote no .deb"
dpkg-deb -c "$deb" > "$tmp/deb.txt" || fail "dpkg-deb -c $deb"
for f in bin/weft-reduce bin/weft-campaign bin/weft-check lib/libweft.a lib/cmake/weft/weftConfig.cmake \
	lib/pkgconfig/weft.pc share/weft/harness/program_main.c include/weft/dropin.h; do
	grep -q " \./usr/$f\$" "$tmp/deb.txt" || fail "$f not in $(basename "$deb")"
done
if [ "$(id -u)" -eq 0 ] && ! dpkg -s weft > /dev/null 2>&1; then
	dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i $deb"; }
	dpkg_installed=1 debprefix=/usr how="dpkg -i"
else
	dpkg-deb -x "$deb" "$tmp/debroot" || fail "dpkg-deb -x $deb"
	debprefix=$tmp/debroot/usr how="dpkg-deb -x (not root, or a weft package is installed)"
fi
PATH=$debprefix/bin:$path0
[ "$(command -v weft-reduce)" = "$debprefix/bin/weft-reduce" ] || fail "weft-reduce not on PATH from the package"
CC=clang cmake -S "$example" -B "$tmp/example-deb" -DCMAKE_PREFIX_PATH="$debprefix" > "$tmp/deb-example.log" 2>&1 &&
	cmake --build "$tmp/example-deb" -j 2 >> "$tmp/deb-example.log" 2>&1 || { tail -30 "$tmp/deb-example.log"; fail "example against the package"; }
grep -q "weft_DIR:PATH=$debprefix/lib/cmake/weft" "$tmp/example-deb/CMakeCache.txt" || fail "example did not find the package's weft"
(cd "$tmp/example-deb" && weft-reduce --runs 2000 id_allocator_buggy "$crash" "$tmp/deb-reduced.bin") > "$tmp/deb-reduce.log" 2>&1 ||
	{ tail "$tmp/deb-reduce.log"; fail "the package's weft-reduce"; }
cmp -s "$tmp/deb-reduced.bin" "$repro" || fail "the package's weft-reduce gave $(od -An -tx1 "$tmp/deb-reduced.bin")"
# shellcheck disable=SC2046
PKG_CONFIG_PATH=$debprefix/lib/pkgconfig gcc -std=gnu11 -Wall -Wextra $(PKG_CONFIG_PATH=$debprefix/lib/pkgconfig pkg-config --cflags weft) \
	"$example/id_allocator.c" "$(PKG_CONFIG_PATH=$debprefix/lib/pkgconfig pkg-config --variable=harnessdir weft)/replay_main.c" \
	$(PKG_CONFIG_PATH=$debprefix/lib/pkgconfig pkg-config --libs weft) -o "$tmp/deb_pc_replay" || fail "build with the package's weft.pc"
"$tmp/deb_pc_replay" --quiet --expect=linearizability "$repro" 2>/dev/null || fail "the package's pkg-config build does not fail $repro"
echo "   $(basename "$deb") by $how: the example built with clang, weft-reduce from PATH, weft.pc"
if [ -n "$dpkg_installed" ]; then
	dpkg -r weft > /dev/null 2>&1 || fail "dpkg -r weft"
	dpkg_installed=
fi
PATH=$prefix/bin:$path0

echo "== pkg-config"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
harness=$(pkg-config --variable=harnessdir weft) || fail "pkg-config does not know weft"
# shellcheck disable=SC2046
gcc -std=gnu11 -Wall -Wextra $(pkg-config --cflags weft) "$example/id_allocator.c" "$harness/replay_main.c" \
	$(pkg-config --libs weft) -o "$tmp/pc_replay" || fail "build with pkg-config flags"
"$tmp/pc_replay" --quiet --expect=linearizability "$repro" 2>/dev/null || fail "pkg-config build does not fail $repro"

echo "== weft as a subproject (add_subdirectory)"
mkdir "$tmp/parent"
printf '#include <weft/weft.h>\nint main(void) { return 0; }\n' > "$tmp/parent/main.c"
cat > "$tmp/parent/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(weft_parent LANGUAGES C)
add_subdirectory($root weft)
add_executable(parent main.c)
target_link_libraries(parent PRIVATE weft::weft)
EOF
CC=gcc cmake -S "$tmp/parent" -B "$tmp/parent-build" > "$tmp/parent.log" 2>&1 || { tail -30 "$tmp/parent.log"; fail "subproject configure"; }
cmake --build "$tmp/parent-build" --target help > "$tmp/parent-targets.txt" 2>&1 || fail "subproject: target list"
if grep -Eq '(test_|bench_|counter_buggy_replay)' "$tmp/parent-targets.txt"; then
	fail "subproject builds $(grep -E -m 3 '(test_|bench_|counter_buggy_replay)' "$tmp/parent-targets.txt" | tr '\n' ' ')"
fi
cmake --build "$tmp/parent-build" -j 2 --target parent >> "$tmp/parent.log" 2>&1 || { tail -30 "$tmp/parent.log"; fail "subproject build"; }
echo "install: find_package(weft), weft_add_fuzz_target (gcc, clang, afl-clang-fast), weft_add_program, weft-reduce and weft-campaign from PATH, weft.pc and add_subdirectory work"
