/// @file
/// The layout table: BufferSpec and DataTypeLayout say what each buffer of an
/// array of a type holds (DataType::layout() gives it for a type). The IPC reader
/// and writer, validation, the endian swap and the C Data bridge all take their
/// buffer rules from it.
///
/// Threads: plain values; safe to read from any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/visibility.h"

namespace alkaid {

/// Description of one buffer of an array: what it holds, how wide its
/// elements are, the alignment typed access needs and what a change of byte
/// order does to it. A list of these (DataTypeLayout) is the one statement of
/// a type's physical layout: the IPC reader and writer, validation and the
/// endian swap all take their buffer rules from it.
struct ALKAID_EXPORT BufferSpec {
  /// What a buffer holds.
  enum Kind : int8_t {
    kValidity,      ///< A bitmap, one bit per slot (1 = valid); may be absent when no nulls.
    kBitmapValues,  ///< Boolean values, one bit per slot.
    kFixedWidth,    ///< byte_width bytes per slot.
    kOffsets,       ///< Offsets of byte_width bytes: length + 1 of them when
                    ///< offsets_plus_one, else one per slot (list views).
    kSizes,         ///< length sizes of byte_width bytes (list views).
    kTypeIds,       ///< One int8 per slot (unions).
    kViews,         ///< 16-byte views (see BinaryViewValue).
    kData,          ///< Bytes of variable size (binary data), addressed by offsets or views.
  };
  /// What error messages call a buffer of `kind`: "validity bitmap", "offsets", ...
  static const char* KindName(Kind kind);
  /// What converting the buffer between big- and little-endian byte order
  /// does to each element.
  enum ByteSwap : int8_t {
    kSwapNone,          ///< Nothing: bitmaps, bytes, int8 values, fixed-size binary.
    kSwapElement,       ///< Reverse each element's byte_width bytes (integers, floats,
                        ///< decimals, temporal values, offsets, sizes).
    kSwapInt32Pairs,    ///< Two int32 per element, each reversed (day-time intervals).
    kSwapMonthDayNano,  ///< int32 months, int32 days, int64 nanoseconds, each reversed.
    kSwapViews,         ///< Binary views: the int32 length, and for out-of-line values the
                        ///< int32 buffer index and offset (inline bytes and prefix stay).
  };
  Kind kind;           ///< What the buffer holds.
  int byte_width = 0;  ///< Bytes per element for kFixedWidth, kOffsets, kSizes, kTypeIds
                       ///< (1) and kViews (16); 0 for bitmaps and kData.
  int alignment = 1;   ///< Alignment (a power of two) that typed access to the elements needs.
  ByteSwap swap = kSwapNone;     ///< What a byte-order change does to the elements.
  bool offsets_plus_one = false;  ///< kOffsets holding length + 1 entries (not list views).

  /// A validity bitmap.
  static constexpr BufferSpec Validity() { return {kValidity}; }
  /// A bitmap of boolean values.
  static constexpr BufferSpec BitmapValues() { return {kBitmapValues}; }
  /// Fixed-width slots of `width` bytes, typed access aligned to `align`.
  static constexpr BufferSpec FixedWidth(int width, int align, ByteSwap byte_swap) {
    return {kFixedWidth, width, align, byte_swap};
  }
  /// length + 1 offsets of `width` bytes (lists, maps, binary and strings).
  static constexpr BufferSpec Offsets(int width) {
    return {kOffsets, width, width, kSwapElement, true};
  }
  /// One offset of `width` bytes per slot (list views).
  static constexpr BufferSpec ViewOffsets(int width) {
    return {kOffsets, width, width, kSwapElement, false};
  }
  /// One size of `width` bytes per slot (list views).
  static constexpr BufferSpec Sizes(int width) { return {kSizes, width, width, kSwapElement}; }
  /// One int8 type id per slot (unions).
  static constexpr BufferSpec TypeIds() { return {kTypeIds, 1}; }
  /// 16-byte binary views.
  static constexpr BufferSpec Views() { return {kViews, 16, 4, kSwapViews}; }
  /// Variable-size bytes addressed by offsets or views.
  static constexpr BufferSpec Data() { return {kData}; }

  /// Bytes this buffer must hold for `length` slots, or -1 when that does
  /// not fit in 64 bits or `length` is negative. Offsets (offsets_plus_one)
  /// need length + 1 entries, or none at all when `length` is 0; kData is
  /// bounded by its offsets or views, not by the slot count, so needs 0.
  constexpr int64_t RequiredBytes(int64_t length) const {
    if (length < 0) return -1;
    switch (kind) {
      case kValidity:
      case kBitmapValues:
        return length / 8 + (length % 8 != 0 ? 1 : 0);
      case kData:
        return 0;
      default:
        break;
    }
    int64_t count = length;
    if (offsets_plus_one) {
      if (length == 0) return 0;
      if (__builtin_add_overflow(length, int64_t{1}, &count)) return -1;
    }
    int64_t bytes;
    if (__builtin_mul_overflow(count, static_cast<int64_t>(byte_width), &bytes)) return -1;
    return bytes;
  }
};

/// The buffers an array of some type has, in ArrayData::buffers order.
struct ALKAID_EXPORT DataTypeLayout {
  /// Fixed buffers in order; empty for types without buffers of their own
  /// (null, run-end encoded).
  std::vector<BufferSpec> buffers;
  /// Binary/utf8 views have any number of data buffers after the fixed ones
  /// (their counts travel in IPC as variadic buffer counts).
  bool variadic_data = false;
  /// Whether the first buffer is a validity bitmap (false for null, unions
  /// and run-end encoded types, which have none).
  bool has_validity() const { return !buffers.empty() && buffers[0].kind == BufferSpec::kValidity; }
};

}  // namespace alkaid
