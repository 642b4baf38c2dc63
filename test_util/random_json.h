// Random arrays of any type for tests and fuzz targets: random JSON literals (the form
// alkaid/integration_json/array_from_json.h documents) turned into arrays by the library's
// literal parser, so one generator covers every type, nesting included.
//
//   RandomJson gen(42);
//   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr a, gen.MakeArray(list(utf8()), 100, 0.1));
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/type.h"

namespace alkaid::testing {

class RandomJson {
 public:
  explicit RandomJson(uint64_t seed) : rng_(seed) {}

  /// A JSON array of `length` random literals of `type`, null with `null_probability` where
  /// the field allows.
  std::string Array(const DataType& type, int64_t length, double null_probability) {
    std::string out = "[";
    for (int64_t i = 0; i < length; ++i) {
      if (i > 0) out += ',';
      Value(type, null_probability, true, 0, &out);
    }
    return out + "]";
  }

  /// The array of those literals.
  Result<ArrayDataPtr> MakeArray(const DataTypePtr& type, int64_t length, double null_probability) {
    return integration_json::ArrayFromJSONString(type, Array(*type, length, null_probability));
  }

  /// Longest list a nested value gets.
  int max_list_length = 4;
  /// Longest string or binary value.
  int max_string_length = 12;

 private:
  uint64_t Next() { return rng_(); }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int64_t Int(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  // Mostly small values so that dictionaries and runs occur, sometimes the extremes.
  template <typename T>
  std::string IntText() {
    switch (Next() % 8) {
      case 0: return std::to_string(std::numeric_limits<T>::min());
      case 1: return std::to_string(std::numeric_limits<T>::max());
      case 2:
      case 3: return std::to_string(static_cast<T>(Int(0, 5)));
      default: return std::to_string(static_cast<T>(Next()));
    }
  }

  std::string FloatText() {
    switch (Next() % 10) {
      case 0: return "\"NaN\"";
      case 1: return Chance(0.5) ? "\"Inf\"" : "\"-Inf\"";
      case 2: return Chance(0.5) ? "0.0" : "-0.0";
      default: return std::to_string(static_cast<double>(Int(-100000, 100000)) / 64.0);
    }
  }

  // Printable ASCII (JSON-escaped) and, for text, some multi-byte characters.
  std::string StringText(bool utf8, int length = -1) {
    static const char* kWide[] = {"\\u00e9", "\\u20ac", "\\u4e2d", "\\ud83d\\ude00"};
    if (length < 0) length = static_cast<int>(Int(0, max_string_length));
    std::string out = "\"";
    for (int i = 0; i < length; ++i) {
      if (utf8 && Chance(0.1)) {
        out += kWide[Next() % 4];
        continue;
      }
      char c = static_cast<char>(Int(0x20, 0x7E));
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  std::string DecimalText(int32_t precision, int32_t scale) {
    std::string digits;
    int n = static_cast<int>(Int(1, precision));
    for (int i = 0; i < n; ++i) digits += static_cast<char>('0' + Int(i == 0 ? 1 : 0, 9));
    if (Chance(0.2)) digits = std::string(static_cast<size_t>(precision), '9');
    while (static_cast<int32_t>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
    if (scale > 0) digits.insert(digits.end() - scale, '.');
    return std::string("\"") + (Chance(0.5) ? "-" : "") + digits + "\"";
  }

  void Value(const DataType& type, double nulls, bool nullable, int depth, std::string* out) {
    if (nullable && Chance(nulls)) {
      *out += "null";
      return;
    }
    switch (type.id()) {
      case TypeId::kNull: *out += "null"; return;
      case TypeId::kBool: *out += Chance(0.5) ? "true" : "false"; return;
      case TypeId::kInt8: *out += IntText<int8_t>(); return;
      case TypeId::kUInt8: *out += IntText<uint8_t>(); return;
      case TypeId::kInt16: *out += IntText<int16_t>(); return;
      case TypeId::kUInt16: *out += IntText<uint16_t>(); return;
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kIntervalMonths: *out += IntText<int32_t>(); return;
      case TypeId::kUInt32: *out += IntText<uint32_t>(); return;
      case TypeId::kUInt64: *out += IntText<uint64_t>(); return;
      case TypeId::kInt64:
      case TypeId::kDuration: *out += IntText<int64_t>(); return;
      case TypeId::kDate64: *out += std::to_string(Int(-1'000'000, 1'000'000) * 86'400'000); return;
      case TypeId::kTime32: {
        bool seconds = checked_cast<Time32Type>(type).unit() == TimeUnit::kSecond;
        *out += std::to_string(Int(0, seconds ? 86'399 : 86'399'999));
        return;
      }
      case TypeId::kTime64: {
        bool micros = checked_cast<Time64Type>(type).unit() == TimeUnit::kMicro;
        *out += std::to_string(Int(0, micros ? 86'399'999'999 : 86'399'999'999'999));
        return;
      }
      case TypeId::kTimestamp: {
        // Within years 1700..2200 in any unit, so every reader's calendar holds it.
        static constexpr int64_t kPerSecond[] = {1, 1000, 1000000, 1000000000};
        int64_t s = Int(-8'500'000'000, 7'200'000'000);
        auto unit = static_cast<size_t>(checked_cast<TimestampType>(type).unit());
        *out += std::to_string(s * kPerSecond[unit] + Int(0, kPerSecond[unit] - 1));
        return;
      }
      case TypeId::kHalfFloat:
      case TypeId::kFloat:
      case TypeId::kDouble: *out += FloatText(); return;
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        const auto& dec = checked_cast<DecimalType>(type);
        *out += DecimalText(dec.precision(), dec.scale());
        return;
      }
      case TypeId::kIntervalDayTime:
        *out += "[" + IntText<int32_t>() + "," + IntText<int32_t>() + "]";
        return;
      case TypeId::kIntervalMonthDayNano:
        *out += "[" + IntText<int32_t>() + "," + IntText<int32_t>() + "," + IntText<int64_t>() + "]";
        return;
      case TypeId::kFixedSizeBinary:
        *out += StringText(false, checked_cast<FixedSizeBinaryType>(type).byte_width());
        return;
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kBinaryView: *out += StringText(false); return;
      case TypeId::kString:
      case TypeId::kLargeString:
      case TypeId::kStringView: *out += StringText(true); return;
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kListView:
      case TypeId::kLargeListView:
      case TypeId::kFixedSizeList: {
        const Field& item = *type.field(0);
        int64_t n = type.id() == TypeId::kFixedSizeList
                        ? checked_cast<FixedSizeListType>(type).list_size()
                        : Int(0, depth > 3 ? 1 : max_list_length);
        *out += '[';
        for (int64_t i = 0; i < n; ++i) {
          if (i > 0) *out += ',';
          Value(*item.type(), nulls, item.nullable(), depth + 1, out);
        }
        *out += ']';
        return;
      }
      case TypeId::kMap: {
        const auto& map = checked_cast<MapType>(type);
        int64_t n = Int(0, depth > 3 ? 1 : max_list_length);
        // Keys distinct within a map (the form most readers insist on).
        std::vector<std::string> keys;
        for (int64_t i = 0; i < n; ++i) {
          std::string key;
          Value(*map.key_type(), nulls, false, depth + 1, &key);
          if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
        }
        *out += '[';
        for (size_t i = 0; i < keys.size(); ++i) {
          if (i > 0) *out += ',';
          *out += '[' + keys[i] + ',';
          Value(*map.item_type(), nulls, map.item_field()->nullable(), depth + 1, out);
          *out += ']';
        }
        *out += ']';
        return;
      }
      case TypeId::kStruct: {
        *out += '[';
        for (int i = 0; i < type.num_fields(); ++i) {
          if (i > 0) *out += ',';
          Value(*type.field(i)->type(), nulls, type.field(i)->nullable(), depth + 1, out);
        }
        *out += ']';
        return;
      }
      case TypeId::kDictionary: {
        // Few distinct values: pick among a handful of seeds.
        const auto& dict = checked_cast<DictionaryType>(type);
        std::mt19937_64 saved = rng_;
        rng_.seed(Next() % 5);
        Value(*dict.value_type(), 0, false, depth, out);
        rng_ = saved;
        return;
      }
      case TypeId::kRunEndEncoded: {
        const auto& ree = checked_cast<RunEndEncodedType>(type);
        std::mt19937_64 saved = rng_;
        rng_.seed(Next() % 3);
        Value(*ree.value_type(), 0, false, depth, out);
        rng_ = saved;
        return;
      }
      case TypeId::kExtension:
        if (checked_cast<ExtensionType>(type).extension_name() == "arrow.json") {
          // A JSON document as the string (readers may check it is one).
          *out += "\"{\\\"k\\\": " + IntText<int32_t>() + "}\"";
          return;
        }
        Value(*checked_cast<ExtensionType>(type).storage_type(), nulls, nullable, depth, out);
        return;
      default:
        *out += "null";
        return;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace alkaid::testing
