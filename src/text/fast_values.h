// Word-at-a-time parsers for the common fixed text layouts (internal to the
// text readers). Each accepts only text that the general parser in
// text_values.cc accepts, with the same value, and returns false for
// anything else (valid or not), so callers fall back to the general parser.
// The timestamp parsers read only the bytes of the text they are given;
// the number parsers at the end read whole words from where the digits
// start, so the text must be followed by padding.
#pragma once

#include <cstdint>
#include <cstring>

#include "alkaid/type.h"
#include "text_values.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Days from 1970-01-01 to January 1st of 1900 + i, times two, plus one in
// leap years: the common years by one table load (others by civil::DaysFromCivil).
struct YearTable {
  int32_t v[256];
};
constexpr YearTable MakeYearTable() {
  YearTable t{};
  for (uint32_t i = 0; i < 256; ++i) {
    const uint32_t y = 1900 + i;
    t.v[i] = static_cast<int32_t>(civil::DaysFromCivil(y, 1, 1) * 2 + civil::IsLeapYear(y));
  }
  return t;
}
inline constexpr YearTable kYearStart = MakeYearTable();
// Days before month m (1..12) in a common year, and in a leap year.
inline constexpr uint16_t kMonthStart[2][13] = {
    {0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334},
    {0, 0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335}};

// Whether day d (1..31) is past the end of month m (1..12): months have 31
// or 30 days alternating, switching at August; February 28 + leap.
__attribute__((always_inline)) inline bool PastMonthEnd(uint32_t d, uint32_t m, uint32_t leap) {
  return d > 28 && d > (m == 2 ? 28 + leap : 30 + ((m ^ (m >> 3)) & 1));
}

struct Instant {
  int64_t seconds;  // since the epoch (UTC when zoned)
  int32_t nanos;    // 0..999'999'999
  int frac_digits;  // 0..9
  bool zoned;       // ended in Z
  uint32_t frac;    // the fraction digits as an integer (nanos = frac * 10^(9 - frac_digits))
};

// Bytes of x (each the XOR of a text byte with its expected character:
// 0..9 for a digit, 0 for the expected separator) that are not 0..9 have
// their top bit set in the result. A carry out of a byte >= 0x8A can only
// flag the byte above it, and that byte's text was already rejected.
inline uint64_t OverNine(uint64_t x) { return ((x + 0x76 * kOnes) | x) & (0x80 * kOnes); }

// The fields of a fixed-layout timestamp whose bytes were checked, as an
// Instant: range checks, the fraction digits p[20, end) (1..9 of them, or
// none when end == 19; their bytes checked by the caller when
// kFractionChecked), days from the civil date.
template <bool kFractionChecked>
__attribute__((always_inline)) inline bool FinishTimestamp(const char* p, size_t end, bool zoned,
                                                           uint32_t year, uint32_t month, uint32_t day,
                                                           uint32_t hour, uint32_t minute,
                                                           uint32_t second, Instant* out) {
  if (month - 1 > 11 || day - 1 > 30 || hour > 23 || minute > 59 || second > 59) return false;
  int64_t days;
  if (year - 1900 < 256) {
    const int32_t y = kYearStart.v[year - 1900];
    const uint32_t leap = static_cast<uint32_t>(y & 1);
    if (PastMonthEnd(day, month, leap)) return false;
    days = static_cast<int64_t>(y >> 1) + static_cast<int64_t>(kMonthStart[leap][month] + day) - 1;
  } else {
    const bool leap = civil::IsLeapYear(year);
    if (PastMonthEnd(day, month, leap ? 1 : 0)) return false;
    days = civil::DaysFromCivil(year, month, day);
  }
  int32_t nanos = 0;
  int digits = 0;
  uint32_t frac = 0;
  if (end > 19) {
    digits = static_cast<int>(end - 20);  // 1..9
    // The last min(digits, 8) digits end the word loaded at end - 8 (which
    // starts at or after p + 13).
    uint32_t v;
    if (kFractionChecked && digits == 3) {
      // Milliseconds, the most common fraction: three checked digits.
      v = static_cast<uint32_t>(p[20] - '0') * 100 + static_cast<uint32_t>(p[21] - '0') * 10 +
          static_cast<uint32_t>(p[22] - '0');
    } else {
      const int k = digits > 8 ? 8 : digits;
      const uint64_t mask = ~uint64_t{0} << (8 * (8 - k));
      const uint64_t x = (Load8(p + end - 8) ^ (0x30 * kOnes)) & mask;
      if (!kFractionChecked && OverNine(x) != 0) return false;
      v = EightDigits(x);
    }
    if (digits == 9) {
      const auto lead = static_cast<uint32_t>(static_cast<unsigned char>(p[20]) - '0');
      if (!kFractionChecked && lead > 9) return false;
      v += lead * 100'000'000;
    }
    static constexpr int32_t kScale[] = {1'000'000'000, 100'000'000, 10'000'000, 1'000'000, 100'000,
                                         10'000,        1'000,       100,        10,        1};
    nanos = static_cast<int32_t>(v) * kScale[digits];
    frac = v;
  }
  out->seconds = days * 86400 + static_cast<int64_t>((hour * 60 + minute) * 60 + second);
  out->nanos = nanos;
  out->frac_digits = digits;
  out->zoned = zoned;
  out->frac = frac;
  return true;
}

