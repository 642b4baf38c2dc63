// Integration JSON -> IntegrationFile. Every ArrayData is assembled directly
// from the JSON arrays into padded pool buffers; nothing goes through
// builders. Each rule that input can break is checked here with the JSON
// location in the message, so that what comes out is safe to walk.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/integration_json/integration.h"
#include "alkaid/validate.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "integration_internal.h"

namespace alkaid::integration_json {

namespace {

using internal::FieldNode;
using internal::Json;

std::string Truncated(const Json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

Status BadValue(const std::string& path, const char* member, size_t i, const Json& v,
                const std::string& expected) {
  return Status::Invalid(path, ".", member, "[", i, "]: expected ", expected, ", got ", Truncated(v));
}

// ---------------------------------------------------------------------------
// Single values

// Integers come as JSON numbers or as decimal strings (the format writes
// 64-bit values as strings so that no reader loses precision).
template <typename T>
bool DecodeInteger(const Json& v, T* out) {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    *out = static_cast<T>(u);
    return true;
  }
  if (v.is_number_integer()) {
    int64_t s = v.get<int64_t>();
    if constexpr (std::is_signed_v<T>) {
      if (s < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          s > static_cast<int64_t>(std::numeric_limits<T>::max()))
        return false;
    } else {
      if (s < 0 || static_cast<uint64_t>(s) > static_cast<uint64_t>(std::numeric_limits<T>::max()))
        return false;
    }
    *out = static_cast<T>(s);
    return true;
  }
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    auto res = std::from_chars(begin, end, *out);
    return res.ec == std::errc() && res.ptr == end && begin != end;
  }
  return false;
}

template <typename T>
std::string IntegerExpectation() {
  return "an integer in [" + std::to_string(std::numeric_limits<T>::min()) + ", " +
         std::to_string(std::numeric_limits<T>::max()) + "]";
}

template <typename T>
struct IntegerCodec {
  static bool Decode(const Json& v, T* out) { return DecodeInteger(v, out); }
  static std::string Expectation() { return IntegerExpectation<T>(); }
};

template <typename T>
struct FloatCodec {
  static bool Decode(const Json& v, T* out) {
    if (!v.is_number()) return false;
    *out = static_cast<T>(v.get<double>());
    return true;
  }
  static std::string Expectation() { return "a number"; }
};

struct HalfFloatCodec {
  static bool Decode(const Json& v, uint16_t* out) {
    if (!v.is_number()) return false;
    *out = internal::FloatToHalf(static_cast<float>(v.get<double>()));
    return true;
  }
  static std::string Expectation() { return "a number"; }
};

template <typename T>
bool DecodeIntegerMember(const Json& obj, const char* key, T* out) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && DecodeInteger(*it, out);
}

struct DayTimeCodec {
  static bool Decode(const Json& v, DayTimeInterval* out) {
    return v.is_object() && v.size() == 2 && DecodeIntegerMember(v, "days", &out->days) &&
           DecodeIntegerMember(v, "milliseconds", &out->milliseconds);
  }
  static std::string Expectation() { return "an object {days, milliseconds} of 32-bit integers"; }
};

struct MonthDayNanoCodec {
  static bool Decode(const Json& v, MonthDayNanoInterval* out) {
    return v.is_object() && v.size() == 3 && DecodeIntegerMember(v, "months", &out->months) &&
           DecodeIntegerMember(v, "days", &out->days) &&
           DecodeIntegerMember(v, "nanoseconds", &out->nanoseconds);
  }
  static std::string Expectation() {
    return "an object {months, days, nanoseconds} (32, 32 and 64-bit integers)";
  }
};

struct BoolCodec {
  static bool Decode(const Json& v, bool* out) {
    if (v.is_boolean()) {
      *out = v.get<bool>();
      return true;
    }
    if (v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1)) {
      *out = v.get<int64_t>() == 1;
      return true;
    }
    return false;
  }
  static std::string Expectation() { return "true, false, 0 or 1"; }
};

// The codec that reads a value of each fixed-width type with a C type.
template <typename T>
auto CodecFor() {
  using C = typename T::c_type;
  if constexpr (std::is_same_v<T, HalfFloatType>) {
    return HalfFloatCodec{};
  } else if constexpr (std::is_same_v<C, DayTimeInterval>) {
    return DayTimeCodec{};
  } else if constexpr (std::is_same_v<C, MonthDayNanoInterval>) {
    return MonthDayNanoCodec{};
  } else if constexpr (std::is_floating_point_v<C>) {
    return FloatCodec<C>{};
  } else {
    return IntegerCodec<C>{};
  }
}

// ---------------------------------------------------------------------------
// Buffers

const std::vector<FieldNode>& NoChildNodes() {
  static const std::vector<FieldNode> empty;
  return empty;
}

struct PendingDictionary {
  ArrayDataPtr data;
  int64_t id;
  std::string path;
};

