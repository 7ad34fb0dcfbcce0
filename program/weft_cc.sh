#!/usr/bin/env bash
# program/weft_cc.sh - weft-cc and weft-c++: drop-in compilers (clang underneath)
# that make an unmodified project's programs weft targets (issue 32), the way
# AFL++'s afl-cc makes them AFL++ targets:
#
#     make CC=weft-cc CXX=weft-c++          then  ./prog -runs=N   (fuzz)
#                                                  ./prog crash-file (replay, weft's report)
#
# One script, installed twice (bin/weft-cc, bin/weft-c++): its name picks clang
# or clang++.  CMake configures it (cmake/WeftCc.cmake) with where weft's files
# are: the build tree's absolute paths, or the installed ones relative to bin/.
#
# Compiling (-c): the user's command, untouched, plus
#   -gline-tables-only (first: the user's own -g wins) so that the pass's sites
#     are file:line;
#   -fpass-plugin=libweft_instrument.so: every shared plain access and atomic a
#     switch point (instrument/weft_instrument.cpp); -DWEFT_INSTRUMENTED;
#   -UNDEBUG (last: assert() is the program's oracle, even under -DNDEBUG);
#   -fsanitize=fuzzer-no-link with the libFuzzer engine (coverage);
# run through the globals launcher cmake/weft_program_cc.sh --program (its logic,
# not a copy): the object's data, bss, constructors and destructors moved to
# weft's sections, and a `main` it defines renamed weft_program_main at the
# symbol level (so C++ and preprocessed sources need no -Dmain).  Objects
# compiled with -fPIC or -fpic are taken for a shared library's: the pass only,
# no renames (a library's constructors must run at load time).
#
# Calls reach weft by symbol only (harness/program_interpose.c, linked below),
# never by -include weft/dropin.h: that header redefines pthread and libc names
# with macros, which breaks preprocessed sources (-include is not applied to
# them, and -Dmain neither), sources that declare pthread types or those
# functions themselves, and any header that spells a renamed name another way
# (6 of 18 real programs, issue 32).  By symbol every source compiles as it
# would with clang; the cost is that a lock or a spawn is reported at the
# function (`pthread_mutex_lock:0`), not at the caller's line; plain accesses
# and atomics keep their file:line from the pass.
#
# Linking an executable: sources on the line are compiled as above first (to
# temporary objects).  If an object or archive on the line defines
# weft_program_main (a renamed main), weft's glue is added: program_main.c, the
# engine's entry point and the interposer (compiled here, with the line's
# sanitizer flags), libweft (libweft_asan.a under -fsanitize=address) and the
# engine: WEFT_ENGINE=libfuzzer (default: -fsanitize=fuzzer), afl (AFL++'s
# afl-clang-fast underneath and libAFLDriver.a) or replay (replay_main.c: a
# standalone replay binary).  When main comes from elsewhere (an object
# weft-cc did not compile) only libweft is added (the pass's hooks live
# there); with -shared nothing is: the library's undefined weft_impl_*
# symbols are the executable's to provide.
# A command naming a `conftest` file (autoconf's probes) is plain clang: a
# probe must run as itself, not as a fuzzer.  -E, -S, -M, -MM and commands
# without inputs (--version, -print-*) are plain clang too.
#
# Environment: WEFT_ENGINE (above); WEFT_CLANG, WEFT_CLANGXX (the compilers
# underneath; the pass needs clang of the major version it was built with);
# OBJCOPY, OBJDUMP (binutils' by default); WEFT_CC_DEBUG=1 prints every
# command run, as AFL_DEBUG does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# ---- where weft is (substituted by CMake) ----
weft_include="@WEFT_CC_INCLUDE@"
weft_harness="@WEFT_CC_HARNESS@"
weft_libdir="@WEFT_CC_LIBDIR@"
weft_plugin="@WEFT_CC_PLUGIN@"
weft_cmake="@WEFT_CC_CMAKE@"
clang=${WEFT_CLANG:-"@WEFT_CC_CLANG@"}
clangxx=${WEFT_CLANGXX:-"@WEFT_CC_CLANGXX@"}
objcopy=${OBJCOPY:-objcopy}
objdump=${OBJDUMP:-objdump}
: "$here"   # used by the installed layout's paths

