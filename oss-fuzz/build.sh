#!/bin/bash -eu
# oss-fuzz/build.sh - OSS-Fuzz's (and ClusterFuzzLite's) build of weft's fuzz targets.
#
# Runs inside OSS-Fuzz's builder image (compile sets CC CXX CFLAGS CXXFLAGS
# LIB_FUZZING_ENGINE SANITIZER FUZZING_ENGINE SRC WORK OUT); tests/ecosystem/oss_fuzz.sh
# runs it outside with that environment emulated.  For every target weft builds
# (each data structure, buggy and fixed), writes to $OUT:
#   NAME                     the fuzz binary (the engine from $LIB_FUZZING_ENGINE: a flag
#                            for libFuzzer, AFL++'s driver file; unset: the standalone
#                            replay main, which runs the files it is given)
#   NAME_seed_corpus.zip     corpus/<structure>/seed-*.bin; for a fixed variant also the
#                            bug reproducers (*.KIND.bin), which it must pass; never for a
#                            buggy one (a crashing seed fails OSS-Fuzz's check_build)
#   NAME.options             libFuzzer's max_len (weft inputs are short: 256 bytes
#                            describe 3 threads x 3 operations with hundreds of preemptions)
# No NAME.dict: every byte value is meaningful (docs/input-format.md), so there are no
# tokens for a dictionary to offer.
# $CFLAGS reaches every file, libweft included, for the sanitizers; the coverage flags
# in it are undone for libweft only (cmake/WeftFuzzEngine.cmake).
# WEFT_FUZZ_TARGETS (a shell pattern, default '*') picks targets by name;
# ClusterFuzzLite's build (.clusterfuzzlite/build.sh) sets '*_fixed'.
src=${WEFT_SRC:-$SRC/weft}
build=$WORK/weft-build
pattern=${WEFT_FUZZ_TARGETS:-*}
engine=${LIB_FUZZING_ENGINE:-}
if [ -n "$engine" ]; then fuzz=ON; suffix=_fuzz; else fuzz=OFF; suffix=_replay; fi

# CMAKE_BUILD_TYPE=None: no per-configuration flags, so $CFLAGS decides (-O1, -g...).
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=None -DWEFT_FUZZ=$fuzz \
	-DWEFT_LIB_FUZZING_ENGINE="$engine" -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF
cmake --build "$build" -j"$(nproc)"

shopt -s nullglob
: > "$WORK/empty-input"   # a target without seeds gets the empty input: its simplest run
found=0
for bin in "$build"/*"$suffix"; do
	name=$(basename "$bin" "$suffix")
	case $name in $pattern) ;; *) continue ;; esac
	structure=${name%_buggy}
	structure=${structure%_fixed}
	cp "$bin" "$OUT/$name"
	seeds=("$src/corpus/$structure"/seed-*.bin)
	if [ "${name%_fixed}" != "$name" ]; then
		seeds+=("$src/corpus/$structure"/*.*.bin)
	fi
	[ ${#seeds[@]} -gt 0 ] || seeds=("$WORK/empty-input")
	rm -f "$OUT/${name}_seed_corpus.zip"
	zip -q -j "$OUT/${name}_seed_corpus.zip" "${seeds[@]}"
	printf '[libfuzzer]\nmax_len = 256\n' > "$OUT/$name.options"
	found=$((found + 1))
done
[ "$found" -gt 0 ] || { echo "build.sh: no target matches '$pattern'" >&2; exit 1; }
echo "build.sh: $found targets in $OUT"