struct ReadContext {
  std::vector<PendingDictionary> pending;
};

class ColumnReader;

Result<ArrayDataPtr> ReadColumn(const Json& col, const DataTypePtr& type,
                                const std::vector<FieldNode>& child_nodes,
                                std::optional<int64_t> dictionary_id, const std::string& path,
                                std::optional<int64_t> expected_length, ReadContext* ctx);

class ColumnReader {
 public:
  ColumnReader(const Json& col, DataTypePtr type, const std::vector<FieldNode>& child_nodes,
               std::optional<int64_t> dictionary_id, std::string path, int64_t length,
               ReadContext* ctx)
      : col_(col), type_(std::move(type)), child_nodes_(child_nodes),
        dictionary_id_(dictionary_id), path_(std::move(path)), length_(length), ctx_(ctx) {}

  ArrayDataPtr Finish() { return std::move(out_); }

  Status Visit(const NullType&) {
    out_ = ArrayData::Make(type_, length_, BufferVector{}, length_);
    return Status::OK();
  }

  Status Visit(const BooleanType&) {
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(const Json* data, ArrayMember("DATA", length_));
    ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBitmap(length_));
    uint8_t* raw = bits->mutable_data();
    for (int64_t i = 0; i < length_; ++i) {
      bool value;
      const Json& v = (*data)[static_cast<size_t>(i)];
      if (!BoolCodec::Decode(v, &value))
        return BadValue(path_, "DATA", static_cast<size_t>(i), v, BoolCodec::Expectation());
      if (value) bit_util::SetBit(raw, i);
    }
    return Emit({validity_, std::move(bits)});
  }

  template <typename T>
  std::enable_if_t<has_c_type_v<T>, Status> Visit(const T&) {
    using C = typename T::c_type;
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(auto values, ReadFixedWidth<C>("DATA", length_, CodecFor<T>()));
    return Emit({validity_, std::move(values)});
  }

  template <typename T>
  std::enable_if_t<is_decimal_v<T>, Status> Visit(const T& type) {
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(const Json* data, ArrayMember("DATA", length_));
    const int width = type.byte_width();
    ALKAID_ASSIGN_OR_RAISE(auto values, AllocateBuffer(length_ * width));
    for (int64_t i = 0; i < length_; ++i) {
      const Json& v = (*data)[static_cast<size_t>(i)];
      if (!v.is_string())
        return BadValue(path_, "DATA", static_cast<size_t>(i), v, "a decimal integer string");
      Status st = internal::ParseDecimalInteger(v.get_ref<const std::string&>(), width,
                                                values->mutable_data() + i * width);
      if (!st.ok()) return st.WithContext(path_ + ".DATA[" + std::to_string(i) + "]");
    }
    return Emit({validity_, std::move(values)});
  }

  Status Visit(const FixedSizeBinaryType& type) {
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(const Json* data, ArrayMember("DATA", length_));
    const int64_t width = type.byte_width();
    ALKAID_ASSIGN_OR_RAISE(auto values, AllocateBuffer(length_ * width));
    for (int64_t i = 0; i < length_; ++i) {
      const Json& v = (*data)[static_cast<size_t>(i)];
      if (!v.is_string() || v.get_ref<const std::string&>().size() != static_cast<size_t>(2 * width))
        return BadValue(path_, "DATA", static_cast<size_t>(i), v,
                        "a hex string of " + std::to_string(width) + " bytes");
      ALKAID_RETURN_NOT_OK(DecodeHex(v, "DATA", static_cast<size_t>(i), values->mutable_data() + i * width));
    }
    return Emit({validity_, std::move(values)});
  }

  template <typename T>
  std::enable_if_t<is_base_binary_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    constexpr bool kHex = !std::is_same_v<T, StringType> && !std::is_same_v<T, LargeStringType>;
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(auto offsets, ReadOffsets<Offset>());
    ALKAID_ASSIGN_OR_RAISE(const Json* data, ArrayMember("DATA", length_));
    const Offset* off = offsets->template data_as<Offset>();
    // Check every value's size against the offsets before allocating, so a
    // bogus last offset cannot request a huge buffer.
    for (int64_t i = 0; i < length_; ++i) {
      const Json& v = (*data)[static_cast<size_t>(i)];
      if (!v.is_string())
        return BadValue(path_, "DATA", static_cast<size_t>(i), v, kHex ? "a hex string" : "a string");
      size_t size = v.get_ref<const std::string&>().size();
      if (kHex && size % 2 != 0)
        return BadValue(path_, "DATA", static_cast<size_t>(i), v, "a hex string of even length");
      if (kHex) size /= 2;
      if (static_cast<uint64_t>(off[i + 1] - off[i]) != size)
        return Status::Invalid(path_, ".DATA[", i, "]: value has ", size, " bytes but OFFSET[", i,
                               "..", i + 1, "] spans ", off[i + 1] - off[i]);
    }
    ALKAID_ASSIGN_OR_RAISE(auto bytes, AllocateBuffer(static_cast<int64_t>(off[length_])));
    for (int64_t i = 0; i < length_; ++i) {
      const Json& v = (*data)[static_cast<size_t>(i)];
      uint8_t* dest = bytes->mutable_data() + off[i];
      if constexpr (kHex) {
        ALKAID_RETURN_NOT_OK(DecodeHex(v, "DATA", static_cast<size_t>(i), dest));
      } else {
        const std::string& s = v.get_ref<const std::string&>();
        if (!s.empty()) std::memcpy(dest, s.data(), s.size());
      }
    }
    return Emit({validity_, std::move(offsets), std::move(bytes)});
  }

  template <typename T>
  std::enable_if_t<is_binary_view_v<T>, Status> Visit(const T&) {
    constexpr bool kHex = std::is_same_v<T, BinaryViewType>;
    ALKAID_RETURN_NOT_OK(ReadValidity());
    BufferVector buffers{validity_, nullptr};
    ALKAID_RETURN_NOT_OK(ReadVariadicBuffers(&buffers));
    ALKAID_ASSIGN_OR_RAISE(const Json* views_json, ArrayMember("VIEWS", length_));
    ALKAID_ASSIGN_OR_RAISE(auto views, AllocateBuffer(length_ * 16));
    auto* out = views->template mutable_data_as<BinaryViewValue>();
    for (int64_t i = 0; i < length_; ++i) {
      ALKAID_RETURN_NOT_OK(ReadView((*views_json)[static_cast<size_t>(i)], static_cast<size_t>(i),
                                    kHex, buffers, &out[i]));
    }
    buffers[1] = std::move(views);
    return Emit(std::move(buffers));
  }

  template <typename T>
  std::enable_if_t<is_var_list_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(auto offsets, ReadOffsets<Offset>());
    ALKAID_ASSIGN_OR_RAISE(auto children, ReadChildren(type, std::nullopt));
    int64_t end = offsets->template data_as<Offset>()[length_];
    if (end > children[0]->length)
      return Status::Invalid(path_, ".OFFSET[", length_, "]: last offset ", end,
                             " is past the child's count ", children[0]->length);
    return Emit({validity_, std::move(offsets)}, std::move(children));
  }

  template <typename T>
  std::enable_if_t<is_list_view_v<T>, Status> Visit(const T& type) {
    using Offset = typename T::offset_type;
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(auto offsets, ReadFixedWidth<Offset>("OFFSET", length_, IntegerCodec<Offset>{}));
    ALKAID_ASSIGN_OR_RAISE(auto sizes, ReadFixedWidth<Offset>("SIZE", length_, IntegerCodec<Offset>{}));
    ALKAID_ASSIGN_OR_RAISE(auto children, ReadChildren(type, std::nullopt));
    const Offset* off = offsets->template data_as<Offset>();
    const Offset* size = sizes->template data_as<Offset>();
    const int64_t child_length = children[0]->length;
    for (int64_t i = 0; i < length_; ++i) {
      if (off[i] < 0 || size[i] < 0 || static_cast<int64_t>(off[i]) > child_length - size[i])
        return Status::Invalid(path_, "[", i, "]: list view [OFFSET ", off[i], ", SIZE ", size[i],
                               "] is outside the child's count ", child_length);
    }
    return Emit({validity_, std::move(offsets), std::move(sizes)}, std::move(children));
  }

  Status Visit(const FixedSizeListType& type) {
    ALKAID_RETURN_NOT_OK(ReadValidity());
    int64_t child_length;
    if (__builtin_mul_overflow(length_, static_cast<int64_t>(type.list_size()), &child_length))
      return Status::Invalid(path_, ": count ", length_, " times listSize overflows");
    ALKAID_ASSIGN_OR_RAISE(auto children, ReadChildren(type, child_length));
    return Emit({validity_}, std::move(children));
  }

  Status Visit(const StructType& type) {
    ALKAID_RETURN_NOT_OK(ReadValidity());
    ALKAID_ASSIGN_OR_RAISE(auto children, ReadChildren(type, length_));
    return Emit({validity_}, std::move(children));
  }

  template <typename T>
  std::enable_if_t<is_union_v<T>, Status> Visit(const T& type) {
    constexpr bool kDense = std::is_same_v<T, DenseUnionType>;
    ALKAID_ASSIGN_OR_RAISE(auto type_ids, ReadFixedWidth<int8_t>("TYPE_ID", length_, IntegerCodec<int8_t>{}));
    const int8_t* codes = type_ids->template data_as<int8_t>();
    for (int64_t i = 0; i < length_; ++i) {
      if (type.child_index(codes[i]) == UnionType::kInvalidChild)
        return Status::Invalid(path_, ".TYPE_ID[", i, "]: type id ", int(codes[i]),
                               " is not declared by the union");
    }
    BufferVector buffers{std::move(type_ids)};
    ArrayDataVector children;
    if constexpr (kDense) {
      ALKAID_ASSIGN_OR_RAISE(auto offsets, ReadFixedWidth<int32_t>("OFFSET", length_, IntegerCodec<int32_t>{}));
      ALKAID_ASSIGN_OR_RAISE(children, ReadChildren(type, std::nullopt));
      const int32_t* off = offsets->template data_as<int32_t>();
      for (int64_t i = 0; i < length_; ++i) {
        int64_t child_length = children[static_cast<size_t>(type.child_index(codes[i]))]->length;
        if (off[i] < 0 || off[i] >= child_length)
          return Status::Invalid(path_, ".OFFSET[", i, "]: offset ", off[i],
                                 " is outside child ", type.child_index(codes[i]), " of count ", child_length);
      }
      buffers.push_back(std::move(offsets));
    } else {
      ALKAID_ASSIGN_OR_RAISE(children, ReadChildren(type, length_));
    }
    out_ = ArrayData::Make(type_, length_, std::move(buffers), std::move(children), 0);
    return Status::OK();
  }

  Status Visit(const RunEndEncodedType& type) {
    ALKAID_ASSIGN_OR_RAISE(auto children, ReadChildren(type, std::nullopt));
    if (children[0]->length != children[1]->length)
      return Status::Invalid(path_, ": run_ends has count ", children[0]->length,
                             " but values has count ", children[1]->length);
    if (children[0]->null_count != 0)
      return Status::Invalid(path_, ".children[0]: run ends must not be null");
    ALKAID_RETURN_NOT_OK(CheckRunEnds(*children[0]));
    out_ = ArrayData::Make(type_, length_, BufferVector{}, std::move(children), 0);
    return Status::OK();
  }

  Status Visit(const DictionaryType& type) {
    if (!dictionary_id_)
      return Status::Invalid(path_, ": dictionary-encoded column without a dictionary id");
    ColumnReader indices(col_, type.index_type(), NoChildNodes(), std::nullopt, path_, length_, ctx_);
    ALKAID_RETURN_NOT_OK(VisitTypeInline(*type.index_type(), &indices));
    out_ = indices.Finish();
    out_->type = type_;
    ctx_->pending.push_back({out_, *dictionary_id_, path_});
    return Status::OK();
  }

  Status Visit(const ExtensionType& type) {
    ColumnReader storage(col_, type.storage_type(), child_nodes_, dictionary_id_, path_, length_, ctx_);
    ALKAID_RETURN_NOT_OK(VisitTypeInline(*type.storage_type(), &storage));
    out_ = storage.Finish();
    out_->type = type_;
    return Status::OK();
  }

 private:
  Status Emit(BufferVector buffers, ArrayDataVector children = {}) {
    out_ = ArrayData::Make(type_, length_, std::move(buffers), std::move(children), null_count_);
    return Status::OK();
  }

  Result<const Json*> ArrayMember(const char* key, int64_t expected) {
    auto it = col_.find(key);
    if (it == col_.end()) return Status::Invalid(path_, ": missing member \"", key, "\"");
    if (!it->is_array()) return Status::Invalid(path_, ".", key, ": expected an array, got ", it->type_name());
    if (static_cast<int64_t>(it->size()) != expected)
      return Status::Invalid(path_, ".", key, ": has ", it->size(), " entries but ", expected,
                             " are expected (count is ", length_, ")");
    return &*it;
  }

  // A missing VALIDITY means every slot is valid; a bitmap is kept only
  // when some slot is null.
  Status ReadValidity() {
    null_count_ = 0;
    validity_ = nullptr;
    if (!col_.contains("VALIDITY")) return Status::OK();
    ALKAID_ASSIGN_OR_RAISE(const Json* bits, ArrayMember("VALIDITY", length_));
    ALKAID_ASSIGN_OR_RAISE(auto bitmap, AllocateBitmap(length_));
    uint8_t* raw = bitmap->mutable_data();
    int64_t valid = 0;
    for (int64_t i = 0; i < length_; ++i) {
      const Json& v = (*bits)[static_cast<size_t>(i)];
      bool is_valid;
      if (!BoolCodec::Decode(v, &is_valid))
        return BadValue(path_, "VALIDITY", static_cast<size_t>(i), v, "0 or 1");
      if (is_valid) {
        bit_util::SetBit(raw, i);
        ++valid;
      }
    }
    null_count_ = length_ - valid;
    if (null_count_ > 0) validity_ = std::move(bitmap);
    return Status::OK();
  }

  template <typename C, typename Codec>
  Result<BufferPtr> ReadFixedWidth(const char* member, int64_t count, Codec) {
    ALKAID_ASSIGN_OR_RAISE(const Json* data, ArrayMember(member, count));
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(count * static_cast<int64_t>(sizeof(C))));
    uint8_t* raw = buffer->mutable_data();
    for (int64_t i = 0; i < count; ++i) {
      C value;
      const Json& v = (*data)[static_cast<size_t>(i)];
      if (!Codec::Decode(v, &value))
        return BadValue(path_, member, static_cast<size_t>(i), v, Codec::Expectation());
      std::memcpy(raw + i * static_cast<int64_t>(sizeof(C)), &value, sizeof(C));
    }
    return BufferPtr(std::move(buffer));
  }

  // count + 1 non-negative, non-decreasing offsets.
  template <typename Offset>
  Result<BufferPtr> ReadOffsets() {
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets,
                           ReadFixedWidth<Offset>("OFFSET", length_ + 1, IntegerCodec<Offset>{}));
    const Offset* off = offsets->data_as<Offset>();
    if (off[0] < 0) return Status::Invalid(path_, ".OFFSET[0]: offset ", off[0], " is negative");
    for (int64_t i = 0; i < length_; ++i) {
      if (off[i + 1] < off[i])
        return Status::Invalid(path_, ".OFFSET[", i + 1, "]: offset ", off[i + 1],
                               " is less than the previous offset ", off[i]);
    }
    return offsets;
  }

  Status DecodeHex(const Json& v, const char* member, size_t i, uint8_t* out) {
    size_t bad_at = 0;
    if (!internal::HexDecode(v.get_ref<const std::string&>(), out, &bad_at))
      return Status::Invalid(path_, ".", member, "[", i, "]: invalid hex at character ", bad_at,
                             " of ", Truncated(v));
    return Status::OK();
  }

  Status ReadVariadicBuffers(BufferVector* buffers) {
    auto it = col_.find("VARIADIC_DATA_BUFFERS");
    if (it == col_.end()) return Status::OK();
    if (!it->is_array()) return Status::Invalid(path_, ".VARIADIC_DATA_BUFFERS: expected an array of hex strings");
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& v = (*it)[i];
      if (!v.is_string() || v.get_ref<const std::string&>().size() % 2 != 0)
        return BadValue(path_, "VARIADIC_DATA_BUFFERS", i, v, "a hex string of even length");
      int64_t size = static_cast<int64_t>(v.get_ref<const std::string&>().size() / 2);
      ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(size));
      ALKAID_RETURN_NOT_OK(DecodeHex(v, "VARIADIC_DATA_BUFFERS", i, buffer->mutable_data()));
      buffers->push_back(std::move(buffer));
    }
    return Status::OK();
  }

  Status ReadView(const Json& v, size_t i, bool hex, const BufferVector& buffers, BinaryViewValue* out) {
    std::string at = path_ + ".VIEWS[" + std::to_string(i) + "]";
    if (!v.is_object()) return Status::Invalid(at, ": expected a view object, got ", Truncated(v));
    int32_t size;
    if (!DecodeIntegerMember(v, "SIZE", &size) || size < 0)
      return Status::Invalid(at, ".SIZE: expected a non-negative 32-bit integer");
    std::memset(out, 0, sizeof(*out));
    out->inlined.size = size;
    if (size <= BinaryViewValue::kInlineSize) {
      auto inlined = v.find("INLINED");
      if (inlined == v.end() || !inlined->is_string())
        return Status::Invalid(at, ": a view of ", size, " bytes needs an INLINED string");
      const std::string& text = inlined->get_ref<const std::string&>();
      size_t decoded = hex ? text.size() / 2 : text.size();
      if ((hex && text.size() % 2 != 0) || decoded != static_cast<size_t>(size))
        return Status::Invalid(at, ".INLINED: holds ", decoded, " bytes but SIZE is ", size);
      if (hex) {
        size_t bad_at = 0;
        if (!internal::HexDecode(text, out->inlined.data, &bad_at))
          return Status::Invalid(at, ".INLINED: invalid hex at character ", bad_at);
      } else if (size > 0) {
        std::memcpy(out->inlined.data, text.data(), text.size());
      }
      return Status::OK();
    }
    auto prefix = v.find("PREFIX_HEX");
    size_t bad_at = 0;
    if (prefix == v.end() || !prefix->is_string() || prefix->get_ref<const std::string&>().size() != 8 ||
        !internal::HexDecode(prefix->get_ref<const std::string&>(), out->ref.prefix, &bad_at))
      return Status::Invalid(at, ".PREFIX_HEX: expected 8 hex digits");
    int32_t index, offset;
    if (!DecodeIntegerMember(v, "BUFFER_INDEX", &index) || index < 0)
      return Status::Invalid(at, ".BUFFER_INDEX: expected a non-negative 32-bit integer");
    if (!DecodeIntegerMember(v, "OFFSET", &offset) || offset < 0)
      return Status::Invalid(at, ".OFFSET: expected a non-negative 32-bit integer");
    if (static_cast<size_t>(index) + 2 >= buffers.size())
      return Status::Invalid(at, ".BUFFER_INDEX: ", index, " but only ", buffers.size() - 2,
                             " variadic data buffers are given");
    const Buffer& data = *buffers[static_cast<size_t>(index) + 2];
    if (static_cast<int64_t>(offset) + size > data.size())
      return Status::Invalid(at, ": bytes [", offset, ", ", static_cast<int64_t>(offset) + size,
                             ") are outside variadic buffer ", index, " of ", data.size(), " bytes");
    if (std::memcmp(data.data() + offset, out->ref.prefix, BinaryViewValue::kPrefixSize) != 0)
      return Status::Invalid(at, ".PREFIX_HEX: does not match the first bytes of the viewed data");
    out->ref.buffer_index = index;
    out->ref.offset = offset;
    return Status::OK();
  }

  // Reads "children" (one per child field of `type`), each with the given
  // count when the layout fixes it.
  Result<ArrayDataVector> ReadChildren(const DataType& type, std::optional<int64_t> expected_length) {
    auto it = col_.find("children");
    if (it == col_.end()) return Status::Invalid(path_, ": missing member \"children\"");
    if (!it->is_array() || it->size() != static_cast<size_t>(type.num_fields()))
      return Status::Invalid(path_, ".children: expected an array of ", type.num_fields(),
                             " columns, got ", it->is_array() ? std::to_string(it->size()) : it->type_name());
    ArrayDataVector children;
    for (int i = 0; i < type.num_fields(); ++i) {
      const FieldPtr& child_field = type.field(i);
      const Json& child = (*it)[static_cast<size_t>(i)];
      std::string child_path = path_ + ".children[" + std::to_string(i) + "](" + child_field->name() + ")";
      if (child.is_object() && child.contains("name")) {
        const Json& name = child["name"];
        if (!name.is_string() || name.get_ref<const std::string&>() != child_field->name())
          return Status::Invalid(child_path, ".name: column is named ", Truncated(name),
                                 " but the schema's field is \"", child_field->name(), "\"");
      }
      const FieldNode* node = static_cast<size_t>(i) < child_nodes_.size() ? &child_nodes_[static_cast<size_t>(i)] : nullptr;
      ALKAID_ASSIGN_OR_RAISE(
          auto data, ReadColumn(child, child_field->type(), node ? node->children : NoChildNodes(),
                                node ? node->dictionary_id : std::nullopt, child_path,
                                expected_length, ctx_));
      children.push_back(std::move(data));
    }
    return children;
  }

  template <typename RunEnd>
  Status CheckRunEndsOf(const ArrayData& run_ends) {
    const RunEnd* ends = run_ends.GetValues<RunEnd>(1);
    int64_t previous = 0;
    for (int64_t i = 0; i < run_ends.length; ++i) {
      if (ends[i] <= previous)
        return Status::Invalid(path_, ".children[0](run_ends).DATA[", i, "]: run end ", ends[i],
                               " must be greater than ", previous, " (run ends strictly increase from 1)");
      previous = ends[i];
    }
    if (previous < length_)
      return Status::Invalid(path_, ": run ends cover ", previous, " slots but count is ", length_);
    return Status::OK();
  }

  Status CheckRunEnds(const ArrayData& run_ends) {
    return VisitRunEndType(*run_ends.type, [&](auto zero) -> Status {
      return CheckRunEndsOf<decltype(zero)>(run_ends);
    });
  }

  const Json& col_;
  DataTypePtr type_;
  const std::vector<FieldNode>& child_nodes_;
  std::optional<int64_t> dictionary_id_;
  std::string path_;
  int64_t length_;
  ReadContext* ctx_;

  BufferPtr validity_;
  int64_t null_count_ = 0;
  ArrayDataPtr out_;
};

