// Shared helpers of the validate_*_test.cc files: hand-built buffers and arrays,
// and expectations on the Status of ValidateArray / ValidateArrayFull.

#pragma once

#include "alkaid/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alkaid/type.h"
#include "alkaid/utf8.h"
#include "test_util/array_from_json.h"

namespace alkaid::validate_test {

using ::testing::HasSubstr;

// ---------------------------------------------------------------------------
// Buffer and array helpers

inline BufferPtr Bytes(const void* data, size_t size) {
  std::shared_ptr<uint8_t[]> memory(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(memory.get(), data, size);
  return std::make_shared<Buffer>(memory.get(), static_cast<int64_t>(size),
                                  std::shared_ptr<const void>(memory, memory.get()));
}

inline BufferPtr Str(std::string_view s) { return Bytes(s.data(), s.size()); }

template <typename T>
inline BufferPtr Values(const std::vector<T>& values) {
  return Bytes(values.data(), values.size() * sizeof(T));
}

// "1101" -> bit i set when character i is '1'.
inline BufferPtr Bits(std::string_view bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return Values(bytes);
}

// Test buffers are our own heap copies, so writing to them is fine.
inline uint8_t* Mutable(const BufferPtr& buffer) { return const_cast<uint8_t*>(buffer->data()); }

template <typename T>
inline void Poke(const BufferPtr& buffer, int64_t index, T value) {
  std::memcpy(Mutable(buffer) + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
}

inline BufferPtr Truncated(const BufferPtr& buffer, int64_t size) {
  return Bytes(buffer->data(), static_cast<size_t>(size));
}

inline int64_t CountZeros(std::string_view bits) {
  int64_t n = 0;
  for (char c : bits) n += c == '0';
  return n;
}

template <typename T>
inline ArrayDataPtr Primitive(DataTypePtr type, const std::vector<T>& values,
                              std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  int64_t nulls = validity.empty() ? 0 : CountZeros(validity);
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {bitmap, Values(values)}, nulls);
}

inline ArrayDataPtr Int32s(const std::vector<int32_t>& values, std::string_view validity = "") {
  return Primitive(int32(), values, validity);
}

// utf8/binary (int32 offsets) or large_utf8/large_binary (int64 offsets).
inline ArrayDataPtr Strings(const DataTypePtr& type, const std::vector<std::string>& values,
                            std::string_view validity = "") {
  std::string chars;
  std::vector<int64_t> offsets{0};
  for (const auto& v : values) {
    chars += v;
    offsets.push_back(static_cast<int64_t>(chars.size()));
  }
  BufferPtr offsets_buffer;
  if (type->id() == TypeId::kLargeString || type->id() == TypeId::kLargeBinary) {
    offsets_buffer = Values(offsets);
  } else {
    offsets_buffer = Values(std::vector<int32_t>(offsets.begin(), offsets.end()));
  }
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()),
                         {bitmap, offsets_buffer, Str(chars)},
                         validity.empty() ? 0 : CountZeros(validity));
}

// binary_view / utf8_view; values longer than 12 bytes go to one data buffer.
inline ArrayDataPtr Views(const DataTypePtr& type, const std::vector<std::string>& values,
                          std::string_view validity = "") {
  std::string data;
  std::vector<BinaryViewValue> views(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    BinaryViewValue view;
    std::memset(&view, 0, sizeof(view));
    view.inlined.size = static_cast<int32_t>(values[i].size());
    if (values[i].size() <= 12) {
      std::memcpy(view.inlined.data, values[i].data(), values[i].size());
    } else {
      std::memcpy(view.ref.prefix, values[i].data(), 4);
      view.ref.buffer_index = 0;
      view.ref.offset = static_cast<int32_t>(data.size());
      data += values[i];
    }
    views[i] = view;
  }
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()),
                         {bitmap, Values(views), Str(data)},
                         validity.empty() ? 0 : CountZeros(validity));
}

