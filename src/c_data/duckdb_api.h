// The part of DuckDB's public C API (duckdb.h) that the in-process C Data
// Interface tests use, declared here from its documented signatures so the
// build needs no DuckDB: the test loads libduckdb.so with dlopen and looks
// these names up with dlsym (the declarations only give their types).
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "alkaid/c_data/abi.h"

extern "C" {

typedef uint64_t idx_t;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;

// Opaque handles: DuckDB defines each as a pointer to a one-pointer struct.
typedef struct _duckdb_database { void* internal_ptr; }* duckdb_database;
typedef struct _duckdb_connection { void* internal_ptr; }* duckdb_connection;
typedef struct _duckdb_arrow_stream { void* internal_ptr; }* duckdb_arrow_stream;
typedef struct _duckdb_data_chunk { void* internal_ptr; }* duckdb_data_chunk;
typedef struct _duckdb_logical_type { void* internal_ptr; }* duckdb_logical_type;
typedef struct _duckdb_arrow_options { void* internal_ptr; }* duckdb_arrow_options;
typedef struct _duckdb_error_data { void* internal_ptr; }* duckdb_error_data;
typedef struct _duckdb_arrow_converted_schema { void* internal_ptr; }* duckdb_arrow_converted_schema;

// A query result, filled in by duckdb_query (fields other than internal_data
// are deprecated and not read here; the layout must still match).
typedef struct {
  idx_t deprecated_column_count;
  idx_t deprecated_row_count;
  idx_t deprecated_rows_changed;
  void* deprecated_columns;
  char* deprecated_error_message;
  void* internal_data;
} duckdb_result;

// path NULL or ":memory:" opens an in-memory database.
duckdb_state duckdb_open(const char* path, duckdb_database* out_database);
void duckdb_close(duckdb_database* database);
duckdb_state duckdb_connect(duckdb_database database, duckdb_connection* out_connection);
void duckdb_disconnect(duckdb_connection* connection);

duckdb_state duckdb_query(duckdb_connection connection, const char* query, duckdb_result* out_result);
void duckdb_destroy_result(duckdb_result* result);
const char* duckdb_result_error(duckdb_result* result);
idx_t duckdb_column_count(duckdb_result* result);
const char* duckdb_column_name(duckdb_result* result, idx_t col);
duckdb_logical_type duckdb_column_logical_type(duckdb_result* result, idx_t col);
void duckdb_destroy_logical_type(duckdb_logical_type* type);
// NULL once the result is exhausted.
duckdb_data_chunk duckdb_fetch_chunk(duckdb_result result);
void duckdb_destroy_data_chunk(duckdb_data_chunk* chunk);

// Error objects of the Arrow functions (NULL or has_error false on success).
bool duckdb_error_data_has_error(duckdb_error_data error_data);
const char* duckdb_error_data_message(duckdb_error_data error_data);
void duckdb_destroy_error_data(duckdb_error_data* error_data);

// Arrow in: a view `table_name` over an ArrowArrayStream (the stream stays
// the caller's to release); the schema check gives DuckDB's reason for
// rejecting a schema (the schema stays the caller's to release).
duckdb_state duckdb_arrow_scan(duckdb_connection connection, const char* table_name,
                               duckdb_arrow_stream arrow);
duckdb_error_data duckdb_schema_from_arrow(duckdb_connection connection, struct ArrowSchema* schema,
                                           duckdb_arrow_converted_schema* out_types);
void duckdb_destroy_arrow_converted_schema(duckdb_arrow_converted_schema* arrow_converted_schema);

// Arrow out: options from the result's client settings, then a schema from
// the column types and one ArrowArray per data chunk.
duckdb_arrow_options duckdb_result_get_arrow_options(duckdb_result* result);
void duckdb_destroy_arrow_options(duckdb_arrow_options* arrow_options);
duckdb_error_data duckdb_to_arrow_schema(duckdb_arrow_options arrow_options, duckdb_logical_type* types,
                                         const char** names, idx_t column_count,
                                         struct ArrowSchema* out_schema);
duckdb_error_data duckdb_data_chunk_to_arrow(duckdb_arrow_options arrow_options, duckdb_data_chunk chunk,
                                             struct ArrowArray* out_arrow_array);

}  // extern "C"

namespace alkaid::c_data {

// The functions above, looked up in a dlopen'ed libduckdb.so.
#define ALKAID_DUCKDB_FUNCTIONS(X)                                                      \
  X(duckdb_open) X(duckdb_close) X(duckdb_connect) X(duckdb_disconnect) X(duckdb_query) \
  X(duckdb_destroy_result) X(duckdb_result_error) X(duckdb_column_count)                \
  X(duckdb_column_name) X(duckdb_column_logical_type) X(duckdb_destroy_logical_type)    \
  X(duckdb_fetch_chunk) X(duckdb_destroy_data_chunk) X(duckdb_error_data_has_error)     \
  X(duckdb_error_data_message) X(duckdb_destroy_error_data) X(duckdb_arrow_scan)        \
  X(duckdb_schema_from_arrow) X(duckdb_destroy_arrow_converted_schema)                  \
  X(duckdb_result_get_arrow_options) X(duckdb_destroy_arrow_options)                    \
  X(duckdb_to_arrow_schema) X(duckdb_data_chunk_to_arrow)

struct DuckApi {
#define X(name) decltype(&::name) name = nullptr;
  ALKAID_DUCKDB_FUNCTIONS(X)
#undef X
  std::string path;
  std::string error;  // why it did not load

  // Loaded once per process from $ALKAID_DUCKDB_LIB, else `default_path`;
  // `error` says why when it did not load. Never unloaded.
  static DuckApi* Get(const char* default_path) {
    static DuckApi* api = Load(default_path);
    return api;
  }

 private:
  static DuckApi* Load(const char* default_path) {
    auto* api = new DuckApi;
    const char* env = std::getenv("ALKAID_DUCKDB_LIB");
    api->path = env && *env ? env : default_path;
    void* handle = dlopen(api->path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      api->error = dlerror();
      return api;
    }
#define X(name)                                                          \
  api->name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name)); \
  if (api->name == nullptr) api->error += std::string(" missing ") + #name;
    ALKAID_DUCKDB_FUNCTIONS(X)
#undef X
    return api;
  }
};

}  // namespace alkaid::c_data
