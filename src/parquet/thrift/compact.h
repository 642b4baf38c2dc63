// Thrift compact protocol, reading and writing the structs of parquet_types.h by walking
// their field tables. Only thrift.cc and tests include this; everything else calls the
// DeserializeThrift/SerializeThrift of thrift.h.
//
// Wire facts (Thrift's compact protocol): a struct is a run of fields ended by a 0 byte;
// a field header byte holds the id delta from the previous field (high nibble, 1..15; 0
// means a zigzag varint id follows) and the type (low nibble); booleans live in the type
// nibble (1 true, 2 false); integers are zigzag varints, doubles 8 bytes little-endian,
// binary a varint length then the bytes; a list header byte holds the size (high nibble,
// 15 meaning a varint size follows) and the element type; list booleans are one byte each.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "alkaid/status.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet::thrift {

enum class WireType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsVector : std::false_type {};
template <typename T, typename A>
struct IsVector<std::vector<T, A>> : std::true_type {};
template <typename T>
concept ThriftStruct = requires { T::Fields(); T::kName; };

/// The wire type of a C++ member type (for std::optional, of its value).
template <typename T>
constexpr WireType WireTypeOf() {
  if constexpr (std::is_same_v<T, bool>) {
    return WireType::kTrue;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return WireType::kByte;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return WireType::kI16;
  } else if constexpr (std::is_same_v<T, int32_t> || std::is_enum_v<T>) {
    static_assert(!std::is_enum_v<T> || sizeof(T) == 4, "Thrift enums are i32");
    return WireType::kI32;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return WireType::kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return WireType::kDouble;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return WireType::kBinary;
  } else if constexpr (IsVector<T>::value) {
    return WireType::kList;
  } else {
    static_assert(ThriftStruct<T>, "not a Thrift type");
    return WireType::kStruct;
  }
}

/// Fewest bytes one value of a wire type takes; a container's claimed size is checked
/// against the bytes left with it before anything is allocated.
inline int64_t MinWireSize(WireType type) { return type == WireType::kDouble ? 8 : 1; }

// ---- reading --------------------------------------------------------------------------------

class CompactReader {
 public:
  CompactReader(const uint8_t* data, size_t size, const ThriftLimits& limits)
      : begin_(data), pos_(data), end_(data + size), limits_(limits) {}

  /// Reads one struct. On failure the message says what was wrong, the field path and the
  /// byte offset.
  template <typename T>
  Status ReadTop(T* out) {
    Status st = ReadStruct(out);
    if (!st.ok()) {
      std::string where = T::kName;
      for (auto it = path_.rbegin(); it != path_.rend(); ++it) where += *it;
      return Status::Invalid("Parquet Thrift metadata: ", where, ": ", st.message());
    }
    return st;
  }

  size_t consumed() const { return static_cast<size_t>(pos_ - begin_); }

 private:
  int64_t remaining() const { return end_ - pos_; }
  int64_t offset() const { return pos_ - begin_; }

  Status Error(const char* what) {
    return Status::Invalid(what, " (at byte ", offset(), " of ", end_ - begin_, ")");
  }

  Status ReadByte(uint8_t* out) {
    if (pos_ >= end_) [[unlikely]] return Error("input ends inside the metadata");
    *out = *pos_++;
    return Status::OK();
  }

