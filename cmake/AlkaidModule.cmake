# Module registration. Each module is one library built from the .cc files of its source
# directories; see the top of CMakeLists.txt for the one-line usage.

# Everything: alkaid (alkaid::alkaid when installed or pulled in by add_subdirectory).
add_library(alkaid INTERFACE)
add_library(alkaid::alkaid ALIAS alkaid)

# alkaid_module(NAME DIRS dir... [DEPS alkaid_target...] [STANDALONE])
# Library alkaid_NAME (alias and export name alkaid::NAME) from every .cc in DIRS except
# *_test.cc; DEPS are other alkaid modules it uses in its public headers or sources. With
# ALKAID_BUILD_TESTS, also the test executable alkaid_NAME_test from DIRS/*_test.cc.
# STANDALONE: not part of alkaid::alkaid nor alkaid.pc (users link alkaid::NAME and use
# alkaid-NAME.pc), so that its third-party libraries (gRPC for flight) reach only its users.
function(alkaid_module name)
  cmake_parse_arguments(M "STANDALONE" "" "DIRS;DEPS" ${ARGN})
  set(sources)
  foreach(dir ${M_DIRS})
    file(GLOB found CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cc)
    list(FILTER found EXCLUDE REGEX "_test\\.cc$")
    list(APPEND sources ${found})
  endforeach()
  if(NOT sources)
    message(FATAL_ERROR "alkaid_module(${name}): no sources in ${M_DIRS}")
  endif()
  set(target alkaid_${name})
  add_library(${target} ${sources})
  add_library(alkaid::${name} ALIAS ${target})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC ${M_DEPS})
  # The soname carries the ABI version: MAJOR, or MAJOR.MINOR while MAJOR is 0 (before 1.0 a
  # minor release may break the ABI). DEFINE_SYMBOL is empty because visibility.h needs no
  # "building the library" define on ELF, which keeps static and shared compile commands equal.
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  else()
    set(soversion ${PROJECT_VERSION_MAJOR})
  endif()
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${name}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${soversion}
    DEFINE_SYMBOL "")
  if(WIN32 AND BUILD_SHARED_LIBS)
    target_compile_definitions(${target} PRIVATE ALKAID_BUILDING_DLL PUBLIC ALKAID_DLL)
  endif()
  if(M_STANDALONE)
    set_property(GLOBAL APPEND PROPERTY ALKAID_STANDALONE_MODULES ${name})
  else()
    target_link_libraries(alkaid INTERFACE ${target})
  endif()
  set_property(GLOBAL APPEND PROPERTY ALKAID_MODULES ${name})
  set_property(GLOBAL PROPERTY ALKAID_MODULE_DEPS_${name} ${M_DEPS})
  if(ALKAID_BUILD_TESTS)
    alkaid_module_tests(${name} DIRS ${M_DIRS})
    if(M_STANDALONE AND TARGET alkaid_${name}_test)
      target_link_libraries(alkaid_${name}_test PRIVATE ${target})
    endif()
  endif()
endfunction()

# alkaid_dependency(TARGET imported_target [HEADER_ONLY] [PACKAGE find_package_args...]
#                   [PKGCONFIG pkg-config-module] [PKGCONFIG_LIBS flags])
# Tells the packaging how a consumer finds a third-party library again: PACKAGE becomes a
# find_dependency() in alkaidConfig.cmake, PKGCONFIG a Requires.private entry of alkaid.pc
# (and, with no PACKAGE, a pkg_check_modules() in alkaidConfig.cmake that recreates the
# PkgConfig:: target). HEADER_ONLY libraries are used while building alkaid and are not
# needed by its users (no public header includes them).
function(alkaid_dependency)
  cmake_parse_arguments(D "HEADER_ONLY" "TARGET;PKGCONFIG;PKGCONFIG_LIBS" "PACKAGE" ${ARGN})
  set_property(GLOBAL PROPERTY ALKAID_DEP_HEADER_ONLY_${D_TARGET} ${D_HEADER_ONLY})
  set_property(GLOBAL PROPERTY ALKAID_DEP_PACKAGE_${D_TARGET} "${D_PACKAGE}")
  set_property(GLOBAL PROPERTY ALKAID_DEP_PKGCONFIG_${D_TARGET} "${D_PKGCONFIG}")
  set_property(GLOBAL PROPERTY ALKAID_DEP_PKGCONFIG_LIBS_${D_TARGET} "${D_PKGCONFIG_LIBS}")
  set_property(GLOBAL PROPERTY ALKAID_DEP_KNOWN_${D_TARGET} TRUE)
endfunction()