Result<ArrayDataPtr> ReadColumn(const Json& col, const DataTypePtr& type,
                                const std::vector<FieldNode>& child_nodes,
                                std::optional<int64_t> dictionary_id, const std::string& path,
                                std::optional<int64_t> expected_length, ReadContext* ctx) {
  if (!col.is_object()) return Status::Invalid(path, ": expected a column object, got ", col.type_name());
  auto count = col.find("count");
  if (count == col.end()) return Status::Invalid(path, ": missing member \"count\"");
  int64_t length;
  if (!count->is_number_integer() || !DecodeInteger(*count, &length) || length < 0)
    return Status::Invalid(path, ".count: expected a non-negative integer, got ", Truncated(*count));
  if (expected_length && length != *expected_length)
    return Status::Invalid(path, ".count: is ", length, " but ", *expected_length,
                           " is required by the parent");
  ColumnReader reader(col, type, child_nodes, dictionary_id, path, length, ctx);
  ALKAID_RETURN_NOT_OK(VisitTypeInline(*type, &reader));
  return reader.Finish();
}

// ---------------------------------------------------------------------------
// Whole file

std::string ColumnPath(const std::string& prefix, size_t i, const std::string& name) {
  return prefix + "[" + std::to_string(i) + "](" + name + ")";
}

