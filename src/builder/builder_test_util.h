// Helpers of the builder tests: status assertions, buffer contents, validation and a small
// extension type.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/builder.h"
#include "alkaid/validate.h"

namespace alkaid::builder_test {

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    ::alkaid::Status _st = ::alkaid::ToStatus((expr));      \
    ASSERT_TRUE(_st.ok()) << _st.ToString();                \
  } while (false)

#define ASSERT_OK_AND_ASSIGN(lhs, rexpr)                          \
  auto ALKAID_CONCAT(_res_, __LINE__) = (rexpr);                  \
  ASSERT_TRUE(ALKAID_CONCAT(_res_, __LINE__).ok())                \
      << ALKAID_CONCAT(_res_, __LINE__).status().ToString();      \
  lhs = std::move(ALKAID_CONCAT(_res_, __LINE__)).MoveValueUnsafe()

// The buffer's bytes read as values of T.
template <typename T>
std::vector<T> ValuesOf(const BufferPtr& buffer) {
  std::vector<T> out(static_cast<size_t>(buffer->size()) / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), buffer->data(), out.size() * sizeof(T));
  return out;
}

inline std::vector<uint8_t> BytesOf(const BufferPtr& buffer) {
  return std::vector<uint8_t>(buffer->data(), buffer->data() + buffer->size());
}

// Every byte between size and capacity must be zero.
inline void ExpectZeroPadding(const BufferPtr& buffer) {
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer->capacity() % 64, 0);
  for (int64_t i = buffer->size(); i < buffer->capacity(); ++i) {
    ASSERT_EQ(buffer->data()[i], 0) << "padding byte " << i;
  }
}

inline void ExpectValid(const ArrayDataPtr& data) {
  ASSERT_NE(data, nullptr);
  Status st = ValidateArrayFull(*data);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

// An extension type over fixed_size_list<double>[2].
class PointType final : public ExtensionType {
 public:
  PointType() : ExtensionType(fixed_size_list(float64(), 2)) {}
  std::string extension_name() const override { return "test.point"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return DataTypePtr(std::make_shared<PointType>());
  }
};

}  // namespace alkaid::builder_test
