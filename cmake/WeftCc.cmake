# cmake/WeftCc.cmake - weft-cc and weft-c++ (program/weft_cc.sh), the drop-in
# compilers for whole programs built by their own build system (issue 32), and
# libweft_asan.a, the library they link under -fsanitize=address.
#
#   <build>/weft-cc, <build>/weft-c++       the build tree's, with its absolute paths
#   bin/weft-cc, bin/weft-c++               installed, finding weft relative to bin/
#   lib/weft/libweft_instrument.so          the pass they load (installed too)
#   lib/libweft_asan.a                      libweft built with -fsanitize=address: an
#                                           ASan program's fibers need weft's switches
#                                           annotated (scheduler/fiber_switch.c), which
#                                           only an ASan build of libweft does
#
# Only with the pass (WEFT_INSTRUMENT: clang and llvm-dev of its major version).
# WEFT_ASAN_LIBRARY is on by default there unless the build is sanitized already
# (WEFT_SANITIZE: libweft.a itself is then an ASan build): one more build of the
# library, so that every installed package with the wrappers has it.
include(GNUInstallDirs)

if(NOT WEFT_INSTRUMENT)
  return()
endif()

if(NOT WEFT_SANITIZE)
  set(weft_asan_default ON)
else()
  set(weft_asan_default OFF)
endif()
option(WEFT_ASAN_LIBRARY "Also build libweft_asan.a (weft-cc -fsanitize=address)" ${weft_asan_default})
if(WEFT_ASAN_LIBRARY)
  get_target_property(weft_sources weft SOURCES)
  add_library(weft_asan STATIC ${weft_sources})
  target_include_directories(weft_asan PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(weft_asan PUBLIC Threads::Threads ${CMAKE_DL_LIBS})
  target_compile_options(weft_asan PRIVATE -fsanitize=address -fno-omit-frame-pointer)
  set_target_properties(weft_asan PROPERTIES C_VISIBILITY_PRESET hidden)
  weft_without_coverage(weft_asan)
endif()

if(WEFT_CLANGXX)
  set(weft_cc_clangxx ${WEFT_CLANGXX})
else()
  set(weft_cc_clangxx ${CMAKE_CXX_COMPILER})
endif()

# weft_cc_configure(DIR ...): weft-cc and weft-c++ in DIR, executable, with the layout given.
function(weft_cc_configure dir stage include harness libdir plugin cmakedir)
  set(WEFT_CC_INCLUDE ${include})
  set(WEFT_CC_HARNESS ${harness})
  set(WEFT_CC_LIBDIR ${libdir})
  set(WEFT_CC_PLUGIN ${plugin})
  set(WEFT_CC_CMAKE ${cmakedir})
  set(WEFT_CC_CLANG ${CMAKE_C_COMPILER})
  set(WEFT_CC_CLANGXX ${weft_cc_clangxx})
  set(stage ${PROJECT_BINARY_DIR}/weft_cc_stage/${stage})
  configure_file(${PROJECT_SOURCE_DIR}/program/weft_cc.sh ${stage}/weft-cc @ONLY)
  foreach(name weft-cc weft-c++)   # file(COPY) keeps the name: copy, then rename
    file(COPY ${stage}/weft-cc DESTINATION ${stage}/${name}.d
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
    file(RENAME ${stage}/${name}.d/weft-cc ${dir}/${name})
  endforeach()
endfunction()

# The build tree's: in the build directory itself, next to libweft.a and the pass.
weft_cc_configure(${PROJECT_BINARY_DIR} build ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/harness
  ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/libweft_instrument.so ${PROJECT_SOURCE_DIR}/cmake)

# The installed ones: every path from the script's own directory ($here), so that
# a prefix install anywhere and the .deb's /usr work alike.
file(RELATIVE_PATH weft_cc_up ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" weft_cc_up "${weft_cc_up}")
set(weft_cc_prefix "$here/${weft_cc_up}")
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/weft_cc_install)
weft_cc_configure(${PROJECT_BINARY_DIR}/weft_cc_install install
  ${weft_cc_prefix}/${CMAKE_INSTALL_INCLUDEDIR}
  ${weft_cc_prefix}/${CMAKE_INSTALL_DATADIR}/weft/harness
  ${weft_cc_prefix}/${CMAKE_INSTALL_LIBDIR}
  ${weft_cc_prefix}/${CMAKE_INSTALL_LIBDIR}/weft/libweft_instrument.so
  ${weft_cc_prefix}/${CMAKE_INSTALL_LIBDIR}/cmake/weft)
install(PROGRAMS ${PROJECT_BINARY_DIR}/weft_cc_install/weft-cc
                 ${PROJECT_BINARY_DIR}/weft_cc_install/weft-c++
        DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS weft_instrument LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/weft)
if(WEFT_ASAN_LIBRARY)
  install(TARGETS weft_asan ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
