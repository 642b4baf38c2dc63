/// @file
/// Bit-level helpers for validity bitmaps and boolean data (LSB bit order).
/// Range operations work 64 bits at a time; per-bit helpers are inline.
#pragma once

#include <cstdint>
#include <cstring>

#include "alkaid/visibility.h"

namespace alkaid::bit_util {

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  // Branch-free: clear the bit, then or in the value.
  uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~mask) | (-static_cast<uint8_t>(value) & mask));
}
inline int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }
/// Set bits of one 64-bit word. Inline everywhere: where the target has no
/// popcnt instruction (the x86-64 baseline) a few shifts and one multiply
/// instead of the compiler's library call. For long bitmaps use
/// CountSetBits, which picks popcnt at run time.
inline int PopcountWord(uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
#endif
}

// Reads 64 bits starting at bit `offset` (may be unaligned) without reading
// past the byte holding bit offset + 63.
ALKAID_EXPORT uint64_t LoadWord(const uint8_t* bits, int64_t offset);
// Reads `n` (< 64) bits starting at bit `offset` into the low bits of a word.
ALKAID_EXPORT uint64_t LoadPartialWord(const uint8_t* bits, int64_t offset, int64_t n);

// Number of set bits in [offset, offset + length).
ALKAID_EXPORT int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

// Sets or clears every bit in [offset, offset + length).
ALKAID_EXPORT void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

// Copies `length` bits from src (starting at src_offset) to dst (starting at
// dst_offset). Bits of dst outside the destination range are preserved.
ALKAID_EXPORT void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                int64_t dst_offset);

// out[i] = left[i] op right[i] over `length` bits, each operand with its own
// bit offset. Bits of out outside the range are preserved.
ALKAID_EXPORT void BitmapAnd(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset);
ALKAID_EXPORT void BitmapOr(const uint8_t* left, int64_t left_offset, const uint8_t* right,
              int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset);
ALKAID_EXPORT void BitmapAndNot(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset);
ALKAID_EXPORT void InvertBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                  int64_t dst_offset);

// True when the two bit ranges hold the same bits.
ALKAID_EXPORT bool BitmapEquals(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length);

// Calls visit(word, nbits) for consecutive chunks of up to 64 bits of
// [offset, offset + length); a null `bits` pointer reads as all set. Lets
// callers skip runs of all-valid or all-null slots a word at a time.
template <typename Visit>
void VisitWords(const uint8_t* bits, int64_t offset, int64_t length, Visit&& visit) {
  int64_t pos = 0;
  while (pos < length) {
    int64_t n = length - pos < 64 ? length - pos : 64;
    uint64_t word;
    if (bits == nullptr) {
      word = n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1);
    } else {
      word = n == 64 ? LoadWord(bits, offset + pos) : LoadPartialWord(bits, offset + pos, n);
    }
    visit(word, n);
    pos += n;
  }
}

// Calls visit(i) for each set bit index i in [0, length) of the range
// starting at `offset`; a null `bits` pointer visits every index.
template <typename Visit>
void VisitSetBits(const uint8_t* bits, int64_t offset, int64_t length, Visit&& visit) {
  int64_t base = 0;
  VisitWords(bits, offset, length, [&](uint64_t word, int64_t n) {
    while (word != 0) {
      int bit = __builtin_ctzll(word);
      visit(base + bit);
      word &= word - 1;
    }
    base += n;
  });
}

}  // namespace alkaid::bit_util
