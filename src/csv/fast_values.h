// Word-at-a-time parsers for the common fixed text layouts (internal to the
// text readers). Each accepts only text that the general parser in
// text_values.cc accepts, with the same value, and returns false for
// anything else (valid or not), so callers fall back to the general parser.
// They read only the bytes of the text they are given.
#pragma once

#include <cstdint>
#include <cstring>

#include "alkaid/type.h"

namespace alkaid::text::fast {

inline uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian byte order assumed (x86-64, AArch64)
}

constexpr uint64_t kOnes = 0x0101010101010101ull;

// The value of 8 digit bytes (the first digit in the lowest byte; each byte
// already 0..9): three multiply-and-shift steps instead of a loop.
inline uint32_t EightDigits(uint64_t d) {
  d = d * 10 + (d >> 8);  // byte 2k: the two-digit number of bytes 2k, 2k+1
  d = (((d & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((d >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
  return static_cast<uint32_t>(d);
}

inline uint32_t ByteAt(uint64_t v, int k) { return static_cast<uint32_t>(v >> (8 * k)) & 0xFF; }

// Days since 1970-01-01 of y-m-d, years 0..9999 (unsigned, March-based years
// shifted by 400 so every division is of a non-negative number by a
// constant: multiplications, no loop, no table).
inline int64_t DaysFromCivil(uint32_t y, uint32_t m, uint32_t d) {
  y += 400 - (m <= 2);
  const uint32_t mp = m > 2 ? m - 3 : m + 9;
  const uint32_t doy = (153 * mp + 2) / 5 + d - 1;
  const uint32_t days = y * 365 + y / 4 - y / 100 + y / 400 + doy;
  return static_cast<int64_t>(days) - 719468 - 146097;
}

struct Instant {
  int64_t seconds;  // since the epoch (UTC when zoned)
  int32_t nanos;    // 0..999'999'999
  int frac_digits;  // 0..9
  bool zoned;       // ended in Z
};

// Bytes of x (each the XOR of a text byte with its expected character:
// 0..9 for a digit, 0 for the expected separator) that are not 0..9 have
// their top bit set in the result. A carry out of a byte >= 0x8A can only
// flag the byte above it, and that byte's text was already rejected.
inline uint64_t OverNine(uint64_t x) { return ((x + 0x76 * kOnes) | x) & (0x80 * kOnes); }

// YYYY-MM-DD[Tt ]HH:MM:SS[.f{1,9}][Zz]. Three overlapping 8-byte loads hold
// the first 19 bytes; each is XORed with its template ("0000-00-" etc.), so
// digits become their values and separators become 0, and one test per word
// checks both; byte-pair sums then give the two-digit fields. One more load
// (ending at the last digit) holds the fraction.
__attribute__((always_inline)) inline bool FixedTimestamp(const char* p, size_t n, Instant* out) {
  if (n < 19 || n > 30) return false;
  // a: "YYYY-MM-"  b: "DD?HH:MM" (byte 2, the T, checked apart)  c: bytes
  // 16..18 ":SS" as the top of the word at p + 11.
  const uint64_t xa = Load8(p) ^ 0x2D30302D30303030ull;
  const uint64_t xb = (Load8(p + 8) ^ 0x30303A3030003030ull) & 0xFFFFFFFFFF00FFFFull;
  const uint64_t xc = (Load8(p + 11) ^ 0x30303A0000000000ull) & 0xFFFFFF0000000000ull;
  if ((OverNine(xa) | OverNine(xb) | OverNine(xc) | (xa & 0xFF0000FF00000000ull) |
       ((xb | xc) & 0x0000FF0000000000ull)) != 0) {
    return false;
  }
  const char sep = p[10];
  if (sep != 'T' && sep != ' ' && sep != 't') return false;
  const uint64_t ta = xa * 10 + (xa >> 8);  // byte k: 10 * digit k + digit k + 1
  const uint64_t tb = xb * 10 + (xb >> 8);
  const uint32_t year = ByteAt(ta, 0) * 100 + ByteAt(ta, 2);
  const uint32_t month = ByteAt(ta, 5), day = ByteAt(tb, 0);
  const uint32_t hour = ByteAt(tb, 3), minute = ByteAt(tb, 6);
  const uint32_t second = ByteAt(xc, 6) * 10 + ByteAt(xc, 7);
  if (month - 1 > 11 || day - 1 > 30 || hour > 23 || minute > 59 || second > 59) return false;
  // Days in month m: 31 or 30 alternating, switching at August; February apart.
  if (day > 28) {
    const uint32_t days_in = month == 2 ? 28 + ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0)
                                        : 30 + ((month ^ (month >> 3)) & 1);
    if (day > days_in) return false;
  }
  int32_t nanos = 0;
  int digits = 0;
  bool zoned = false;
  if (n > 19) {
    size_t end = n;
    const char last = p[n - 1];
    if (last == 'Z' || last == 'z') {
      zoned = true;
      --end;
    }
    if (end > 19) {
      if (p[19] != '.' || end == 20 || end > 29) return false;
      digits = static_cast<int>(end - 20);  // 1..9
      // The last min(digits, 8) digits end the word loaded at end - 8
      // (which starts at or after p + 13).
      const int k = digits > 8 ? 8 : digits;
      const uint64_t mask = ~uint64_t{0} << (8 * (8 - k));
      const uint64_t x = (Load8(p + end - 8) ^ (0x30 * kOnes)) & mask;
      if (OverNine(x) != 0) return false;
      uint32_t v = EightDigits(x);
      if (digits == 9) {
        const auto lead = static_cast<uint32_t>(static_cast<unsigned char>(p[20]) - '0');
        if (lead > 9) return false;
        v += lead * 100'000'000;
      }
      static constexpr int32_t kScale[] = {1'000'000'000, 100'000'000, 10'000'000, 1'000'000, 100'000,
                                           10'000,        1'000,       100,        10,        1};
      nanos = static_cast<int32_t>(v) * kScale[digits];
    } else if (!zoned || n != 20) {
      return false;
    }
  }
  out->seconds = DaysFromCivil(year, month, day) * 86400 +
                 static_cast<int64_t>((hour * 60 + minute) * 60 + second);
  out->nanos = nanos;
  out->frac_digits = digits;
  out->zoned = zoned;
  return true;
}

// A FixedTimestamp in `unit`, requiring a zone exactly when `zoned`; false
// when the text is not of the fixed layout, has digits finer than the unit,
// or overflows (callers then ask the general parser, which decides).
__attribute__((always_inline)) inline bool FixedTimestampAs(const char* p, size_t n, TimeUnit unit, bool zoned, int64_t* out) {
  Instant t;
  if (!FixedTimestamp(p, n, &t) || t.zoned != zoned) return false;
  switch (unit) {
    case TimeUnit::kSecond:
      if (t.nanos != 0) return false;
      *out = t.seconds;
      return true;
    case TimeUnit::kMilli:  // years 0..9999: no overflow below nanoseconds
      if (t.nanos % 1'000'000 != 0) return false;
      *out = t.seconds * 1000 + t.nanos / 1'000'000;
      return true;
    case TimeUnit::kMicro:
      if (t.nanos % 1000 != 0) return false;
      *out = t.seconds * 1'000'000 + t.nanos / 1000;
      return true;
    case TimeUnit::kNano: {
      int64_t v;
      if (__builtin_mul_overflow(t.seconds, int64_t{1'000'000'000}, &v) ||
          __builtin_add_overflow(v, t.nanos, &v)) {
        return false;
      }
      *out = v;
      return true;
    }
  }
  return false;
}

}  // namespace alkaid::text::fast
