// The line scanner (see line_scanner.h). One Slot per Node holds the
// function that reads that node's values, picked once per block from the
// type, and a kind: the common kinds (int64, float64, utf8, timestamp) are
// read through a switch with their parsers inlined into the object and list
// loops, the others through the function (one indirect call). Every reading
// function takes the position of a value's first byte and returns the
// position after it, or null to give up on the block. Words are read
// little-endian, as in fast_values.h.
//
// Reads past a token's end (8- and 16-byte loads) stay inside the 64 zero
// bytes after the block: no token can continue into them (a zero byte is in
// no token), so every scan stops at the block's end at the latest, and the
// line loop accepts a zero byte only there.
#include "line_scanner.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "../text/fast_values.h"
#include "../text/text_values.h"
#include "alkaid/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace alkaid::jsonl::internal {
namespace {

using text::fast::EightDigits;
using text::fast::kOnes;
using text::fast::kPow10;
using text::fast::kPow10Double;
using text::fast::Load8;
using text::fast::OverNine;

#define ALKAID_SCAN_INLINE __attribute__((always_inline)) inline

struct Slot;
using ScanFn = const char* (*)(Slot* s, const char* p);

// A struct field's key test (Node::KeyIs), laid out for the scan: the name
// and its closing quote as a masked word (names up to 7 bytes; mask 0 for
// longer ones, which Node::KeyIs compares).
struct Key {
  uint64_t word = 0;
  uint64_t mask = 0;
  size_t skip = 0;  // the name and its closing quote
  Slot* slot = nullptr;  // the field's
  // The text that leads from the field before to this one's value in the
  // compact layout (`"name":` for the first field, `,"name":` for the
  // others) and in Python's (`"name": `, `, "name": `), each as two masked
  // little-endian words (length 0 when longer than 16 bytes).
  struct Lead {
    uint64_t word[2] = {0, 0};
    uint64_t mask[2] = {0, 0};
    size_t length = 0;

