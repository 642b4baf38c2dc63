/// @file
/// The variable-size byte-string types: binary and utf8 with 32- or 64-bit
/// offsets, and binary_view / utf8_view.
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
#pragma once

#include <cstdint>
#include <string>

#include "alkaid/type/data_type.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Variable-size binary with 32- or 64-bit offsets, and utf8 over the same layout.
///
/// Buffers: validity, (length + 1) offsets of OffsetT, then the value bytes;
/// value i is bytes [offsets[i], offsets[i + 1]).
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam OffsetT int32_t or int64_t
/// @tparam kId the TypeId of the concrete class
template <typename Derived, typename OffsetT, TypeId kId>
class BaseBinaryTypeOf : public DataType {
 public:
  using offset_type = OffsetT;  ///< Integer type of the offsets buffer.
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  /// Constructs the (parameterless) type.
  BaseBinaryTypeOf() : DataType(kId) {}
  /// Derived::kName, e.g. "binary".
  std::string name() const override { return Derived::kName; }
  /// Same as name(): no parameters.
  std::string ToString() const override { return Derived::kName; }
  /// Validity, offsets of sizeof(OffsetT) bytes, data.
  DataTypeLayout ComputeLayout() const override {
    return {{BufferSpec::Validity(), BufferSpec::Offsets(static_cast<int>(sizeof(OffsetT))),
             BufferSpec::Data()},
            false};
  }
};

/// Arbitrary bytes with 32-bit offsets (at most 2^31 - 1 bytes per array).
class ALKAID_EXPORT BinaryType final : public BaseBinaryTypeOf<BinaryType, int32_t, TypeId::kBinary> {
 public:
  static constexpr const char* kName = "binary";  ///< Type name.
};
/// UTF-8 text with 32-bit offsets; values must be valid UTF-8.
class ALKAID_EXPORT StringType final : public BaseBinaryTypeOf<StringType, int32_t, TypeId::kString> {
 public:
  static constexpr const char* kName = "string";  ///< Type name.
};
/// Arbitrary bytes with 64-bit offsets.
class ALKAID_EXPORT LargeBinaryType final
    : public BaseBinaryTypeOf<LargeBinaryType, int64_t, TypeId::kLargeBinary> {
 public:
  static constexpr const char* kName = "large_binary";  ///< Type name.
};
/// UTF-8 text with 64-bit offsets.
class ALKAID_EXPORT LargeStringType final
    : public BaseBinaryTypeOf<LargeStringType, int64_t, TypeId::kLargeString> {
 public:
  static constexpr const char* kName = "large_string";  ///< Type name.
};

/// One 16-byte view per slot. Strings of up to 12 bytes are inline; longer
/// ones keep a 4-byte prefix plus (buffer index, offset) into a data buffer.
/// Which member is active is decided by size(): inlined when size <= 12.
union BinaryViewValue {
  /// Form used when size <= kInlineSize: the bytes follow the size.
  struct {
    int32_t size;      ///< Length of the value in bytes.
    uint8_t data[12];  ///< The value, zero-padded after `size` bytes.
  } inlined;
  /// Form used when size > kInlineSize: the bytes live in a data buffer.
  struct {
    int32_t size;          ///< Length of the value in bytes.
    uint8_t prefix[4];     ///< First four bytes of the value (for fast comparison).
    int32_t buffer_index;  ///< Which variadic data buffer holds the value.
    int32_t offset;        ///< Byte offset of the value within that buffer.
  } ref;
  static constexpr int32_t kInlineSize = 12;  ///< Longest value stored inline, in bytes.
  static constexpr int32_t kPrefixSize = 4;   ///< Bytes of prefix kept in the ref form.
  /// Length of the value in bytes (same position in both forms).
  int32_t size() const { return inlined.size; }
  /// Whether the value is stored in the view itself (`inlined` is active).
  bool is_inline() const { return inlined.size <= kInlineSize; }
};
static_assert(sizeof(BinaryViewValue) == 16);

/// Base of binary_view and utf8_view: validity, a buffer of 16-byte
/// BinaryViewValue entries, then any number of data buffers.
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam kId the TypeId of the concrete class
template <typename Derived, TypeId kId>
class BinaryViewTypeOf : public DataType {
 public:
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  using c_type = BinaryViewValue;  ///< One element of the views buffer.
  /// Constructs the (parameterless) type.
  BinaryViewTypeOf() : DataType(kId) {}
  /// Derived::kName, e.g. "binary_view".
  std::string name() const override { return Derived::kName; }
  /// Same as name(): no parameters.
  std::string ToString() const override { return Derived::kName; }
  /// 128: the width of one view.
  int bit_width() const override { return 128; }
  /// Validity, 16-byte views, then variadic data buffers.
  DataTypeLayout ComputeLayout() const override {
    return {{BufferSpec::Validity(), BufferSpec::Views()}, true};
  }
};
/// Arbitrary bytes stored as 16-byte views.
class ALKAID_EXPORT BinaryViewType final : public BinaryViewTypeOf<BinaryViewType, TypeId::kBinaryView> {
 public:
  static constexpr const char* kName = "binary_view";  ///< Type name.
};
/// UTF-8 text stored as 16-byte views.
class ALKAID_EXPORT StringViewType final : public BinaryViewTypeOf<StringViewType, TypeId::kStringView> {
 public:
  static constexpr const char* kName = "string_view";  ///< Type name.
};

}  // namespace alkaid