# alkaid_module_link(NAME PUBLIC|PRIVATE imported_target...)
# Links module NAME to third-party libraries declared with alkaid_dependency().
function(alkaid_module_link name scope)
  foreach(dep ${ARGN})
    get_property(known GLOBAL PROPERTY ALKAID_DEP_KNOWN_${dep})
    if(NOT known)
      message(FATAL_ERROR "alkaid_module_link(${name}): declare ${dep} with alkaid_dependency() "
                          "in cmake/AlkaidDependencies.cmake first")
    endif()
    get_property(header_only GLOBAL PROPERTY ALKAID_DEP_HEADER_ONLY_${dep})
    if(header_only)
      target_link_libraries(alkaid_${name} ${scope} $<BUILD_INTERFACE:${dep}>)
    else()
      target_link_libraries(alkaid_${name} ${scope} ${dep})
      # A private dependency of a shared library is not the consumer's business. Those of a
      # standalone module are listed apart (its own .pc file and CMake component).
      if(scope STREQUAL "PUBLIC" OR NOT BUILD_SHARED_LIBS)
        get_property(standalone GLOBAL PROPERTY ALKAID_STANDALONE_MODULES)
        if(name IN_LIST standalone)
          set_property(GLOBAL APPEND PROPERTY ALKAID_LINK_DEPS_${name} ${dep})
        else()
          set_property(GLOBAL APPEND PROPERTY ALKAID_LINK_DEPS ${dep})
        endif()
      endif()
      set_property(GLOBAL APPEND PROPERTY ALKAID_PRIVATE_DEPS ${dep})
    endif()
  endforeach()
endfunction()

# alkaid_test_flags(TARGET)
# Flags of test code. Test files are compiled with little optimisation in every configuration:
# their run time is spent in the library, which keeps its own flags (-O3 in release, -O1 under
# the sanitizers), and an optimised test file costs up to twice the compile time (-O0 under
# the sanitizers halves their build; -O1 in release and shared builds cuts it by a third).
function(alkaid_test_flags target)
  if(ALKAID_SANITIZE OR ALKAID_TSAN)
    target_compile_options(${target} PRIVATE -O0)
  elseif(CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$")
    target_compile_options(${target} PRIVATE -O1)
  endif()
  # GCC 12 at -O3 reports impossible sizes inside libstdc++ string and vector code that test
  # files inline (string literal + std::string and the like): noise, not findings.
  target_compile_options(${target} PRIVATE
    $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow -Wno-array-bounds -Wno-nonnull -Wno-restrict>)
endfunction()

# alkaid_module_tests(NAME DIRS dir...)
# One GoogleTest executable alkaid_NAME_test from every *_test.cc in DIRS (alkaid_module calls
# it; calling it again for the same module does nothing).
function(alkaid_module_tests name)
  cmake_parse_arguments(M "" "" "DIRS" ${ARGN})
  if(TARGET alkaid_${name}_test)
    return()
  endif()
  set(sources)
  foreach(dir ${M_DIRS})
    file(GLOB found CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*_test.cc)
    list(APPEND sources ${found})
  endforeach()
  # The ThreadSanitizer build exists for the threaded tests (suites named *Concurrency*,
  # *Threads*, *Pipeline*, *ThreadPool* or *ReaderScan*, whose cases also decode on two
  # threads): only the files that hold one are compiled into it.
  if(ALKAID_TSAN)
    set(threaded)
    foreach(src ${sources})
      file(STRINGS ${src} hits REGEX "^TEST(_F|_P)?\\(.*(Concurrency|Threads|Pipeline|ThreadPool|ReaderScan)")
      if(hits)
        list(APPEND threaded ${src})
      endif()
    endforeach()
    set(sources ${threaded})
  endif()
  if(NOT sources)
    return()
  endif()
  # Shared helpers for tests (array literals, gold-file lookup).
  file(GLOB util_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/test_util/*.cc)
  set(test alkaid_${name}_test)
  add_executable(${test} ${sources} ${util_sources})
  # Tests may include private headers of any module, generated Flatbuffers code included.
  target_include_directories(${test} PRIVATE ${PROJECT_SOURCE_DIR} ${ALKAID_GENERATED_DIR})
  if(TARGET alkaid_fbs)
    add_dependencies(${test} alkaid_fbs)
  endif()
  # No build-tree path on the command line: the shared build's compiles then match the
  # static build's and come from ccache.
  target_compile_definitions(${test} PRIVATE ALKAID_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  alkaid_test_flags(${test})
  target_link_libraries(${test} PRIVATE alkaid GTest::gtest GTest::gtest_main GTest::gmock
                        $<BUILD_INTERFACE:nlohmann_json::nlohmann_json>)
  # GoogleTest headers dominate the compile time of test files.
  target_precompile_headers(${test} PRIVATE <gtest/gtest.h> <gmock/gmock.h> <string> <vector>
                            <memory>)
  gtest_discover_tests(${test} DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "ALKAID_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
