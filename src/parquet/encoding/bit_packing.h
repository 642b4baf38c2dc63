// Bit packing as Parquet uses it: values of a fixed bit width packed back to
// back, least significant bit first (the RLE/bit-packed hybrid, DELTA_BINARY_PACKED
// miniblocks, PLAIN booleans), and LEB128/zigzag varints. Internal to the parquet module.
//
// The unpackers work a group of 32 values at a time with one kernel per bit
// width (the shifts and masks are constants, so the compiler unrolls them);
// callers keep whole groups where they can and the tail goes through a slower
// path. Nothing here checks lengths: callers bound `count` by the bytes they
// have first (BitPackedBytes). All functions are pure: any thread may call them.
#pragma once

#include <cstdint>
#include <cstring>

#include "alkaid/bitmap.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

// The bitmap helpers every encoding uses, by their short names.
using bit_util::ClearBit;
using bit_util::CopyBitmap;
using bit_util::GetBit;
using bit_util::SetBit;
using bit_util::SetBitsTo;
using bit_util::SetBitTo;
using bit_util::VisitSetBits;

/// Bytes that `count` values of `bit_width` bits occupy when packed.
inline int64_t BitPackedBytes(int64_t count, int bit_width) {
  return (count * bit_width + 7) >> 3;
}

/// Unpacks `count` values of `bit_width` bits (0..32) from `in` into `out`.
/// Reads at most `readable` bytes at `in` (at least BitPackedBytes(count,
/// bit_width)); with 16 or more to spare it reads the input in place,
/// otherwise the last groups go through a padded copy.
ALKAID_EXPORT void UnpackBits32(const uint8_t* in, int bit_width, int64_t count, uint32_t* out,
                                 int64_t readable);
/// Same for widths 0..64 into 64-bit values (DELTA_BINARY_PACKED of INT64).
ALKAID_EXPORT void UnpackBits64(const uint8_t* in, int bit_width, int64_t count, uint64_t* out,
                                 int64_t readable);
/// The same reading exactly BitPackedBytes(count, bit_width) bytes.
inline void UnpackBits32(const uint8_t* in, int bit_width, int64_t count, uint32_t* out) {
  UnpackBits32(in, bit_width, count, out, (count * bit_width + 7) >> 3);
}
inline void UnpackBits64(const uint8_t* in, int bit_width, int64_t count, uint64_t* out) {
  UnpackBits64(in, bit_width, count, out, (count * bit_width + 7) >> 3);
}

/// Packs the low `bit_width` bits (0..32) of `count` values into `out`, which
/// must have BitPackedBytes(count, bit_width) bytes; returns that byte count.
ALKAID_EXPORT int64_t PackBits32(const uint32_t* in, int bit_width, int64_t count, uint8_t* out);
/// Same for widths 0..64.
ALKAID_EXPORT int64_t PackBits64(const uint64_t* in, int bit_width, int64_t count, uint8_t* out);

/// Unpacks values of the deprecated BIT_PACKED encoding (most significant bit
/// first, widths 0..16, levels only) into 16-bit levels.
ALKAID_EXPORT void UnpackBitsMsbFirst(const uint8_t* in, int bit_width, int64_t count,
                                       int16_t* out);

/// The number of bits needed to store `max_value` (0 for 0).
inline int BitWidthOf(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}

/// Reads an unsigned LEB128 varint of at most 64 bits from [*pos, end); advances
/// *pos past it. False when the input ends first or the varint has more than
/// ten bytes or overflows 64 bits.
inline bool ReadUleb128(const uint8_t** pos, const uint8_t* end, uint64_t* out) {
  uint64_t result = 0;
  int shift = 0;
  const uint8_t* p = *pos;
  while (p < end) {
    const uint8_t byte = *p++;
    if (shift == 63 && byte > 1) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *pos = p;
      *out = result;
      return true;
    }
    shift += 7;
    if (shift > 63) return false;
  }
  return false;
}

/// Reads a zigzag LEB128 varint (signed).
inline bool ReadZigZag(const uint8_t** pos, const uint8_t* end, int64_t* out) {
  uint64_t raw;
  if (!ReadUleb128(pos, end, &raw)) return false;
  *out = static_cast<int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
  return true;
}

/// Writes `value` as unsigned LEB128 into `out` (room for 10 bytes); returns the byte count.
inline int WriteUleb128(uint64_t value, uint8_t* out) {
  int n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

/// Writes `value` as zigzag LEB128 (room for 10 bytes); returns the byte count.
inline int WriteZigZag(int64_t value, uint8_t* out) {
  const uint64_t u = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  return WriteUleb128(u, out);
}

/// Little-endian loads and stores of unaligned values.
template <typename T>
inline T LoadLE(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void StoreLE(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace alkaid::parquet::internal
