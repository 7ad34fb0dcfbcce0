#!/bin/sh
# cmake/weft_program_cc.sh [--program] OBJCOPY OBJDUMP COMPILER ARGS... - the
# compiler launcher of whole-program targets (weft_add_program, weft-cc):
# compile as asked, then, for the program's own objects (those compiled with
# -Dmain=weft_program_main, or every object with --program), move their
# writable data into sections of their own:
#
#   .data, .data.*  (not .data.rel.ro*)  -> weft_prog_data
#   .bss, .bss.*                         -> weft_prog_bss
#   .init_array, .fini_array             -> weft_prog_init, weft_prog_fini
#   .init_array.N, .fini_array.N, N>=101 -> weft_prog_init_prio, weft_prog_fini_prio
#
# The constructors and destructors so renamed no longer run at start-up and
# exit: the glue runs them per execution, as a fresh process would (issue 30:
# a C++ global object that owns heap memory, an __attribute__((constructor))
# that allocates).  Priorities 0-100 stay where they are: they are the
# toolchain's (ASan's module constructor is .init_array.1, libFuzzer's coverage
# one .init_array.2), which must run once.
#
# so that harness/program_main.c finds exactly the program's globals and
# statics between the linker's __start_/__stop_ symbols, snapshots them once
# and restores them before every execution (issue 22).  libweft, the glue and
# the fuzzer's runtime are compiled without this launcher's renaming: their
# globals are never touched.  Thread-local sections (.tdata, .tbss) and
# read-only ones are left alone.  Both gcc and clang objects (ELF) work.
#
# Fibers or threads: an object with thread-local data (.tdata, .tbss) or that
# calls for thread identity itself (pthread_getspecific, pthread_setspecific,
# pthread_key_create, C11's tss_get, tss_set, tss_create, gettid; pthread_self is
# caught by symbol in programs,
# harness/program_interpose.c, and answers the managed thread's handle) gets
# the weak symbol weft_program_needs_threads; harness/program_main.c then
# flags the target WEFT_TARGET_REAL_THREADS and it runs on pthreads.  Without
# it a program runs on fibers (runner/runner.c), ~20x faster.
#
# --program (weft-cc, program/weft_cc.sh): the object is the program's whatever
# its flags, and a `main` it defines or uses is renamed weft_program_main here,
# at the symbol level, instead of by -Dmain: so a preprocessed source (.i, where
# -D is not applied) and C++ (where the renamed main would be mangled) work too.
main=
if [ "$1" = --program ]; then
	main="--redefine-sym main=weft_program_main"
	shift
fi
objcopy=$1 objdump=$2
shift 2
"$@" || exit $?
case " $* " in
*" -Dmain=weft_program_main "*) ;;
*) [ -n "$main" ] || exit 0 ;;
esac
out= prev=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
[ -n "$out" ] && [ -f "$out" ] || exit 0
renames=$("$objdump" -h "$out" | awk '
	$2 ~ /^\.data\.rel\.ro/ { next }
	$2 ~ /^\.data(\..*)?$/ { printf " --rename-section %s=weft_prog_data", $2 }
	$2 ~ /^\.bss(\..*)?$/ { printf " --rename-section %s=weft_prog_bss", $2 }
	# constructors and destructors: plain, or of a priority a program may give
	# (101 and up; 0-100 belong to the toolchain, see above)
	$2 ~ /^\.(init|fini)_array$/ { printf " --rename-section %s=weft_prog_%s", $2, substr($2, 2, 4) }
	$2 ~ /^\.(init|fini)_array\.[0-9]+$/ && substr($2, 13) + 0 >= 101 {
		printf " --rename-section %s=weft_prog_%s_prio", $2, substr($2, 2, 4) }')
needs=
if "$objdump" -h "$out" | awk '$2 ~ /^\.t(data|bss)/ { found = 1 } END { exit !found }' ||
   "$objdump" -t "$out" | awk '$2 == "*UND*" || $3 == "*UND*" { print $NF }' |
	grep -Eqx 'pthread_(getspecific|setspecific|key_create)|tss_(get|set|create)|gettid'; then
	needs="--add-symbol weft_program_needs_threads=.text:0,weak,object"
fi
[ -n "$renames$needs$main" ] || exit 0
# shellcheck disable=SC2086  # the options are words without spaces
exec "$objcopy" $main $renames $needs "$out"
