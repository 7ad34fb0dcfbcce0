#!/bin/sh
# tests/ecosystem/oss_fuzz.sh [COMBO...] - oss-fuzz/build.sh under OSS-Fuzz's build
# environment, emulated (the base-builder image cannot be pulled here), and the checks
# OSS-Fuzz's check_build (infra/base-images/base-runner/bad_build_check) makes.
#
# COMBO is ENGINE-SANITIZER: libfuzzer-address, libfuzzer-undefined, afl-address (default:
# all three).  For each, like OSS-Fuzz's `compile`: SRC holds the checkout and build.sh,
# CFLAGS = base flags + $SANITIZER_FLAGS_x + coverage flags (none for AFL++), CXXFLAGS =
# CFLAGS (without -stdlib=libc++, which is not installed here), LIB_FUZZING_ENGINE =
# -fsanitize=fuzzer or the AFL++ driver copied into WORK, CC/CXX = clang or
# afl-clang-fast; then `bash -eux $SRC/build.sh`.  Checks on $OUT:
#   - every target (at least the 5 structures x buggy/fixed) has its binary, seed corpus
#     zip and options, and every binary in $OUT is checked as below;
#   - libFuzzer: `NAME -seed=1337 -runs=4` prints "Done 4 runs" (check_startup_crash);
#     the seed corpus replays without a crash (check_seed_corpus, -runs=0);
#     calls into the sanitizer runtime as check_mixed_sanitizers counts them
#     (ASan >= 1000 in an ASan build; UBSan >= 168 and no ASan in a UBSan build);
#   - libweft.a carries no coverage instrumentation, whatever CFLAGS said; the edge count
#     is printed (check_build only warns below 100: weft targets are small by design,
#     the scheduler and the checker are deliberately not instrumented);
#   - ClusterFuzzLite's .clusterfuzzlite/build.sh (same script) gives the fixed targets;
#   - AFL++: afl-fuzz starts with no seeds but a dummy input ("All set and ready to
#     roll", never "target binary crashed|terminated"), as check_build's 35-second run
#     does (here 2 s: the start is what it checks), on the built-in structures' binaries
#     and one C and one C++ program: every binary is linked from the same glue, and
#     checking all of them, one at a time, cost CI about 150 s; WEFT_OSS_FUZZ_EVERY=1
#     checks every binary.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
combos=${*:-libfuzzer-address libfuzzer-undefined afl-address}
fail() { echo "FAIL (oss-fuzz $combo): $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
ln -s "$root" "$tmp/src/weft"
cp "$root/oss-fuzz/build.sh" "$tmp/src/build.sh"
targets="counter spsc_ring treiber_stack ms_queue hash_set"
base_flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
address="-fsanitize=address -fsanitize-address-use-after-scope"
undefined="-fsanitize=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr -fno-sanitize-recover=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"

sanitizer_calls() {  # sanitizer_calls BIN PREFIX: direct calls, as check_mixed_sanitizers counts
	objdump -dC "$1" | grep -cE "callq?\s+[0-9a-f]+\s+<$2"
}

check_libfuzzer() {  # check_libfuzzer NAME
	bin=$OUT/$1
	# A *_buggy target may find its seeded bug within 4 runs (the structure-aware mutator
	# samples a whole schedule per mutation): that is weft's verdict, not a start-up
	# crash. OSS-Fuzz's own check_build would reject it, so a project ships fixed targets.
	# try_queue_strict (examples/try_queue) fails by design: it checks a ring whose try_deq
	# may fail against the strict queue model, to show why the non-deterministic one is needed.
	if (cd "$tmp" && "$bin" -seed=1337 -runs=4) > "$tmp/$1.log" 2>&1; then
		grep -q "Done 4 runs" "$tmp/$1.log" || { tail -20 "$tmp/$1.log"; fail "$1: no 'Done 4 runs'"; }
	else
		case $1 in *_buggy|try_queue_strict) grep -q "^ASSERTION FAILED: weft: " "$tmp/$1.log" ;; *) false ;; esac ||
			{ tail -20 "$tmp/$1.log"; fail "$1 -runs=4 exited non-zero"; }
		echo "   $1: found its seeded bug within 4 runs (weft's verdict)"
	fi
	seeds=$tmp/seeds-$1
	rm -rf "$seeds" && mkdir "$seeds" && (cd "$seeds" && unzip -q "$OUT/${1}_seed_corpus.zip")
	(cd "$tmp" && "$bin" -runs=0 "$seeds") > "$tmp/$1.seeds.log" 2>&1 ||
		{ tail -30 "$tmp/$1.seeds.log"; fail "$1 crashes on its seed corpus"; }
}

