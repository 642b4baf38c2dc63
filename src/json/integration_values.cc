// Encodings of single values used by the integration JSON format.
#include <charconv>
#include <cmath>
#include <cstring>

#include "integration_internal.h"

namespace alkaid::json::internal {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Big integers as little-endian 32-bit limbs (at most 8 for 256 bits).
constexpr int kMaxLimbs = 8;

void LimbsFromBytes(const uint8_t* bytes, int width, uint32_t* limbs) {
  for (int i = 0; i < width / 4; ++i) std::memcpy(&limbs[i], bytes + 4 * i, 4);
}

void LimbsToBytes(const uint32_t* limbs, int width, uint8_t* bytes) {
  for (int i = 0; i < width / 4; ++i) std::memcpy(bytes + 4 * i, &limbs[i], 4);
}

void NegateLimbs(uint32_t* limbs, int n) {
  uint64_t carry = 1;
  for (int i = 0; i < n; ++i) {
    uint64_t v = static_cast<uint64_t>(static_cast<uint32_t>(~limbs[i])) + carry;
    limbs[i] = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
}

// limbs = limbs * mul + add; returns the carry out of the top limb.
uint32_t MulAddLimbs(uint32_t* limbs, int n, uint32_t mul, uint32_t add) {
  uint64_t carry = add;
  for (int i = 0; i < n; ++i) {
    uint64_t v = static_cast<uint64_t>(limbs[i]) * mul + carry;
    limbs[i] = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  return static_cast<uint32_t>(carry);
}

// limbs /= div; returns the remainder.
uint32_t DivLimbs(uint32_t* limbs, int n, uint32_t div) {
  uint64_t rem = 0;
  for (int i = n - 1; i >= 0; --i) {
    uint64_t cur = (rem << 32) | limbs[i];
    limbs[i] = static_cast<uint32_t>(cur / div);
    rem = cur % div;
  }
  return static_cast<uint32_t>(rem);
}

bool LimbsAreZero(const uint32_t* limbs, int n) {
  for (int i = 0; i < n; ++i)
    if (limbs[i] != 0) return false;
  return true;
}

}  // namespace

std::string HexEncode(const uint8_t* data, int64_t size) {
  std::string out(static_cast<size_t>(size) * 2, '0');
  for (int64_t i = 0; i < size; ++i) {
    out[static_cast<size_t>(2 * i)] = kHexDigits[data[i] >> 4];
    out[static_cast<size_t>(2 * i + 1)] = kHexDigits[data[i] & 15];
  }
  return out;
}

bool HexDecode(std::string_view text, uint8_t* out, size_t* bad_at) {
  if (text.size() % 2 != 0) {
    *bad_at = text.size();
    return false;
  }
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = HexValue(text[i]);
    int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) {
      *bad_at = hi < 0 ? i : i + 1;
      return false;
    }
    out[i / 2] = static_cast<uint8_t>((hi << 4) | lo);
  }
  return true;
}

Status ParseDecimalInteger(std::string_view text, int width, uint8_t* out) {
  const int n = width / 4;
  uint32_t limbs[kMaxLimbs] = {};
  bool negative = false;
  size_t pos = 0;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  if (pos == text.size()) return Status::Invalid("'", text, "' is not a decimal integer");
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c < '0' || c > '9')
      return Status::Invalid("'", text, "' is not a decimal integer (bad character at ", pos, ")");
    if (MulAddLimbs(limbs, n, 10, static_cast<uint32_t>(c - '0')) != 0)
      return Status::Invalid("'", text, "' does not fit in ", width * 8, " bits");
  }
  // The magnitude may reach 2^(bits-1) only when negative.
  bool top_bit = (limbs[n - 1] >> 31) != 0;
  if (top_bit) {
    bool is_min = limbs[n - 1] == 0x80000000u && LimbsAreZero(limbs, n - 1);
    if (!negative || !is_min)
      return Status::Invalid("'", text, "' does not fit in ", width * 8, " signed bits");
  }
  if (negative) NegateLimbs(limbs, n);
  LimbsToBytes(limbs, width, out);
  return Status::OK();
}

std::string FormatDecimalInteger(const uint8_t* bytes, int width) {
  const int n = width / 4;
  uint32_t limbs[kMaxLimbs] = {};
  LimbsFromBytes(bytes, width, limbs);
  bool negative = (limbs[n - 1] >> 31) != 0;
  if (negative) NegateLimbs(limbs, n);  // the minimum value stays itself, read unsigned
  std::string digits;
  do {
    uint32_t chunk = DivLimbs(limbs, n, 1000000000u);
    bool more = !LimbsAreZero(limbs, n);
    for (int i = 0; i < 9 && (more || chunk != 0 || i == 0); ++i) {
      digits.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
    }
    if (!more) break;
  } while (true);
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {  // infinity or NaN (keep NaNs quiet and non-zero)
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0));
  }
  int32_t half_exp = static_cast<int32_t>(exponent) - 127 + 15;
  if (half_exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow to infinity
  if (half_exp <= 0) {
    // Subnormal half (or zero): shift the full significand into place.
    if (half_exp < -10) return sign;
    uint32_t significand = mantissa | 0x800000u;
    int shift = 14 - half_exp;
    uint32_t result = significand >> shift;
    uint32_t rest = significand & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }
  uint32_t result = (static_cast<uint32_t>(half_exp) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

float HalfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalize into a float.
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

double FloatForPrinting(float value) {
  if (!std::isfinite(value)) return static_cast<double>(value);
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  double out = static_cast<double>(value);
  std::from_chars(buf, res.ptr, out);
  return out;
}

const char* TimeUnitJsonName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "SECOND";
    case TimeUnit::kMilli: return "MILLISECOND";
    case TimeUnit::kMicro: return "MICROSECOND";
    case TimeUnit::kNano: return "NANOSECOND";
  }
  return "SECOND";
}

}  // namespace alkaid::json::internal
