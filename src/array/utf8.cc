#include "alkaid/utf8.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

#include "../util/cpu_features.h"
#endif

#include "utf8_internal.h"

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

inline bool IsAllAscii(const uint8_t* bytes, int64_t length) {
  int64_t pos = SkipAsciiWords(bytes, 0, length);
  if (length - pos >= 8) return false;  // stopped at a word with a high bit
  uint8_t high = 0;
  for (; pos < length; ++pos) high |= bytes[pos];
  return high < 0x80;
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

// Byte-at-a-time decoding: the reference behaviour, the fallback on CPUs
// without AVX2, and the way to locate an error once the wide check saw one.
int64_t FindInvalidUtf8Scalar(const uint8_t* bytes, int64_t length, bool* ascii_only) {
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ALKAID_HAVE_AVX2_UTF8 1

// 32 bytes at a time, branch-free. Every rule of well-formed UTF-8 that
// concerns two adjacent bytes is an error class whose bytes pairs form a
// product of three sets: the high nibble of the earlier byte, its low
// nibble and the high nibble of the later byte. One table per nibble maps
// the nibble to the classes it can take part in; the AND of the three
// lookups is non-zero exactly where a pair breaks a rule. Classes (bits):
//   0 lead byte followed by a non-continuation
//   1 ASCII byte followed by a continuation
//   2 E0 followed by 80..9F (overlong 3-byte form)
//   3 F4..FF followed by 90..BF (beyond U+10FFFF, or no such lead)
//   4 ED followed by A0..BF (UTF-16 surrogate)
//   5 C0 or C1 followed by a continuation (overlong 2-byte form)
//   6 F0 or F5..FF followed by 80..8F (overlong 4-byte form, or no such lead)
//   7 two continuations in a row
// Class 7 is an error unless the byte two or three places earlier is a 3-
// or 4-byte lead, which is the only rule spanning more than two bytes.
namespace avx2 {

constexpr uint8_t kLeadThenNonCont = 1 << 0;
constexpr uint8_t kAsciiThenCont = 1 << 1;
constexpr uint8_t kOverlong3 = 1 << 2;
constexpr uint8_t kTooLarge = 1 << 3;
constexpr uint8_t kSurrogate = 1 << 4;
constexpr uint8_t kOverlong2 = 1 << 5;
constexpr uint8_t kOverlong4OrBadLead = 1 << 6;
constexpr uint8_t kTwoConts = 1 << 7;

struct NibbleTables {
  uint8_t first_high[16];
  uint8_t first_low[16];
  uint8_t second_high[16];
};

constexpr NibbleTables MakeTables() {
  NibbleTables t{};
  for (int n = 0; n < 16; ++n) {
    // Earlier byte, high nibble.
    uint8_t h = 0;
    if (n < 8) h = kAsciiThenCont;
    else if (n < 12) h = kTwoConts;
    else if (n == 12) h = kLeadThenNonCont | kOverlong2;
    else if (n == 13) h = kLeadThenNonCont;
    else if (n == 14) h = kLeadThenNonCont | kOverlong3 | kSurrogate;
    else h = kLeadThenNonCont | kTooLarge | kOverlong4OrBadLead;
    t.first_high[n] = h;
    // Earlier byte, low nibble (only telling apart E0/ED/C0/C1/F0/F4/F5+).
    uint8_t l = kLeadThenNonCont | kAsciiThenCont | kTwoConts;
    if (n == 0) l |= kOverlong3 | kOverlong2 | kOverlong4OrBadLead;
    if (n == 1) l |= kOverlong2;
    if (n >= 4) l |= kTooLarge;
    if (n >= 5) l |= kOverlong4OrBadLead;
    if (n == 13) l |= kSurrogate;
    t.first_low[n] = l;
    // Later byte, high nibble.
    uint8_t c = 0;
    if (n < 8 || n >= 12) {
      c = kLeadThenNonCont;
    } else {
      c = kAsciiThenCont | kTwoConts | kOverlong2;
      if (n == 8) c |= kOverlong3 | kOverlong4OrBadLead;
      if (n == 9) c |= kOverlong3 | kTooLarge;
      if (n >= 10) c |= kSurrogate | kTooLarge;
    }
    t.second_high[n] = c;
  }
  return t;
}

constexpr NibbleTables kTables = MakeTables();

__attribute__((target("avx2"))) inline __m256i Table(const uint8_t (&table)[16]) {
  const __m128i lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(table));
  return _mm256_broadcastsi128_si256(lane);
}

__attribute__((target("avx2"))) inline __m256i HighNibbles(__m256i v) {
  return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
}

struct State {
  __m256i previous;    // the block before, for the bytes that precede this one
  __m256i unfinished;  // non-zero where the previous block ended inside a character
  __m256i error;       // accumulated error bits
  __m256i any_high;    // OR of every byte, for the ASCII-only answer
};

// Any block, ASCII or not (CheckBlock below skips the work for ASCII ones).
__attribute__((target("avx2"))) inline void CheckAnyBlock(State* s, __m256i block) {
  s->any_high = _mm256_or_si256(s->any_high, block);
  // The 32 bytes each shifted back by 1, 2 and 3 positions, pulling in the
  // end of the previous block.
  const __m256i carried = _mm256_permute2x128_si256(s->previous, block, 0x21);
  const __m256i prev1 = _mm256_alignr_epi8(block, carried, 15);
  const __m256i prev2 = _mm256_alignr_epi8(block, carried, 14);
  const __m256i prev3 = _mm256_alignr_epi8(block, carried, 13);

  const __m256i low_mask = _mm256_set1_epi8(0x0F);
  const __m256i classes = _mm256_and_si256(
      _mm256_and_si256(_mm256_shuffle_epi8(Table(kTables.first_high), HighNibbles(prev1)),
                       _mm256_shuffle_epi8(Table(kTables.first_low), _mm256_and_si256(prev1, low_mask))),
      _mm256_shuffle_epi8(Table(kTables.second_high), HighNibbles(block)));

  // Where the byte two back is E0..FF or three back is F0..FF, this byte
  // must continue that character: saturating subtraction leaves the high
  // bit set exactly there.
  const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m256i required =
      _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
  s->error = _mm256_or_si256(s->error, _mm256_xor_si256(classes, required));

  // A lead byte in the last three positions whose character does not fit.
  const __m256i limits = _mm256_setr_epi8(
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,  //
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1),
      static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
  s->unfinished = _mm256_subs_epu8(block, limits);
  s->previous = block;
}

// All-ASCII bytes are fine unless the block before left a character open.
__attribute__((target("avx2"))) inline void PassAscii(State* s, __m256i last) {
  s->error = _mm256_or_si256(s->error, s->unfinished);
  s->unfinished = _mm256_setzero_si256();
  s->previous = last;
}

__attribute__((target("avx2"))) inline void CheckBlock(State* s, __m256i block) {
  if (_mm256_movemask_epi8(block) == 0) {
    PassAscii(s, block);
  } else {
    CheckAnyBlock(s, block);
  }
}

__attribute__((target("avx2"))) inline __m256i Load(const uint8_t* bytes) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
}

// Whether the 128 bytes at `p` are all ASCII.
__attribute__((target("avx2"))) inline bool Ascii128(const uint8_t* p) {
  const __m256i ab = _mm256_or_si256(Load(p), Load(p + 32));
  const __m256i cd = _mm256_or_si256(Load(p + 64), Load(p + 96));
  return _mm256_movemask_epi8(_mm256_or_si256(ab, cd)) == 0;
}

// Whether bytes[0, length) is well-formed UTF-8; *ascii_only as in the
// public function.
__attribute__((target("avx2"))) bool Validate(const uint8_t* bytes, int64_t length,
                                               bool* ascii_only) {
  State s{_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
          _mm256_setzero_si256()};
  int64_t pos = 0;
  // Four blocks at a time: most text is mostly ASCII, and one test then
  // clears 128 bytes of it instead of 32.
  while (pos + 128 <= length) {
    if (Ascii128(bytes + pos)) {
      // A run of ASCII: a loop that carries nothing but the position, the
      // state settled once at its end.
      pos += 128;
      while (pos + 128 <= length && Ascii128(bytes + pos)) pos += 128;
      PassAscii(&s, Load(bytes + pos - 32));
      continue;
    }
    CheckAnyBlock(&s, Load(bytes + pos));
    CheckAnyBlock(&s, Load(bytes + pos + 32));
    CheckAnyBlock(&s, Load(bytes + pos + 64));
    CheckAnyBlock(&s, Load(bytes + pos + 96));
    pos += 128;
  }
  for (; pos + 32 <= length; pos += 32) CheckBlock(&s, Load(bytes + pos));
  // The tail padded with ASCII zeros; a character cut off by the end of the
  // input then fails like one followed by ASCII. Always run, so that a
  // character left open by the last full block is caught too.
  alignas(32) uint8_t tail[32] = {};
  // Empty input may come with a null pointer, which memcpy must never see.
  if (pos < length) std::memcpy(tail, bytes + pos, static_cast<size_t>(length - pos));
  CheckBlock(&s, _mm256_load_si256(reinterpret_cast<const __m256i*>(tail)));
  s.error = _mm256_or_si256(s.error, s.unfinished);
  *ascii_only = _mm256_movemask_epi8(s.any_high) == 0;
  return _mm256_testz_si256(s.error, s.error) != 0;
}

}  // namespace avx2
#endif

