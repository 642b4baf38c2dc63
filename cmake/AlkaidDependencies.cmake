# Third-party libraries (all Debian packages, see .ci/packages.txt). Each one a module links
# with alkaid_module_link() is declared here with alkaid_dependency(), which says how a user of
# the installed package finds it again (alkaidConfig.cmake, alkaid.pc, Debian Depends).
find_package(Threads REQUIRED)
alkaid_dependency(TARGET Threads::Threads PACKAGE Threads PKGCONFIG_LIBS -pthread)

# Flatbuffers: only the header-only runtime (builder, verifier) of the generated code is used.
find_package(FlatBuffers REQUIRED)
find_program(FLATC flatc REQUIRED)
alkaid_dependency(TARGET flatbuffers::flatbuffers HEADER_ONLY)

find_package(PkgConfig REQUIRED)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
alkaid_dependency(TARGET PkgConfig::LZ4 PKGCONFIG liblz4)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
alkaid_dependency(TARGET PkgConfig::ZSTD PKGCONFIG libzstd)

# Parquet page codecs: Snappy and Brotli (LZ4, zstd and zlib above serve Parquet too).
find_package(Snappy REQUIRED)
alkaid_dependency(TARGET Snappy::snappy PACKAGE Snappy PKGCONFIG snappy)
pkg_check_modules(BROTLIENC REQUIRED IMPORTED_TARGET libbrotlienc)
alkaid_dependency(TARGET PkgConfig::BROTLIENC PKGCONFIG libbrotlienc)
pkg_check_modules(BROTLIDEC REQUIRED IMPORTED_TARGET libbrotlidec)
alkaid_dependency(TARGET PkgConfig::BROTLIDEC PKGCONFIG libbrotlidec)

find_package(ZLIB REQUIRED)
alkaid_dependency(TARGET ZLIB::ZLIB PACKAGE ZLIB PKGCONFIG zlib)

find_package(nlohmann_json REQUIRED)
alkaid_dependency(TARGET nlohmann_json::nlohmann_json HEADER_ONLY)

# fast_float: decimal text to double/float in the CSV and JSON Lines readers (header-only).
find_package(FastFloat REQUIRED)
alkaid_dependency(TARGET FastFloat::fast_float HEADER_ONLY)

# simdjson: the JSON Lines reader's parser.
find_package(simdjson REQUIRED)
alkaid_dependency(TARGET simdjson::simdjson PACKAGE simdjson PKGCONFIG simdjson)