void IndexDictionaryFields(const std::vector<FieldNode>& nodes, std::map<int64_t, const FieldNode*>* out) {
  for (const FieldNode& node : nodes) {
    if (node.dictionary_id) out->emplace(*node.dictionary_id, &node);
    IndexDictionaryFields(node.children, out);
  }
}

class FileReader {
 public:
  explicit FileReader(const IntegrationReadOptions& options) : options_(options) {}

  Result<IntegrationFile> Read(const Json& root) {
    if (!root.is_object()) return Status::Invalid("integration JSON: the top level must be an object");
    auto schema = root.find("schema");
    if (schema == root.end()) return Status::Invalid("integration JSON: missing member \"schema\"");
    ALKAID_ASSIGN_OR_RAISE(parsed_, internal::ParseSchema(*schema, "schema",
                                                             options_.max_recursion_depth));
    IndexDictionaryFields(parsed_.fields, &dictionary_fields_);
    file_.schema = parsed_.schema;
    file_.dictionary_ids = parsed_.dictionary_ids;

    auto dictionaries = root.find("dictionaries");
    if (dictionaries != root.end() && !dictionaries->is_null()) {
      if (!dictionaries->is_array()) return Status::Invalid("dictionaries: expected an array");
      for (size_t i = 0; i < dictionaries->size(); ++i)
        ALKAID_RETURN_NOT_OK(ReadDictionary((*dictionaries)[i], "dictionaries[" + std::to_string(i) + "]"));
    }
    auto batches = root.find("batches");
    if (batches == root.end()) return Status::Invalid("integration JSON: missing member \"batches\"");
    if (!batches->is_array()) return Status::Invalid("batches: expected an array");
    for (size_t i = 0; i < batches->size(); ++i) {
      ALKAID_ASSIGN_OR_RAISE(auto batch, ReadBatch((*batches)[i], "batches[" + std::to_string(i) + "]"));
      file_.batches.push_back(std::move(batch));
    }
    ALKAID_RETURN_NOT_OK(ResolveDictionaries());
    ALKAID_RETURN_NOT_OK(ValidateBatches());
    return std::move(file_);
  }

