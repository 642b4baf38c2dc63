#include "alkaid/float16.h"

#include <cstring>

namespace alkaid {

namespace {

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

}  // namespace

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;

  if (exponent == 0x1F) {  // inf or NaN: widen the mantissa, all-ones exponent
    return BitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  }
  if (exponent != 0) {  // normal: re-bias 15 -> 127
    return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return BitsToFloat(sign);  // +-0
  // Subnormal half: a normal float. Shift the leading one up to bit 10.
  int shift = 0;
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    ++shift;
  }
  mantissa &= 0x3FFu;
  const uint32_t float_exponent = static_cast<uint32_t>(113 - shift);  // 127 - 14 - shift
  return BitsToFloat(sign | (float_exponent << 23) | (mantissa << 13));
}

uint16_t FloatToHalf(float value) {
  const uint32_t u = FloatBits(value);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs_bits = u & 0x7FFFFFFFu;

  if (abs_bits >= 0x7F800000u) {  // inf or NaN
    if (abs_bits == 0x7F800000u) return static_cast<uint16_t>(sign | 0x7C00u);
    // Keep the top mantissa bits and force the quiet bit so it stays a NaN.
    return static_cast<uint16_t>(sign | 0x7E00u | ((abs_bits >> 13) & 0x3FFu));
  }
  // 65520 and above round to infinity in binary16.
  if (abs_bits >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);

  const int32_t exponent = static_cast<int32_t>(abs_bits >> 23) - 127;
  if (exponent >= -14) {
    // Normal half. Round the 23-bit mantissa to 10 bits, nearest even; a carry
    // out of the mantissa correctly bumps the exponent.
    uint32_t half = (static_cast<uint32_t>(exponent + 15) << 10) | ((abs_bits >> 13) & 0x3FFu);
    const uint32_t rest = abs_bits & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (exponent < -25) return sign;  // below half the smallest subnormal: +-0

  // Subnormal half: value = m * 2^-24 with m < 1024. Make the implicit one
  // explicit, then shift right with round-to-nearest-even.
  const uint32_t full = (abs_bits & 0x7FFFFFu) | 0x800000u;
  const int shift = -exponent - 1;  // 14..24: maps 2^exponent onto units of 2^-24
  uint32_t m = full >> shift;
  const uint32_t rest = full & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (m & 1u))) ++m;
  return static_cast<uint16_t>(sign | m);
}

}  // namespace alkaid
