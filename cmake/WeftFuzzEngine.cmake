# cmake/WeftFuzzEngine.cmake - which fuzzing engine a fuzz binary links, the way
# OSS-Fuzz expects; and keeping libweft free of coverage instrumentation.
#
# Used by the weft tree itself (weft_add_target in CMakeLists.txt) and installed with
# the package (weft_add_fuzz_target in WeftAddFuzzTarget.cmake), so both pick engines
# by the same rules.
#
# The engine comes from WEFT_LIB_FUZZING_ENGINE, which defaults to the environment's
# $LIB_FUZZING_ENGINE (OSS-Fuzz's convention):
#   a flag such as -fsanitize=fuzzer  -> libFuzzer; the flag is added at link time only;
#   a file (libAFLDriver.a, honggfuzz's or centipede's driver) -> linked in;
#   unset, compiler afl-clang-fast/afl-cc -> AFL++'s libAFLDriver.a, found next to it
#                                            (persistent mode: the driver runs __AFL_LOOP);
#   unset, compiler clang -> clang's libFuzzer: the fuzz binary's own sources get
#                            -fsanitize=fuzzer-no-link, its link -fsanitize=fuzzer
#                            (weft's original default);
#   unset, other compilers -> no fuzz binary (WEFT_FUZZ off); the replay binaries are
#                             the standalone build.
# With an engine from the environment, coverage flags come from $CFLAGS as OSS-Fuzz
# sets them; weft adds none, and links with $CXX (engine drivers are C++).
# Nothing here adds -Werror or -march=native.

set(WEFT_LIB_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING
    "Fuzzing engine for the fuzz binaries: a link flag (-fsanitize=fuzzer), a driver file, or empty")

get_filename_component(weft_cc_name "${CMAKE_C_COMPILER}" NAME)
if(weft_cc_name MATCHES "^afl-")
  set(WEFT_COMPILER_IS_AFL ON)
else()
  set(WEFT_COMPILER_IS_AFL OFF)
endif()

# An afl-clang-fast build without LIB_FUZZING_ENGINE: AFL++'s own driver.
if(WEFT_COMPILER_IS_AFL AND NOT WEFT_LIB_FUZZING_ENGINE)
  get_filename_component(weft_cc_dir "${CMAKE_C_COMPILER}" DIRECTORY)
  find_file(WEFT_AFL_DRIVER libAFLDriver.a
            HINTS "${weft_cc_dir}" "${weft_cc_dir}/../lib/afl" "${weft_cc_dir}/../lib"
            PATHS /usr/lib/afl /usr/local/lib/afl NO_DEFAULT_PATH)
  if(NOT WEFT_AFL_DRIVER)
    message(FATAL_ERROR "weft: ${CMAKE_C_COMPILER} is AFL++ but libAFLDriver.a was not found; "
                        "set LIB_FUZZING_ENGINE to its path")
  endif()
  set(WEFT_LIB_FUZZING_ENGINE "${WEFT_AFL_DRIVER}" CACHE STRING "" FORCE)
endif()

if(WEFT_LIB_FUZZING_ENGINE)
  set(weft_engine_given ON)
  enable_language(CXX)   # engine drivers are C++ and OSS-Fuzz links with $CXX
else()
  set(weft_engine_given OFF)
endif()

# weft_fuzz_engine_link(TARGET): TARGET (an executable defining LLVMFuzzerTestOneInput)
# becomes a fuzz binary for the selected engine.
function(weft_fuzz_engine_link target)
  if(weft_engine_given)
    separate_arguments(engine UNIX_COMMAND "${WEFT_LIB_FUZZING_ENGINE}")
    target_link_libraries(${target} PRIVATE ${engine})
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  else()
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  endif()
  weft_fuzz_engine_compile(${target})
endfunction()

# weft_fuzz_engine_compile(TARGET): TARGET's sources (an executable's, or an
# object library linked into fuzz binaries) get the engine's coverage flags.
# With $LIB_FUZZING_ENGINE the flags come from $CFLAGS, which reach every file.
function(weft_fuzz_engine_compile target)
  if(NOT weft_engine_given)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# weft_without_coverage(TARGET): TARGET (libweft) gets no coverage instrumentation,
# whatever $CFLAGS or the compiler add, so the scheduler's spin and wait loops, the
# checker's search and the report never become fuzzer features: only the target's own
# code (and the glue) is instrumented, and coverage means "new behaviour of the data
# structure", not "the checker took another path".  Sanitizers stay on.
#   clang: -fno-sanitize=fuzzer-no-link and -fno-sanitize-coverage=<every kind> undo
#     OSS-Fuzz's -fsanitize=fuzzer-no-link (libFuzzer) and -fsanitize-coverage=...
#     (AFL++'s fallback mode, dataflow, centipede) for this target's sources only.
#   afl-clang-fast: AFL++ instruments in its own compiler pass, which ignores those
#     flags; its documented switch is an instrument list, read from the environment
#     at compile time.  We set AFL_LLVM_DENYLIST=cmake/afl_instrument_nothing.txt
#     ("src: *") through a compiler launcher on libweft only, instead of compiling
#     libweft with plain clang: a second compiler in one CMake project is not
#     possible, and the launcher keeps $CC, $CFLAGS and the sanitizer runtime the
#     same for every object.  CMPLOG, CTX and LAF passes honour the same list.
set(weft_coverage_kinds func,bb,edge,indirect-calls,trace-bb,trace-cmp,trace-div,trace-gep,8bit-counters,trace-pc,trace-pc-guard,inline-8bit-counters,inline-bool-flag,pc-table,stack-depth,trace-loads,trace-stores)
set(weft_afl_denylist "${CMAKE_CURRENT_LIST_DIR}/afl_instrument_nothing.txt")
function(weft_without_coverage target)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE -fno-sanitize=fuzzer-no-link
                           -fno-sanitize-coverage=${weft_coverage_kinds})
  endif()
  if(WEFT_COMPILER_IS_AFL)
    set_target_properties(${target} PROPERTIES C_COMPILER_LAUNCHER
      "${CMAKE_COMMAND};-E;env;AFL_LLVM_DENYLIST=${weft_afl_denylist};AFL_QUIET=1")
  endif()
endfunction()
