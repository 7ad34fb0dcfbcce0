# WeftAddFuzzTarget.cmake - weft_add_fuzz_target(): a user's weft target, built the
# ways the configured compiler allows (installed with weft; find_package(weft) loads it).
#
#   weft_add_fuzz_target(NAME SOURCES file.c... [DEFINES D...] [LIBRARIES lib...])
#
# makes, from the same sources (a file ending in WEFT_FUZZ_TARGET(...)):
#   NAME_replay  the standalone build: replays files, --simplify, --json (any compiler);
#   NAME_fuzz    when WEFT_FUZZ is on (default: clang, afl-clang-fast, or
#                $LIB_FUZZING_ENGINE set), linked to the engine WeftFuzzEngine.cmake
#                picks: clang -> libFuzzer; CC=afl-clang-fast -> AFL++ (persistent mode,
#                libAFLDriver.a); $LIB_FUZZING_ENGINE -> that flag or driver (OSS-Fuzz).
# So the libFuzzer and the AFL++ builds are two build trees of the same project, one
# configured with CC=clang, one with CC=afl-clang-fast CXX=afl-clang-fast++.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/WeftFuzzEngine.cmake)

if(CMAKE_C_COMPILER_ID MATCHES "Clang" OR WEFT_LIB_FUZZING_ENGINE)
  set(weft_fuzz_default ON)
else()
  set(weft_fuzz_default OFF)
endif()
option(WEFT_FUZZ "Build NAME_fuzz binaries (clang, afl-clang-fast or LIB_FUZZING_ENGINE)"
       ${weft_fuzz_default})

function(weft_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEFINES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "weft_add_fuzz_target(${name}): SOURCES is required")
  endif()
  set(kinds replay)
  if(WEFT_FUZZ)
    list(APPEND kinds fuzz)
  endif()
  foreach(kind ${kinds})
    if(kind STREQUAL fuzz)
      set(glue ${WEFT_HARNESS_DIR}/fuzz_libfuzzer.c)
    else()
      set(glue ${WEFT_HARNESS_DIR}/replay_main.c)
    endif()
    add_executable(${name}_${kind} ${glue} ${ARG_SOURCES})
    set_target_properties(${name}_${kind} PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
    target_compile_definitions(${name}_${kind} PRIVATE ${ARG_DEFINES})
    target_link_libraries(${name}_${kind} PRIVATE weft::weft ${ARG_LIBRARIES})
  endforeach()
  if(WEFT_FUZZ)
    weft_fuzz_engine_link(${name}_fuzz)
  endif()
endfunction()
