// Decimal text parsing for DecimalBuilder: "[+-]digits[.digits][e[+-]digits]"
// turned into the scaled two's complement integer of the decimal's width.
#include <array>
#include <string>

#include "alkaid/builder.h"

namespace alkaid {

namespace {

// Magnitudes up to 76 digits need 253 bits: four 64-bit limbs, least
// significant first.
using Limbs = std::array<uint64_t, 4>;

struct DecimalText {
  bool negative = false;
  std::string digits;    // integer and fraction digits, concatenated
  int64_t exponent = 0;  // value = digits * 10^exponent
};

Status BadText(std::string_view text, const char* why) {
  return Status::Invalid("invalid decimal text '", text, "': ", why);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Result<DecimalText> SplitText(std::string_view text) {
  DecimalText out;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) out.negative = text[i++] == '-';
  size_t int_digits = 0;
  while (i < text.size() && IsDigit(text[i])) {
    out.digits.push_back(text[i++]);
    ++int_digits;
  }
  size_t frac_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) {
      out.digits.push_back(text[i++]);
      ++frac_digits;
    }
  }
  if (int_digits + frac_digits == 0) return BadText(text, "no digits");
  out.exponent = -static_cast<int64_t>(frac_digits);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) exp_negative = text[i++] == '-';
    if (i == text.size()) return BadText(text, "exponent without digits");
    int64_t exp = 0;
    while (i < text.size() && IsDigit(text[i])) {
      exp = exp * 10 + (text[i++] - '0');
      if (exp > 100000) return BadText(text, "exponent out of range");
    }
    out.exponent += exp_negative ? -exp : exp;
  }
  if (i != text.size()) return BadText(text, "unexpected character");
  return out;
}

void MultiplyAdd(Limbs* limbs, uint64_t factor, uint64_t addend) {
  unsigned __int128 carry = addend;
  for (auto& limb : *limbs) {
    unsigned __int128 product = static_cast<unsigned __int128>(limb) * factor + carry;
    limb = static_cast<uint64_t>(product);
    carry = product >> 64;
  }
}

void Negate(Limbs* limbs) {
  uint64_t carry = 1;
  for (auto& limb : *limbs) {
    limb = ~limb + carry;
    carry = (carry == 1 && limb == 0) ? 1 : 0;
  }
}

// Whether the 256-bit two's complement value fits in `bits` bits.
bool FitsSigned(const Limbs& limbs, int bits) {
  if (bits >= 256) return true;
  uint64_t sign_fill = (limbs[3] >> 63) ? ~uint64_t{0} : 0;
  // Bits from (bits - 1) up must all equal the sign bit.
  for (int b = bits - 1; b < 256; ++b) {
    uint64_t bit = (limbs[static_cast<size_t>(b / 64)] >> (b % 64)) & 1;
    if (bit != (sign_fill & 1)) return false;
  }
  return true;
}

}  // namespace

Status ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int32_t byte_width,
                    uint8_t* out) {
  ALKAID_ASSIGN_OR_RAISE(DecimalText parsed, SplitText(text));
  // The stored integer is value * 10^scale = digits * 10^(exponent + scale).
  int64_t shift = parsed.exponent + scale;
  std::string& digits = parsed.digits;
  if (shift < 0) {
    auto drop = static_cast<size_t>(std::min<int64_t>(-shift, static_cast<int64_t>(digits.size())));
    if (digits.find_first_not_of('0', digits.size() - drop) != std::string::npos) {
      return Status::Invalid("decimal text '", text, "' has more fractional digits than scale ",
                             scale, " keeps");
    }
    digits.resize(digits.size() - drop);
    shift = 0;
  }
  size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? std::string() : digits.substr(first);
  if (!digits.empty() && static_cast<int64_t>(digits.size()) + shift > precision) {
    return Status::Invalid("decimal text '", text, "' needs ",
                           static_cast<int64_t>(digits.size()) + shift,
                           " digits, more than precision ", precision);
  }
  if (digits.empty()) shift = 0;
  Limbs limbs{};
  for (char c : digits) MultiplyAdd(&limbs, 10, static_cast<uint64_t>(c - '0'));
  for (int64_t i = 0; i < shift; ++i) MultiplyAdd(&limbs, 10, 0);
  if (parsed.negative) Negate(&limbs);
  if (!FitsSigned(limbs, byte_width * 8)) {
    return Status::Invalid("decimal text '", text, "' does not fit ", byte_width * 8, " bits");
  }
  // Limbs are little-endian words; copy the low bytes (little-endian host).
  std::memcpy(out, limbs.data(), static_cast<size_t>(byte_width));
  return Status::OK();
}

DecimalBuilder::DecimalBuilder(DataTypePtr type, MemoryPool* pool)
    : FixedSizeBinaryBuilder(std::move(type), pool) {
  const auto& decimal_type = checked_cast<DecimalType>(*type_);
  precision_ = decimal_type.precision();
  scale_ = decimal_type.scale();
}

Status DecimalBuilder::AppendUnscaled(int64_t unscaled) {
  Limbs limbs{};
  limbs[0] = static_cast<uint64_t>(unscaled);
  uint64_t fill = unscaled < 0 ? ~uint64_t{0} : 0;
  limbs[1] = limbs[2] = limbs[3] = fill;
  if (!FitsSigned(limbs, width_ * 8)) {
    return Status::Invalid(type_->ToString(), " builder: ", unscaled, " does not fit ", width_ * 8,
                           " bits");
  }
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  UnsafeAppend(reinterpret_cast<const uint8_t*>(limbs.data()));
  return Status::OK();
}

Status DecimalBuilder::AppendString(std::string_view text) {
  uint8_t bytes[32];
  Status st = ParseDecimal(text, precision_, scale_, width_, bytes);
  if (!st.ok()) return st.WithContext(type_->ToString() + " builder, slot " + std::to_string(length_));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  UnsafeAppend(bytes);
  return Status::OK();
}

}  // namespace alkaid