// Where the digits of a fixed-layout text of n bytes end (19 without a
// fraction), and whether it ends in a zone; false for impossible lengths.
__attribute__((always_inline)) inline bool TimestampEnd(const char* p, size_t n, size_t* end,
                                                        bool* zoned) {
  if (n < 19 || n > 30) return false;
  *zoned = (p[n - 1] | 0x20) == 'z';  // only 'Z' and 'z' become 'z'
  *end = n - *zoned;
  return *end != 20 && *end <= 29 && *end >= 19;
}

// YYYY-MM-DD[Tt ]HH:MM:SS[.f{1,9}][Zz], scalar. Three overlapping 8-byte
// loads hold the first 19 bytes; each is XORed with its template
// ("0000-00-" etc.), so digits become their values and separators become 0,
// and one test per word checks both; byte-pair sums then give the two-digit
// fields. One more load (ending at the last digit) holds the fraction.
__attribute__((always_inline)) inline bool FixedTimestampWords(const char* p, size_t n, Instant* out) {
  size_t end;
  bool zoned;
  if (!TimestampEnd(p, n, &end, &zoned)) return false;
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
  if (end > 19 && p[19] != '.') return false;
  const uint64_t ta = xa * 10 + (xa >> 8);  // byte k: 10 * digit k + digit k + 1
  const uint64_t tb = xb * 10 + (xb >> 8);
  return FinishTimestamp<false>(p, end, zoned, ByteAt(ta, 0) * 100 + ByteAt(ta, 2), ByteAt(ta, 5),
                                ByteAt(tb, 0), ByteAt(tb, 3), ByteAt(tb, 6),
                                ByteAt(xc, 6) * 10 + ByteAt(xc, 7), out);
}

#if defined(__SSE2__)
// Templates of the fixed layout for 16-byte checks: each text byte XOR its
// template byte must be at most the limit byte (0 for a separator, 9 for a
// digit, 0xFF for a byte checked elsewhere or not at all).
struct alignas(16) Template16 {
  uint8_t t[16];
  uint8_t limit[16];
};

// Bytes 0..15: "YYYY-MM-DD?HH:MM" (byte 10, the T, checked apart).
constexpr Template16 HeadTemplate() {
  Template16 h{};
  const char* kText = "0000-00-00?00:00";
  for (int i = 0; i < 16; ++i) {
    const char c = kText[i];
    h.t[i] = c == '?' ? 0 : static_cast<uint8_t>(c);
    h.limit[i] = c == '?' ? 0xFF : c == '0' ? 9 : 0;
  }
  return h;
}

// The 16 bytes ending at the last digit `end` (19 + 0, 2..10): ":SS" at
// 16..18, then ".fff..." when end > 19; bytes before 16 are the head's.
constexpr Template16 TailTemplate(int end) {
  Template16 t{};
  for (int i = 0; i < 16; ++i) {
    const int k = end - 16 + i;
    uint8_t c = 0, limit = 0xFF;
    if (k == 16) c = ':', limit = 0;
    if (k == 17 || k == 18 || (k >= 20 && end > 19)) c = '0', limit = 9;
    if (k == 19 && end > 19) c = '.', limit = 0;
    t.t[i] = c;
    t.limit[i] = limit;
  }
  return t;
}

struct TimestampTemplates {
  Template16 head = HeadTemplate();
  Template16 tail[11] = {TailTemplate(19), TailTemplate(20), TailTemplate(21), TailTemplate(22),
                         TailTemplate(23), TailTemplate(24), TailTemplate(25), TailTemplate(26),
                         TailTemplate(27), TailTemplate(28), TailTemplate(29)};
};
inline constexpr TimestampTemplates kTimestampTemplates{};

