// What every part of one read shares: the memory budget of the read, the options that
// reach the page level, and the names errors carry. Internal to the parquet module.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet::internal {

/// Bytes one read (a table, a row group, one row group of a batch reader) may decode.
/// Sizes are charged before the memory is allocated, from any thread; nothing is given
/// back until the read ends (the budget bounds the whole read, not its peak).
class ReadBudget {
 public:
  explicit ReadBudget(int64_t limit) : limit_(limit) {}

  /// Charges `bytes` or fails with OutOfMemory naming ReaderOptions::memory_budget and
  /// `what` (e.g. "row group 2, column a.b, page 7: decompressed page").
  Status Charge(int64_t bytes, const std::string& what) {
    if (bytes < 0) return Status::Invalid(what, ": negative size ", bytes);
    int64_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
    if (bytes > limit_ || before > limit_ - bytes) {
      return Status::OutOfMemory(what, " needs ", bytes, " bytes, past the read's memory "
                                 "budget of ", limit_, " bytes (", before, " already used; "
                                 "ReaderOptions::memory_budget)");
    }
    return Status::OK();
  }
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }

 private:
  int64_t limit_;
  std::atomic<int64_t> used_{0};
};

/// Settings of the page and column readers (from ReaderOptions).
struct ColumnReadSettings {
  bool verify_checksums = true;
  thrift::ThriftLimits limits;
  MemoryPool* pool = default_memory_pool();
};

/// Names a column chunk in messages: "<file>: row group <g>, column <path>".
struct ChunkName {
  std::string file;
  int row_group = 0;
  std::string column;
  std::string ToString() const {
    return file + ": row group " + std::to_string(row_group) + ", column " + column;
  }
};

}  // namespace alkaid::parquet::internal
