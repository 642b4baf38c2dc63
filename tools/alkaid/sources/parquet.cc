// Apache Parquet (PAR1 magic): batches streamed a row group at a time by
// alkaid::parquet; rows counted, the last rows found and column statistics
// answered from the footer.
#include <cstring>
#include <limits>
#include <map>

#include "alkaid/parquet/reader.h"
#include "source.h"

namespace alkaid::cli {

namespace {

using parquet::ColumnDescriptor;
using parquet::LogicalType;
using parquet::PhysicalType;

// Nanoseconds in one tick of a time unit, or in a day (dates).
constexpr int64_t kNanosPerDay = int64_t{86400} * 1000 * 1000 * 1000;
int64_t NanosPer(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1000 * 1000 * 1000;
    case TimeUnit::kMilli: return 1000 * 1000;
    case TimeUnit::kMicro: return 1000;
    case TimeUnit::kNano: return 1;
  }
  return 0;
}

// Footer statistics bounds (PLAIN bytes of a leaf's physical type) as values
// of the column's Arrow type, laid out as Arrow stores them, so that `stats`
// orders and prints them exactly as it does values it reads. Types whose
// conversion is not certain to be the reader's are refused (the column is then
// read).
class BoundsBuilder {
 public:
  BoundsBuilder(const ColumnDescriptor& leaf, DataTypePtr type)
      : leaf_(leaf), type_ptr_(std::move(type)), type_(*type_ptr_) {}

  // Whether the bound `bytes` was taken.
  bool Append(const std::string& bytes) {
    ++length_;
    switch (type_.id()) {
      case TypeId::kInt8: return Integer<int8_t>(bytes);
      case TypeId::kInt16: return Integer<int16_t>(bytes);
      case TypeId::kInt32: return Integer<int32_t>(bytes);
      case TypeId::kInt64: return Integer<int64_t>(bytes);
      case TypeId::kUInt8: return Integer<uint8_t>(bytes);
      case TypeId::kUInt16: return Integer<uint16_t>(bytes);
      case TypeId::kUInt32: return Integer<uint32_t>(bytes);
      case TypeId::kUInt64: return Integer<uint64_t>(bytes);
      case TypeId::kFloat: return Floating<float>(bytes);
      case TypeId::kDouble: return Floating<double>(bytes);
      case TypeId::kDate32: return Ticks<int32_t>(bytes, LogicalType::Kind::kDate, kNanosPerDay);
      case TypeId::kDate64: return Ticks<int64_t>(bytes, LogicalType::Kind::kDate, NanosPer(TimeUnit::kMilli));
      case TypeId::kTime32: return Ticks<int32_t>(bytes, LogicalType::Kind::kTime, UnitNanos());
      case TypeId::kTime64: return Ticks<int64_t>(bytes, LogicalType::Kind::kTime, UnitNanos());
      case TypeId::kTimestamp:
        return Ticks<int64_t>(bytes, LogicalType::Kind::kTimestamp, UnitNanos());
      case TypeId::kDuration: return Ticks<int64_t>(bytes, LogicalType::Kind::kNone, UnitNanos());
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: return Decimal(bytes);
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
        if (leaf_.physical_type != PhysicalType::kByteArray) return false;
        offsets_.push_back(static_cast<int64_t>(values_.size()));
        values_ += bytes;
        return true;
      case TypeId::kFixedSizeBinary:
        if (leaf_.physical_type != PhysicalType::kFixedLenByteArray ||
            static_cast<int64_t>(bytes.size()) != type_.byte_width())
          return false;
        values_ += bytes;
        return true;
      default: return false;
    }
  }