    void Set(const std::string& text) {
      if (text.size() > 16) return;
      char bytes[16] = {};
      std::memcpy(bytes, text.data(), text.size());
      std::memcpy(word, bytes, 16);
      for (size_t b = 0; b < text.size(); ++b) mask[b / 8] |= uint64_t{0xFF} << (8 * (b % 8));
      length = text.size();
    }
    ALKAID_SCAN_INLINE bool At(const char* p) const {
      return length != 0 &&
             (((Load8(p) ^ word[0]) & mask[0]) | ((Load8(p + 8) ^ word[1]) & mask[1])) == 0;
    }
  };
  Lead compact, spaced;
};

// The kinds a struct's fields and a list's items read without the
// indirect call (their functions inlined into the loops).
enum class Kind : uint8_t { kOther, kInt64, kDouble, kUtf8, kTimestamp };

struct Slot {
  ScanFn fn = nullptr;
  Kind kind = Kind::kOther;
  Node* node = nullptr;
  std::vector<Slot> children;  // the list item, or the struct fields
  std::vector<Key> keys;       // structs: per field
  TimeUnit unit = TimeUnit::kSecond;  // timestamps
  bool zoned = false;
};

uint32_t Load4(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
constexpr uint32_t Word4(const char (&s)[5]) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}

// JSON whitespace inside a line (a line feed ends the line, so it is not
// skipped here). Most tokens follow the previous one directly: one compare.
ALKAID_SCAN_INLINE const char* SkipBlanks(const char* p) {
  if (static_cast<uint8_t>(*p) > ' ') return p;
  while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
  return p;
}

// `null` for a nullable node, or give up (a value of the wrong kind, or a
// null the existing tiers word as an error).
const char* ScanNull(Slot* s, const char* p) {
  if (Load4(p) != Word4("null") || !s->node->nullable) return nullptr;
  if (!s->node->builder->AppendNull().ok()) return nullptr;
  return p + 4;
}

// The digits of -?(0|[1-9][0-9]*) after the sign: up to 19 of them (more
// give up: beyond 64 bits, or left to the general tiers), as *v. Returns
// the position after the digits, or null (no digit, a leading zero before
// another digit, too many digits).
ALKAID_SCAN_INLINE const char* LongDigits(const char* q, uint64_t x0, uint64_t* v);

ALKAID_SCAN_INLINE const char* Digits(const char* q, uint64_t* v) {
  const uint64_t x0 = Load8(q) ^ (0x30 * kOnes);
  const uint64_t o0 = OverNine(x0);
  if (o0 == 0) return LongDigits(q, x0, v);
  const uint32_t k = static_cast<uint32_t>(__builtin_ctzll(o0)) >> 3;
  if (k == 0 || ((x0 & 0xFF) == 0 && k > 1)) return nullptr;
  *v = EightDigits(x0 << (64 - 8 * k));
  return q + k;
}

const char* LongDigits(const char* q, uint64_t x0, uint64_t* v) {
  if ((x0 & 0xFF) == 0) return nullptr;  // a zero before other digits
  const uint64_t hi = EightDigits(x0);
  const uint64_t x1 = Load8(q + 8) ^ (0x30 * kOnes);
  const uint64_t o1 = OverNine(x1);
  if (o1 != 0) {
    const uint32_t k = static_cast<uint32_t>(__builtin_ctzll(o1)) >> 3;
    *v = k == 0 ? hi : hi * kPow10[k] + EightDigits(x1 << (64 - 8 * k));
    return q + 8 + k;
  }
  const uint64_t x2 = Load8(q + 16) ^ (0x30 * kOnes);
  const uint64_t o2 = OverNine(x2);
  const uint32_t k = o2 == 0 ? 8 : static_cast<uint32_t>(__builtin_ctzll(o2)) >> 3;
  if (k > 3) return nullptr;  // 20 digits or more
  const uint64_t mid = hi * 100'000'000 + EightDigits(x1);
  *v = k == 0 ? mid : mid * kPow10[k] + EightDigits(x2 << (64 - 8 * k));
  return q + 16 + k;
}

// A fraction or exponent after an integer literal: the value is a number
// that is not an integer (the existing tiers reject it for integer columns).
ALKAID_SCAN_INLINE bool FloatPart(const char* e) { return *e == '.' || (*e | 0x20) == 'e'; }

// An integer literal in [lo, hi] (the column's range, or the range of the
// temporal's storage) as *x; null to give up (also for a null, which the
// caller checks first when it may be one).
ALKAID_SCAN_INLINE const char* SignedLiteral(const char* p, int64_t lo, int64_t hi, int64_t* x) {
  const bool neg = *p == '-';
  uint64_t v;
  const char* e = Digits(p + neg, &v);
  if (e == nullptr || FloatPart(e)) return nullptr;
  if (neg) {
    if (v > uint64_t{1} << 63) return nullptr;
    *x = static_cast<int64_t>(0 - v);
    if (*x < lo) return nullptr;
  } else {
    if (v > static_cast<uint64_t>(hi)) return nullptr;
    *x = static_cast<int64_t>(v);
  }
  return e;
}

template <typename B, typename C>
ALKAID_SCAN_INLINE const char* ScanSigned(Slot* s, const char* p) {
  int64_t x;
  const char* e = SignedLiteral(p, std::numeric_limits<C>::min(), std::numeric_limits<C>::max(), &x);
  if (e == nullptr) return *p == 'n' ? ScanNull(s, p) : nullptr;
  return Put<B>(s->node->builder, static_cast<C>(x)) ? e : nullptr;
}

template <typename B, typename C>
const char* ScanUnsigned(Slot* s, const char* p) {
  uint64_t v;
  const char* e = Digits(p, &v);  // a '-' is no digit: negative values give up
  if (e == nullptr) return *p == 'n' ? ScanNull(s, p) : nullptr;
  if (FloatPart(e) || v > std::numeric_limits<C>::max()) return nullptr;
  return Put<B>(s->node->builder, static_cast<C>(v)) ? e : nullptr;
}

// Any JSON number at p, checked against the grammar, as a double: integer
// literals of up to 18 digits as their integer converted (what the existing
// tiers give), others by the general parser. Gives up on the values the
// tiers treat apart: -0 as an integer literal, integers of 19 digits or
// more, results that are infinite, zero or subnormal.
const char* SlowDouble(const char* p, double* out) {
  const bool neg = *p == '-';
  const char* q = p + neg;
  auto digit = [](char c) { return static_cast<unsigned>(c - '0') <= 9; };
  if (*q == '0') {
    ++q;
  } else if (digit(*q)) {
    while (digit(*q)) ++q;
  } else {
    return nullptr;
  }
  const char* int_end = q;
  bool integer = true;
  if (*q == '.') {
    ++q;
    if (!digit(*q)) return nullptr;
    while (digit(*q)) ++q;
    integer = false;
  }
  if ((*q | 0x20) == 'e') {
    ++q;
    if (*q == '+' || *q == '-') ++q;
    if (!digit(*q)) return nullptr;
    while (digit(*q)) ++q;
    integer = false;
  }
  if (integer) {
    uint64_t v;
    if (int_end - (p + neg) > 18 || Digits(p + neg, &v) != int_end) return nullptr;
    if (neg && v == 0) return nullptr;
    const auto i = static_cast<int64_t>(v);
    *out = static_cast<double>(neg ? -i : i);
    return q;
  }
  double d;
  if (!text::ParseDouble(std::string_view(p, static_cast<size_t>(q - p)), &d)) return nullptr;
  if (!(std::fabs(d) >= DBL_MIN) || !std::isfinite(d)) return nullptr;
  *out = d;
  return q;
}

// [-]d{1,7}[.d{1,7}] with at most 15 digits in all, the common case: the
// digits as one integer divided by an exact power of ten, both exact
// doubles, so the quotient is the correctly rounded value (Clinger), the
// same as any correct parser's. Everything else goes to SlowDouble.
template <typename B, typename C>
ALKAID_SCAN_INLINE const char* ScanFloat(Slot* s, const char* p) {
  const bool neg = *p == '-';
  const char* q = p + neg;
  const uint64_t x0 = Load8(q) ^ (0x30 * kOnes);
  const uint64_t o0 = OverNine(x0);
  double d;
  const char* e = nullptr;
  if (o0 != 0) {
    const uint32_t ki = static_cast<uint32_t>(__builtin_ctzll(o0)) >> 3;
    if (ki == 0) return !neg && *p == 'n' ? ScanNull(s, p) : nullptr;
    if ((x0 & 0xFF) == 0 && ki > 1) return nullptr;  // "01"
    const uint64_t ip = EightDigits(x0 << (64 - 8 * ki));
    const char* r = q + ki;
    if (*r == '.') {
      const uint64_t x1 = Load8(r + 1) ^ (0x30 * kOnes);
      const uint64_t o1 = OverNine(x1);
      const uint32_t kf = o1 == 0 ? 8 : static_cast<uint32_t>(__builtin_ctzll(o1)) >> 3;
      if (kf == 0) return nullptr;  // "1." or "1.x"
      if (kf < 8 && ki + kf <= 15 && (r[1 + kf] | 0x20) != 'e') {
        const double v = static_cast<double>(ip * kPow10[kf] + EightDigits(x1 << (64 - 8 * kf))) /
                         kPow10Double[kf];
        d = neg ? -v : v;
        e = r + 1 + kf;
      }
    } else if ((*r | 0x20) != 'e' && (ip != 0 || !neg)) {
      d = neg ? -static_cast<double>(ip) : static_cast<double>(ip);
      e = r;
    }
  }
  if (e == nullptr) {
    e = SlowDouble(p, &d);
    if (e == nullptr) return nullptr;
  }
  return Put<B>(s->node->builder, static_cast<C>(d)) ? e : nullptr;
}

const char* ScanBool(Slot* s, const char* p) {
  const uint32_t w = Load4(p);
  if (w == Word4("true")) return Put<BooleanBuilder>(s->node->builder, true) ? p + 4 : nullptr;
  if (w == Word4("fals") && p[4] == 'e') {
    return Put<BooleanBuilder>(s->node->builder, false) ? p + 5 : nullptr;
  }
  return ScanNull(s, p);
}

// Strings. StringEnd finds the first quote, backslash, control byte or
// non-ASCII byte after p; a quote there ends a plain ASCII string, the rest
// give up except non-ASCII bytes, which go to Utf8StringEnd.
ALKAID_SCAN_INLINE const char* StringEnd(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                space = _mm_set1_epi8(' ');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed: bytes below 0x20 and from 0x80 up are "less than" a space.
    const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                         _mm_cmplt_epi8(v, space));
    const int m = _mm_movemask_epi8(special);
    if (m != 0) return p + __builtin_ctz(static_cast<unsigned>(m));
    p += 16;
  }
