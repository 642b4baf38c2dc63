#include "stats.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

#include "alkaid/bitmap.h"
#include "alkaid/pretty_print.h"
#include "alkaid/visit_type.h"
#include "table_printer.h"

namespace alkaid::cli {

namespace {

// Widest cell of the stats table.
constexpr int64_t kStatsCell = 40;

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

// Signed little-endian integers of `width` bytes (decimals), compared.
int CompareDecimal(const uint8_t* a, const uint8_t* b, int width) {
  if (width == 4) {
    int32_t x, y;
    std::memcpy(&x, a, 4);
    std::memcpy(&y, b, 4);
    return (x > y) - (x < y);
  }
  for (int w = width / 8 - 1; w >= 0; --w) {
    uint64_t x, y;
    std::memcpy(&x, a + 8 * w, 8);
    std::memcpy(&y, b + 8 * w, 8);
    if (x == y) continue;
    // The top word carries the sign; the words below it are unsigned.
    if (w == width / 8 - 1) return static_cast<int64_t>(x) < static_cast<int64_t>(y) ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

struct StatsVisitor {
  const ArrayData& data;
  ColumnStats* stats;
  int64_t min_at = -1, max_at = -1;  // rows of this batch that set min or max

  bool Skip(int64_t i) const { return data.null_count != 0 && data.IsNull(i); }

  // Strings and binary: bytewise order of the first kStatsKeyBytes bytes.
  void AddBytes(int64_t i, const uint8_t* bytes, int64_t size) {
    const int64_t key_size = std::min(size, kStatsKeyBytes);
    std::string_view key(reinterpret_cast<const char*>(bytes), static_cast<size_t>(key_size));
    stats->distinct.Add(HashBytes(bytes, key_size) ^ Mix(static_cast<uint64_t>(size)));
    if (!stats->ordered || key < stats->min_key) stats->min_key = key, min_at = i;
    if (!stats->ordered || key > stats->max_key) stats->max_key = key, max_at = i;
    stats->ordered = true;
  }

  template <typename T>
  Status Visit(const T& type) {
    if constexpr (is_base_binary_v<T>) {
      using O = typename T::offset_type;
      const O* offsets = data.GetValues<O>(1);
      const uint8_t* base = data.buffers[2] ? data.buffers[2]->data() : nullptr;
      stats->hashed = true;
      for (int64_t i = 0; i < data.length; ++i) {
        if (!Skip(i)) AddBytes(i, base + offsets[i], static_cast<int64_t>(offsets[i + 1] - offsets[i]));
      }
    } else if constexpr (is_binary_view_v<T>) {
      const uint8_t* views = data.buffers[1]->data() + data.offset * 16;
      stats->hashed = true;
      for (int64_t i = 0; i < data.length; ++i) {
        if (Skip(i)) continue;
        BinaryViewValue view;
        std::memcpy(&view, views + 16 * i, sizeof(view));
        const uint8_t* bytes =
            view.is_inline() ? views + 16 * i + 4
                             : data.buffers[static_cast<size_t>(2 + view.ref.buffer_index)]->data() +
                                   view.ref.offset;
        AddBytes(i, bytes, view.size());
      }
    } else if constexpr (std::is_same_v<T, FixedSizeBinaryType>) {
      const int width = type.byte_width();
      const uint8_t* values = data.buffers[1] ? data.buffers[1]->data() + data.offset * width : nullptr;
      stats->hashed = true;
      for (int64_t i = 0; i < data.length; ++i) {
        if (!Skip(i)) AddBytes(i, values + i * width, width);
      }
    } else if constexpr (is_decimal_v<T>) {
      const int width = type.byte_width();
      const uint8_t* values = data.buffers[1]->data() + data.offset * width;
      stats->hashed = true;
      for (int64_t i = 0; i < data.length; ++i) {
        if (Skip(i)) continue;
        const uint8_t* v = values + i * width;
        stats->distinct.Add(HashBytes(v, width));
        auto at = [&](const std::string& key) { return reinterpret_cast<const uint8_t*>(key.data()); };
        if (!stats->ordered || CompareDecimal(v, at(stats->min_key), width) < 0)
          stats->min_key.assign(reinterpret_cast<const char*>(v), static_cast<size_t>(width)), min_at = i;
        if (!stats->ordered || CompareDecimal(v, at(stats->max_key), width) > 0)
          stats->max_key.assign(reinterpret_cast<const char*>(v), static_cast<size_t>(width)), max_at = i;
        stats->ordered = true;
      }
    } else if constexpr (std::is_same_v<T, BooleanType>) {
      stats->hashed = true;
      for (int64_t i = 0; i < data.length; ++i) {
        if (!Skip(i)) stats->distinct.Add(Mix(1 + bit_util::GetBit(data.buffers[1]->data(), data.offset + i)));
      }
    } else if constexpr (has_c_type_v<T>) {
      using C = typename T::c_type;
      if constexpr (std::is_arithmetic_v<C> && !std::is_same_v<C, bool>) {
        const C* values = data.GetValues<C>(1);
        constexpr bool orderable = !std::is_same_v<T, HalfFloatType>;
        const bool numeric = orderable && (type.is_integer() || type.is_floating());
        stats->hashed = true;
        for (int64_t i = 0; i < data.length; ++i) {
          if (Skip(i)) continue;
          stats->distinct.Add(HashBytes(reinterpret_cast<const uint8_t*>(values + i), sizeof(C)));
          if constexpr (orderable) {
            long double v = static_cast<long double>(values[i]);
            if (std::isnan(v)) continue;
            if (numeric) stats->sum += v;
            if (!stats->ordered || v < stats->min) stats->min = v, min_at = i;
            if (!stats->ordered || v > stats->max) stats->max = v, max_at = i;
            stats->ordered = true;
          }
        }
        stats->numeric = numeric;
      }
    }
    return Status::OK();
  }
};

}  // namespace

void DistinctEstimate::Add(uint64_t hash) {
  const size_t index = static_cast<size_t>(hash >> (64 - kBits));
  // Position of the first one bit in the rest of the hash, from 1.
  const uint64_t rest = (hash << kBits) | (uint64_t{1} << (kBits - 1));
  const uint8_t rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  if (rank > registers_[index]) registers_[index] = rank;
}

int64_t DistinctEstimate::Estimate() const {
  constexpr double m = double{1 << kBits};
  double sum = 0;
  int zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  // Few values: count the empty registers instead (linear counting).
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);
  return std::llround(estimate);
}

uint64_t HashBytes(const uint8_t* data, int64_t size) {
  uint64_t h = Mix(static_cast<uint64_t>(size) + 0x9E3779B97F4A7C15ULL);
  int64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = Mix(h ^ word) + 0x9E3779B97F4A7C15ULL;
  }
  if (i < size) {
    uint64_t word = 0;
    std::memcpy(&word, data + i, static_cast<size_t>(size - i));
    h = Mix(h ^ word);
  }
  return Mix(h);
}

StatsCollector::StatsCollector(const Schema& schema)
    : schema_(std::make_shared<Schema>(schema)),
      columns_(static_cast<size_t>(schema.num_fields())) {}

void StatsCollector::Add(const RecordBatch& batch) { Add(batch, {}); }

void StatsCollector::Add(const RecordBatch& batch, const std::vector<int>& columns) {
  ++batches_;
  rows_ += batch.num_rows();
  for (int i = 0; i < batch.num_columns(); ++i) {
    const ArrayData& data = *batch.column_data(i);
    const int c = columns.empty() ? i : columns[static_cast<size_t>(i)];
    ColumnStats& s = columns_[static_cast<size_t>(c)];
    int64_t nulls = data.GetNullCount();
    s.nulls += nulls;
    s.values += data.length - nulls;
    AddColumn(&s, data);
  }
}

void StatsCollector::AddColumn(ColumnStats* s, const ArrayData& data) {
  StatsVisitor visitor{data, s};
  (void)VisitTypeInline(*data.type, &visitor);
  // Formatted once a batch, and only as far as the cell shows.
  bool cut = false;
  if (visitor.min_at >= 0) {
    s->min_text = FormatCell(data, visitor.min_at, kStatsCell, &cut);
    if (cut) s->min_text = ClipToWidth(s->min_text, kStatsCell, true);
  }
  if (visitor.max_at >= 0) {
    s->max_text = FormatCell(data, visitor.max_at, kStatsCell, &cut);
    if (cut) s->max_text = ClipToWidth(s->max_text, kStatsCell, true);
  }
}

void StatsCollector::AddFromMetadata(int c, int64_t nulls, int64_t values,
                                     const ArrayData* bounds) {
  ColumnStats& s = columns_[static_cast<size_t>(c)];
  s.nulls += nulls;
  s.values += values;
  s.from_metadata = true;
  // The same ordering and formatting as read values get; what the bounds
  // alone cannot tell (distinct values, the mean) is not shown.
  if (bounds != nullptr) AddColumn(&s, *bounds);
  s.hashed = s.numeric = false;
}

void StatsCollector::Print(std::ostream* out) const {
  int from_metadata = 0;
  for (const ColumnStats& s : columns_) from_metadata += s.from_metadata;
  std::vector<std::vector<std::string>> table = {
      {"column", "type", "nulls", "distinct", "min", "max", "mean"}};
  if (from_metadata > 0) table[0].push_back("source");
  for (int c = 0; c < schema_->num_fields(); ++c) {
    const ColumnStats& s = columns_[static_cast<size_t>(c)];
    std::ostringstream mean;
    if (s.numeric && s.values > 0) mean << static_cast<double>(s.sum / s.values);
    std::string distinct;
    if (s.hashed) distinct = "~" + std::to_string(std::min(s.distinct.Estimate(), s.values));
    table.push_back({schema_->field(c)->name(), schema_->field(c)->type()->ToString(),
                     std::to_string(s.nulls), distinct, s.ordered ? s.min_text : "",
                     s.ordered ? s.max_text : "", mean.str()});
    if (from_metadata > 0) table.back().push_back(s.from_metadata ? "footer" : "pages");
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
       << (batches_ == 1 ? " batch" : " batches");
  if (from_metadata > 0) {
    *out << "; nulls, min and max of " << from_metadata << " of " << columns_.size()
         << (columns_.size() == 1 ? " column" : " columns")
         << " from the footer's statistics (--exact reads the pages)";
  }
  *out << "\n";
}

}  // namespace alkaid::cli
