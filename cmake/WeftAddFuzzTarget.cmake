# WeftAddFuzzTarget.cmake - weft_add_fuzz_target() and weft_add_program(): a user's
# weft target, built the ways the configured compiler allows (installed with weft;
# find_package(weft) loads it).
#
#   weft_add_fuzz_target(NAME SOURCES file.c... [DEFINES D...] [LIBRARIES lib...]
#                        [COMPILE_OPTIONS opt...])
#
# makes, from the same sources (a file ending in WEFT_FUZZ_TARGET(...)):
#   NAME_replay  the standalone build: replays files, --simplify, --json (any compiler);
#   NAME_fuzz    when WEFT_FUZZ is on (default: clang, afl-clang-fast, or
#                $LIB_FUZZING_ENGINE set), linked to the engine WeftFuzzEngine.cmake
#                picks: clang -> libFuzzer; CC=afl-clang-fast -> AFL++ (persistent mode,
#                libAFLDriver.a); $LIB_FUZZING_ENGINE -> that flag or driver (OSS-Fuzz).
# So the libFuzzer and the AFL++ builds are two build trees of the same project, one
# configured with CC=clang, one with CC=afl-clang-fast CXX=afl-clang-fast++.
# COMPILE_OPTIONS go to the SOURCES only, never to weft's glue (so -include or -D of
# the user's own are safe); they are source-file properties of the calling directory,
# so two targets given one source file there must give it the same options.
#
#   weft_add_program(NAME SOURCES file.c|file.cpp... [INSTRUMENT] [DEFINES D...]
#                    [LIBRARIES lib...] [COMPILE_OPTIONS opt...])
#
# an unmodified pthread program (its main, its threads, its assert()s) as a target:
# its sources are compiled with the drop-in header (-include weft/dropin.h
# -Dmain=weft_program_main -UNDEBUG) and linked with the glue program_main.c, and a
# compiler launcher (weft_program_cc.sh: objcopy, objdump) moves the program's
# globals to sections weft resets before every execution (README, "whole pthread
# programs").  C++ sources (the project enables CXX) reach weft by symbol.
# INSTRUMENT: also compiled with weft's pass (-fpass-plugin, WEFT_PASS_PLUGIN:
# installed when weft was built with clang and llvm-dev), so every shared plain
# access and every atomic is a switch point; needs clang of the pass's major
# version.  Without it programs switch at atomics, locks and pthread calls only.
# A project built by make or autotools uses weft-cc instead (README).
include_guard(GLOBAL)
set(WEFT_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/WeftFuzzEngine.cmake)

if(CMAKE_C_COMPILER_ID MATCHES "Clang" OR WEFT_LIB_FUZZING_ENGINE)
  set(weft_fuzz_default ON)
else()
  set(weft_fuzz_default OFF)
endif()
option(WEFT_FUZZ "Build NAME_fuzz binaries (clang, afl-clang-fast or LIB_FUZZING_ENGINE)"
       ${weft_fuzz_default})

function(weft_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEFINES;LIBRARIES;COMPILE_OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "weft_add_fuzz_target(${name}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_fuzz_target(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_COMPILE_OPTIONS)
    foreach(src ${ARG_SOURCES})
      get_source_file_property(had ${src} COMPILE_OPTIONS)
      if(had AND NOT had STREQUAL "${ARG_COMPILE_OPTIONS}")
        message(FATAL_ERROR "weft_add_fuzz_target(${name}): ${src} already has the COMPILE_OPTIONS "
          "'${had}' of another target (options are per source file in a directory)")
      endif()
    endforeach()
    set_source_files_properties(${ARG_SOURCES} PROPERTIES COMPILE_OPTIONS "${ARG_COMPILE_OPTIONS}")
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

function(weft_add_program name)
  cmake_parse_arguments(ARG "INSTRUMENT" "" "SOURCES;DEFINES;LIBRARIES;COMPILE_OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "weft_add_program(${name}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_program(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CMAKE_OBJCOPY OR NOT CMAKE_OBJDUMP)
    message(FATAL_ERROR "weft_add_program(${name}): needs objcopy and objdump (binutils)")
  endif()
  set(pass)
  if(ARG_INSTRUMENT)
    if(NOT WEFT_PASS_PLUGIN OR NOT EXISTS "${WEFT_PASS_PLUGIN}")
      message(FATAL_ERROR "weft_add_program(${name} INSTRUMENT): weft's pass is not installed "
        "(weft built without clang and llvm-dev)")
    endif()
    set(pass -g -DWEFT_INSTRUMENTED -fpass-plugin=${WEFT_PASS_PLUGIN})
  endif()
  weft_add_fuzz_target(${name} SOURCES ${ARG_SOURCES} LIBRARIES ${ARG_LIBRARIES}
    DEFINES ${ARG_DEFINES} WEFT_PROGRAM_NAME="${name}"
    COMPILE_OPTIONS -include ${WEFT_INCLUDE_DIR}/weft/dropin.h -Dmain=weft_program_main
                    -UNDEBUG ${pass} ${ARG_COMPILE_OPTIONS})
  # The calls of libraries and C++'s standard library caught by symbol
  # (program_interpose.c): one object per project, its own target so that neither
  # the drop-in flags nor the globals launcher touch it, and without coverage.
  if(NOT TARGET weft_program_interpose_objects)
    add_library(weft_program_interpose_objects OBJECT ${WEFT_HARNESS_DIR}/program_interpose.c)
    set_target_properties(weft_program_interpose_objects PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
    target_link_libraries(weft_program_interpose_objects PRIVATE weft::weft)
    if(COMMAND weft_without_coverage)
      weft_without_coverage(weft_program_interpose_objects)
    endif()
  endif()
  foreach(kind replay fuzz)
    if(TARGET ${name}_${kind})
      target_sources(${name}_${kind} PRIVATE ${WEFT_HARNESS_DIR}/program_main.c
                     $<TARGET_OBJECTS:weft_program_interpose_objects>)
      target_link_libraries(${name}_${kind} PRIVATE ${CMAKE_DL_LIBS})
      target_link_options(${name}_${kind} PRIVATE
        "LINKER:--dynamic-list=${WEFT_CMAKE_DIR}/weft_program_interpose.list")
      set(launcher "sh;${WEFT_CMAKE_DIR}/weft_program_cc.sh;${CMAKE_OBJCOPY};${CMAKE_OBJDUMP}")
      set_target_properties(${name}_${kind} PROPERTIES C_COMPILER_LAUNCHER "${launcher}"
                            CXX_COMPILER_LAUNCHER "${launcher}")
    endif()
  endforeach()
endfunction()
