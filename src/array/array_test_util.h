// Test-only helpers for the array tests: tiny builders from std::vector and
// a slot renderer that reads values through the typed views, so tests can
// check results by value without depending on comparison or printing.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/visit_type.h"

namespace alkaid::array_test {

template <typename T>
inline BufferPtr Buf(const std::vector<T>& values) {
  return Buffer::Copy(reinterpret_cast<const uint8_t*>(values.data()),
                      static_cast<int64_t>(values.size() * sizeof(T)))
      .ValueOrDie();
}

inline BufferPtr BitmapOf(const std::vector<bool>& bits) {
  auto buf = AllocateBitmap(static_cast<int64_t>(bits.size())).ValueOrDie();
  for (size_t i = 0; i < bits.size(); ++i) bit_util::SetBitTo(buf->mutable_data(), static_cast<int64_t>(i), bits[i]);
  return buf;
}

// The slots of `a` from `offset` to the end.
inline ArrayDataPtr Tail(const ArrayDataPtr& a, int64_t offset) { return a->Slice(offset, a->length - offset); }

// Validity bitmap for optional values, nullptr when every value is present.
template <typename T>
inline BufferPtr ValidityOf(const std::vector<std::optional<T>>& values, int64_t* nulls) {
  std::vector<bool> bits;
  *nulls = 0;
  for (const auto& v : values) {
    bits.push_back(v.has_value());
    if (!v) ++*nulls;
  }
  return *nulls == 0 ? nullptr : BitmapOf(bits);
}

template <typename C>
inline ArrayDataPtr Prim(const DataTypePtr& type, const std::vector<std::optional<C>>& values) {
  std::vector<C> raw;
  for (const auto& v : values) raw.push_back(v.value_or(C{}));
  int64_t nulls = 0;
  auto validity = ValidityOf(values, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), {validity, Buf(raw)}, nulls);
}

inline ArrayDataPtr Int32s(const std::vector<std::optional<int32_t>>& v) { return Prim<int32_t>(int32(), v); }
inline ArrayDataPtr Int64s(const std::vector<std::optional<int64_t>>& v) { return Prim<int64_t>(int64(), v); }
inline ArrayDataPtr Int8s(const std::vector<std::optional<int8_t>>& v) { return Prim<int8_t>(int8(), v); }

inline ArrayDataPtr Bools(const std::vector<std::optional<bool>>& values) {
  std::vector<bool> bits;
  for (const auto& v : values) bits.push_back(v.value_or(false));
  int64_t nulls = 0;
  auto validity = ValidityOf(values, &nulls);
  return ArrayData::Make(boolean(), static_cast<int64_t>(values.size()), {validity, BitmapOf(bits)},
                         nulls);
}

template <typename O = int32_t>
inline ArrayDataPtr Strings(const DataTypePtr& type, const std::vector<std::optional<std::string>>& values) {
  std::vector<O> offsets{0};
  std::string data;
  for (const auto& v : values) {
    if (v) data += *v;
    offsets.push_back(static_cast<O>(data.size()));
  }
  int64_t nulls = 0;
  auto validity = ValidityOf(values, &nulls);
  auto data_buf = Buffer::Copy(reinterpret_cast<const uint8_t*>(data.data()),
                               static_cast<int64_t>(data.size()))
                      .ValueOrDie();
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), {validity, Buf(offsets), data_buf},
                         nulls);
}
inline ArrayDataPtr Utf8s(const std::vector<std::optional<std::string>>& v) { return Strings<int32_t>(utf8(), v); }

