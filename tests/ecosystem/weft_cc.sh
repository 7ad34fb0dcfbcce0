#!/bin/sh
# tests/ecosystem/weft_cc.sh - weft-cc and weft-c++ from the installed package (issue 32),
# the way a user of AFL++'s afl-cc would use them:
#
#   1. weft is built with clang (the pass, libweft_asan.a) and `cmake --install`ed into
#      a temporary prefix: bin/weft-cc, bin/weft-c++, the pass, the ASan library, the
#      pkg-config variables;
#   2. tests/project (a copy: a Makefile, a static library of two C files, a C main and
#      a C++ file with std::thread) is built by `make CC=weft-cc CXX=weft-c++`, without
#      a warning; ./prog (libFuzzer, -seed=1, bounded runs) finds the planted lost update
#      (reachable through the pass alone) and `./prog crash-file` replays it with weft's
#      report naming the project's lines (main.c's assertion, lib/tally.c's load and
#      store, workers.cpp);
#   3. the fixed twin (make CFLAGS=-DTALLY_LOCKED) survives 20,000 runs;
#   4. WEFT_ENGINE=replay: a replay-only ./prog (no libFuzzer) gives the same report;
#      WEFT_ENGINE=afl (when AFL++ is installed): a persistent-mode binary, the same report;
#   5. CFLAGS=-fsanitize=address: libweft_asan.a linked, the bug found and replayed;
#   6. preprocessed sources (main.i, tally.i) compile unchanged, without a diagnostic, and
#      the program linked from them fails the crash file the same way;
#   7. the Debian package made from the same build carries the wrappers and the pass.
# Usage: weft_cc.sh [BUILD_DIR]: a clang build of weft with the pass to install (the CI
# gives its clang tree: ~30 s); without one, weft is built in a temporary directory (minutes).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL (weft_cc): $*"; exit 1; }
command -v clang > /dev/null 2>&1 && command -v llvm-config-14 > /dev/null 2>&1 ||
	command -v llvm-config > /dev/null 2>&1 || { echo "weft_cc: clang or llvm-dev missing, skipped"; exit 0; }
tmp=$(mktemp -d)
trap '[ -n "${WEFT_CC_KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
prefix=$tmp/prefix