// Below this the set-up of the wide path costs more than it saves.
constexpr int64_t kWidePathMinLength = 64;
// Up to this length pure ASCII is cheapest to confirm a word at a time.
constexpr int64_t kAsciiProbeMaxLength = 512;

}  // namespace

int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length) {
  bool ascii_only;
  return FindInvalidUtf8(bytes, length, &ascii_only);
}

int64_t FindInvalidUtf8(const uint8_t* bytes, int64_t length, bool* ascii_only) {
  if (length <= kAsciiProbeMaxLength && IsAllAscii(bytes, length)) {
    *ascii_only = true;
    return -1;
  }
#ifdef ALKAID_HAVE_AVX2_UTF8
  if (length >= kWidePathMinLength && alkaid::internal::CpuHasAvx2()) {
    if (avx2::Validate(bytes, length, ascii_only)) return -1;
    // Invalid: the scalar decoder says where.
  }
#endif
  return FindInvalidUtf8Scalar(bytes, length, ascii_only);
}

namespace internal {

int WideUtf8VerdictForTesting(const uint8_t* bytes, int64_t length) {
#ifdef ALKAID_HAVE_AVX2_UTF8
  if (alkaid::internal::CpuHasAvx2()) {
    bool ascii_only;
    return avx2::Validate(bytes, length, &ascii_only) ? 1 : 0;
  }
#endif
  (void)bytes;
  (void)length;
  return -1;
}

}  // namespace internal

}  // namespace alkaid
