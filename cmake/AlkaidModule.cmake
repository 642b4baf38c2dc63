# alkaid_module(NAME DIRS dir... [DEPS target...])
# A static library alkaid_NAME from every .cc in DIRS except *_test.cc.
function(alkaid_module name)
  cmake_parse_arguments(M "" "" "DIRS;DEPS" ${ARGN})
  set(sources)
  foreach(dir ${M_DIRS})
    file(GLOB found CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cc)
    list(FILTER found EXCLUDE REGEX "_test\\.cc$")
    list(APPEND sources ${found})
  endforeach()
  if(NOT sources)
    set(sources ${CMAKE_SOURCE_DIR}/cmake/empty.cc)
  endif()
  add_library(alkaid_${name} STATIC ${sources})
  target_include_directories(alkaid_${name} PUBLIC ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(alkaid_${name} PUBLIC ${M_DEPS})
endfunction()

# alkaid_module_tests(NAME DIRS dir...)
# One GoogleTest executable alkaid_NAME_test from every *_test.cc in DIRS.
function(alkaid_module_tests name)
  cmake_parse_arguments(M "" "" "DIRS" ${ARGN})
  set(sources)
  foreach(dir ${M_DIRS})
    file(GLOB found CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*_test.cc)
    list(APPEND sources ${found})
  endforeach()
  if(NOT sources)
    return()
  endif()
  # Shared helpers for tests (array literals, gold-file lookup).
  file(GLOB util_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/test_util/*.cc)
  add_executable(alkaid_${name}_test ${sources} ${util_sources})
  target_include_directories(alkaid_${name}_test PRIVATE ${CMAKE_SOURCE_DIR})
  target_compile_definitions(alkaid_${name}_test PRIVATE
    ALKAID_SOURCE_DIR="${CMAKE_SOURCE_DIR}" ALKAID_BINARY_DIR="${CMAKE_BINARY_DIR}")
  target_link_libraries(alkaid_${name}_test PRIVATE alkaid GTest::gtest GTest::gtest_main GTest::gmock)
  # GoogleTest headers dominate the compile time of test files.
  target_precompile_headers(alkaid_${name}_test PRIVATE <gtest/gtest.h> <gmock/gmock.h> <string> <vector>
                            <memory>)
  gtest_discover_tests(alkaid_${name}_test DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "ALKAID_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()
