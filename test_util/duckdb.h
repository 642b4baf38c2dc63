// Test-only: DuckDB loaded in-process (libduckdb.so through dlopen, see
// src/c_data/duckdb_api.h) with one in-memory database: Arrow streams in through
// duckdb_arrow_scan, query results out as Arrow. Shared by the C Data tests and the Parquet
// tests and benchmarks. The library comes from $ALKAID_DUCKDB_LIB or the ALKAID_DUCKDB_LIB
// definition the build gives (.ci/install-duckdb); without it users skip, unless
// ALKAID_REQUIRE_DUCKDB=1 (CI) makes that a failure.
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/c_data/bridge.h"
#include "alkaid/record_batch_reader.h"
#include "src/c_data/duckdb_api.h"

namespace alkaid::c_data {
// ---------------------------------------------------------------------------
// Loading DuckDB

#define ALKAID_REQUIRE_DUCKDB(api)                                                          \
  ::alkaid::c_data::DuckApi* api = ::alkaid::c_data::DuckApi::Get(ALKAID_DUCKDB_LIB);       \
  if (!api->error.empty()) {                                                                \
    const char* required = std::getenv("ALKAID_REQUIRE_DUCKDB");                            \
    if (required && std::string(required) == "1") {                                        \
      FAIL() << "libduckdb.so is required but did not load from " << api->path << ": "      \
             << api->error;                                                                 \
    }                                                                                       \
    GTEST_SKIP() << "SKIPPED: libduckdb.so not found (" << api->path << ": " << api->error  \
                 << "); run .ci/install-duckdb or set ALKAID_DUCKDB_LIB";                   \
  }

// One in-memory database and connection; exported streams live until the
// database is closed (DuckDB never releases them: the producer does).
class Database {
 public:
  explicit Database(DuckApi* api) : api_(api) {
    ok_ = api_->duckdb_open(nullptr, &db_) == DuckDBSuccess &&
          api_->duckdb_connect(db_, &con_) == DuckDBSuccess;
  }
  ~Database() {
    if (con_ != nullptr) api_->duckdb_disconnect(&con_);
    if (db_ != nullptr) api_->duckdb_close(&db_);
    for (auto& s : streams_) {
      if (s->release != nullptr) s->release(s.get());
    }
  }
  bool ok() const { return ok_; }

  // DuckDB's verdict on a schema: empty when accepted, else its message.
  std::string CheckSchema(const Schema& schema) {
    ArrowSchema c;
    Status st = ExportSchema(schema, &c);
    if (!st.ok()) return "alkaid export failed: " + st.ToString();
    duckdb_arrow_converted_schema converted = nullptr;
    duckdb_error_data err = api_->duckdb_schema_from_arrow(con_, &c, &converted);
    std::string message = TakeError(err);
    if (converted != nullptr) api_->duckdb_destroy_arrow_converted_schema(&converted);
    if (c.release != nullptr) c.release(&c);
    return message;
  }

  // Registers a fresh view `name` over the batches (DuckDB's views are
  // one-shot, so each query gets its own).
  Status Register(const std::string& name, const SchemaPtr& schema,
                  const std::vector<RecordBatchPtr>& batches) {
    ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make(batches, schema));
    streams_.push_back(std::make_unique<ArrowArrayStream>());
    ArrowArrayStream* stream = streams_.back().get();
    ALKAID_RETURN_NOT_OK(ExportRecordBatchReader(std::move(reader), stream));
    if (api_->duckdb_arrow_scan(con_, name.c_str(), reinterpret_cast<duckdb_arrow_stream>(stream)) !=
        DuckDBSuccess) {
      return Status::Invalid("duckdb_arrow_scan failed");
    }
    return Status::OK();
  }

  Status Execute(const std::string& sql) {
    duckdb_result result;
    std::memset(&result, 0, sizeof(result));
    Status st;
    if (api_->duckdb_query(con_, sql.c_str(), &result) != DuckDBSuccess) {
      const char* e = api_->duckdb_result_error(&result);
      st = Status::Invalid(e ? e : "query failed");
    }
    api_->duckdb_destroy_result(&result);
    return st;
  }

  // Runs `sql` and imports its result as Arrow batches under one schema.
  Status QueryArrow(const std::string& sql, SchemaPtr* out_schema,
                    std::vector<RecordBatchPtr>* out_batches) {
    duckdb_result result;
    std::memset(&result, 0, sizeof(result));
    if (api_->duckdb_query(con_, sql.c_str(), &result) != DuckDBSuccess) {
      const char* e = api_->duckdb_result_error(&result);
      Status st = Status::Invalid(e ? e : "query failed");
      api_->duckdb_destroy_result(&result);
      return st;
    }
    duckdb_arrow_options options = api_->duckdb_result_get_arrow_options(&result);
    idx_t n = api_->duckdb_column_count(&result);
    std::vector<duckdb_logical_type> types(n);
    std::vector<const char*> names(n);
    for (idx_t i = 0; i < n; ++i) {
      types[i] = api_->duckdb_column_logical_type(&result, i);
      names[i] = api_->duckdb_column_name(&result, i);
    }
    ArrowSchema c_schema;
    std::memset(&c_schema, 0, sizeof(c_schema));
    Status st = StatusOf(api_->duckdb_to_arrow_schema(options, types.data(), names.data(), n,
                                                       &c_schema));
    if (st.ok()) {
      auto schema = ImportSchema(&c_schema);
      st = schema.status();
      if (st.ok()) *out_schema = *schema;
    } else if (c_schema.release != nullptr) {
      c_schema.release(&c_schema);
    }
    while (st.ok()) {
      duckdb_data_chunk chunk = api_->duckdb_fetch_chunk(result);
      if (chunk == nullptr) break;
      ArrowArray c_array;
      std::memset(&c_array, 0, sizeof(c_array));
      st = StatusOf(api_->duckdb_data_chunk_to_arrow(options, chunk, &c_array));
      api_->duckdb_destroy_data_chunk(&chunk);
      if (!st.ok()) break;
      auto batch = ImportRecordBatch(&c_array, *out_schema);
      st = batch.status();
      if (st.ok()) out_batches->push_back(*batch);
    }
    for (auto& t : types) api_->duckdb_destroy_logical_type(&t);
    api_->duckdb_destroy_arrow_options(&options);
    api_->duckdb_destroy_result(&result);
    return st;
  }

 private:
  std::string TakeError(duckdb_error_data err) {
    if (err == nullptr) return "";
    std::string message;
    if (api_->duckdb_error_data_has_error(err)) {
      const char* m = api_->duckdb_error_data_message(err);
      message = m && *m ? m : "unknown DuckDB error";
    }
    api_->duckdb_destroy_error_data(&err);
    return message;
  }
  Status StatusOf(duckdb_error_data err) {
    std::string m = TakeError(err);
    return m.empty() ? Status::OK() : Status::Invalid(m);
  }

  DuckApi* api_;
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
  bool ok_ = false;
  std::vector<std::unique_ptr<ArrowArrayStream>> streams_;
};


}  // namespace alkaid::c_data