 private:
  Status ReadDictionary(const Json& dict, const std::string& path) {
    if (!dict.is_object()) return Status::Invalid(path, ": expected an object {id, data}");
    auto id_it = dict.find("id");
    int64_t id;
    if (id_it == dict.end() || !id_it->is_number_integer() || !DecodeInteger(*id_it, &id))
      return Status::Invalid(path, ".id: expected an integer");
    auto field = dictionary_fields_.find(id);
    if (field == dictionary_fields_.end())
      return Status::Invalid(path, ".id: no field of the schema uses dictionary id ", id);
    if (file_.dictionaries.count(id) != 0)
      return Status::NotImplemented(path, ": dictionary id ", id,
                                    " appears twice (deltas and replacements have no JSON form)");
    auto data = dict.find("data");
    if (data == dict.end() || !data->is_object())
      return Status::Invalid(path, ".data: expected an object {count, columns}");
    auto columns = data->find("columns");
    if (columns == data->end() || !columns->is_array() || columns->size() != 1)
      return Status::Invalid(path, ".data.columns: expected an array of exactly one column");
    const auto& dict_type = static_cast<const DictionaryType&>(internal::UnwrapExtension(*field->second->field->type()));
    ALKAID_ASSIGN_OR_RAISE(std::optional<int64_t> count, BatchCount(*data, path + ".data"));
    ALKAID_ASSIGN_OR_RAISE(
        auto values, ReadColumn((*columns)[0], dict_type.value_type(), field->second->children,
                                std::nullopt, path + ".data.columns[0]", count, &ctx_));
    file_.dictionaries.emplace(id, std::move(values));
    return Status::OK();
  }