// Views; long strings go to data buffer (i % num_buffers) so that several
// data buffers are in play.
inline ArrayDataPtr Views(const DataTypePtr& type, const std::vector<std::optional<std::string>>& values,
                          int num_buffers = 1) {
  std::vector<std::string> data(static_cast<size_t>(num_buffers));
  std::vector<BinaryViewValue> views;
  for (size_t i = 0; i < values.size(); ++i) {
    BinaryViewValue v{};
    const std::string s = values[i].value_or("");
    v.inlined.size = static_cast<int32_t>(s.size());
    if (s.size() <= 12) {
      std::memcpy(v.inlined.data, s.data(), s.size());
    } else {
      const size_t b = i % static_cast<size_t>(num_buffers);
      std::memcpy(v.ref.prefix, s.data(), 4);
      v.ref.buffer_index = static_cast<int32_t>(b);
      v.ref.offset = static_cast<int32_t>(data[b].size());
      data[b] += s;
    }
    views.push_back(v);
  }
  int64_t nulls = 0;
  auto validity = ValidityOf(values, &nulls);
  BufferVector buffers{validity, Buf(views)};
  for (const auto& d : data) buffers.push_back(Buffer::FromString(d));
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), std::move(buffers), nulls);
}

inline ArrayDataPtr ListOf(const DataTypePtr& type, const std::vector<int32_t>& offsets,
                           const ArrayDataPtr& child, const std::vector<bool>& valid = {}) {
  const int64_t length = static_cast<int64_t>(offsets.size()) - 1;
  int64_t nulls = 0;
  for (bool b : valid) nulls += b ? 0 : 1;
  BufferPtr validity = nulls ? BitmapOf(valid) : nullptr;
  return ArrayData::Make(type, length, {validity, Buf(offsets)}, {child}, nulls);
}

inline ArrayDataPtr StructOf(const DataTypePtr& type, int64_t length, const ArrayDataVector& children,
                             const std::vector<bool>& valid = {}) {
  int64_t nulls = 0;
  for (bool b : valid) nulls += b ? 0 : 1;
  BufferPtr validity = nulls ? BitmapOf(valid) : nullptr;
  return ArrayData::Make(type, length, {validity}, children, nulls);
}

// An extension over int32 storage (or any storage given).
class TestExtensionType : public ExtensionType {
 public:
  explicit TestExtensionType(DataTypePtr storage = int32()) : ExtensionType(std::move(storage)) {}
  std::string extension_name() const override { return "alkaid.test.ext"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage, const std::string&) const override {
    return DataTypePtr(std::make_shared<TestExtensionType>(std::move(storage)));
  }
};

// One instance of every type id (nested ones with small children).
inline std::vector<DataTypePtr> AllTestTypes() {
  return {null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(),
          float16(), float32(), float64(), decimal32(7, 2), decimal64(15, 3), decimal128(20, 4),
          decimal256(40, 5), date32(), date64(), time32(TimeUnit::kSecond), time64(TimeUnit::kNano),
          timestamp(TimeUnit::kMicro, "UTC"), duration(TimeUnit::kMilli), month_interval(),
          day_time_interval(), month_day_nano_interval(), fixed_size_binary(5), binary(), utf8(),
          large_binary(), large_utf8(), binary_view(), utf8_view(), list(int32()),
          large_list(utf8()), list_view(int16()), large_list_view(boolean()),
          fixed_size_list(int64(), 3), struct_({field("a", int32()), field("b", utf8())}),
          map(utf8(), int32()), sparse_union({field("i", int32()), field("s", utf8())}, {3, 7}),
          dense_union({field("i", int32()), field("s", utf8())}, {2, 5}),
          dictionary(int16(), utf8()), run_end_encoded(int32(), float64()),
          std::make_shared<TestExtensionType>(),
          list(struct_({field("x", list(int8())), field("y", fixed_size_list(utf8(), 2))}))};
}

// ---------------------------------------------------------------------------
// Rendering of a slot for value checks.

std::string Render(const ArrayDataPtr& data, int64_t i);

struct RenderVisitor {
  const ArrayDataPtr& data;
  int64_t i;
  std::string out;