me=${0##*/}
die() { echo "$me: $*" >&2; exit 2; }
run() {
	[ -z "${WEFT_CC_DEBUG:-}" ] || echo "$me: $*" >&2
	"$@"
}

case $me in *++*) cc=$clangxx ;; *) cc=$clang ;; esac
engine=${WEFT_ENGINE:-libfuzzer}
case $engine in
libfuzzer | replay) ;;
afl) case $me in *++*) cc=afl-clang-fast++ ;; *) cc=afl-clang-fast ;; esac ;;
*) die "WEFT_ENGINE=$engine: use libfuzzer (default), afl or replay" ;;
esac

# ---- the command line ----
mode=link shared= pic= conftest= plain= out=
sources=() inputs=() sanitize=()
expect_value=
for a in "$@"; do
	if [ -n "$expect_value" ]; then   # the value of an option given apart
		[ "$expect_value" = -o ] && out=$a
		expect_value=
		continue
	fi
	case $a in
	-o | -MF | -MT | -MQ | -include | -imacros | -I | -isystem | -idirafter | -iquote | -x | \
	-D | -U | -L | -Xlinker | -Xclang | -Xpreprocessor | -Xassembler | -target | -arch | \
	--param | -isysroot | -z | -u | -T | -l) expect_value=$a ;;
	-c) mode=compile ;;
	-E | -S | -M | -MM) plain=1 ;;
	-shared) shared=1 ;;
	-fPIC | -fpic) pic=1 ;;
	-fsanitize=fuzzer* | -fsanitize-coverage*) ;;
	-fsanitize=* | -fno-sanitize* | -fsanitize-*) sanitize+=("$a") ;;
	-*) ;;
	*.c | *.i | *.cc | *.cp | *.cxx | *.cpp | *.CPP | *.c++ | *.C | *.ii) sources+=("$a") ;;
	*) inputs+=("$a") ;;
	esac
	case $a in *conftest*) conftest=1 ;; esac
done
[ ${#sources[@]} -gt 0 ] || [ ${#inputs[@]} -gt 0 ] || plain=1
[ -z "$plain$conftest" ] || exec "$cc" "$@"
[ -f "$weft_plugin" ] || die "weft's pass is missing ($weft_plugin): weft was built without it"

# Is `a` an input of the command (a source or an object)?  Values of options
# given apart are never inputs: the caller skips them.
is_source() { case " ${sources[*]} " in *" $1 "*) return 0 ;; esac; return 1; }

# ---- compiling ----
# compile_one FLAGS... -- SOURCE OUT: one source to one object, instrumented.
compile_one() {
	local flags=() src out
	while [ "$1" != -- ]; do flags+=("$1"); shift; done
	src=$2 out=$3
	local add=(-fpass-plugin="$weft_plugin")
	case $src in   # preprocessed: clang would warn that the preprocessor's flags go unused
	*.i | *.ii) ;;
	*) add+=(-DWEFT_INSTRUMENTED -UNDEBUG -I"$weft_include") ;;
	esac
	[ "$engine" = replay ] || [ "$engine" = afl ] || add+=(-fsanitize=fuzzer-no-link)
	if [ -n "$pic$shared" ]; then
		run "$cc" -gline-tables-only "${flags[@]}" "$src" -o "$out" "${add[@]}"
	else
		run sh "$weft_cmake/weft_program_cc.sh" --program "$objcopy" "$objdump" \
			"$cc" -gline-tables-only "${flags[@]}" "$src" -o "$out" "${add[@]}"
	fi
}

# The command's options without its inputs and its -o: what each source is
# compiled with.  For a link line also without the linker's own options.
compile_flags() {
	local skip= a
	flags=()
	for a in "$@"; do
		if [ -n "$skip" ]; then
			[ "$skip" = -o ] || [ "$skip" = -l ] || [ "$skip" = -L ] || [ "$skip" = -Xlinker ] ||
				[ "$skip" = -z ] || [ "$skip" = -u ] || [ "$skip" = -T ] || flags+=("$skip" "$a")
			skip=
			continue
		fi
		case $a in
		-o | -MF | -MT | -MQ | -include | -imacros | -I | -isystem | -idirafter | -iquote | -x | \
		-D | -U | -L | -Xlinker | -Xclang | -Xpreprocessor | -Xassembler | -target | -arch | \
		--param | -isysroot | -z | -u | -T | -l) skip=$a ;;
		-l* | -L* | -Wl,* | -shared | -static | -pie | -no-pie | -rdynamic | -s) \
			[ "$mode" = compile ] && flags+=("$a") ;;
		-c) ;;
		-*) flags+=("$a") ;;
		*) ;;   # an input
		esac
	done
}

