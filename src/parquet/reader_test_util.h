// Test-only helpers of the Parquet reader tests: a canonical text of every cell (so tables
// read by alkaid and by DuckDB, whose types differ in documented ways, compare value by
// value), gold-file lookup and DuckDB's reading of a file.
#pragma once

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "alkaid/bitmap.h"
#include "alkaid/decimal.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/float16.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/table.h"
#include "src/parquet/parquet_test_util.h"
#include "test_util/test_data.h"

namespace alkaid::parquet::testing {

/// How the canonical text treats the differences between alkaid's and DuckDB's types.
struct CanonicalOptions {
  /// Timestamps and times to this many units per second before printing (DuckDB reads
  /// nanosecond timestamps as microseconds).
  int64_t time_resolution = 1000000;
  /// Print FIXED_LEN_BYTE_ARRAY(12) values as Parquet INTERVALs (months, days, milliseconds),
  /// the way month_day_nano intervals print.
  bool fixed12_as_interval = false;
};

inline int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    default: return 1000000000;
  }
}

// Floor division by a positive divisor.
inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && (a < 0)); }

inline std::string ScaleTime(int64_t value, TimeUnit unit, const CanonicalOptions& o) {
  int64_t per = UnitsPerSecond(unit);
  if (per > o.time_resolution) return std::to_string(FloorDiv(value, per / o.time_resolution));
  // Scaled up in 128 bits: the ends of int64 in a coarse unit do not fit a finer one.
  __int128 scaled = static_cast<__int128>(value) * (o.time_resolution / per);
  const bool negative = scaled < 0;
  unsigned __int128 magnitude =
      negative ? -static_cast<unsigned __int128>(scaled) : static_cast<unsigned __int128>(scaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

inline std::string Hex(const uint8_t* data, int64_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out = "0x";
  for (int64_t i = 0; i < n; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
  }
  return out;
}

inline std::string Canonical(const ArrayData& data, int64_t i, const CanonicalOptions& o = {});

// Cell i (relative to data.offset) of any array as text that ignores representation:
// integers and decimals as numbers, floats with 9 significant digits (float16 and float
// compare with DuckDB's float), strings and binaries as bytes, temporal values as counts
// of days or of `time_resolution` units, nested values in brackets.
inline std::string Canonical(const ArrayData& data, int64_t i, const CanonicalOptions& o) {
  const DataType& type = *data.type;
  if (type.id() == TypeId::kNull) return "null";
  if (data.buffers.size() > 0 && data.buffers[0] != nullptr && type.layout().has_validity() &&
      !bit_util::GetBit(data.buffers[0]->data(), data.offset + i)) {
    return "null";
  }
  const int64_t at = data.offset + i;
  auto fixed = [&](int width) { return data.buffers[1]->data() + at * width; };
  auto number = [](double v) {
    if (std::isnan(v)) return std::string("nan");
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return std::string(buf);
  };
  switch (type.id()) {
    case TypeId::kExtension: {
      if (checked_cast<ExtensionType>(type).extension_name() == "arrow.uuid") {
        // As text, the way DuckDB hands UUIDs out.
        std::string text = UuidToString(fixed(16));
        return Hex(reinterpret_cast<const uint8_t*>(text.data()), static_cast<int64_t>(text.size()));
      }
      auto storage = std::make_shared<ArrayData>(data);
      storage->type = checked_cast<ExtensionType>(type).storage_type();
      return Canonical(*storage, i, o);
    }
    case TypeId::kDictionary: {
      int64_t index = 0;
      const int width = checked_cast<DictionaryType>(type).index_type()->bit_width() / 8;
      std::memcpy(&index, fixed(width), static_cast<size_t>(width));
      return Canonical(*data.dictionary, index, o);
    }
    case TypeId::kBool: return bit_util::GetBit(data.buffers[1]->data(), at) ? "true" : "false";
    case TypeId::kInt8: return std::to_string(*reinterpret_cast<const int8_t*>(fixed(1)));
    case TypeId::kUInt8: return std::to_string(*fixed(1));
    case TypeId::kInt16: return std::to_string(*reinterpret_cast<const int16_t*>(fixed(2)));
    case TypeId::kUInt16: return std::to_string(*reinterpret_cast<const uint16_t*>(fixed(2)));
    case TypeId::kInt32:
    case TypeId::kDate32:
      return std::to_string(*reinterpret_cast<const int32_t*>(fixed(4)));
    case TypeId::kUInt32: return std::to_string(*reinterpret_cast<const uint32_t*>(fixed(4)));
    case TypeId::kInt64: return std::to_string(*reinterpret_cast<const int64_t*>(fixed(8)));
    case TypeId::kUInt64: return std::to_string(*reinterpret_cast<const uint64_t*>(fixed(8)));
    case TypeId::kDate64:
      return std::to_string(FloorDiv(*reinterpret_cast<const int64_t*>(fixed(8)), 86400000));
    case TypeId::kHalfFloat: {
      uint16_t bits;
      std::memcpy(&bits, fixed(2), 2);
      return number(static_cast<double>(HalfToFloat(bits)));
    }
    case TypeId::kFloat: return number(*reinterpret_cast<const float*>(fixed(4)));
    case TypeId::kDouble: return number(*reinterpret_cast<const double*>(fixed(8)));
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kTime64: {
      TimeUnit unit = checked_cast<TemporalUnitType>(type).unit();
      return ScaleTime(*reinterpret_cast<const int64_t*>(fixed(8)), unit, o);
    }
    case TypeId::kTime32: {
      TimeUnit unit = checked_cast<TemporalUnitType>(type).unit();
      return ScaleTime(*reinterpret_cast<const int32_t*>(fixed(4)), unit, o);
    }
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& d = checked_cast<DecimalType>(type);
      const int width = type.bit_width() / 8;
      return DecimalToString(fixed(width), width, d.scale());
    }
    case TypeId::kIntervalMonthDayNano: {
      int32_t months, days;
      int64_t nanos;
      std::memcpy(&months, fixed(16), 4);
      std::memcpy(&days, fixed(16) + 4, 4);
      std::memcpy(&nanos, fixed(16) + 8, 8);
      return std::to_string(months) + "m" + std::to_string(days) + "d" + std::to_string(nanos) + "ns";
    }
    case TypeId::kFixedSizeBinary: {
      const int width = type.bit_width() / 8;
      if (width == 12 && o.fixed12_as_interval) {
        uint32_t parts[3];
        std::memcpy(parts, fixed(12), 12);
        return std::to_string(parts[0]) + "m" + std::to_string(parts[1]) + "d" +
               std::to_string(int64_t{parts[2]} * 1000000) + "ns";
      }
      return Hex(fixed(width), width);
    }
    case TypeId::kBinary:
    case TypeId::kString: {
      const int32_t* off = reinterpret_cast<const int32_t*>(data.buffers[1]->data()) + at;
      return Hex(data.buffers[2]->data() + off[0], off[1] - off[0]);
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const int64_t* off = reinterpret_cast<const int64_t*>(data.buffers[1]->data()) + at;
      return Hex(data.buffers[2]->data() + off[0], off[1] - off[0]);
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      const auto* v = reinterpret_cast<const BinaryViewValue*>(data.buffers[1]->data()) + at;
      if (v->is_inline()) return Hex(v->inlined.data, v->size());
      return Hex(data.buffers[2 + v->ref.buffer_index]->data() + v->ref.offset, v->size());
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      int64_t begin, end;
      if (type.id() == TypeId::kLargeList) {
        const int64_t* off = reinterpret_cast<const int64_t*>(data.buffers[1]->data()) + at;
        begin = off[0];
        end = off[1];
      } else if (type.id() == TypeId::kFixedSizeList) {
        int32_t n = checked_cast<FixedSizeListType>(type).list_size();
        begin = at * n;
        end = begin + n;
      } else {
        const int32_t* off = reinterpret_cast<const int32_t*>(data.buffers[1]->data()) + at;
        begin = off[0];
        end = off[1];
      }
      std::string out = "[";
      for (int64_t k = begin; k < end; ++k) {
        if (k > begin) out += ",";
        out += Canonical(*data.child_data[0], k, o);
      }
      return out + "]";
    }
    case TypeId::kStruct: {
      std::string out = "{";
      for (size_t f = 0; f < data.child_data.size(); ++f) {
        if (f > 0) out += ",";
        out += Canonical(*data.child_data[f], at, o);
      }
      return out + "}";
    }
    default:
      return "<" + type.ToString() + ">";
  }
}

/// Every cell of a table, row by row (columns joined by '|').
inline std::vector<std::string> CanonicalRows(const Table& table, const CanonicalOptions& o = {}) {
  std::vector<std::string> rows;
  std::vector<std::vector<std::string>> columns(static_cast<size_t>(table.num_columns()));
  for (int c = 0; c < table.num_columns(); ++c) {
    for (const auto& chunk : table.column(c)->chunks()) {
      for (int64_t i = 0; i < chunk->length; ++i) {
        columns[static_cast<size_t>(c)].push_back(Canonical(*chunk, i, o));
      }
    }
  }
  for (int64_t r = 0; r < table.num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < table.num_columns(); ++c) {
      if (c > 0) row += "|";
      const auto& col = columns[static_cast<size_t>(c)];
      row += static_cast<size_t>(r) < col.size() ? col[static_cast<size_t>(r)] : "<missing>";
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The first difference of two lists of canonical rows, or "" when equal. A row holding a
/// type the canonical text does not know ("<...>") is reported: it would compare equal
/// without being looked at.
inline std::string RowsDifference(const std::vector<std::string>& left,
                                  const std::vector<std::string>& right) {
  for (const auto* rows : {&left, &right}) {
    for (const auto& row : *rows) {
      if (row.find('<') != std::string::npos) return "not comparable: " + row.substr(0, 100);
    }
  }
  if (left.size() != right.size()) {
    return std::to_string(left.size()) + " rows vs " + std::to_string(right.size());
  }
  for (size_t i = 0; i < left.size(); ++i) {
    if (left[i] != right[i]) {
      return "row " + std::to_string(i) + ": " + left[i].substr(0, 200) + " vs " +
             right[i].substr(0, 200);
    }
  }
  return "";
}

/// The directory of the Parquet project's data files, or empty.
inline std::string ParquetDataDir() {
  std::string dir = ::alkaid::testing::TestDataDir();
  return dir.empty() ? dir : dir + "/parquet-testing/data";
}

}  // namespace alkaid::parquet::testing