#else
  while (*p != '"' && *p != '\\' && static_cast<uint8_t>(*p) >= 0x20 && static_cast<uint8_t>(*p) < 0x80) ++p;
  return p;
#endif
}

// The rest of a string that has a non-ASCII byte at p: its closing quote,
// or null when a backslash or control byte comes first or the whole string
// [begin, quote) is not well-formed UTF-8.
const char* Utf8StringEnd(const char* begin, const char* p) {
  while (*p != '"') {
    if (*p == '\\' || static_cast<uint8_t>(*p) < 0x20) return nullptr;
    ++p;
  }
  if (FindInvalidUtf8(reinterpret_cast<const uint8_t*>(begin), p - begin) >= 0) return nullptr;
  return p;
}

// The text of the string whose opening quote is at p, as [p + 1, *end);
// false to give up.
ALKAID_SCAN_INLINE bool PlainString(const char* p, const char** end) {
  const char* e = StringEnd(p + 1);
  if (*e != '"') {
    if (static_cast<uint8_t>(*e) < 0x80) return false;
    e = Utf8StringEnd(p + 1, e);
    if (e == nullptr) return false;
  }
  *end = e;
  return true;
}

template <typename B>
ALKAID_SCAN_INLINE const char* ScanString(Slot* s, const char* p) {
  if (*p != '"') return ScanNull(s, p);
  const char* e;
  if (!PlainString(p, &e)) return nullptr;
  const std::string_view text(p + 1, static_cast<size_t>(e - p - 1));
  if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
    if (!static_cast<B*>(s->node->builder)->Append(text).ok()) return nullptr;
  } else {
    if (!PutString<B>(s->node, text)) return nullptr;
  }
  return e + 1;
}