if [ $# -ge 1 ]; then   # the CI's clang tree: only what the install needs, then install it
	build=$1
	echo "== weft's build $build installed into a temporary prefix"
	grep -q "WEFT_INSTRUMENT:BOOL=ON" "$build/CMakeCache.txt" || { echo "weft_cc: $build has no pass, skipped"; exit 0; }
	cmake --build "$build" -j 2 --target weft weft-check weft_instrument weft_asan > "$tmp/weft.log" 2>&1 ||
		{ tail -30 "$tmp/weft.log"; fail "build $build (WEFT_ASAN_LIBRARY off?)"; }
else
	build=$tmp/weft
	echo "== weft built with clang and installed into a temporary prefix"
	cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF \
		-DWEFT_BUILD_EXAMPLES=OFF > "$tmp/weft.log" 2>&1 &&
		cmake --build "$build" -j 2 >> "$tmp/weft.log" 2>&1 || { tail -30 "$tmp/weft.log"; fail "build"; }
fi
cmake --install "$build" --prefix "$prefix" >> "$tmp/weft.log" 2>&1 || { tail -30 "$tmp/weft.log"; fail "install"; }
grep -q "WEFT_INSTRUMENT:BOOL=ON" "$build/CMakeCache.txt" || { echo "weft_cc: no pass (llvm-dev of clang's version?), skipped"; exit 0; }
for f in bin/weft-cc bin/weft-c++ lib/weft/libweft_instrument.so lib/libweft_asan.a lib/libweft.a \
	share/weft/harness/program_interpose.c lib/cmake/weft/weft_program_cc.sh; do
	[ -f "$prefix/$f" ] || fail "$f not installed"
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc=$(pkg-config --variable=weftcc weft) && cxx=$(pkg-config --variable=weftcxx weft) &&
	pass=$(pkg-config --variable=pass weft) || fail "pkg-config does not know weft"
[ -x "$cc" ] && [ -x "$cxx" ] && [ -f "$pass" ] || fail "pkg-config's weftcc, weftcxx or pass: $cc $cxx $pass"

# project NAME [make VAR=VALUE...]: a fresh copy of tests/project built by make with the
# installed wrappers, warning-free.
project() {
	dir=$tmp/$1
	shift
	cp -r "$root/tests/project" "$dir" && rm -f "$dir"/*.o "$dir"/lib/*.[oa] "$dir/prog"
	(cd "$dir" && make CC="$cc" CXX="$cxx" "$@") > "$dir.log" 2>&1 || { tail -20 "$dir.log"; fail "make in $dir"; }
	grep -E "warning" "$dir.log" && fail "make in $dir: warnings"
	return 0
}
# line_of TEXT FILE: the line of the project's file holding TEXT (comments may move it)
line_of() { grep -nF "$1" "$root/tests/project/$2" | head -n 1 | cut -d: -f1; }
assert_line=$(line_of 'assert(tally_check' main.c)
load_line=$(line_of 'long count = t->count;' lib/tally.c)
store_line=$(line_of 't->count = count + 1;' lib/tally.c)
# report_names LOG: weft's report of the lost update, at the project's lines
report_names() {
	grep -q "^==weft== FAIL assertion in prog: thread 0: assertion .* failed at main.c:$assert_line\$" "$1" ||
		fail "$1: no weft report of main.c:$assert_line's assertion"
	grep -Eq "load tally.c:$load_line -> 0\$" "$1" && grep -Eq "store tally.c:$store_line <- 1\$" "$1" &&
		grep -q "workers.cpp:" "$1" || fail "$1: the report does not name tally.c:$load_line, :$store_line, workers.cpp"
}
# fuzz DIR: libFuzzer finds the bug; the crash file replays with weft's report
fuzz() {
	mkdir "$1/corpus"
	(cd "$1" && ./prog -seed=1 -runs=20000 corpus) > "$1/fuzz.log" 2>&1 && fail "$1: the lost update not found in 20,000 runs"
	crash=$(ls "$1"/crash-* 2>/dev/null | head -n 1)
	[ -n "$crash" ] || { tail "$1/fuzz.log"; fail "$1: no crash file"; }
	"$1/prog" "$crash" > "$1/replay.log" 2>&1 && fail "$1: the crash file does not fail again"
	report_names "$1/replay.log"
	echo "   found after $(grep -o '^#[0-9]*' "$1/fuzz.log" | tail -n 1 | tr -d '#') runs; replayed, main.c:$assert_line, tally.c:$load_line/$store_line named"
}

echo "== make CC=weft-cc CXX=weft-c++ (libFuzzer)"
project plain
nm "$tmp/plain/lib/libtally.a" | grep -q "U weft_impl_access" || fail "libtally.a's objects are not instrumented"
fuzz "$tmp/plain"
plain_crash=$crash

echo "== the fixed twin survives"
project fixed CFLAGS="-O1 -g -Wall -Wextra -DTALLY_LOCKED"
(cd "$tmp/fixed" && mkdir corpus && ./prog -seed=1 -runs=20000 corpus) > "$tmp/fixed.log" 2>&1 ||
	{ tail -30 "$tmp/fixed.log"; fail "the fixed project failed"; }
"$tmp/fixed/prog" "$plain_crash" > "$tmp/fixed-replay.log" 2>&1 || fail "the fixed project fails the crash file"

echo "== WEFT_ENGINE=replay: a replay-only binary"
WEFT_ENGINE=replay project replay
nm "$tmp/replay/prog" | grep -q LLVMFuzzer && fail "the replay binary has libFuzzer in it"
"$tmp/replay/prog" "$plain_crash" > "$tmp/replay/replay.log" 2>&1
[ $? -eq 1 ] || fail "the replay binary does not fail the crash file (status 1)"
report_names "$tmp/replay/replay.log"

if command -v afl-clang-fast > /dev/null 2>&1; then
	echo "== WEFT_ENGINE=afl: an AFL++ binary (persistent mode)"
	WEFT_ENGINE=afl project afl
	grep -q '##SIG_AFL_PERSISTENT##' "$tmp/afl/prog" || fail "the AFL++ build is not in persistent mode"
	"$tmp/afl/prog" "$plain_crash" > "$tmp/afl/replay.log" 2>&1 && fail "the AFL++ build does not fail the crash file"
	report_names "$tmp/afl/replay.log"
fi

echo "== CFLAGS=-fsanitize=address"
project asan CFLAGS="-O1 -g -fsanitize=address"
nm "$tmp/asan/prog" | grep -q __asan_init || fail "the ASan build has no ASan"
fuzz "$tmp/asan"

echo "== preprocessed sources compile unchanged"
for f in main lib/tally; do
	b=${f#lib/}
	clang -E "$root/tests/project/$f.c" -o "$tmp/$b.i" || fail "clang -E $f.c"
	"$cc" -O1 -Wall -Wextra -c "$tmp/$b.i" -o "$tmp/${b}_i.o" > "$tmp/pre.log" 2>&1 || { cat "$tmp/pre.log"; fail "weft-cc $b.i"; }
	[ -s "$tmp/pre.log" ] && { cat "$tmp/pre.log"; fail "weft-cc $b.i: diagnostics"; }
done
nm "$tmp/main_i.o" | grep -q " T weft_program_main\$" || fail "main.i's main is not the program's"
nm "$tmp/tally_i.o" | grep -q " U weft_impl_access\$" || fail "tally.i is not instrumented"
mkdir "$tmp/preprocessed"   # the program is called prog: the report names it
"$cxx" -O1 -o "$tmp/preprocessed/prog" "$tmp/main_i.o" "$tmp/plain/workers.o" "$tmp/tally_i.o" "$tmp/plain/lib/stats.o" \
	-pthread || fail "link with the preprocessed sources' objects"
"$tmp/preprocessed/prog" "$plain_crash" > "$tmp/prog_i.log" 2>&1 &&
	fail "the program from .i files does not fail the crash file"
report_names "$tmp/prog_i.log"

echo "== the Debian package carries the wrappers and the pass"
(cd "$build" && cpack -G DEB) > "$tmp/cpack.log" 2>&1 || { tail -20 "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$build"/weft_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "cpack wrote no .deb"
dpkg-deb -x "$deb" "$tmp/debroot" || fail "dpkg-deb -x"
for f in bin/weft-cc bin/weft-c++ lib/weft/libweft_instrument.so lib/libweft_asan.a; do
	[ -f "$tmp/debroot/usr/$f" ] || fail "$f not in $(basename "$deb")"
done
cc=$tmp/debroot/usr/bin/weft-cc cxx=$tmp/debroot/usr/bin/weft-c++
project deb
"$tmp/deb/prog" "$plain_crash" > "$tmp/deb/replay.log" 2>&1 && fail "the package's build does not fail the crash file"
report_names "$tmp/deb/replay.log"
echo "weft_cc: make CC=weft-cc CXX=weft-c++ (libFuzzer, replay-only, ASan), a .i, the .deb's wrappers work"
