// Encodings of single values used by the integration JSON format.
#include <charconv>
#include <cmath>
#include <cstring>

#include "integration_internal.h"

#include "alkaid/decimal.h"

namespace alkaid::integration_json::internal {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
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
  // The integration format writes the unscaled integer: digits only.
  size_t pos = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (pos == text.size() || text.find_first_not_of("0123456789", pos) != std::string_view::npos)
    return Status::Invalid("'", text, "' is not a decimal integer");
  return DecimalFromString(text, width, /*scale=*/0, out);
}

std::string FormatDecimalInteger(const uint8_t* bytes, int width) {
  return DecimalToString(bytes, width, /*scale=*/0);
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

}  // namespace alkaid::integration_json::internal
