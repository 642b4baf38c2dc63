// Linked into every test executable (test_util/*.cc): the leaks LeakSanitizer is told to
// ignore, each one in another project's library and nowhere of alkaid's.
// - libduckdb.so: DuckDB keeps some of the schemas it pulls through an Arrow stream's
//   get_schema and never releases them (its frames hold the last reference); the C Data and
//   Parquet tests that drive DuckDB rely on this entry.
// - libcares.so: c-ares, gRPC's DNS resolver, keeps 40 bytes of process-wide state it never
//   frees (seen in alkaid_flight_test).
//
// Default visibility: the sanitizer runtime finds this hook by its symbol name, and the
// project compiles with -fvisibility=hidden.
extern "C" [[gnu::visibility("default")]] const char* __lsan_default_suppressions() {
  return "leak:libduckdb.so\nleak:libcares.so\n";
}
