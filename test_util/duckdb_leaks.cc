// Linked into every test executable (test_util/*.cc): DuckDB keeps some of the schemas it
// pulls through an Arrow stream's get_schema and never releases them (its frames, in
// libduckdb.so, hold the last reference). LeakSanitizer is told to ignore leaks whose
// allocation stack passes through libduckdb.so and nowhere else; the C Data and Parquet
// tests that drive DuckDB rely on it.
//
// Default visibility: the sanitizer runtime finds this hook by its symbol name, and the
// project compiles with -fvisibility=hidden.
extern "C" [[gnu::visibility("default")]] const char* __lsan_default_suppressions() {
  return "leak:libduckdb.so\n";
}
