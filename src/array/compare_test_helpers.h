// Hand-built arrays for the comparison and printer tests. They set every
// buffer explicitly so that tests can control physical encodings (shifted
// offsets, garbage under nulls, shared list views, view buffers) that
// builders would never produce.
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/type.h"

namespace alkaid::compare_test {

template <typename T>
using Opt = std::optional<T>;
inline constexpr std::nullopt_t N = std::nullopt;

template <typename T>
BufferPtr Buf(const std::vector<T>& values) {
  return Buffer::Copy(reinterpret_cast<const uint8_t*>(values.data()),
                      static_cast<int64_t>(values.size() * sizeof(T)))
      .ValueOrDie();
}

inline BufferPtr Bits(const std::vector<bool>& bits) {
  auto buf = AllocateBitmap(static_cast<int64_t>(bits.size())).ValueOrDie();
  for (size_t i = 0; i < bits.size(); ++i)
    bit_util::SetBitTo(buf->mutable_data(), static_cast<int64_t>(i), bits[i]);
  return buf;
}

// Validity of optional values; nullptr when all are present.
template <typename T>
BufferPtr Validity(const std::vector<Opt<T>>& values, int64_t* nulls) {
  std::vector<bool> bits;
  *nulls = 0;
  for (const auto& v : values) {
    bits.push_back(v.has_value());
    *nulls += v ? 0 : 1;
  }
  return *nulls ? Bits(bits) : nullptr;
}

inline BufferPtr ValidityFromBools(const std::vector<bool>& valid, int64_t* nulls) {
  *nulls = 0;
  for (bool b : valid) *nulls += b ? 0 : 1;
  return *nulls ? Bits(valid) : nullptr;
}

// Fixed-width values; null slots hold `garbage`.
template <typename C>
ArrayDataPtr Prim(const DataTypePtr& type, const std::vector<Opt<C>>& values, C garbage = C{}) {
  std::vector<C> raw;
  for (const auto& v : values) raw.push_back(v.value_or(garbage));
  int64_t nulls;
  auto validity = Validity(values, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), {validity, Buf(raw)}, nulls);
}

inline ArrayDataPtr I32(const std::vector<Opt<int32_t>>& v, int32_t garbage = 0) {
  return Prim<int32_t>(int32(), v, garbage);
}
inline ArrayDataPtr I64(const std::vector<Opt<int64_t>>& v) { return Prim<int64_t>(int64(), v); }
inline ArrayDataPtr F64(const std::vector<Opt<double>>& v) { return Prim<double>(float64(), v); }
inline ArrayDataPtr F32(const std::vector<Opt<float>>& v) { return Prim<float>(float32(), v); }

inline ArrayDataPtr Bools(const std::vector<Opt<bool>>& values, bool garbage = false) {
  std::vector<bool> bits;
  for (const auto& v : values) bits.push_back(v.value_or(garbage));
  int64_t nulls;
  auto validity = Validity(values, &nulls);
  return ArrayData::Make(boolean(), static_cast<int64_t>(values.size()), {validity, Bits(bits)}, nulls);
}

// Binary-like arrays. `prefix` bytes of unrelated data come first, so the
// offsets start at prefix.size(); null slots get `garbage` bytes.
template <typename O = int32_t>
ArrayDataPtr Str(const DataTypePtr& type, const std::vector<Opt<std::string>>& values,
                 const std::string& prefix = "", const std::string& garbage = "") {
  std::vector<O> offsets{static_cast<O>(prefix.size())};
  std::string data = prefix;
  for (const auto& v : values) {
    data += v ? *v : garbage;
    offsets.push_back(static_cast<O>(data.size()));
  }
  int64_t nulls;
  auto validity = Validity(values, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()),
                         {validity, Buf(offsets), Buffer::Copy(reinterpret_cast<const uint8_t*>(data.data()),
                                                               static_cast<int64_t>(data.size()))
                                                      .ValueOrDie()},
                         nulls);
}
inline ArrayDataPtr Utf8(const std::vector<Opt<std::string>>& v, const std::string& prefix = "",
                         const std::string& garbage = "") {
  return Str<int32_t>(utf8(), v, prefix, garbage);
}