  Result<std::optional<int64_t>> BatchCount(const Json& batch, const std::string& path) {
    auto count = batch.find("count");
    if (count == batch.end()) return Status::Invalid(path, ": missing member \"count\"");
    int64_t n;
    if (!count->is_number_integer() || !DecodeInteger(*count, &n) || n < 0)
      return Status::Invalid(path, ".count: expected a non-negative integer");
    return std::optional<int64_t>(n);
  }

  Result<RecordBatchPtr> ReadBatch(const Json& batch, const std::string& path) {
    if (!batch.is_object()) return Status::Invalid(path, ": expected an object {count, columns}");
    ALKAID_ASSIGN_OR_RAISE(std::optional<int64_t> count, BatchCount(batch, path));
    auto columns = batch.find("columns");
    const Schema& schema = *parsed_.schema;
    if (columns == batch.end() || !columns->is_array())
      return Status::Invalid(path, ".columns: expected an array");
    if (columns->size() != static_cast<size_t>(schema.num_fields()))
      return Status::Invalid(path, ".columns: has ", columns->size(), " columns but the schema has ",
                             schema.num_fields(), " fields");
    ArrayDataVector data;
    for (int i = 0; i < schema.num_fields(); ++i) {
      const FieldNode& node = parsed_.fields[static_cast<size_t>(i)];
      const Json& col = (*columns)[static_cast<size_t>(i)];
      std::string col_path = ColumnPath(path + ".columns", static_cast<size_t>(i), node.field->name());
      if (col.is_object() && col.contains("name")) {
        const Json& name = col["name"];
        if (!name.is_string() || name.get_ref<const std::string&>() != node.field->name())
          return Status::Invalid(col_path, ".name: column is named ", Truncated(name),
                                 " but schema field ", i, " is \"", node.field->name(), "\"");
      }
      ALKAID_ASSIGN_OR_RAISE(auto column, ReadColumn(col, node.field->type(), node.children,
                                                     node.dictionary_id, col_path, count, &ctx_));
      data.push_back(std::move(column));
    }
    return RecordBatch::Make(parsed_.schema, *count, std::move(data));
  }

