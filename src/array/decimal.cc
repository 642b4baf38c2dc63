#include "alkaid/decimal.h"

#include <algorithm>
#include <array>

namespace alkaid {

namespace {

// Up to 256 bits as little-endian 32-bit limbs, plus one spare limb so that
// parsing can detect values wider than 256 bits.
constexpr int kMaxLimbs = 9;
using Limbs = std::array<uint32_t, kMaxLimbs>;

bool ValidWidth(int byte_width) {
  return byte_width == 4 || byte_width == 8 || byte_width == 16 || byte_width == 32;
}

// Loads the two's complement integer; returns its magnitude and sign.
Limbs LoadMagnitude(const uint8_t* le_bytes, int byte_width, bool* negative) {
  Limbs limbs{};
  const int n = byte_width / 4;
  for (int i = 0; i < byte_width; ++i) {
    limbs[static_cast<size_t>(i / 4)] |= static_cast<uint32_t>(le_bytes[i]) << (8 * (i % 4));
  }
  *negative = (le_bytes[byte_width - 1] & 0x80) != 0;
  if (*negative) {
    // Two's complement negation over exactly n limbs; the most negative value
    // maps onto 2^(bits-1), which still fits as an unsigned magnitude.
    uint64_t carry = 1;
    for (int i = 0; i < n; ++i) {
      uint64_t v = static_cast<uint64_t>(~limbs[static_cast<size_t>(i)]) + carry;
      limbs[static_cast<size_t>(i)] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  return limbs;
}

bool IsZero(const Limbs& limbs) {
  return std::all_of(limbs.begin(), limbs.end(), [](uint32_t v) { return v == 0; });
}

// Divides in place by `divisor` and returns the remainder.
uint32_t DivideInPlace(Limbs* limbs, uint32_t divisor) {
  uint64_t remainder = 0;
  for (int i = kMaxLimbs - 1; i >= 0; --i) {
    uint64_t cur = (remainder << 32) | (*limbs)[static_cast<size_t>(i)];
    (*limbs)[static_cast<size_t>(i)] = static_cast<uint32_t>(cur / divisor);
    remainder = cur % divisor;
  }
  return static_cast<uint32_t>(remainder);
}

// limbs = limbs * factor + addend; returns false when the result overflows.
bool MultiplyAdd(Limbs* limbs, uint32_t factor, uint32_t addend) {
  uint64_t carry = addend;
  for (auto& limb : *limbs) {
    uint64_t v = static_cast<uint64_t>(limb) * factor + carry;
    limb = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  return carry == 0;
}

// Decimal digits of an unsigned magnitude, most significant first.
std::string MagnitudeDigits(Limbs magnitude) {
  if (IsZero(magnitude)) return "0";
  // Peel off nine digits per division; chunks come out least significant first.
  std::string reversed;
  while (!IsZero(magnitude)) {
    uint32_t chunk = DivideInPlace(&magnitude, 1000000000u);
    for (int i = 0; i < 9; ++i) {
      reversed.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
    }
  }
  while (reversed.size() > 1 && reversed.back() == '0') reversed.pop_back();
  return std::string(reversed.rbegin(), reversed.rend());
}

// Splits "[+-]digits[.digits][(e|E)[+-]digits]" into sign, all mantissa
// digits and the power of ten they must be multiplied by.
Status ParseDecimalText(std::string_view text, bool* negative, std::string* digits,
                        int64_t* exponent) {
  size_t pos = 0;
  *negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    *negative = text[pos] == '-';
    ++pos;
  }
  int64_t fraction_digits = 0;
  bool seen_point = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c >= '0' && c <= '9') {
      digits->push_back(c);
      if (seen_point) ++fraction_digits;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits->empty())
    return Status::Invalid("decimal text '", text, "' has no digits");
  int64_t written_exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exponent_negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      exponent_negative = text[pos] == '-';
      ++pos;
    }
    size_t start = pos;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      // Bounded so the arithmetic below cannot overflow; such values are
      // rejected later as out of range or inexact anyway.
      if (written_exponent < 100000) written_exponent = written_exponent * 10 + (text[pos] - '0');
    }
    if (pos == start)
      return Status::Invalid("decimal text '", text, "' has an exponent without digits");
    if (exponent_negative) written_exponent = -written_exponent;
  }
  if (pos != text.size())
    return Status::Invalid("decimal text '", text, "' has an unexpected character at position ",
                           pos);
  *exponent = written_exponent - fraction_digits;
  return Status::OK();
}

}  // namespace