// The same layout with two 16-byte loads (the head, and the 16 bytes ending
// at the last digit): one XOR with the template, one saturating subtraction
// of the limits and one compare check every byte; the two-digit fields come
// from 16-bit lanes (10 * low byte + high byte) of the head and of the head
// shifted by one byte.
__attribute__((always_inline)) inline bool FixedTimestampSse2(const char* p, size_t n, Instant* out) {
  size_t end;
  bool zoned;
  if (!TimestampEnd(p, n, &end, &zoned)) return false;
  const Template16& head = kTimestampTemplates.head;
  const Template16& tail = kTimestampTemplates.tail[end - 19];
  const __m128i xh = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(head.t)));
  const __m128i xt = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + end - 16)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(tail.t)));
  const __m128i over =
      _mm_or_si128(_mm_subs_epu8(xh, _mm_load_si128(reinterpret_cast<const __m128i*>(head.limit))),
                   _mm_subs_epu8(xt, _mm_load_si128(reinterpret_cast<const __m128i*>(tail.limit))));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) != 0xFFFF) return false;
  const char sep = p[10];
  if (sep != 'T' && sep != ' ' && sep != 't') return false;
  const __m128i low = _mm_set1_epi16(0x00FF), ten = _mm_set1_epi16(10);
  // Lane j: the two-digit number of bytes 2j, 2j + 1 (even), 2j + 1, 2j + 2 (odd).
  const __m128i even = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(xh, low), ten), _mm_srli_epi16(xh, 8));
  const __m128i xo = _mm_srli_si128(xh, 1);
  const __m128i odd = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(xo, low), ten), _mm_srli_epi16(xo, 8));
  const auto year = static_cast<uint32_t>(_mm_extract_epi16(even, 0) * 100 + _mm_extract_epi16(even, 1));
  const auto month = static_cast<uint32_t>(_mm_extract_epi16(odd, 2));
  const auto day = static_cast<uint32_t>(_mm_extract_epi16(even, 4));
  const auto hour = static_cast<uint32_t>(_mm_extract_epi16(odd, 5));
  const auto minute = static_cast<uint32_t>(_mm_extract_epi16(even, 7));
  const uint32_t second = static_cast<uint32_t>(p[17] - '0') * 10 + static_cast<uint32_t>(p[18] - '0');
  return FinishTimestamp<true>(p, end, zoned, year, month, day, hour, minute, second, out);
}
#endif

// The fixed layout, checked 16 bytes at a time where SSE2 is there (x86-64
// always), a word at a time otherwise.
__attribute__((always_inline)) inline bool FixedTimestamp(const char* p, size_t n, Instant* out) {
#if defined(__SSE2__)
  return FixedTimestampSse2(p, n, out);
#else
  return FixedTimestampWords(p, n, out);
#endif
}

