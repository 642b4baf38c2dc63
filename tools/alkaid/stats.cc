#include "stats.h"

#include <cmath>
#include <sstream>

#include "alkaid/pretty_print.h"
#include "alkaid/visit_type.h"
#include "table_printer.h"

namespace alkaid::cli {

namespace {

// Widest cell of the stats table.
constexpr int64_t kStatsCell = 40;

struct StatsVisitor {
  const ArrayData& data;
  ColumnStats* stats;

  template <typename T>
  Status Visit(const T& type) {
    if constexpr (has_c_type_v<T>) {
      using C = typename T::c_type;
      if constexpr (std::is_arithmetic_v<C> && !std::is_same_v<C, bool> &&
                    !std::is_same_v<T, HalfFloatType>) {
        const C* values = data.GetValues<C>(1);
        const bool numeric = type.is_integer() || type.is_floating();
        int64_t min_at = -1, max_at = -1;
        for (int64_t i = 0; i < data.length; ++i) {
          if (data.null_count != 0 && data.IsNull(i)) continue;
          long double v = static_cast<long double>(values[i]);
          if (std::isnan(v)) continue;
          if (numeric) stats->sum += v;
          if (!stats->ordered || v < stats->min) stats->min = v, min_at = i;
          if (!stats->ordered || v > stats->max) stats->max = v, max_at = i;
          stats->ordered = true;
        }
        stats->numeric = numeric;
        if (min_at >= 0) stats->min_text = FormatValue(data, min_at);
        if (max_at >= 0) stats->max_text = FormatValue(data, max_at);
      }
    }
    return Status::OK();
  }
};

}  // namespace

StatsCollector::StatsCollector(const Schema& schema)
    : schema_(std::make_shared<Schema>(schema)),
      columns_(static_cast<size_t>(schema.num_fields())) {}

void StatsCollector::Add(const RecordBatch& batch) {
  ++batches_;
  rows_ += batch.num_rows();
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& data = *batch.column_data(c);
    ColumnStats& s = columns_[static_cast<size_t>(c)];
    int64_t nulls = data.GetNullCount();
    s.nulls += nulls;
    s.values += data.length - nulls;
    StatsVisitor visitor{data, &s};
    (void)VisitTypeInline(*data.type, &visitor);
  }
}

void StatsCollector::Print(std::ostream* out) const {
  std::vector<std::vector<std::string>> table = {{"column", "type", "nulls", "min", "max", "mean"}};
  for (int c = 0; c < schema_->num_fields(); ++c) {
    const ColumnStats& s = columns_[static_cast<size_t>(c)];
    std::ostringstream mean;
    if (s.numeric && s.values > 0) mean << static_cast<double>(s.sum / s.values);
    table.push_back({schema_->field(c)->name(), schema_->field(c)->type()->ToString(),
                     std::to_string(s.nulls), s.ordered ? s.min_text : "",
                     s.ordered ? s.max_text : "", mean.str()});
  }
  std::vector<int64_t> widths(table[0].size(), 0);
  for (auto& row : table)
    for (size_t i = 0; i < row.size(); ++i) {
      row[i] = ClipToWidth(row[i], kStatsCell);
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  for (const auto& row : table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line.append(static_cast<size_t>(widths[i] - DisplayWidth(row[i]) + 2), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    *out << line << "\n";
  }
  *out << rows_ << (rows_ == 1 ? " row, " : " rows, ") << batches_
       << (batches_ == 1 ? " batch\n" : " batches\n");
}

}  // namespace alkaid::cli