std::string DecimalToString(const uint8_t* le_bytes, int byte_width, int32_t scale) {
  if (!ValidWidth(byte_width)) return "<invalid decimal width>";
  bool negative;
  std::string digits = MagnitudeDigits(LoadMagnitude(le_bytes, byte_width, &negative));
  std::string out = negative ? "-" : "";
  if (scale <= 0) {
    out += digits;
    if (digits != "0") out.append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
    return out;
  }
  const size_t s = static_cast<size_t>(scale);
  if (digits.size() <= s) {
    out += "0.";
    out.append(s - digits.size(), '0');
    out += digits;
  } else {
    out.append(digits, 0, digits.size() - s);
    out += '.';
    out.append(digits, digits.size() - s, s);
  }
  return out;
}

Status DecimalFromString(std::string_view text, int byte_width, int32_t scale, uint8_t* out) {
  if (!ValidWidth(byte_width))
    return Status::Invalid("decimal byte width must be 4, 8, 16 or 32, got ", byte_width);
  bool negative;
  std::string digits;
  int64_t exponent;
  ALKAID_RETURN_NOT_OK(ParseDecimalText(text, &negative, &digits, &exponent));

  // The stored integer is mantissa * 10^(exponent + scale).
  int64_t shift = exponent + scale;
  if (shift < 0) {
    // Dropping digits is only exact when they are all zero.
    size_t drop = static_cast<size_t>(std::min<int64_t>(-shift, static_cast<int64_t>(digits.size())));
    if (digits.find_first_not_of('0', digits.size() - drop) != std::string::npos)
      return Status::Invalid("decimal text '", text, "' has more fractional digits than scale ",
                             scale, " allows");
    digits.resize(digits.size() - drop);
    if (digits.empty()) digits = "0";
    shift = 0;
  }
  size_t first_nonzero = digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) {
    digits = "0";
    shift = 0;  // zero stays zero at any scale
  } else {
    digits.erase(0, first_nonzero);
  }
  // 2^256 has 78 digits: anything longer cannot fit any width.
  if (static_cast<int64_t>(digits.size()) + shift > 78)
    return Status::Invalid("decimal text '", text, "' does not fit in ", byte_width * 8, " bits");
  digits.append(static_cast<size_t>(shift), '0');

  Limbs magnitude{};
  for (char c : digits) {
    if (!MultiplyAdd(&magnitude, 10, static_cast<uint32_t>(c - '0')))
      return Status::Invalid("decimal text '", text, "' does not fit in ", byte_width * 8, " bits");
  }

  // Signed range: magnitude < 2^(bits-1), or == 2^(bits-1) when negative.
  const int n = byte_width / 4;
  bool above = false;
  for (int i = n; i < kMaxLimbs; ++i) above |= magnitude[static_cast<size_t>(i)] != 0;
  const uint32_t top = magnitude[static_cast<size_t>(n - 1)];
  if (top > 0x80000000u) above = true;
  if (top == 0x80000000u) {
    bool lower_zero = true;
    for (int i = 0; i < n - 1; ++i) lower_zero &= magnitude[static_cast<size_t>(i)] == 0;
    if (!(negative && lower_zero)) above = true;
  }
  if (above)
    return Status::Invalid("decimal text '", text, "' does not fit in ", byte_width * 8, " bits");

  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < n; ++i) {
      uint64_t v = static_cast<uint64_t>(~magnitude[static_cast<size_t>(i)]) + carry;
      magnitude[static_cast<size_t>(i)] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  for (int i = 0; i < byte_width; ++i) {
    out[i] = static_cast<uint8_t>(magnitude[static_cast<size_t>(i / 4)] >> (8 * (i % 4)));
  }
  return Status::OK();
}

int DecimalDigitCount(const uint8_t* le_bytes, int byte_width) {
  if (!ValidWidth(byte_width)) return 0;
  bool negative;
  return static_cast<int>(MagnitudeDigits(LoadMagnitude(le_bytes, byte_width, &negative)).size());
}

}  // namespace alkaid