  Result<ArrayDataPtr> Finish() {
    const bool offsets = !offsets_.empty() || type_.id() == TypeId::kString ||
                         type_.id() == TypeId::kBinary || type_.id() == TypeId::kLargeString ||
                         type_.id() == TypeId::kLargeBinary;
    if (!offsets) {
      ALKAID_ASSIGN_OR_RAISE(auto fixed, Copy(values_));
      return ArrayData::Make(type_ptr_, length_, {nullptr, fixed}, 0);
    }
    offsets_.push_back(static_cast<int64_t>(values_.size()));
    std::string raw;
    const bool large = type_.id() == TypeId::kLargeString || type_.id() == TypeId::kLargeBinary;
    if (!large && values_.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
      return Status::CapacityError("statistics bounds too long for 32-bit offsets");
    for (int64_t o : offsets_) {
      if (large) {
        raw.append(reinterpret_cast<const char*>(&o), 8);
      } else {
        int32_t o32 = static_cast<int32_t>(o);
        raw.append(reinterpret_cast<const char*>(&o32), 4);
      }
    }
    ALKAID_ASSIGN_OR_RAISE(auto offset_buffer, Copy(raw));
    ALKAID_ASSIGN_OR_RAISE(auto data_buffer, Copy(values_));
    return ArrayData::Make(type_ptr_, length_, {nullptr, offset_buffer, data_buffer},
                           0);
  }

 private:
  static Result<BufferPtr> Copy(const std::string& bytes) {
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(static_cast<int64_t>(bytes.size())));
    if (!bytes.empty()) std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
    return BufferPtr(std::move(buffer));
  }
  template <typename T>
  void Put(T v) {
    values_.append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  int64_t UnitNanos() const {
    return NanosPer(static_cast<const TemporalUnitType&>(type_).unit());
  }

  // The stored integer, read as the leaf's signedness says (unsigned
  // INTEGER annotations are ordered as unsigned in the footer).
  bool Stored(const std::string& bytes, bool* is_unsigned, uint64_t* bits) const {
    const LogicalType& logical = leaf_.logical_type;
    *is_unsigned = logical.kind == LogicalType::Kind::kInteger && !logical.is_signed;
    if (leaf_.physical_type == PhysicalType::kInt32 && bytes.size() == 4) {
      int32_t v;
      std::memcpy(&v, bytes.data(), 4);
      *bits = *is_unsigned ? uint64_t{static_cast<uint32_t>(v)}
                           : static_cast<uint64_t>(int64_t{v});
      return true;
    }
    if (leaf_.physical_type == PhysicalType::kInt64 && bytes.size() == 8) {
      std::memcpy(bits, bytes.data(), 8);
      return true;
    }
    return false;
  }

  template <typename T>
  bool Integer(const std::string& bytes) {
    const auto kind = leaf_.logical_type.kind;
    if (kind != LogicalType::Kind::kNone && kind != LogicalType::Kind::kInteger) return false;
    bool is_unsigned;
    uint64_t bits;
    if (!Stored(bytes, &is_unsigned, &bits)) return false;
    if (is_unsigned) {
      if (bits > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    } else {
      const auto v = static_cast<int64_t>(bits);
      if constexpr (std::is_unsigned_v<T>) {
        if (v < 0 || static_cast<uint64_t>(v) > std::numeric_limits<T>::max()) return false;
      } else {
        if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
      }
    }
    Put(static_cast<T>(bits));
    return true;
  }

  // Zero is refused: the footer's -0.0 or +0.0 need not be the one the
  // data shows first.
  template <typename T>
  bool Floating(const std::string& bytes) {
    double v;
    if (leaf_.physical_type == PhysicalType::kFloat && bytes.size() == 4) {
      float f;
      std::memcpy(&f, bytes.data(), 4);
      v = f;
    } else if (leaf_.physical_type == PhysicalType::kDouble && bytes.size() == 8 &&
               std::is_same_v<T, double>) {
      std::memcpy(&v, bytes.data(), 8);
    } else {
      return false;
    }
    if (v == 0 || v != v) return false;
    Put(static_cast<T>(v));
    return true;
  }

  // Dates, times, timestamps and durations: the stored count in the leaf's
  // unit, converted to the Arrow type's unit (refused unless exact).
  template <typename T>
  bool Ticks(const std::string& bytes, LogicalType::Kind kind, int64_t arrow_nanos) {
    const LogicalType& logical = leaf_.logical_type;
    if (logical.kind != kind) return false;
    int64_t leaf_nanos = arrow_nanos;
    if (kind == LogicalType::Kind::kDate) leaf_nanos = kNanosPerDay;
    if (kind == LogicalType::Kind::kTime || kind == LogicalType::Kind::kTimestamp)
      leaf_nanos = NanosPer(logical.unit);
    bool is_unsigned;
    uint64_t bits;
    if (!Stored(bytes, &is_unsigned, &bits) || is_unsigned || arrow_nanos <= 0) return false;
    int64_t v = static_cast<int64_t>(bits);
    if (leaf_nanos >= arrow_nanos) {
      if (__builtin_mul_overflow(v, leaf_nanos / arrow_nanos, &v)) return false;
    } else {
      const int64_t step = arrow_nanos / leaf_nanos;
      if (v % step != 0) return false;
      v /= step;
    }
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
    Put(static_cast<T>(v));
    return true;
  }

  // Decimals: INT32/INT64 unscaled values, or big-endian two's complement
  // bytes, sign-extended to the Arrow width (little-endian).
  bool Decimal(const std::string& bytes) {
    const LogicalType& logical = leaf_.logical_type;
    const auto& decimal = static_cast<const DecimalType&>(type_);
    if (logical.kind != LogicalType::Kind::kDecimal || logical.precision != decimal.precision() ||
        logical.scale != decimal.scale())
      return false;
    const int width = type_.byte_width();
    std::string value(static_cast<size_t>(width), '\0');
    if (leaf_.physical_type == PhysicalType::kInt32 || leaf_.physical_type == PhysicalType::kInt64) {
      bool is_unsigned;
      uint64_t bits;
      if (!Stored(bytes, &is_unsigned, &bits) || is_unsigned) return false;
      const auto v = static_cast<int64_t>(bits);
      if (width == 4 && (v < std::numeric_limits<int32_t>::min() ||
                         v > std::numeric_limits<int32_t>::max()))
        return false;
      std::memset(value.data(), v < 0 ? 0xFF : 0, value.size());
      std::memcpy(value.data(), &v, static_cast<size_t>(std::min(width, 8)));
    } else {
      if (bytes.empty() || bytes.size() > static_cast<size_t>(width)) return false;
      const bool negative = static_cast<uint8_t>(bytes[0]) & 0x80;
      std::memset(value.data(), negative ? 0xFF : 0, value.size());
      for (size_t i = 0; i < bytes.size(); ++i) value[i] = bytes[bytes.size() - 1 - i];
    }
    values_ += value;
    return true;
  }

  const ColumnDescriptor& leaf_;
  DataTypePtr type_ptr_;
  const DataType& type_;
  int64_t length_ = 0;
  std::string values_;
  std::vector<int64_t> offsets_;
};

// Types whose stats show nulls only (no min or max): the footer's null counts
// answer them whole.
bool UnorderedInStats(const DataType& type) {
  return type.id() == TypeId::kNull || type.id() == TypeId::kBool ||
         type.id() == TypeId::kDictionary;
}

// One column from the footer: every row group must state its null count and,
// where it has values, exact bounds in an order known to be right (the
// reader's Statistics applies the format's rules; bounds of byte arrays from
// the deprecated fields are not trusted).
Result<std::optional<ColumnSummary>> SummarizeColumn(const parquet::FileMetaData& meta,
                                                     int leaf_index, const DataTypePtr& type) {
  const ColumnDescriptor& leaf = meta.schema().column(leaf_index);
  const bool unordered = UnorderedInStats(*type);
  BoundsBuilder bounds(leaf, type);
  ColumnSummary summary;
  bool any_bounds = false;
  for (int g = 0; g < meta.num_row_groups(); ++g) {
    const parquet::RowGroupMetaData group = meta.row_group(g);
    if (leaf_index >= group.num_columns()) return std::nullopt;
    const parquet::ColumnChunkMetaData chunk = group.column(leaf_index);
    if (chunk.is_encrypted() || !chunk.file_path().empty()) return std::nullopt;
    const parquet::Statistics stats = chunk.statistics();
    const int64_t rows = group.num_rows();
    if (!stats.null_count || *stats.null_count > rows || chunk.num_values() != rows)
      return std::nullopt;
    summary.nulls += *stats.null_count;
    summary.values += rows - *stats.null_count;
    if (unordered || *stats.null_count == rows) continue;
    if (!stats.has_min_max() || !stats.is_min_exact.value_or(true) ||
        !stats.is_max_exact.value_or(true))
      return std::nullopt;
    const bool byte_array = leaf.physical_type == PhysicalType::kByteArray ||
                            leaf.physical_type == PhysicalType::kFixedLenByteArray;
    const bool unsigned_bytes = leaf.logical_type.kind == LogicalType::Kind::kString ||
                                leaf.logical_type.kind == LogicalType::Kind::kEnum ||
                                leaf.logical_type.kind == LogicalType::Kind::kJson ||
                                leaf.logical_type.kind == LogicalType::Kind::kNone;
    // Signed byte arrays (decimals) may have bounds from the deprecated fields,
    // which old writers ordered bytewise: trusted only when the file says it
    // wrote the newer ones (their exactness).
    if (byte_array && !unsigned_bytes && !stats.is_min_exact) return std::nullopt;
    if (!bounds.Append(*stats.min) || !bounds.Append(*stats.max)) return std::nullopt;
    any_bounds = true;
  }
  if (any_bounds) {
    ALKAID_ASSIGN_OR_RAISE(summary.bounds, bounds.Finish());
  }
  return summary;
}

int Sniff(std::string_view head, const std::string&) {
  return head.substr(0, 4) == "PAR1" ? 100 : 0;
}

class ParquetInput final : public Input {
 public:
  static Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
    std::unique_ptr<ParquetInput> in(new ParquetInput());
    // A Parquet file is read from its footer: standard input is held whole.
    ALKAID_ASSIGN_OR_RAISE(auto file, bytes->RandomAccess());
    ALKAID_ASSIGN_OR_RAISE(in->size_, file->GetSize());
    parquet::ReaderOptions reader_options;
    reader_options.columns = options.columns;
    reader_options.num_threads = options.text.csv.num_threads;  // --threads (0: every core)
    ALKAID_ASSIGN_OR_RAISE(in->file_, parquet::FileReader::Open(std::move(file), reader_options));
    in->schema_ = in->file_->projected_schema();
    in->ids_ = DictionaryIds::AssignSequential(*in->schema_);
    return std::unique_ptr<Input>(std::move(in));
  }
  std::string Describe() const override {
    int n = file_->num_row_groups();
    return "Parquet file, " + std::to_string(n) + (n == 1 ? " row group, " : " row groups, ") +
           std::to_string(file_->metadata().num_rows()) + " rows";
  }
  Result<RecordBatchPtr> Next() override {
    if (reader_ == nullptr) {
      if (selected_.empty()) {
        ALKAID_ASSIGN_OR_RAISE(reader_, file_->GetRecordBatchReader());
      } else {
        ALKAID_ASSIGN_OR_RAISE(reader_, file_->GetRecordBatchReader({}, selected_));
      }
    }
    return reader_->Next();
  }
  // From the footer: no page is read.
  Result<int64_t> CountRows() override { return file_->CountRows(); }
  // Top-level columns of one leaf each (not lists, structs or maps), from the
  // footer's column-chunk statistics.
  Result<std::vector<std::optional<ColumnSummary>>> Summaries() override {
    const parquet::FileMetaData& meta = file_->metadata();
    std::map<std::string, int> names;
    for (const auto& field : schema_->fields()) ++names[field->name()];
    std::vector<std::optional<ColumnSummary>> out;
    for (const auto& field : schema_->fields()) {
      int leaf = meta.schema().FindColumn(field->name());
      if (names[field->name()] != 1 || leaf < 0 || meta.schema().column(leaf).path.size() != 1 ||
          meta.schema().column(leaf).max_repetition_level != 0) {
        out.emplace_back();
        continue;
      }
      ALKAID_ASSIGN_OR_RAISE(auto summary, SummarizeColumn(meta, leaf, field->type()));
      out.push_back(std::move(summary));
    }
    return out;
  }
  bool SelectColumns(const std::vector<int>& columns) override {
    if (reader_ != nullptr) return false;
    selected_.clear();
    for (int c : columns) selected_.push_back(schema_->field(c)->name());
    return true;
  }
  // Only the last row groups that hold the rows (counted from the footer).
  Result<std::vector<RecordBatchPtr>> LastRows(int64_t n, int64_t* read, int64_t* total) override {
    const FileMetaData& meta = file_->metadata();
    std::vector<int> groups;
    int64_t rows = 0;
    for (int i = meta.num_row_groups() - 1; i >= 0 && rows < n; --i) {
      groups.insert(groups.begin(), i);
      rows += meta.row_group(i).num_rows();
    }
    *total = meta.num_rows();
    if (groups.empty()) {
      *read = 0;
      return std::vector<RecordBatchPtr>();
    }
    ALKAID_ASSIGN_OR_RAISE(reader_, file_->GetRecordBatchReader(groups, {}));
    int64_t ignored_total = 0;
    return Input::LastRows(n, read, &ignored_total);
  }

 private:
  using FileMetaData = parquet::FileMetaData;
  std::unique_ptr<parquet::FileReader> file_;
  std::unique_ptr<RecordBatchReader> reader_;
  std::vector<std::string> selected_;  // SelectColumns (empty: the options' columns)
};

}  // namespace

extern const Source kParquetSource = {"parquet", "a Parquet file", kParquetInput, Sniff,
                                      ParquetInput::Open};

}  // namespace alkaid::cli