  Status ResolveDictionaries() {
    for (PendingDictionary& p : ctx_.pending) {
      auto it = file_.dictionaries.find(p.id);
      if (it != file_.dictionaries.end()) {
        p.data->dictionary = it->second;
        continue;
      }
      if (p.data->length > 0)
        return Status::Invalid(p.path, ": uses dictionary id ", p.id, " but no dictionary has that id");
      // An empty column may go without a dictionary batch; give it an empty one.
      const auto& dict_type = static_cast<const DictionaryType&>(p.data->storage_type());
      ALKAID_ASSIGN_OR_RAISE(p.data->dictionary, MakeArrayOfNull(dict_type.value_type(), 0));
    }
    return Status::OK();
  }

  // The checks above are local to each JSON array (counts, encodings); what
  // spans arrays (dictionary indices against the dictionary, offsets against
  // child lengths, run ends, union codes) is left to the same full validation
  // every other reader applies, so JSON cannot build what IPC would refuse.
  Status ValidateBatches() {
    ValidateOptions validate;
    validate.full = true;
    for (size_t b = 0; b < file_.batches.size(); ++b) {
      const RecordBatch& batch = *file_.batches[b];
      for (int c = 0; c < batch.num_columns(); ++c) {
        std::string path = ColumnPath("batches[" + std::to_string(b) + "].columns",
                                      static_cast<size_t>(c), batch.column_name(c));
        validate.root_name = path;
        ALKAID_RETURN_NOT_OK(ValidateArray(*batch.column_data(c), validate));
      }
    }
    return Status::OK();
  }

