#include "alkaid/bitmap.h"

#include <algorithm>

#include "../util/cpu_features.h"

namespace alkaid::bit_util {

uint64_t LoadPartialWord(const uint8_t* bits, int64_t offset, int64_t n) {
  if (n <= 0) return 0;
  const uint8_t* p = bits + (offset >> 3);
  int shift = static_cast<int>(offset & 7);
  int64_t bytes = (shift + n + 7) >> 3;  // at most 9
  // Gather the bytes that hold the range into a 128-bit window.
  unsigned __int128 window = 0;
  for (int64_t b = 0; b < bytes; ++b) window |= static_cast<unsigned __int128>(p[b]) << (8 * b);
  uint64_t word = static_cast<uint64_t>(window >> shift);
  return n == 64 ? word : word & ((uint64_t{1} << n) - 1);
}

uint64_t LoadWord(const uint8_t* bits, int64_t offset) {
  const uint8_t* p = bits + (offset >> 3);
  int shift = static_cast<int>(offset & 7);
  uint64_t low;
  std::memcpy(&low, p, 8);
  if (shift == 0) return low;
  return (low >> shift) | (static_cast<uint64_t>(p[8]) << (64 - shift));
}

namespace {

template <typename Popcount>
[[gnu::always_inline]] inline int64_t SumPopcounts(const uint8_t* p, int64_t words, Popcount popcount) {
  int64_t count = 0;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t word;
    std::memcpy(&word, p + 8 * w, 8);
    count += popcount(word);
  }
  return count;
}

#if defined(__x86_64__)
// The x86-64 baseline has no popcnt instruction, so a copy of the loop is
// compiled for it and chosen at run time (src/util/cpu_features.h).
__attribute__((target("popcnt"))) int64_t PopcountWordsHardware(const uint8_t* p, int64_t words) {
  return SumPopcounts(p, words, [](uint64_t w) { return __builtin_popcountll(w); });
}
#endif

int64_t PopcountWords(const uint8_t* p, int64_t words) {
#if defined(__x86_64__)
  if (alkaid::internal::CpuHasPopcnt()) return PopcountWordsHardware(p, words);
#endif
  return SumPopcounts(p, words, [](uint64_t w) { return __builtin_popcountll(w); });
}

}  // namespace

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0) return 0;
  // Short bitmaps (small batches) are one partial word, not a bit loop.
  if (length <= 64) {
    const uint64_t word = LoadPartialWord(bits, offset, length);
    return PopcountWords(reinterpret_cast<const uint8_t*>(&word), 1);
  }
  int64_t count = 0;
  int64_t pos = offset;
  const int64_t end = offset + length;
  // Head up to a byte boundary, then whole words, then the tail.
  if ((pos & 7) != 0) {
    const int64_t head = std::min<int64_t>(8 - (pos & 7), end - pos);
    count += __builtin_popcount(static_cast<unsigned>(LoadPartialWord(bits, pos, head)));
    pos += head;
  }
  const int64_t words = (end - pos) >> 6;
  count += PopcountWords(bits + (pos >> 3), words);
  pos += words << 6;
  if (pos < end) {
    const uint64_t tail = LoadPartialWord(bits, pos, end - pos);
    count += PopcountWords(reinterpret_cast<const uint8_t*>(&tail), 1);
  }
  return count;
}

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  if (length <= 0) return;
  int64_t pos = offset;
  int64_t end = offset + length;
  while (pos < end && (pos & 7) != 0) SetBitTo(bits, pos++, value);
  int64_t whole = (end - pos) >> 3;
  if (whole > 0) {
    std::memset(bits + (pos >> 3), value ? 0xFF : 0, static_cast<size_t>(whole));
    pos += whole << 3;
  }
  while (pos < end) SetBitTo(bits, pos++, value);
}