#if defined(__SSE2__)
// The most common layout alone, "YYYY-MM-DD?HH:MM:SS.fff" (23 bytes, no
// zone), as milliseconds: the same checks as FixedTimestampSse2 with the
// length, the tail template and the fraction fixed, the range checks as
// lane compares (one branch), and nothing computed that milliseconds do not
// need. False for anything else, years outside the table included (callers
// then take the general fixed-layout path).
__attribute__((always_inline)) inline bool MilliTimestamp23(const char* p, int64_t* out) {
  const Template16& head = kTimestampTemplates.head;
  const Template16& tail = kTimestampTemplates.tail[23 - 19];
  const __m128i xh = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(head.t)));
  const __m128i xt = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 7)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(tail.t)));
  const __m128i bad_bytes =
      _mm_or_si128(_mm_subs_epu8(xh, _mm_load_si128(reinterpret_cast<const __m128i*>(head.limit))),
                   _mm_subs_epu8(xt, _mm_load_si128(reinterpret_cast<const __m128i*>(tail.limit))));
  const char sep = p[10];
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad_bytes, _mm_setzero_si128())) != 0xFFFF ||
      (sep != 'T' && sep != ' ' && sep != 't')) {
    return false;
  }
  // 16-bit lane j: 10 * byte 2j + byte 2j + 1. Head, even pairs: year
  // halves (lanes 0, 1), day (4), minute (7); head one byte on, odd pairs:
  // month (2), hour (5); tail (bytes 7..22): second (5), the first
  // fraction digit (6, after the point's 0) and the last two (7).
  const __m128i low = _mm_set1_epi16(0x00FF), ten = _mm_set1_epi16(10);
  auto pairs = [&](__m128i x) {
    return _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(x, low), ten), _mm_srli_epi16(x, 8));
  };
  const __m128i even = pairs(xh), odd = pairs(_mm_srli_si128(xh, 1)), frac = pairs(xt);
  // Every range at once: a lane fails when below its floor or above its
  // ceiling (years 1900..2155 are checked through the table index below).
  const __m128i even_lo = _mm_setr_epi16(0, 0, 0, 0, 1, 0, 0, 0);
  constexpr int16_t kAny = 0x7FFF;  // lanes of other bytes (at most 2805)
  const __m128i even_hi = _mm_setr_epi16(99, 99, kAny, kAny, 31, kAny, kAny, 59);
  const __m128i odd_lo = _mm_setr_epi16(0, 0, 1, 0, 0, 0, 0, 0);
  const __m128i odd_hi = _mm_setr_epi16(kAny, kAny, 12, kAny, kAny, 23, kAny, kAny);
  const __m128i frac_hi = _mm_setr_epi16(kAny, kAny, kAny, kAny, kAny, 59, kAny, kAny);
  const __m128i out_of_range = _mm_or_si128(
      _mm_or_si128(_mm_cmplt_epi16(even, even_lo), _mm_cmpgt_epi16(even, even_hi)),
      _mm_or_si128(_mm_or_si128(_mm_cmplt_epi16(odd, odd_lo), _mm_cmpgt_epi16(odd, odd_hi)),
                   _mm_cmpgt_epi16(frac, frac_hi)));
  const uint32_t year_index =
      static_cast<uint32_t>(_mm_extract_epi16(even, 0) * 100 + _mm_extract_epi16(even, 1)) - 1900;
  if (_mm_movemask_epi8(out_of_range) != 0 || year_index >= 256) return false;
  const int32_t y = kYearStart.v[year_index];
  const uint32_t leap = static_cast<uint32_t>(y & 1);
  const auto month = static_cast<uint32_t>(_mm_extract_epi16(odd, 2));
  const auto day = static_cast<uint32_t>(_mm_extract_epi16(even, 4));
  if (PastMonthEnd(day, month, leap)) return false;
  const int64_t days = static_cast<int64_t>(y >> 1) + static_cast<int64_t>(kMonthStart[leap][month] + day) - 1;
  const int64_t seconds = days * 86400 + (_mm_extract_epi16(odd, 5) * 60 + _mm_extract_epi16(even, 7)) * 60 +
                          _mm_extract_epi16(frac, 5);
  *out = seconds * 1000 + _mm_extract_epi16(frac, 6) * 100 + _mm_extract_epi16(frac, 7);
  return true;
}
#endif