if [ "$mode" = compile ]; then
	compile_flags "$@"
	if [ -n "$out" ]; then
		[ ${#sources[@]} -eq 1 ] || exec "$cc" "$@"   # clang's own error
		compile_one "${flags[@]}" -c -- "${sources[0]}" "$out"
		exit $?
	fi
	for s in "${sources[@]}"; do   # no -o: each source to its base name .o, as cc does
		b=${s##*/}
		compile_one "${flags[@]}" -c -- "$s" "${b%.*}.o" || exit $?
	done
	exit 0
fi

# ---- linking ----
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-cc.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
compile_flags "$@"
cflags=("${flags[@]}")
line=() objects=() n=0 skip=
for a in "$@"; do   # the line again, each source replaced by its object
	if [ -n "$skip" ]; then line+=("$a"); skip=; continue; fi
	case $a in
	-o | -MF | -MT | -MQ | -include | -imacros | -I | -isystem | -idirafter | -iquote | -x | \
	-D | -U | -L | -Xlinker | -Xclang | -Xpreprocessor | -Xassembler | -target | -arch | \
	--param | -isysroot | -z | -u | -T | -l) line+=("$a"); skip=1 ;;
	-*) line+=("$a") ;;
	*)
		if is_source "$a"; then
			n=$((n + 1))
			compile_one "${cflags[@]}" -c -- "$a" "$tmp/source$n.o" || exit $?
			line+=("$tmp/source$n.o")
			objects+=("$tmp/source$n.o")
		else
			line+=("$a")
			objects+=("$a")
		fi ;;
	esac
done
[ -z "$shared" ] || { run "$cc" "${line[@]}"; exit $?; }

asan=
for s in "${sanitize[@]+"${sanitize[@]}"}"; do
	case $s in -fsanitize=*address*) asan=1 ;; esac
done
libweft=$weft_libdir/libweft.a
if [ -n "$asan" ]; then
	libweft=$weft_libdir/libweft_asan.a
	[ -f "$libweft" ] || die "-fsanitize=address needs $libweft: build weft with -DWEFT_ASAN_LIBRARY=ON"
fi

has_main=
for o in "${objects[@]+"${objects[@]}"}"; do
	[ -f "$o" ] || continue
	if "$objdump" -t "$o" 2>/dev/null | awk '$NF == "weft_program_main" && $0 !~ /\*UND\*/ { f = 1 } END { exit !f }'; then
		has_main=1
		break
	fi
done
[ -n "$has_main" ] || { run "$cc" "${line[@]}" "$libweft" -pthread -ldl; exit $?; }

# The glue, compiled with the line's sanitizers (ASan's redzones, its fiber
# annotations) like weft_add_program compiles it; coverage on the entry point
# and program_main.c, never on the interposer (libFuzzer's own calls pass there).
name=${out:-a.out}
name=${name##*/}
glue=(-std=gnu11 -g -O1 -I"$weft_include" "${sanitize[@]+"${sanitize[@]}"}")
cov=()
[ "$engine" != libfuzzer ] || cov=(-fsanitize=fuzzer-no-link)
entry=$weft_harness/fuzz_libfuzzer.c link_engine=(-fsanitize=fuzzer)
case $engine in
replay) entry=$weft_harness/replay_main.c link_engine=() ;;
afl)
	driver=
	for d in "$(dirname "$(command -v afl-clang-fast)")"/../lib/afl /usr/lib/afl /usr/local/lib/afl; do
		[ -f "$d/libAFLDriver.a" ] && { driver=$d/libAFLDriver.a; break; }
	done
	[ -n "$driver" ] || die "WEFT_ENGINE=afl: libAFLDriver.a not found"
	link_engine=("$driver" -lstdc++) ;;
esac
glue_cc=$clang
[ "$engine" != afl ] || glue_cc=afl-clang-fast
run "$glue_cc" "${glue[@]}" "${cov[@]+"${cov[@]}"}" -DWEFT_PROGRAM_NAME="\"$name\"" \
	-c "$weft_harness/program_main.c" -o "$tmp/program_main.o" || exit $?
run "$glue_cc" "${glue[@]}" "${cov[@]+"${cov[@]}"}" -c "$entry" -o "$tmp/entry.o" || exit $?
run "$clang" "${glue[@]}" -c "$weft_harness/program_interpose.c" -o "$tmp/program_interpose.o" || exit $?
run "$cc" "${line[@]}" "$tmp/program_main.o" "$tmp/entry.o" "$tmp/program_interpose.o" \
	"$libweft" "-Wl,--dynamic-list=$weft_cmake/weft_program_interpose.list" \
	"${link_engine[@]+"${link_engine[@]}"}" -pthread -ldl