// Views. Strings longer than 12 bytes go to data buffer (i + rotate) % nbuf,
// after `pad` bytes of filler, so different calls lay the same strings out
// differently.
inline ArrayDataPtr Views(const DataTypePtr& type, const std::vector<Opt<std::string>>& values,
                          int num_buffers = 1, int rotate = 0, const std::string& pad = "") {
  std::vector<std::string> data(static_cast<size_t>(num_buffers), pad);
  std::vector<BinaryViewValue> views;
  for (size_t i = 0; i < values.size(); ++i) {
    BinaryViewValue v{};
    const std::string s = values[i].value_or("");
    v.inlined.size = static_cast<int32_t>(s.size());
    if (s.size() <= 12) {
      std::memcpy(v.inlined.data, s.data(), s.size());
    } else {
      const size_t b = (i + static_cast<size_t>(rotate)) % static_cast<size_t>(num_buffers);
      std::memcpy(v.ref.prefix, s.data(), 4);
      v.ref.buffer_index = static_cast<int32_t>(b);
      v.ref.offset = static_cast<int32_t>(data[b].size());
      data[b] += s;
    }
    views.push_back(v);
  }
  int64_t nulls;
  auto validity = Validity(values, &nulls);
  BufferVector buffers{validity, Buf(views)};
  for (const auto& d : data)
    buffers.push_back(
        Buffer::Copy(reinterpret_cast<const uint8_t*>(d.data()), static_cast<int64_t>(d.size())).ValueOrDie());
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), std::move(buffers), nulls);
}

template <typename O = int32_t>
ArrayDataPtr List(const DataTypePtr& type, const std::vector<O>& offsets, const ArrayDataPtr& child,
                  const std::vector<bool>& valid = {}) {
  int64_t nulls;
  auto validity = ValidityFromBools(valid, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(offsets.size()) - 1, {validity, Buf(offsets)},
                         {child}, nulls);
}

template <typename O = int32_t>
ArrayDataPtr ListView(const DataTypePtr& type, const std::vector<O>& offsets, const std::vector<O>& sizes,
                      const ArrayDataPtr& child, const std::vector<bool>& valid = {}) {
  int64_t nulls;
  auto validity = ValidityFromBools(valid, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(offsets.size()), {validity, Buf(offsets), Buf(sizes)},
                         {child}, nulls);
}

inline ArrayDataPtr FixedList(const DataTypePtr& type, int64_t length, const ArrayDataPtr& child,
                              const std::vector<bool>& valid = {}) {
  int64_t nulls;
  auto validity = ValidityFromBools(valid, &nulls);
  return ArrayData::Make(type, length, {validity}, {child}, nulls);
}

inline ArrayDataPtr Struct(const DataTypePtr& type, int64_t length, const ArrayDataVector& children,
                           const std::vector<bool>& valid = {}) {
  int64_t nulls;
  auto validity = ValidityFromBools(valid, &nulls);
  return ArrayData::Make(type, length, {validity}, children, nulls);
}

inline ArrayDataPtr SparseUnion(const DataTypePtr& type, const std::vector<int8_t>& codes,
                                const ArrayDataVector& children) {
  return ArrayData::Make(type, static_cast<int64_t>(codes.size()), {Buf(codes)}, children, 0);
}

inline ArrayDataPtr DenseUnion(const DataTypePtr& type, const std::vector<int8_t>& codes,
                               const std::vector<int32_t>& offsets, const ArrayDataVector& children) {
  return ArrayData::Make(type, static_cast<int64_t>(codes.size()), {Buf(codes), Buf(offsets)}, children, 0);
}

// Dictionary array with int8 indices (null slots hold `garbage`).
inline ArrayDataPtr Dict(const DataTypePtr& type, const std::vector<Opt<int8_t>>& indices,
                         const ArrayDataPtr& dictionary, int8_t garbage = 0) {
  auto out = Prim<int8_t>(type, indices, garbage);
  out->dictionary = dictionary;
  return out;
}

template <typename R = int32_t>
ArrayDataPtr Ree(const DataTypePtr& type, int64_t length, const ArrayDataPtr& run_ends,
                 const ArrayDataPtr& values) {
  return ArrayData::Make(type, length, {}, {run_ends, values}, 0);
}

// An extension type over any storage, with a parameter that takes part in
// equality.
class TestExtType : public ExtensionType {
 public:
  explicit TestExtType(DataTypePtr storage, std::string param = "")
      : ExtensionType(std::move(storage)), param_(std::move(param)) {}
  std::string extension_name() const override { return "alkaid.compare_test"; }
  std::string Serialize() const override { return param_; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage, const std::string& s) const override {
    return DataTypePtr(std::make_shared<TestExtType>(std::move(storage), s));
  }

 private:
  std::string param_;
};

}  // namespace alkaid::compare_test