// A FixedTimestamp in `unit`, requiring a zone exactly when `zoned`; false
// when the text is not of the fixed layout, has digits finer than the unit,
// or overflows (callers then ask the general parser, which decides).
__attribute__((always_inline)) inline bool FixedTimestampAs(const char* p, size_t n, TimeUnit unit, bool zoned, int64_t* out) {
#if defined(__SSE2__)
  if (n == 23 && unit == TimeUnit::kMilli && !zoned && MilliTimestamp23(p, out)) return true;
#endif
  Instant t;
  if (!FixedTimestamp(p, n, &t) || t.zoned != zoned) return false;
  if (unit == TimeUnit::kMilli || unit == TimeUnit::kMicro) {
    // No more fraction digits than the unit has: the fraction scaled up is
    // the sub-second count, no division or remainder (years 0..9999 cannot
    // overflow here).
    const int unit_digits = unit == TimeUnit::kMilli ? 3 : 6;
    if (t.frac_digits <= unit_digits) {
      static constexpr uint32_t kUp[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
      const int64_t per = unit == TimeUnit::kMilli ? 1000 : 1'000'000;
      *out = t.seconds * per + static_cast<int64_t>(t.frac * kUp[unit_digits - t.frac_digits]);
      return true;
    }
  }
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

// ---------------------------------------------------------------------------
// Numbers of known length (the CSV reader's fields, the JSON Lines scanner's
// tokens).

// Powers of ten as integers, 10^0..10^16.
inline constexpr uint64_t kPow10[] = {1,          10,          100,          1000,
                                      10000,      100000,      1000000,      10000000,
                                      100000000,  1000000000,  10000000000,  100000000000,
                                      1000000000000, 10000000000000, 100000000000000,
                                      1000000000000000, 10000000000000000};

// Powers of ten that are exact doubles (up to 10^22).
inline constexpr double kPow10Double[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The value of the k digits (1..8) at p in *v, or false when some byte is
// not a digit. Reads p[0, 8) (fields are padded): the bytes past the k
// digits are shifted out of the word, so they cannot count.
__attribute__((always_inline)) inline bool Digits8(const char* p, uint32_t k, uint64_t* v) {
  const uint64_t x = (Load8(p) ^ (0x30 * kOnes)) << (8 * (8 - k));
  if (OverNine(x) != 0) return false;
  *v = EightDigits(x);
  return true;
}

// The same for 1..16 digits: the last 8 from one load, the ones before
// from another.
__attribute__((always_inline)) inline bool Digits16(const char* p, uint32_t k, uint64_t* v) {
  if (k <= 8) return Digits8(p, k, v);
  const uint64_t hi = (Load8(p) ^ (0x30 * kOnes)) << (8 * (16 - k));
  const uint64_t lo = Load8(p + k - 8) ^ (0x30 * kOnes);
  if ((OverNine(hi) | OverNine(lo)) != 0) return false;
  *v = uint64_t{EightDigits(hi)} * 100'000'000 + EightDigits(lo);
  return true;
}

// Signed decimal digits, up to 16 of them by Digits16 (the length is
// known: no search for where the digits end), the general parser (range
// checks) for anything longer.
__attribute__((always_inline)) inline bool ParseInt(const char* p, uint32_t n, int64_t* out) {
  const char* q = p;
  uint32_t k = n;
  bool neg = false;
  if (k > 0 && (q[0] == '-' || q[0] == '+')) {
    neg = q[0] == '-';
    ++q;
    --k;
  }
  if (k == 0) return false;  // empty, or a sign alone
  if (k > 16) return text::ParseInt64(std::string_view(p, n), out);
  uint64_t v;
  if (!Digits16(q, k, &v)) return false;
  *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

// [-]digits[.digits] with at most 8 + 7 digits: the integer of the digits
// divided by an exact power of ten, correctly rounded as both are exact
// doubles (Clinger's fast path), so the same double as the general
// parser's, which takes everything else.
__attribute__((always_inline)) inline bool ParseDouble(const char* p, uint32_t n, double* out) {
  if (n == 0) return false;  // an empty field (a null) needs no parser
  const bool neg = p[0] == '-';
  const char* q = p + neg;
  const uint32_t k = n - neg;
  if (k != 0 && k <= 16) {
    // The integer digits: up to the first byte of the first 8 that is not
    // a digit (or the end of the text).
    const uint64_t x = Load8(q) ^ (0x30 * kOnes);
    const uint64_t over = OverNine(x);
    uint32_t ki = over == 0 ? 8 : static_cast<uint32_t>(__builtin_ctzll(over)) >> 3;
    if (ki > k) ki = k;
    if (ki != 0 && ki < k && k <= 8 && q[ki] == '.' && ki + 1 < k) {
      // Digits, point, digits in one word: the bytes after the point move
      // down over it, and one conversion gives all k - 1 digits.
      const uint64_t low = (uint64_t{1} << (8 * ki)) - 1;
      const uint64_t merged = ((x & low) | ((x >> 8) & ~low)) << (8 * (9 - k));
      if (OverNine(merged) == 0) {
        const uint32_t kf = k - ki - 1;  // 1..6
        const double v = static_cast<double>(EightDigits(merged)) / kPow10Double[kf];
        *out = neg ? -v : v;
        return true;
      }
      return text::ParseDouble(std::string_view(p, n), out);
    }
    if (ki != 0) {
      const uint64_t ip = EightDigits(x << (8 * (8 - ki)));
      if (ki == k) {
        *out = neg ? -static_cast<double>(ip) : static_cast<double>(ip);
        return true;
      }
      const uint32_t kf = k - ki - 1;
      uint64_t fp;
      if (q[ki] == '.' && kf - 1 < 7 && Digits8(q + ki + 1, kf, &fp)) {
        const double v = static_cast<double>(ip * kPow10[kf] + fp) / kPow10Double[kf];
        *out = neg ? -v : v;
        return true;
      }
    }
  }
  return text::ParseDouble(std::string_view(p, n), out);
}

}  // namespace alkaid::text::fast