// Dates, times, timestamps: a string of the type's text form, or an integer
// count of the unit.
template <typename B, typename C>
ALKAID_SCAN_INLINE const char* ScanTemporal(Slot* s, const char* p) {
  int64_t x = 0;
  if (*p == '"') {
#if defined(__SSE2__)
    if constexpr (std::is_same_v<B, TimestampBuilder>) {
      // The fixed layout is 19 to 30 bytes: its closing quote is the first
      // quote in bytes 20..35 after the opening one, unless the text has
      // one before, which the layout check rejects (it checks every byte).
      const int m = _mm_movemask_epi8(_mm_cmpeq_epi8(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 20)), _mm_set1_epi8('"')));
      if (m != 0) {
        const auto n = static_cast<size_t>(19 + __builtin_ctz(static_cast<unsigned>(m)));
        if (text::fast::FixedTimestampAs(p + 1, n, s->unit, s->zoned, &x)) {
          return Put<B>(s->node->builder, x) ? p + n + 2 : nullptr;
        }
      }
    }
#endif
    const char* e = StringEnd(p + 1);
    if (*e != '"') return nullptr;  // no temporal text has escapes or non-ASCII bytes
    const auto n = static_cast<size_t>(e - p - 1);
    bool done = false;
    if constexpr (std::is_same_v<B, TimestampBuilder>) {
      done = text::fast::FixedTimestampAs(p + 1, n, s->unit, s->zoned, &x);
    }
    if (!done && !text::ParseTemporal(std::string_view(p + 1, n), *s->node->type, &x)) return nullptr;
    return Put<B>(s->node->builder, static_cast<C>(x)) ? e + 1 : nullptr;
  }
  const char* e = SignedLiteral(p, std::numeric_limits<C>::min(), std::numeric_limits<C>::max(), &x);
  if (e == nullptr) return *p == 'n' ? ScanNull(s, p) : nullptr;
  return Put<B>(s->node->builder, static_cast<C>(x)) ? e : nullptr;
}