  Status ReadVarint(uint64_t* out, int max_bytes) {
    uint64_t value = 0;
    for (int i = 0, shift = 0; i < max_bytes; ++i, shift += 7) {
      if (pos_ >= end_) [[unlikely]] return Error("input ends inside a varint");
      uint8_t b = *pos_++;
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *out = value;
        return Status::OK();
      }
    }
    return Error("varint longer than its type allows");
  }

  template <typename Int>
  Status ReadZigzag(Int* out) {
    uint64_t raw = 0;
    ALKAID_RETURN_NOT_OK(ReadVarint(&raw, sizeof(Int) == 8 ? 10 : sizeof(Int) == 4 ? 5 : 3));
    int64_t value = static_cast<int64_t>(raw >> 1) ^ -static_cast<int64_t>(raw & 1);
    if constexpr (sizeof(Int) < 8) {
      if (value < std::numeric_limits<Int>::min() || value > std::numeric_limits<Int>::max()) {
        return Error("integer out of range of its field type");
      }
    }
    *out = static_cast<Int>(value);
    return Status::OK();
  }

  Status ReadLength(int64_t limit, const char* what, int64_t* out) {
    uint64_t size;
    ALKAID_RETURN_NOT_OK(ReadVarint(&size, 5));
    if (size > static_cast<uint64_t>(remaining())) {
      return Status::Invalid(what, " of ", size, " bytes is longer than the ", remaining(),
                             " bytes left (at byte ", offset(), ")");
    }
    if (static_cast<int64_t>(size) > limit) {
      return Status::Invalid(what, " of ", size, " bytes exceeds the limit of ", limit,
                             " (at byte ", offset(), ")");
    }
    *out = static_cast<int64_t>(size);
    return Status::OK();
  }

  /// A list (or set) header: element type and a size checked against the bytes left.
  Status ReadListHeader(WireType* elem, int64_t* size) {
    uint8_t b = 0;
    ALKAID_RETURN_NOT_OK(ReadByte(&b));
    *elem = static_cast<WireType>(b & 0x0f);
    uint64_t n = b >> 4;
    if (n == 15) ALKAID_RETURN_NOT_OK(ReadVarint(&n, 5));
    if (*elem == WireType::kStop || static_cast<uint8_t>(*elem) > 13) {
      return Error("list of an unknown element type");
    }
    if (n > static_cast<uint64_t>(limits_.max_container_size)) {
      return Status::Invalid("list of ", n, " elements exceeds the limit of ",
                             limits_.max_container_size, " (at byte ", offset(), ")");
    }
    if (static_cast<int64_t>(n) * MinWireSize(*elem) > remaining()) {
      return Status::Invalid("list of ", n, " elements cannot fit in the ", remaining(),
                             " bytes left (at byte ", offset(), ")");
    }
    *size = static_cast<int64_t>(n);
    return Status::OK();
  }

  // One value of member type T whose wire type was checked to match.
  template <typename T>
  Status ReadValue(WireType type, T* out) {
    if constexpr (std::is_same_v<T, bool>) {
      *out = type == WireType::kTrue;
      return Status::OK();
    } else if constexpr (std::is_same_v<T, int8_t>) {
      uint8_t b;
      ALKAID_RETURN_NOT_OK(ReadByte(&b));
      *out = static_cast<int8_t>(b);
      return Status::OK();
    } else if constexpr (std::is_enum_v<T>) {
      int32_t v;
      ALKAID_RETURN_NOT_OK(ReadZigzag(&v));
      *out = static_cast<T>(v);
      return Status::OK();
    } else if constexpr (std::is_integral_v<T>) {
      return ReadZigzag(out);
    } else if constexpr (std::is_same_v<T, double>) {
      if (remaining() < 8) return Error("input ends inside a double");
      std::memcpy(out, pos_, 8);  // little-endian hosts only, as the rest of alkaid
      pos_ += 8;
      return Status::OK();
    } else if constexpr (std::is_same_v<T, std::string>) {
      int64_t size = 0;
      ALKAID_RETURN_NOT_OK(ReadLength(limits_.max_string_size, "binary field", &size));
      out->assign(reinterpret_cast<const char*>(pos_), static_cast<size_t>(size));
      pos_ += size;
      return Status::OK();
    } else if constexpr (IsVector<T>::value) {
      return ReadList(out);
    } else {
      return ReadStruct(out);
    }
  }

  template <typename Vec>
  Status ReadList(Vec* out) {
    using Elem = typename Vec::value_type;
    constexpr WireType kExpected = WireTypeOf<Elem>();
    WireType elem{};
    int64_t size = 0;
    ALKAID_RETURN_NOT_OK(ReadListHeader(&elem, &size));
    bool matches = elem == kExpected || (kExpected == WireType::kTrue && elem == WireType::kFalse);
    if (!matches) return Error("list elements of the wrong type");
    out->clear();
    // Small elements are reserved at once (bounded by the bytes left); large ones (structs,
    // strings) grow as they are read, so memory follows the bytes actually present.
    if constexpr (sizeof(Elem) <= 8) out->reserve(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) {
      Status st;
      if constexpr (std::is_same_v<Elem, bool>) {
        uint8_t b = 0;
        st = ReadByte(&b);
        out->push_back(b == 1);
      } else {
        st = ReadValue(kExpected, &out->emplace_back());
      }
      if (!st.ok()) [[unlikely]] {
        path_.push_back("[" + std::to_string(i) + "]");
        return st;
      }
    }
    return Status::OK();
  }

  template <typename T>
  Status ReadStruct(T* out) {
    if (++depth_ > limits_.max_depth) return Error("structs nested deeper than the limit");
    constexpr auto kFields = T::Fields();
    constexpr size_t kCount = std::tuple_size_v<decltype(kFields)>;
    static_assert(kCount <= 32);
    uint32_t seen = 0;
    int16_t last_id = 0;
    for (;;) {
      uint8_t header = 0;
      ALKAID_RETURN_NOT_OK(ReadByte(&header));
      if (header == 0) break;
      auto type = static_cast<WireType>(header & 0x0f);
      int16_t id;
      if (header >> 4) {
        id = static_cast<int16_t>(last_id + (header >> 4));
      } else {
        ALKAID_RETURN_NOT_OK(ReadZigzag(&id));
      }
      last_id = id;
      bool handled = false;
      Status st;
      [&]<size_t... I>(std::index_sequence<I...>) {
        (void)((std::get<I>(kFields).id == id &&
                (handled = true, st = ReadField(type, std::get<I>(kFields), out),
                 seen |= (st.ok() ? 1u << I : 0u), true)) ||
               ...);
      }(std::make_index_sequence<kCount>{});
      if (!handled) st = Skip(type);
      if (!st.ok()) [[unlikely]] {
        if (handled) {
          [&]<size_t... I>(std::index_sequence<I...>) {
            (void)((std::get<I>(kFields).id == id &&
                    (path_.push_back(std::string(".") + std::get<I>(kFields).name), true)) ||
                   ...);
          }(std::make_index_sequence<kCount>{});
        }
        return st;
      }
    }
    Status missing;
    [&]<size_t... I>(std::index_sequence<I...>) {
      (void)((std::get<I>(kFields).required && !(seen & (1u << I)) &&
              (missing = Status::Invalid("required field ", std::get<I>(kFields).name, " of ",
                                         T::kName, " is missing (struct ends at byte ",
                                         offset(), ")"),
               true)) ||
             ...);
    }(std::make_index_sequence<kCount>{});
    --depth_;
    return missing;
  }

  template <typename T, typename Member>
  Status ReadField(WireType type, const format::FieldInfo<Member T::*>& field, T* out) {
    Member& member = out->*field.member;
    if constexpr (IsOptional<Member>::value) {
      using V = typename Member::value_type;
      if (!TypeMatches<V>(type)) return Skip(type);
      return ReadValue(type, &member.emplace());
    } else {
      if (!TypeMatches<Member>(type)) return Skip(type);
      return ReadValue(type, &member);
    }
  }

  template <typename V>
  static bool TypeMatches(WireType type) {
    constexpr WireType kExpected = WireTypeOf<V>();
    if constexpr (kExpected == WireType::kTrue) {
      return type == WireType::kTrue || type == WireType::kFalse;
    } else {
      return type == kExpected;
    }
  }

  /// Skips a value of an unknown field (nested containers bounded by the depth limit).
  Status Skip(WireType type) {
    switch (type) {
      case WireType::kTrue:
      case WireType::kFalse:
        return Status::OK();
      case WireType::kByte: {
        uint8_t b;
        return ReadByte(&b);
      }
      case WireType::kI16:
      case WireType::kI32:
      case WireType::kI64: {
        uint64_t v;
        return ReadVarint(&v, 10);
      }
      case WireType::kDouble:
      case WireType::kUuid: {
        int64_t n = type == WireType::kDouble ? 8 : 16;
        if (remaining() < n) return Error("input ends inside a value");
        pos_ += n;
        return Status::OK();
      }
      case WireType::kBinary: {
        int64_t size;
        ALKAID_RETURN_NOT_OK(ReadLength(limits_.max_string_size, "binary field", &size));
        pos_ += size;
        return Status::OK();
      }
      case WireType::kList:
      case WireType::kSet: {
        WireType elem;
        int64_t size;
        ALKAID_RETURN_NOT_OK(ReadListHeader(&elem, &size));
        if (++depth_ > limits_.max_depth) return Error("values nested deeper than the limit");
        for (int64_t i = 0; i < size; ++i) {
          if (elem == WireType::kTrue || elem == WireType::kFalse) {
            uint8_t b;
            ALKAID_RETURN_NOT_OK(ReadByte(&b));
          } else {
            ALKAID_RETURN_NOT_OK(Skip(elem));
          }
        }
        --depth_;
        return Status::OK();
      }
      case WireType::kMap: {
        uint64_t n = 0;
        ALKAID_RETURN_NOT_OK(ReadVarint(&n, 5));
        if (n == 0) return Status::OK();
        uint8_t kv;
        ALKAID_RETURN_NOT_OK(ReadByte(&kv));
        auto key = static_cast<WireType>(kv >> 4), value = static_cast<WireType>(kv & 0x0f);
        if (n > static_cast<uint64_t>(remaining()) / 2) return Error("map larger than its bytes");
        if (++depth_ > limits_.max_depth) return Error("values nested deeper than the limit");
        for (uint64_t i = 0; i < n; ++i) {
          ALKAID_RETURN_NOT_OK(SkipElement(key));
          ALKAID_RETURN_NOT_OK(SkipElement(value));
        }
        --depth_;
        return Status::OK();
      }
      case WireType::kStruct: {
        if (++depth_ > limits_.max_depth) return Error("structs nested deeper than the limit");
        int16_t last_id = 0;
        for (;;) {
          uint8_t header;
          ALKAID_RETURN_NOT_OK(ReadByte(&header));
          if (header == 0) break;
          if ((header >> 4) == 0) {
            ALKAID_RETURN_NOT_OK(ReadZigzag(&last_id));
          }
          ALKAID_RETURN_NOT_OK(Skip(static_cast<WireType>(header & 0x0f)));
        }
        --depth_;
        return Status::OK();
      }
      default:
        return Error("unknown Thrift type in a field header");
    }
  }

  // Elements of containers: booleans take a byte there.
  Status SkipElement(WireType type) {
    if (type == WireType::kTrue || type == WireType::kFalse) {
      uint8_t b;
      return ReadByte(&b);
    }
    return Skip(type);
  }

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  ThriftLimits limits_;
  int depth_ = 0;
  // Field names and list indexes from the failing value outwards, filled while an error
  // unwinds (empty on success).
  std::vector<std::string> path_;
};

