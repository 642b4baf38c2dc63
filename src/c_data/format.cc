#include "src/c_data/format.h"

#include <charconv>
#include <cstring>
#include <string_view>

namespace alkaid::c_data {
namespace {

const char* UnitChar(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "m";
    case TimeUnit::kMicro: return "u";
    case TimeUnit::kNano: return "n";
  }
  return "?";
}

Result<TimeUnit> UnitOf(char c) {
  switch (c) {
    case 's': return TimeUnit::kSecond;
    case 'm': return TimeUnit::kMilli;
    case 'u': return TimeUnit::kMicro;
    case 'n': return TimeUnit::kNano;
  }
  return Status::Invalid("unknown time unit '", std::string(1, c), "'");
}

// A decimal integer filling all of `text`.
Result<int32_t> ParseInt(std::string_view text, const std::string& format) {
  int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return Status::Invalid("bad number '", std::string(text), "' in format string '", format, "'");
  }
  return value;
}

Status ExpectChildren(const FieldVector& children, size_t n, const std::string& format) {
  if (children.size() != n) {
    return Status::Invalid("format '", format, "' needs ", n, " children, got ", children.size());
  }
  return Status::OK();
}

}  // namespace

Result<std::string> FormatOf(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return std::string("n");
    case TypeId::kBool: return std::string("b");
    case TypeId::kInt8: return std::string("c");
    case TypeId::kUInt8: return std::string("C");
    case TypeId::kInt16: return std::string("s");
    case TypeId::kUInt16: return std::string("S");
    case TypeId::kInt32: return std::string("i");
    case TypeId::kUInt32: return std::string("I");
    case TypeId::kInt64: return std::string("l");
    case TypeId::kUInt64: return std::string("L");
    case TypeId::kHalfFloat: return std::string("e");
    case TypeId::kFloat: return std::string("f");
    case TypeId::kDouble: return std::string("g");
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& d = checked_cast<DecimalType>(type);
      std::string f = "d:" + std::to_string(d.precision()) + "," + std::to_string(d.scale());
      // 128 is the default width; spell the others out.
      if (type.id() != TypeId::kDecimal128) f += "," + std::to_string(d.bit_width());
      return f;
    }
    case TypeId::kDate32: return std::string("tdD");
    case TypeId::kDate64: return std::string("tdm");
    case TypeId::kTime32:
      return std::string("tt") + UnitChar(checked_cast<Time32Type>(type).unit());
    case TypeId::kTime64:
      return std::string("tt") + UnitChar(checked_cast<Time64Type>(type).unit());
    case TypeId::kTimestamp: {
      const auto& t = checked_cast<TimestampType>(type);
      return std::string("ts") + UnitChar(t.unit()) + ":" + t.timezone();
    }
    case TypeId::kDuration:
      return std::string("tD") + UnitChar(checked_cast<DurationType>(type).unit());
    case TypeId::kIntervalMonths: return std::string("tiM");
    case TypeId::kIntervalDayTime: return std::string("tiD");
    case TypeId::kIntervalMonthDayNano: return std::string("tin");
    case TypeId::kFixedSizeBinary:
      return "w:" + std::to_string(checked_cast<FixedSizeBinaryType>(type).byte_width());
    case TypeId::kBinary: return std::string("z");
    case TypeId::kString: return std::string("u");
    case TypeId::kLargeBinary: return std::string("Z");
    case TypeId::kLargeString: return std::string("U");
    case TypeId::kBinaryView: return std::string("vz");
    case TypeId::kStringView: return std::string("vu");
    case TypeId::kList: return std::string("+l");
    case TypeId::kLargeList: return std::string("+L");
    case TypeId::kListView: return std::string("+vl");
    case TypeId::kLargeListView: return std::string("+vL");
    case TypeId::kFixedSizeList:
      return "+w:" + std::to_string(checked_cast<FixedSizeListType>(type).list_size());
    case TypeId::kStruct: return std::string("+s");
    case TypeId::kMap: return std::string("+m");
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      const auto& u = checked_cast<UnionType>(type);
      std::string f = type.id() == TypeId::kDenseUnion ? "+ud:" : "+us:";
      for (size_t i = 0; i < u.type_codes().size(); ++i) {
        if (i > 0) f += ",";
        f += std::to_string(u.type_codes()[i]);
      }
      return f;
    }
    case TypeId::kRunEndEncoded: return std::string("+r");
    case TypeId::kDictionary:
    case TypeId::kExtension:
      break;
  }
  return Status::NotImplemented("no C Data Interface format string for ", type.ToString());
}

