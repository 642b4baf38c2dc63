#include "alkaid/utf8.h"

#include <cstring>

namespace alkaid {
namespace {

constexpr uint64_t kHighBitOfEachByte = 0x8080808080808080ULL;

// Advances over whole 8-byte words that are pure ASCII and returns the first
// position not covered (a word holding a non-ASCII byte, or a short tail).
// Four, then two words per step cut the loop overhead on long ASCII runs;
// a one-word probe first keeps mostly non-ASCII text from paying for them.
inline int64_t SkipAsciiWords(const uint8_t* bytes, int64_t pos, int64_t length) {
  if (length - pos >= 8) {
    uint64_t probe;
    std::memcpy(&probe, bytes + pos, 8);
    if ((probe & kHighBitOfEachByte) != 0) return pos;
  }
  while (length - pos >= 32) {
    uint64_t a, b, c, d;
    std::memcpy(&a, bytes + pos, 8);
    std::memcpy(&b, bytes + pos + 8, 8);
    std::memcpy(&c, bytes + pos + 16, 8);
    std::memcpy(&d, bytes + pos + 24, 8);
    if (((a | b | c | d) & kHighBitOfEachByte) != 0) break;
    pos += 32;
  }
  while (length - pos >= 16) {
    uint64_t a, b;
    std::memcpy(&a, bytes + pos, 8);
    std::memcpy(&b, bytes + pos + 8, 8);
    if (((a | b) & kHighBitOfEachByte) != 0) break;
    pos += 16;
  }
  while (length - pos >= 8) {
    uint64_t a;
    std::memcpy(&a, bytes + pos, 8);
    if ((a & kHighBitOfEachByte) != 0) break;
    pos += 8;
  }
  return pos;
}

inline bool InRange(uint8_t byte, uint8_t lo, uint8_t hi) { return byte >= lo && byte <= hi; }

// Length of the well-formed multi-byte sequence starting at bytes[pos]
// (whose lead byte is >= 0x80), or 0 when it is malformed. The second byte's
// allowed range depends on the lead byte: that is what rules out overlong
// forms (E0, F0), surrogates (ED) and code points past U+10FFFF (F4).
inline int MultiByteLength(const uint8_t* bytes, int64_t pos, int64_t length) {
  const uint8_t lead = bytes[pos];
  const int64_t left = length - pos;
  if (lead < 0xC2) return 0;  // a stray continuation byte, or an overlong 2-byte form
  if (lead < 0xE0) return left >= 2 && IsUtf8ContinuationByte(bytes[pos + 1]) ? 2 : 0;
  if (lead < 0xF0) {
    if (left < 3) return 0;
    const uint8_t lo = lead == 0xE0 ? 0xA0 : 0x80;
    const uint8_t hi = lead == 0xED ? 0x9F : 0xBF;
    return InRange(bytes[pos + 1], lo, hi) && IsUtf8ContinuationByte(bytes[pos + 2]) ? 3 : 0;
  }
  if (lead < 0xF5) {
    if (left < 4) return 0;
    const uint8_t lo = lead == 0xF0 ? 0x90 : 0x80;
    const uint8_t hi = lead == 0xF4 ? 0x8F : 0xBF;
    return InRange(bytes[pos + 1], lo, hi) && IsUtf8ContinuationByte(bytes[pos + 2]) &&
                   IsUtf8ContinuationByte(bytes[pos + 3])
               ? 4
               : 0;
  }
  return 0;  // F5..FF never occur in UTF-8
}

}  // namespace

int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length) {
  bool ascii_only;
  return FindInvalidUtf8(bytes, length, &ascii_only);
}

int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length, bool* ascii_only) {
  bool multi_byte_seen = false;
  int64_t pos = 0;
  while (pos < length) {
    pos = SkipAsciiWords(bytes, pos, length);
    // Decode byte by byte until past the word that stopped the fast path,
    // then try whole words again.
    const int64_t stop = length - pos < 8 ? length : pos + 8;
    while (pos < stop) {
      if (bytes[pos] < 0x80) {
        ++pos;
        continue;
      }
      const int n = MultiByteLength(bytes, pos, length);
      if (n == 0) return pos;
      multi_byte_seen = true;
      pos += n;
    }
  }
  *ascii_only = !multi_byte_seen;
  return -1;
}

}  // namespace alkaid
