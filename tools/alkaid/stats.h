// Per-column statistics for `alkaid stats`, gathered batch by batch in
// fixed memory per column.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "alkaid/table.h"

namespace alkaid::cli {

struct ColumnStats {
  int64_t values = 0;  // non-null
  int64_t nulls = 0;
  bool ordered = false;  // min and max apply
  bool numeric = false;  // mean applies
  long double min = 0, max = 0, sum = 0;
  std::string min_text, max_text;
};

class StatsCollector {
 public:
  explicit StatsCollector(const Schema& schema);
  void Add(const RecordBatch& batch);
  // The table (column, type, nulls, min, max, mean) and the totals line.
  void Print(std::ostream* out) const;

 private:
  SchemaPtr schema_;
  std::vector<ColumnStats> columns_;
  int64_t rows_ = 0, batches_ = 0;
};

}  // namespace alkaid::cli