// One value of a struct field or list item.
ALKAID_SCAN_INLINE const char* Value(Slot* s, const char* p) {
  switch (s->kind) {
    case Kind::kInt64: return ScanSigned<Int64Builder, int64_t>(s, p);
    case Kind::kDouble: return ScanFloat<DoubleBuilder, double>(s, p);
    case Kind::kUtf8: return ScanString<StringBuilder>(s, p);
    case Kind::kTimestamp: return ScanTemporal<TimestampBuilder, int64_t>(s, p);
    default: return s->fn(s, p);
  }
}

template <typename B>
const char* ScanList(Slot* s, const char* p) {
  if (*p != '[') return ScanNull(s, p);
  if (!static_cast<B*>(s->node->builder)->Append(true).ok()) return nullptr;
  p = SkipBlanks(p + 1);
  if (*p == ']') return p + 1;
  Slot* item = &s->children[0];
  for (;;) {
    p = Value(item, p);
    if (p == nullptr) return nullptr;
    if (*p != ',') {
      p = SkipBlanks(p);
      if (*p == ']') return p + 1;
      if (*p != ',') return nullptr;
    }
    p = SkipBlanks(p + 1);
  }
}

// The members of an object after its '{', through its '}'. While the fields
// come in schema order with compact or Python-style separators, each
// field's lead (`,"name":`) is one masked two-word compare (two for Python's
// `, "name": `). Otherwise keys are
// looked for in schema order first (the field after the last one read); a key that
// names no field (or has an escape), or a repeated key, gives up. Fields
// not seen get a null (or give up when not nullable). Which fields were
// seen: bits of a word for up to 64 fields (kWide false), the node's stamps
// beyond.
template <bool kWide>
const char* ScanMembers(Slot* s, const char* p) {
  Node* n = s->node;
  const Key* keys = s->keys.data();
  const size_t nf = s->keys.size();
  const uint64_t gen = kWide ? ++n->gen : 0;
  uint64_t seen = 0;
  size_t count = 0, guess = 0;
  if constexpr (!kWide) {
    // Fields in schema order in the plain layout: each lead compared as
    // words, no key search, no separator tests.
    while (guess < nf) {
      const Key& k = keys[guess];
      if (k.compact.At(p)) {
        p += k.compact.length;
      } else if (k.spaced.At(p)) {
        p += k.spaced.length;
      } else {
        break;
      }
      p = Value(k.slot, SkipBlanks(p));
      if (p == nullptr) return nullptr;
      seen |= uint64_t{1} << guess;
      ++guess;
    }
    count = guess;
    if (count == nf && *p == '}') return p + 1;
  }
  // The general way from here: after '{' or after a value.
  p = SkipBlanks(p);
  const bool more = *p != '}';
  if (more && count != 0) {
    if (*p != ',') return nullptr;
    p = SkipBlanks(p + 1);  // a key must follow
  }
  if (more) {
    for (;;) {
      if (*p != '"') return nullptr;
      ++p;
      const uint64_t head = Load8(p);
      auto is = [&](size_t k) __attribute__((always_inline)) {
        return keys[k].mask != 0 ? (head & keys[k].mask) == keys[k].word : n->KeyIs(k, p, head);
      };
      const size_t idx = n->FindField(guess, p, is);
      if (idx == nf) return nullptr;
      guess = idx + 1;
      if constexpr (kWide) {
        if (n->stamp[idx] == gen) return nullptr;
        n->stamp[idx] = gen;
      } else {
        const uint64_t bit = uint64_t{1} << idx;
        if (seen & bit) return nullptr;
        seen |= bit;
      }
      p = SkipBlanks(p + keys[idx].skip);
      if (*p != ':') return nullptr;
      p = SkipBlanks(p + 1);
      p = Value(keys[idx].slot, p);
      if (p == nullptr) return nullptr;
      ++count;
      p = SkipBlanks(p);
      if (*p == ',') {
        p = SkipBlanks(p + 1);
        continue;
      }
      if (*p != '}') return nullptr;
      break;
    }
  }
  if (count != nf) {
    for (size_t k = 0; k < nf; ++k) {
      if (kWide ? n->stamp[k] == gen : (seen >> k & 1) != 0) continue;
      const Node& c = n->children[k];
      if (!c.nullable || !n->ChargeFill(k) || !c.builder->AppendNull().ok()) return nullptr;
    }
  }
  return p + 1;
}