  IntegrationReadOptions options_;
  internal::ParsedSchema parsed_;
  std::map<int64_t, const FieldNode*> dictionary_fields_;
  ReadContext ctx_;
  IntegrationFile file_;
};

}  // namespace

namespace internal {

Status CheckJsonNesting(std::string_view text, int max_nesting) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (in_string) {
      if (ch == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    switch (ch) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > max_nesting)
          return Status::Invalid("integration JSON: arrays and objects nested deeper than ",
                                 max_nesting, " levels at byte offset ", i);
        break;
      case ']':
      case '}': --depth; break;
      default: break;
    }
  }
  return Status::OK();
}

}  // namespace internal

Result<IntegrationFile> ParseIntegrationJson(std::string_view text,
                                             const IntegrationReadOptions& options) {
  if (options.max_recursion_depth < 1)
    return Status::Invalid("IntegrationReadOptions: max_recursion_depth must be positive");
  // nlohmann's parser itself is iterative, but destroying or walking a deep
  // DOM and our readers recurse; refusing deep text up front bounds them all.
  ALKAID_RETURN_NOT_OK(
      internal::CheckJsonNesting(text, internal::MaxJsonNesting(options.max_recursion_depth)));
  try {
    Json root = Json::parse(text.begin(), text.end());
    FileReader reader(options);
    return reader.Read(root);
  } catch (const nlohmann::json::parse_error& e) {
    return Status::Invalid("integration JSON is not valid JSON: ", e.what());
  } catch (const nlohmann::json::exception& e) {
    return Status::Invalid("integration JSON: unexpected structure: ", e.what());
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("integration JSON: out of memory while parsing");
  }
}

Result<IntegrationFile> ReadIntegrationFile(const std::string& path,
                                            const IntegrationReadOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(std::string text, ReadMaybeGzip(path, options));
  auto file = ParseIntegrationJson(text, options);
  if (!file.ok()) return file.status().WithContext(path);
  return file;
}

}  // namespace alkaid::integration_json