check_afl() {  # check_afl NAME
	in=$tmp/afl-in-$1 out=$tmp/afl-out-$1
	rm -rf "$in" "$out" && mkdir "$in" && echo 0 > "$in/dummy"
	AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
		AFL_FORKSRV_INIT_TMOUT=30000 afl-fuzz -V 2 -i "$in" -o "$out" -- "$OUT/$1" \
		> "$tmp/$1.log" 2>&1
	grep -q "All set and ready to roll" "$tmp/$1.log" || { tr '\r' '\n' < "$tmp/$1.log" | tail -20; fail "afl-fuzz did not start on $1"; }
	grep -qE "target binary (crashed|terminated)" "$tmp/$1.log" && fail "$1 crashed or exited at start under afl-fuzz"
	return 0
}

# each_of CHECK NAME...: CHECK NAME for every NAME, two at a time (the two cores: one at a
# time, the ~140 binaries' start-up checks took a core for a minute and a half), in two
# lists whose output is printed after, in order; a failure is the first FAIL line of its list.
each_of() {
	check=$1 one= two= i=0
	shift
	for name in "$@"; do
		if [ $((i % 2)) = 0 ]; then one="$one $name"; else two="$two $name"; fi
		i=$((i + 1))
	done
	(for name in $one; do $check "$name" || exit 1; done) > "$tmp/each-1.log" 2>&1 & p1=$!
	(for name in $two; do $check "$name" || exit 1; done) > "$tmp/each-2.log" 2>&1 & p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	cat "$tmp/each-1.log" "$tmp/each-2.log"
	[ $r1 = 0 ] && [ $r2 = 0 ] || exit 1
}

afl_sampled() {  # afl_sampled NAME: one of the binaries the AFL++ start check runs on
	for t in $targets pthread_account cxx_bounded_buffer; do
		case $1 in ${t}_buggy|${t}_fixed) return 0 ;; esac
	done
	return 1
}