const char* Members(Slot* s, const char* p) {
  return s->keys.size() > 64 ? ScanMembers<true>(s, p) : ScanMembers<false>(s, p);
}

const char* ScanStruct(Slot* s, const char* p) {
  if (*p != '{') return ScanNull(s, p);
  if (!static_cast<StructBuilder*>(s->node->builder)->Append(true).ok()) return nullptr;
  return Members(s, p + 1);
}

bool NameOk(const std::string& name) {
  for (char c : name) {
    if (c == '"' || c == '\\' || static_cast<uint8_t>(c) < 0x20) return false;
  }
  return IsValidUtf8(reinterpret_cast<const uint8_t*>(name.data()), static_cast<int64_t>(name.size()));
}

// The scanner's column of ByColumnType: its function per type.
struct ScanFns {
  const DataType& type;
  template <typename B, typename C> ScanFn Signed() { return ScanSigned<B, C>; }
  template <typename B, typename C> ScanFn Unsigned() { return ScanUnsigned<B, C>; }
  template <typename B, typename C> ScanFn Floating() { return ScanFloat<B, C>; }
  template <typename B, typename C> ScanFn Temporal() { return ScanTemporal<B, C>; }
  template <typename B> ScanFn String() { return ScanString<B>; }
  template <typename B> ScanFn List() { return ScanList<B>; }
  ScanFn Bool() { return ScanBool; }
  ScanFn Struct() {
    for (const auto& f : type.fields()) {
      if (!NameOk(f->name())) return nullptr;
    }
    return ScanStruct;
  }
  ScanFn Other() { return nullptr; }
};

// The function reading values of `type`, or null when the scanner does not
// read it (children checked by the caller).
ScanFn PickFn(const DataType& type) { return ByColumnType(type.id(), ScanFns{type}); }

bool Supported(const DataType& type) {
  if (PickFn(type) == nullptr) return false;
  if (type.id() == TypeId::kList || type.id() == TypeId::kLargeList || type.id() == TypeId::kStruct) {
    for (const auto& f : type.fields()) {
      if (!Supported(*f->type())) return false;
    }
  }
  return true;
}

void BuildSlot(Node* n, Slot* s) {
  s->node = n;
  s->fn = PickFn(*n->type);
  switch (n->id) {
    case TypeId::kInt64: s->kind = Kind::kInt64; break;
    case TypeId::kDouble: s->kind = Kind::kDouble; break;
    case TypeId::kString: s->kind = Kind::kUtf8; break;
    case TypeId::kTimestamp: s->kind = Kind::kTimestamp; break;
    default: break;
  }
  if (n->id == TypeId::kTimestamp) {
    const auto& t = checked_cast<TimestampType>(*n->type);
    s->unit = t.unit();
    s->zoned = !t.timezone().empty();
  }
  s->children.resize(n->children.size());
  for (size_t i = 0; i < n->children.size(); ++i) BuildSlot(&n->children[i], &s->children[i]);
  if (n->id == TypeId::kStruct) {
    for (size_t i = 0; i < n->names.size(); ++i) {
      Key k;
      k.word = n->key_word[i];
      k.mask = n->key_mask[i];
      k.skip = n->names[i].size() + 1;
      k.slot = &s->children[i];
      k.compact.Set((i == 0 ? "\"" : ",\"") + n->names[i] + "\":");
      k.spaced.Set((i == 0 ? "\"" : ", \"") + n->names[i] + "\": ");
      s->keys.push_back(k);
    }
  }
}

}  // namespace

bool ScannerSupports(const DataType& struct_type) {
  return struct_type.id() == TypeId::kStruct && Supported(struct_type);
}

bool ScanLines(const char* data, int64_t size, Node* root, int64_t* rows) {
  Slot top;
  BuildSlot(root, &top);
  const char* p = data;
  const char* const end = data + size;
  int64_t count = 0;
  for (;;) {
    // A line: blanks, then an object and blanks, or nothing.
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (*p == '{') {
      p = Members(&top, p + 1);
      if (p == nullptr) return false;
      ++count;
      p = SkipBlanks(p);
    }
    if (*p == '\n') {
      ++p;
      continue;
    }
    if (p == end) break;
    return false;
  }
  *rows = count;
  return true;
}

}  // namespace alkaid::jsonl::internal