// ---- writing --------------------------------------------------------------------------------

class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  template <typename T>
  void WriteStruct(const T& value) {
    constexpr auto kFields = T::Fields();
    int16_t last_id = 0;
    std::apply([&](const auto&... field) { (WriteField(value, field, &last_id), ...); },
               kFields);
    out_->push_back(0);
  }

 private:
  void Byte(uint8_t b) { out_->push_back(static_cast<char>(b)); }

  void Varint(uint64_t v) {
    while (v >= 0x80) {
      Byte(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    Byte(static_cast<uint8_t>(v));
  }

  void Zigzag(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

  void FieldHeader(int16_t id, WireType type, int16_t* last_id) {
    int delta = id - *last_id;
    if (delta > 0 && delta <= 15) {
      Byte(static_cast<uint8_t>(delta << 4 | static_cast<uint8_t>(type)));
    } else {
      Byte(static_cast<uint8_t>(type));
      Zigzag(id);
    }
    *last_id = id;
  }

  template <typename T, typename Member>
  void WriteField(const T& value, const format::FieldInfo<Member T::*>& field, int16_t* last_id) {
    const Member& member = value.*field.member;
    if constexpr (IsOptional<Member>::value) {
      if (member.has_value()) WriteFieldValue(field.id, *member, last_id);
    } else {
      WriteFieldValue(field.id, member, last_id);
    }
  }

  template <typename V>
  void WriteFieldValue(int16_t id, const V& v, int16_t* last_id) {
    if constexpr (std::is_same_v<V, bool>) {
      FieldHeader(id, v ? WireType::kTrue : WireType::kFalse, last_id);
    } else {
      FieldHeader(id, WireTypeOf<V>(), last_id);
      WriteValue(v);
    }
  }

  template <typename V>
  void WriteValue(const V& v) {
    if constexpr (std::is_same_v<V, bool>) {
      Byte(v ? 1 : 2);
    } else if constexpr (std::is_same_v<V, int8_t>) {
      Byte(static_cast<uint8_t>(v));
    } else if constexpr (std::is_enum_v<V>) {
      Zigzag(static_cast<int32_t>(v));
    } else if constexpr (std::is_integral_v<V>) {
      Zigzag(v);
    } else if constexpr (std::is_same_v<V, double>) {
      char bytes[8];
      std::memcpy(bytes, &v, 8);
      out_->append(bytes, 8);
    } else if constexpr (std::is_same_v<V, std::string>) {
      Varint(v.size());
      out_->append(v);
    } else if constexpr (IsVector<V>::value) {
      using Elem = typename V::value_type;
      auto type = static_cast<uint8_t>(WireTypeOf<Elem>());
      if (v.size() < 15) {
        Byte(static_cast<uint8_t>(v.size() << 4 | type));
      } else {
        Byte(static_cast<uint8_t>(0xf0 | type));
        Varint(v.size());
      }
      for (const auto& e : v) WriteValue(static_cast<const Elem&>(e));
    } else {
      WriteStruct(v);
    }
  }

  std::string* out_;
};

}  // namespace alkaid::parquet::thrift