for combo in $combos; do
	engine=${combo%-*} SANITIZER=${combo#*-}
	export SANITIZER FUZZING_ENGINE=$engine ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c
	export SRC=$tmp/src WORK=$tmp/work-$combo OUT=$tmp/out-$combo
	rm -rf "$WORK" "$OUT" && mkdir -p "$WORK" "$OUT"
	eval "sanitizer_flags=\$$SANITIZER"
	case $engine in
	libfuzzer) export CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer; coverage=-fsanitize=fuzzer-no-link ;;
	afl) cp /usr/lib/afl/libAFLDriver.a "$WORK/" || fail "AFL++'s libAFLDriver.a not found"
	     export CC=afl-clang-fast CXX=afl-clang-fast++ LIB_FUZZING_ENGINE=$WORK/libAFLDriver.a AFL_QUIET=1
	     coverage= ;;
	*) echo "oss_fuzz.sh: unknown combo $combo" >&2; exit 2 ;;
	esac
	export CFLAGS="$base_flags $sanitizer_flags $coverage" CXXFLAGS="$base_flags $sanitizer_flags $coverage"
	export UBSAN_OPTIONS=silence_unsigned_overflow=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=0
	echo "== $combo: build.sh"
	start=$(date +%s)
	(cd "$SRC" && bash -eux "$SRC/build.sh") > "$tmp/build-$combo.log" 2>&1 ||
		{ tail -40 "$tmp/build-$combo.log"; fail "build.sh failed"; }
	grep -E "warning:" "$tmp/build-$combo.log" | sort -u | head -5
	echo "   built in $(( $(date +%s) - start )) s"
	for t in $targets; do   # the built-in targets must be there; any other target is checked too
		for name in ${t}_buggy ${t}_fixed; do [ -x "$OUT/$name" ] || fail "\$OUT/$name missing"; done
	done
	checked=
	for bin in "$OUT"/*; do
		name=$(basename "$bin")
		case $name in *.*) continue ;; esac
		for f in "${name}_seed_corpus.zip" "$name.options"; do
			[ -s "$OUT/$f" ] || fail "\$OUT/$f missing"
		done
		if [ "$engine" = libfuzzer ] || [ "${WEFT_OSS_FUZZ_EVERY:-0}" = 1 ] || afl_sampled "$name"; then
			checked="$checked $name"
		fi
	done
	# shellcheck disable=SC2086
	each_of check_$engine $checked
	n=$(echo $checked | wc -w)
	nm "$WORK/weft-build/libweft.a" | grep -q '__sancov\|__afl_' && fail "libweft.a is coverage-instrumented"
	edges=$(sed -n 's/^INFO: Loaded 1 modules *(\([0-9]*\) .*/\1/p' "$tmp/counter_buggy.log")
	asan=$(sanitizer_calls "$OUT/counter_buggy" __asan) ubsan=$(sanitizer_calls "$OUT/counter_buggy" __ubsan)
	case $SANITIZER in
	address) [ "$asan" -ge 1000 ] || fail "counter_buggy has $asan ASan calls (check_build wants >= 1000)" ;;
	undefined) [ "$ubsan" -ge 168 ] && [ "$asan" -eq 0 ] ||
		fail "counter_buggy has $ubsan UBSan and $asan ASan calls (check_build wants >= 168 and 0)" ;;
	esac
	if [ "$combo" = libfuzzer-address ]; then   # ClusterFuzzLite: the same build.sh, fixed variants
		OUT=$tmp/out-cflite && mkdir -p "$OUT" && cp "$root/.clusterfuzzlite/build.sh" "$SRC/build.sh"
		(cd "$SRC" && bash -eux "$SRC/build.sh") > "$tmp/build-cflite.log" 2>&1 ||
			{ tail -20 "$tmp/build-cflite.log"; fail ".clusterfuzzlite/build.sh failed"; }
		cp "$root/oss-fuzz/build.sh" "$SRC/build.sh"
		# every fixed variant CMakeLists.txt declares, and no buggy one; programs built
		# with weft's pass (INSTRUMENT) need the plugin, which OSS-Fuzz's clang lacks;
		# test programs (sources under tests/) are built with the tests only
		n_fixed=$(grep -E '^ *weft_add_(target|program)\([a-z_]+_fixed ' "$root/CMakeLists.txt" |
			  grep -v INSTRUMENT | grep -vc ' tests/')
		[ "$(ls "$OUT" | grep -c '_fixed$')" -eq "$n_fixed" ] && ! ls "$OUT" | grep -q _buggy ||
			fail ".clusterfuzzlite/build.sh should give the $n_fixed fixed targets only: $(ls "$OUT" | tr '\n' ' ')"
		check_libfuzzer counter_fixed
		echo "   .clusterfuzzlite/build.sh: the $n_fixed fixed targets"
	fi
	echo "   $n targets checked: binaries, seed corpora, options; each starts under $engine; libweft uninstrumented; counter_buggy: ${edges:-n/a} edges, $asan ASan and $ubsan UBSan calls; $(( $(date +%s) - start )) s"
done
echo "oss-fuzz: build.sh passes the emulated build and check_build for: $combos"
