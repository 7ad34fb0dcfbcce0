# cmake/WeftInstall.cmake - what `cmake --install` puts where, for find_package(weft)
# and pkg-config.
#
#   lib/libweft.a                       the library (never coverage-instrumented)
#   include/weft/*.h                    the public headers
#   share/weft/harness/*.c              the glue a fuzz target is compiled with: the
#                                       fuzz entry point, the standalone replay main and
#                                       the whole-program glue (program_main.c), compiled
#                                       in the user's build with the user's flags (so the
#                                       entry point gets their coverage and sanitizers,
#                                       and no prebuilt main fights the engine's)
#   lib/cmake/weft/                     weftConfig.cmake (+ version), the exported target
#                                       weft::weft, weft_add_fuzz_target(),
#                                       weft_add_program() and its compiler launcher
#                                       (weft_program_cc.sh), the engine rules
#   lib/pkgconfig/weft.pc               for Makefiles: cflags, libs, harnessdir; pass,
#                                       weftcc, weftcxx (the wrappers, cmake/WeftCc.cmake)
#   bin/weft-cc, bin/weft-c++,          with the pass only (clang + llvm-dev): the drop-in
#   lib/weft/libweft_instrument.so,     compilers for whole programs, the pass, libweft
#   lib/libweft_asan.a                  under ASan (cmake/WeftCc.cmake)
#   bin/weft-check                      the standalone history checker
#   bin/weft-reduce, bin/weft-campaign  scripts/weft_reduce.sh and weft_campaign.sh
#                                       (given a build's binaries with --build DIR)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(weft_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
set(weft_harness_dir ${CMAKE_INSTALL_DATADIR}/weft/harness)

# The build tree keeps its absolute include path; the installed target uses include/.
set_target_properties(weft PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                      "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>")
target_include_directories(weft PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

install(TARGETS weft EXPORT weftTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS weft-check RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/weft DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES harness/fuzz_libfuzzer.c harness/replay_main.c harness/program_main.c
              harness/program_interpose.c
        DESTINATION ${weft_harness_dir})
# replay_main.c includes ../oracle/tool_files.h (the file rules it shares with weft-check).
install(FILES oracle/tool_files.h DESTINATION ${CMAKE_INSTALL_DATADIR}/weft/oracle)
install(PROGRAMS scripts/weft_reduce.sh DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME weft-reduce)
install(PROGRAMS scripts/weft_campaign.sh DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME weft-campaign)
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${weft_cmake_dir})

set(weft_pass_plugin ${CMAKE_INSTALL_LIBDIR}/weft/libweft_instrument.so)   # cmake/WeftCc.cmake
configure_package_config_file(cmake/weftConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake
  INSTALL_DESTINATION ${weft_cmake_dir}
  PATH_VARS weft_harness_dir CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR weft_pass_plugin)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)   # 0.x: a minor version may change the API
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake
              cmake/WeftFuzzEngine.cmake cmake/WeftAddFuzzTarget.cmake
              cmake/afl_instrument_nothing.txt cmake/weft_program_cc.sh
              cmake/weft_program_interpose.list
        DESTINATION ${weft_cmake_dir})

# weft.pc finds its prefix from where it is (${pcfiledir}), so the same file serves a
# `cmake --install --prefix` anywhere and the Debian package's /usr.
file(RELATIVE_PATH weft_pc_to_prefix ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" weft_pc_to_prefix "${weft_pc_to_prefix}")
configure_file(cmake/weft.pc.in ${CMAKE_CURRENT_BINARY_DIR}/weft.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weft.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# cpack -G DEB (in a build configured as the top-level project): weft_VERSION_*.deb,
# the same files under /usr (configured with clang and llvm-dev: weft-cc, weft-c++, the
# pass and libweft_asan.a too).  Only the library and tools are needed first:
#   cmake -S . -B build/deb -DCMAKE_C_COMPILER=clang -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=OFF
#   cmake --build build/deb -j2 && (cd build/deb && cpack -G DEB) && dpkg -i build/deb/weft_*.deb
if(CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  set(CPACK_PACKAGE_NAME weft)
  set(CPACK_PACKAGE_VENDOR weft)
  set(CPACK_PACKAGE_CONTACT "weft maintainers <weft@localhost>")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
      "coverage-guided fuzzing of interleavings for C data structures")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_GENERATOR DEB)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  # binutils: objcopy and objdump for weft_add_program and weft-cc (which also needs bash
  # and the clang the pass was built with); a compiler and CMake or pkg-config
  # to build a target; clang (libFuzzer) or afl++ to fuzz; coreutils' timeout for weft-campaign.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, binutils, coreutils")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake, clang, pkgconf")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "afl++")
  include(CPack)
endif()