namespace {

// Stores the low `n` bits of `word` at bit `offset` of dst, leaving the other
// bits of dst untouched.
inline void StoreBits(uint8_t* dst, int64_t offset, uint64_t word, int64_t n) {
  uint8_t* p = dst + (offset >> 3);
  int shift = static_cast<int>(offset & 7);
  if (n == 64) {
    if (shift == 0) {
      std::memcpy(p, &word, 8);
      return;
    }
    // Nine bytes are touched: keep the low `shift` bits of the first and the
    // high bits of the ninth.
    uint64_t low;
    std::memcpy(&low, p, 8);
    uint64_t keep = (uint64_t{1} << shift) - 1;
    low = (low & keep) | (word << shift);
    std::memcpy(p, &low, 8);
    p[8] = static_cast<uint8_t>((p[8] & ~keep) | (word >> (64 - shift)));
    return;
  }
  unsigned __int128 mask = ((n == 64) ? ~uint64_t{0} : ((uint64_t{1} << n) - 1));
  mask <<= shift;
  unsigned __int128 value = static_cast<unsigned __int128>(word) << shift;
  int64_t bytes = (shift + n + 7) >> 3;
  for (int64_t b = 0; b < bytes; ++b) {
    uint8_t m = static_cast<uint8_t>(mask >> (8 * b));
    uint8_t v = static_cast<uint8_t>(value >> (8 * b));
    p[b] = static_cast<uint8_t>((p[b] & ~m) | (v & m));
  }
}

template <typename Op>
void BinaryBitmapOp(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                    int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset,
                    Op op) {
  int64_t pos = 0;
  // Fast path: everything byte-aligned, do whole bytes through 64-bit words.
  if ((left_offset & 7) == 0 && (right_offset & 7) == 0 && (out_offset & 7) == 0) {
    const uint8_t* l = left + (left_offset >> 3);
    const uint8_t* r = right + (right_offset >> 3);
    uint8_t* o = out + (out_offset >> 3);
    int64_t words = length >> 6;
    for (int64_t w = 0; w < words; ++w) {
      uint64_t a, b;
      std::memcpy(&a, l + 8 * w, 8);
      std::memcpy(&b, r + 8 * w, 8);
      uint64_t c = op(a, b);
      std::memcpy(o + 8 * w, &c, 8);
    }
    pos = words << 6;
  }
  for (; pos + 64 <= length; pos += 64) {
    uint64_t a = LoadWord(left, left_offset + pos);
    uint64_t b = LoadWord(right, right_offset + pos);
    StoreBits(out, out_offset + pos, op(a, b), 64);
  }
  if (pos < length) {
    int64_t n = length - pos;
    uint64_t a = LoadPartialWord(left, left_offset + pos, n);
    uint64_t b = LoadPartialWord(right, right_offset + pos, n);
    StoreBits(out, out_offset + pos, op(a, b), n);
  }
}

}  // namespace

void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                int64_t dst_offset) {
  if (length <= 0) return;
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    int64_t whole = length >> 3;
    std::memmove(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(whole));
    int64_t done = whole << 3;
    if (done < length) {
      StoreBits(dst, dst_offset + done, LoadPartialWord(src, src_offset + done, length - done),
                length - done);
    }
    return;
  }
  int64_t pos = 0;
  for (; pos + 64 <= length; pos += 64) StoreBits(dst, dst_offset + pos, LoadWord(src, src_offset + pos), 64);
  if (pos < length)
    StoreBits(dst, dst_offset + pos, LoadPartialWord(src, src_offset + pos, length - pos), length - pos);
}

void BitmapAnd(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset) {
  BinaryBitmapOp(left, left_offset, right, right_offset, length, out, out_offset,
                 [](uint64_t a, uint64_t b) { return a & b; });
}

void BitmapOr(const uint8_t* left, int64_t left_offset, const uint8_t* right,
              int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset) {
  BinaryBitmapOp(left, left_offset, right, right_offset, length, out, out_offset,
                 [](uint64_t a, uint64_t b) { return a | b; });
}

void BitmapAndNot(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length, uint8_t* out, int64_t out_offset) {
  BinaryBitmapOp(left, left_offset, right, right_offset, length, out, out_offset,
                 [](uint64_t a, uint64_t b) { return a & ~b; });
}

void InvertBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                  int64_t dst_offset) {
  for (int64_t pos = 0; pos < length; pos += 64) {
    int64_t n = length - pos < 64 ? length - pos : 64;
    StoreBits(dst, dst_offset + pos, ~LoadPartialWord(src, src_offset + pos, n), n);
  }
}

bool BitmapEquals(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length) {
  int64_t pos = 0;
  for (; pos + 64 <= length; pos += 64) {
    if (LoadWord(left, left_offset + pos) != LoadWord(right, right_offset + pos)) return false;
  }
  if (pos == length) return true;
  return LoadPartialWord(left, left_offset + pos, length - pos) ==
         LoadPartialWord(right, right_offset + pos, length - pos);
}

}  // namespace alkaid::bit_util