inline ArrayDataPtr ListOf(const DataTypePtr& type, const std::vector<int32_t>& offsets,
                           ArrayDataPtr child, std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(offsets.size()) - 1, {bitmap, Values(offsets)},
                         {std::move(child)}, validity.empty() ? 0 : CountZeros(validity));
}

inline ArrayDataPtr Struct(const DataTypePtr& type, ArrayDataVector children, int64_t length,
                           std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, length, {bitmap}, std::move(children),
                         validity.empty() ? 0 : CountZeros(validity));
}

// ---------------------------------------------------------------------------
// Expectations

inline void ExpectValid(const ArrayData& data) {
  Status structural = ValidateArray(data);
  EXPECT_TRUE(structural.ok()) << structural.ToString();
  Status full = ValidateArrayFull(data);
  EXPECT_TRUE(full.ok()) << full.ToString();
}

inline void ExpectMessageHas(const Status& st, std::initializer_list<std::string_view> parts) {
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  for (auto part : parts) EXPECT_THAT(st.message(), HasSubstr(std::string(part)));
}

// Caught by the structural level (and therefore by the full level too).
inline void ExpectStructureInvalid(const ArrayData& data,
                                   std::initializer_list<std::string_view> parts) {
  ExpectMessageHas(ValidateArray(data), parts);
  ExpectMessageHas(ValidateArrayFull(data), parts);
}

// Structurally sound; only the full level reads the values that are wrong.
inline void ExpectDataInvalid(const ArrayData& data,
                              std::initializer_list<std::string_view> parts) {
  Status structural = ValidateArray(data);
  EXPECT_TRUE(structural.ok()) << structural.ToString();
  ExpectMessageHas(ValidateArrayFull(data), parts);
}

// Nested layouts (also used by the random-corruption test).

inline ArrayDataPtr MakeMap(const DataTypePtr& map_type, ArrayDataPtr keys, ArrayDataPtr items,
                            const std::vector<int32_t>& offsets) {
  const DataTypePtr& entries_type = map_type->field(0)->type();
  int64_t n = keys->length;
  auto entries = Struct(entries_type, {std::move(keys), std::move(items)}, n);
  return ListOf(map_type, offsets, entries);
}

inline DataTypePtr TwoMemberSparse() {
  return sparse_union({field("i", int32()), field("s", utf8())}, {2, 5});
}

inline ArrayDataPtr SparseUnion(const std::vector<int8_t>& ids) {
  int64_t n = static_cast<int64_t>(ids.size());
  std::vector<int32_t> ints(ids.size(), 7);
  std::vector<std::string> strs(ids.size(), "s");
  return ArrayData::Make(TwoMemberSparse(), n, {Values(ids)}, {Int32s(ints), Strings(utf8(), strs)},
                         0);
}

inline ArrayDataPtr DenseUnion(const std::vector<int8_t>& ids,
                               const std::vector<int32_t>& offsets) {
  auto type = dense_union({field("i", int32()), field("s", utf8())}, {0, 7});
  return ArrayData::Make(type, static_cast<int64_t>(ids.size()), {Values(ids), Values(offsets)},
                         {Int32s({10, 20}), Strings(utf8(), {"a", "b", "c"})}, 0);
}

template <typename I>
ArrayDataPtr DictArray(const DataTypePtr& index_type, const std::vector<I>& indices,
                       std::string_view validity = "") {
  auto a = Primitive(dictionary(index_type, utf8()), indices, validity);
  a->dictionary = Strings(utf8(), {"x", "y", "z"});
  return a;
}

inline ArrayDataPtr Ree(const std::vector<int32_t>& run_ends, const std::vector<int32_t>& values,
                        int64_t length, int64_t offset = 0) {
  auto type = run_end_encoded(int32(), int32());
  return ArrayData::Make(type, length, {}, {Int32s(run_ends), Int32s(values)}, 0, offset);
}

}  // namespace alkaid::validate_test