Result<DataTypePtr> TypeOfFormat(const std::string& format, FieldVector children, int64_t flags) {
  auto leaf = [&](DataTypePtr t) -> Result<DataTypePtr> {
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 0, format));
    return t;
  };
  auto unknown = [&]() { return Status::Invalid("unknown format string '", format, "'"); };
  if (format.size() == 1) {
    switch (format[0]) {
      case 'n': return leaf(null());
      case 'b': return leaf(boolean());
      case 'c': return leaf(int8());
      case 'C': return leaf(uint8());
      case 's': return leaf(int16());
      case 'S': return leaf(uint16());
      case 'i': return leaf(int32());
      case 'I': return leaf(uint32());
      case 'l': return leaf(int64());
      case 'L': return leaf(uint64());
      case 'e': return leaf(float16());
      case 'f': return leaf(float32());
      case 'g': return leaf(float64());
      case 'z': return leaf(binary());
      case 'Z': return leaf(large_binary());
      case 'u': return leaf(utf8());
      case 'U': return leaf(large_utf8());
    }
    return unknown();
  }
  std::string_view f = format;
  if (f == "vz") return leaf(binary_view());
  if (f == "vu") return leaf(utf8_view());
  if (f.starts_with("d:")) {
    std::string_view rest = f.substr(2);
    size_t c1 = rest.find(',');
    if (c1 == std::string_view::npos) return unknown();
    size_t c2 = rest.find(',', c1 + 1);
    ALKAID_ASSIGN_OR_RAISE(int32_t precision, ParseInt(rest.substr(0, c1), format));
    ALKAID_ASSIGN_OR_RAISE(
        int32_t scale,
        ParseInt(rest.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos
                                                                  : c2 - c1 - 1),
                 format));
    int32_t width = 128;
    if (c2 != std::string_view::npos) {
      ALKAID_ASSIGN_OR_RAISE(width, ParseInt(rest.substr(c2 + 1), format));
    }
    if (width != 32 && width != 64 && width != 128 && width != 256) {
      return Status::Invalid("decimal bit width must be 32, 64, 128 or 256 in '", format, "'");
    }
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 0, format));
    return MakeDecimal(width, precision, scale);
  }
  if (f.starts_with("w:")) {
    ALKAID_ASSIGN_OR_RAISE(int32_t width, ParseInt(f.substr(2), format));
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 0, format));
    return FixedSizeBinaryType::Make(width);
  }
  if (f == "tdD") return leaf(date32());
  if (f == "tdm") return leaf(date64());
  if (f.size() == 3 && f.starts_with("tt")) {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, UnitOf(f[2]));
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 0, format));
    return (unit == TimeUnit::kSecond || unit == TimeUnit::kMilli) ? Time32Type::Make(unit)
                                                                  : Time64Type::Make(unit);
  }
  if (f.size() >= 4 && f.starts_with("ts") && f[3] == ':') {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, UnitOf(f[2]));
    return leaf(timestamp(unit, std::string(f.substr(4))));
  }
  if (f.size() == 3 && f.starts_with("tD")) {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, UnitOf(f[2]));
    return leaf(duration(unit));
  }
  if (f == "tiM") return leaf(month_interval());
  if (f == "tiD") return leaf(day_time_interval());
  if (f == "tin") return leaf(month_day_nano_interval());
  if (f == "+l" || f == "+L" || f == "+vl" || f == "+vL") {
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 1, format));
    if (f == "+l") return list(children[0]);
    if (f == "+L") return large_list(children[0]);
    if (f == "+vl") return list_view(children[0]);
    return large_list_view(children[0]);
  }
  if (f.starts_with("+w:")) {
    ALKAID_ASSIGN_OR_RAISE(int32_t size, ParseInt(f.substr(3), format));
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 1, format));
    return FixedSizeListType::Make(children[0], size);
  }
  if (f == "+s") return struct_(std::move(children));
  if (f == "+m") {
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 1, format));
    return MapType::Make(children[0], (flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
  }
  if (f.starts_with("+ud:") || f.starts_with("+us:")) {
    std::vector<int8_t> codes;
    std::string_view rest = f.substr(4);
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      ALKAID_ASSIGN_OR_RAISE(int32_t code, ParseInt(rest.substr(0, comma), format));
      if (code < 0 || code > UnionType::kMaxTypeCode) {
        return Status::Invalid("union type code ", code, " out of range 0..127 in '", format, "'");
      }
      codes.push_back(static_cast<int8_t>(code));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
      if (rest.empty()) return Status::Invalid("trailing comma in format string '", format, "'");
    }
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, codes.size(), format));
    return UnionType::Make(std::move(children), std::move(codes),
                           f[2] == 'd' ? UnionMode::kDense : UnionMode::kSparse);
  }
  if (f == "+r") {
    ALKAID_RETURN_NOT_OK(ExpectChildren(children, 2, format));
    return RunEndEncodedType::Make(children[0], children[1]);
  }
  return unknown();
}

std::string EncodeMetadata(const KeyValueMetadata& metadata) {
  std::string out;
  auto put32 = [&](int32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  put32(static_cast<int32_t>(metadata.size()));
  for (int64_t i = 0; i < metadata.size(); ++i) {
    put32(static_cast<int32_t>(metadata.key(i).size()));
    out += metadata.key(i);
    put32(static_cast<int32_t>(metadata.value(i).size()));
    out += metadata.value(i);
  }
  return out;
}

Result<MetadataPtr> DecodeMetadata(const char* bytes) {
  if (bytes == nullptr) return MetadataPtr();
  constexpr int64_t kLimit = int64_t{1} << 31;
  int64_t pos = 0;
  auto get32 = [&]() {
    int32_t v;
    std::memcpy(&v, bytes + pos, 4);
    pos += 4;
    return v;
  };
  int32_t count = get32();
  if (count < 0) return Status::Invalid("metadata: negative pair count ", count);
  std::vector<std::string> keys, values;
  for (int32_t i = 0; i < count; ++i) {
    for (int part = 0; part < 2; ++part) {
      int32_t len = get32();
      if (len < 0) {
        return Status::Invalid("metadata: negative ", part == 0 ? "key" : "value",
                               " length ", len, " in pair ", i);
      }
      if (pos + len > kLimit) return Status::Invalid("metadata larger than 2 GiB");
      (part == 0 ? keys : values).emplace_back(bytes + pos, static_cast<size_t>(len));
      pos += len;
    }
  }
  if (count == 0) return MetadataPtr();
  return MetadataPtr(std::make_shared<KeyValueMetadata>(std::move(keys), std::move(values)));
}

}  // namespace alkaid::c_data