  template <typename T>
  void Visit(const T&) {
    ArrayPtr array = MakeArray(data);
    if constexpr (std::is_same_v<T, NullType>) {
      out = "null";
    } else if constexpr (std::is_same_v<T, BooleanType>) {
      out = static_cast<const BooleanArray&>(*array).Value(i) ? "true" : "false";
    } else if constexpr (std::is_same_v<T, DayTimeIntervalType>) {
      auto v = static_cast<const NumericArray<T>&>(*array).Value(i);
      out = std::to_string(v.days) + "d" + std::to_string(v.milliseconds) + "ms";
    } else if constexpr (std::is_same_v<T, MonthDayNanoIntervalType>) {
      auto v = static_cast<const NumericArray<T>&>(*array).Value(i);
      out = std::to_string(v.months) + "m" + std::to_string(v.days) + "d" + std::to_string(v.nanoseconds) + "ns";
    } else if constexpr (is_decimal_v<T> || std::is_same_v<T, FixedSizeBinaryType>) {
      auto view = static_cast<const FixedSizeBinaryArray&>(*array).GetView(i);
      static const char* hex = "0123456789abcdef";
      for (unsigned char c : view) { out += hex[c >> 4]; out += hex[c & 15]; }
    } else if constexpr (is_base_binary_v<T>) {
      out = "\"" + static_cast<const BaseBinaryArray<T>&>(*array).GetString(i) + "\"";
    } else if constexpr (is_binary_view_v<T>) {
      out = "\"" + static_cast<const BinaryViewArrayOf<T>&>(*array).GetString(i) + "\"";
    } else if constexpr (std::is_same_v<T, ListType> || std::is_same_v<T, LargeListType> ||
                         std::is_same_v<T, MapType>) {
      using O = typename T::offset_type;
      const O* offsets = data->GetValues<O>(1);
      RenderRange(data->child_data[0], offsets[i], offsets[i + 1]);
    } else if constexpr (is_list_view_v<T>) {
      auto& a = static_cast<const BaseListViewArray<T>&>(*array);
      RenderRange(data->child_data[0], a.value_offset(i), a.value_offset(i) + a.value_length(i));
    } else if constexpr (std::is_same_v<T, FixedSizeListType>) {
      auto& a = static_cast<const FixedSizeListArray&>(*array);
      RenderRange(data->child_data[0], a.value_offset(i), a.value_offset(i) + a.list_size());
    } else if constexpr (std::is_same_v<T, StructType>) {
      auto& a = static_cast<const StructArray&>(*array);
      out = "{";
      for (int k = 0; k < a.num_fields(); ++k) {
        if (k) out += ",";
        out += Render(a.field(k)->data(), i);
      }
      out += "}";
    } else if constexpr (is_union_v<T>) {
      auto& a = static_cast<const UnionArray&>(*array);
      out = std::to_string(int{a.type_code(i)}) + ":" +
            Render(data->child_data[static_cast<size_t>(a.child_id(i))], a.value_offset(i));
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      auto& a = static_cast<const DictionaryArray&>(*array);
      out = Render(data->dictionary, a.GetValueIndex(i));
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      auto& a = static_cast<const RunEndEncodedArray&>(*array);
      out = Render(data->child_data[1], a.FindPhysicalIndex(i));
    } else if constexpr (std::is_same_v<T, ExtensionType>) {
      out = Render(static_cast<const ExtensionArray&>(*array).storage()->data(), i);
    } else {
      auto v = static_cast<const NumericArray<T>&>(*array).Value(i);
      if constexpr (std::is_floating_point_v<decltype(v)>) {
        std::ostringstream s;
        s << v;
        out = s.str();
      } else {
        out = std::to_string(v);
      }
    }
  }

  void RenderRange(const ArrayDataPtr& child, int64_t begin, int64_t end) {
    out = "[";
    for (int64_t j = begin; j < end; ++j) {
      if (j > begin) out += ",";
      out += Render(child, j);
    }
    out += "]";
  }
};

inline std::string Render(const ArrayDataPtr& data, int64_t i) {
  if (data->storage_type().id() != TypeId::kSparseUnion &&
      data->storage_type().id() != TypeId::kDenseUnion &&
      data->storage_type().id() != TypeId::kRunEndEncoded && data->IsNull(i)) {
    return "null";
  }
  RenderVisitor visitor{data, i, {}};
  VisitTypeInline(*data->type, &visitor);
  return visitor.out;
}

// Every slot rendered, e.g. {"1", "null", "[2,3]"}.
inline std::vector<std::string> RenderAll(const ArrayDataPtr& data) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < data->length; ++i) out.push_back(Render(data, i));
  return out;
}

}  // namespace alkaid::array_test
