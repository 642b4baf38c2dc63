# alkaid_fuzz_test: the fuzz targets' own checks (fuzz/fuzz_*.cc), replayed on real inputs
# as ordinary GoogleTest cases in every build that has tests, so that the harnesses keep
# compiling with g++ and their invariants (round trips, threaded against plain reads, a
# single release) run in the release and ASan+UBSan suites, not only in fuzzing sessions.
# Each harness is compiled into the one executable under its own entry-point name.
set(alkaid_fuzz_harnesses ipc_stream ipc_file ipc_decoder csv jsonl integration_json c_schema
    c_array parquet_read)
set(alkaid_fuzz_sources ${PROJECT_SOURCE_DIR}/fuzz/fuzz_replay_test.cc)
foreach(harness ${alkaid_fuzz_harnesses})
  set(src ${PROJECT_SOURCE_DIR}/fuzz/fuzz_${harness}.cc)
  set_source_files_properties(${src} PROPERTIES
                              COMPILE_DEFINITIONS "LLVMFuzzerTestOneInput=FuzzOne_${harness}")
  list(APPEND alkaid_fuzz_sources ${src})
endforeach()
add_executable(alkaid_fuzz_test ${alkaid_fuzz_sources})
target_include_directories(alkaid_fuzz_test PRIVATE ${PROJECT_SOURCE_DIR}
                           ${PROJECT_SOURCE_DIR}/fuzz)
target_compile_definitions(alkaid_fuzz_test PRIVATE ALKAID_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
alkaid_test_flags(alkaid_fuzz_test)
target_link_libraries(alkaid_fuzz_test PRIVATE alkaid GTest::gtest GTest::gtest_main
                      $<BUILD_INTERFACE:nlohmann_json::nlohmann_json>)
gtest_discover_tests(alkaid_fuzz_test DISCOVERY_TIMEOUT 60
  PROPERTIES ENVIRONMENT "ALKAID_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
