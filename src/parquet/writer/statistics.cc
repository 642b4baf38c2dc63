#include "src/parquet/writer/statistics.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

#include "alkaid/bitmap.h"
#include "alkaid/float16.h"
#include "../../array/utf8_internal.h"

namespace alkaid::parquet::internal {

namespace {

template <typename T>
T Load(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

template <typename T>
std::string Store(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

int CompareBytes(std::string_view a, std::string_view b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// Big-endian two's complement of equal or different lengths (sign-extended to compare).
int CompareDecimal(std::string_view a, std::string_view b) {
  bool neg_a = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  bool neg_b = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (neg_a != neg_b) return neg_a ? -1 : 1;
  size_t n = a.size() > b.size() ? a.size() : b.size();
  const uint8_t fill = neg_a ? 0xFF : 0x00;
  for (size_t i = 0; i < n; ++i) {
    size_t pad_a = n - a.size(), pad_b = n - b.size();
    uint8_t x = i < pad_a ? fill : static_cast<uint8_t>(a[i - pad_a]);
    uint8_t y = i < pad_b ? fill : static_cast<uint8_t>(b[i - pad_b]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

template <typename T>
int CompareNumbers(T a, T b) {
  return a < b ? -1 : b < a ? 1 : 0;
}

// Length of the UTF-8 sequence a lead byte starts (1 for anything that is not a lead byte).
int Utf8Length(uint8_t lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

// The longest prefix of `s` of at most `limit` bytes that ends on a character boundary.
size_t Utf8Prefix(std::string_view s, size_t limit) {
  size_t end = 0;
  while (end < s.size()) {
    size_t next = end + static_cast<size_t>(Utf8Length(static_cast<uint8_t>(s[end])));
    if (next > limit) break;
    end = next;
  }
  return end;
}

// A string of at most about `limit` bytes that is >= every string starting with
// prefix(value): the prefix with its last character incremented (UTF-8: the next code
// point, so the result stays valid text; bytes: the last byte below 0xFF). Empty when no
// such string exists (the prefix is all 0xFF bytes or U+10FFFF characters).
std::string IncrementedPrefix(std::string_view value, size_t limit, bool utf8) {
  if (!utf8) {
    std::string out(value.substr(0, limit));
    while (!out.empty()) {
      auto last = static_cast<uint8_t>(out.back());
      if (last != 0xFF) {
        out.back() = static_cast<char>(last + 1);
        return out;
      }
      out.pop_back();
    }
    return out;
  }
  std::string_view prefix = value.substr(0, Utf8Prefix(value, limit));
  while (!prefix.empty()) {
    // Find the start of the last character and decode it.
    size_t start = prefix.size() - 1;
    while (start > 0 && (static_cast<uint8_t>(prefix[start]) & 0xC0) == 0x80) --start;
    auto lead = static_cast<uint8_t>(prefix[start]);
    int len = Utf8Length(lead);
    if (static_cast<size_t>(len) == prefix.size() - start) {
      uint32_t cp = len == 1 ? lead : lead & (0x7F >> len);
      for (size_t i = start + 1; i < prefix.size(); ++i) cp = (cp << 6) | (prefix[i] & 0x3F);
      uint32_t next = cp + 1;
      if (next == 0xD800) next = 0xE000;  // surrogates are not characters
      if (next <= 0x10FFFF) {
        std::string out(prefix.substr(0, start));
        alkaid::internal::AppendUtf8(next, &out);
        return out;
      }
    }
    prefix = prefix.substr(0, start);
  }
  return std::string();
}

}  // namespace

ColumnStatistics::ColumnStatistics(PhysicalType type, SortOrder order, int32_t type_length)
    : type_(type), order_(order), type_length_(type_length) {}

void ColumnStatistics::Reset() {
  null_count_ = 0;
  num_values_ = 0;
  has_min_max_ = false;
  min_.clear();
  max_.clear();
}

template <typename T, typename Less>
void ColumnStatistics::UpdateNumbers(const T* values, int64_t n, const uint8_t* valid_bits,
                                     int64_t valid_offset, Less less) {
  bool found = false;
  T lo{}, hi{};
  auto take = [&](T v) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return;
    }
    if (!found) {
      lo = hi = v;
      found = true;
      return;
    }
    if (less(v, lo)) lo = v;
    if (less(hi, v)) hi = v;
  };
  int64_t count = n;
  if (valid_bits == nullptr) {
    for (int64_t i = 0; i < n; ++i) take(values[i]);
  } else {
    count = 0;
    bit_util::VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      take(values[i]);
      ++count;
    });
  }
  num_values_ += count;
  if (!found) return;
  if (!has_min_max_) {
    min_ = Store(lo);
    max_ = Store(hi);
    has_min_max_ = true;
    return;
  }
  if (less(lo, Load<T>(min_))) min_ = Store(lo);
  if (less(Load<T>(max_), hi)) max_ = Store(hi);
}

void ColumnStatistics::Consider(std::string_view value) {
  if (!has_min_max_) {
    min_.assign(value);
    max_.assign(value);
    has_min_max_ = true;
    return;
  }
  if (Compare(value, min_) < 0) min_.assign(value);
  if (Compare(value, max_) > 0) max_.assign(value);
}

void ColumnStatistics::UpdateFixed(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
                                   int64_t valid_offset) {
  if (order_ == SortOrder::kNone) {
    num_values_ += valid_bits == nullptr ? n : bit_util::CountSetBits(valid_bits, valid_offset, n);
    return;
  }
  // The values as T, compared by T's own order.
  auto numbers = [&]<typename T>() {
    return UpdateNumbers(reinterpret_cast<const T*>(values), n, valid_bits, valid_offset,
                         std::less<T>());
  };
  // INT32 and INT64 compare as unsigned under an unsigned logical type.
  auto integers = [&]<typename Signed>() {
    if (order_ == SortOrder::kUnsigned) {
      return numbers.template operator()<std::make_unsigned_t<Signed>>();
    }
    return numbers.template operator()<Signed>();
  };
  switch (type_) {
    case PhysicalType::kInt32: return integers.template operator()<int32_t>();
    case PhysicalType::kInt64: return integers.template operator()<int64_t>();
    case PhysicalType::kFloat: return numbers.template operator()<float>();
    case PhysicalType::kDouble: return numbers.template operator()<double>();
    default:
      break;
  }
  // FIXED_LEN_BYTE_ARRAY (and INT96 when an order is asked of it): value by value.
  const int64_t width = type_ == PhysicalType::kInt96 ? 12 : type_length_;
  auto one = [&](int64_t i) {
    std::string_view v(reinterpret_cast<const char*>(values + i * width), static_cast<size_t>(width));
    if (order_ == SortOrder::kHalfFloat && std::isnan(HalfToFloat(Load<uint16_t>(v)))) return;
    Consider(v);
  };
  if (valid_bits == nullptr) {
    for (int64_t i = 0; i < n; ++i) one(i);
    num_values_ += n;
  } else {
    bit_util::VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      one(i);
      ++num_values_;
    });
  }
}

void ColumnStatistics::UpdateBits(const uint8_t* bits, int64_t bit_offset, int64_t n,
                                  const uint8_t* valid_bits, int64_t valid_offset) {
  int64_t count = valid_bits == nullptr ? n : bit_util::CountSetBits(valid_bits, valid_offset, n);
  if (count == 0) return;
  num_values_ += count;
  // Any true and any false among the valid slots decide min and max.
  int64_t trues = 0;
  if (valid_bits == nullptr) {
    trues = bit_util::CountSetBits(bits, bit_offset, n);
  } else {
    bit_util::VisitSetBits(valid_bits, valid_offset, n,
                           [&](int64_t i) { trues += bit_util::GetBit(bits, bit_offset + i); });
  }
  bool lo = trues == count, hi = trues > 0;
  if (has_min_max_) {
    lo = lo && min_[0] != 0;
    hi = hi || max_[0] != 0;
  }
  min_.assign(1, static_cast<char>(lo));
  max_.assign(1, static_cast<char>(hi));
  has_min_max_ = true;
}

template <typename Offset>
void ColumnStatistics::UpdateBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                                        const uint8_t* valid_bits, int64_t valid_offset) {
  if (order_ == SortOrder::kNone) {
    num_values_ += valid_bits == nullptr ? n : bit_util::CountSetBits(valid_bits, valid_offset, n);
    return;
  }
  // Track the extremes as views into the input and copy them once at the end.
  std::string_view lo, hi;
  bool found = false;
  const bool bytewise = order_ == SortOrder::kBytes || order_ == SortOrder::kUtf8;
  auto one = [&](int64_t i) {
    std::string_view v(reinterpret_cast<const char*>(data) + offsets[i],
                       static_cast<size_t>(offsets[i + 1] - offsets[i]));
    if (!found) {
      lo = hi = v;
      found = true;
    } else if (bytewise) {
      if (CompareBytes(v, lo) < 0) lo = v;
      if (CompareBytes(v, hi) > 0) hi = v;
    } else {
      if (Compare(v, lo) < 0) lo = v;
      if (Compare(v, hi) > 0) hi = v;
    }
  };
  int64_t count = n;
  if (valid_bits == nullptr) {
    for (int64_t i = 0; i < n; ++i) one(i);
  } else {
    count = 0;
    bit_util::VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      one(i);
      ++count;
    });
  }
  num_values_ += count;
  if (!found) return;
  Consider(lo);
  Consider(hi);
}

void ColumnStatistics::UpdateBinary(const int32_t* offsets, const uint8_t* data, int64_t n,
                                    const uint8_t* valid_bits, int64_t valid_offset) {
  UpdateBinaryImpl(offsets, data, n, valid_bits, valid_offset);
}

void ColumnStatistics::UpdateBinary(const int64_t* offsets, const uint8_t* data, int64_t n,
                                    const uint8_t* valid_bits, int64_t valid_offset) {
  UpdateBinaryImpl(offsets, data, n, valid_bits, valid_offset);
}

void ColumnStatistics::Merge(const ColumnStatistics& other) {
  null_count_ += other.null_count_;
  num_values_ += other.num_values_;
  if (!other.has_min_max_) return;
  Consider(other.min_);
  Consider(other.max_);
}

int ColumnStatistics::Compare(std::string_view a, std::string_view b) const {
  switch (order_) {
    case SortOrder::kSigned:
      if (type_ == PhysicalType::kInt32) return CompareNumbers(Load<int32_t>(a), Load<int32_t>(b));
      if (type_ == PhysicalType::kInt64) return CompareNumbers(Load<int64_t>(a), Load<int64_t>(b));
      if (type_ == PhysicalType::kBoolean) return CompareNumbers(a[0] != 0, b[0] != 0);
      return CompareDecimal(a, b);
    case SortOrder::kUnsigned:
      if (type_ == PhysicalType::kInt32) return CompareNumbers(Load<uint32_t>(a), Load<uint32_t>(b));
      if (type_ == PhysicalType::kInt64) return CompareNumbers(Load<uint64_t>(a), Load<uint64_t>(b));
      return CompareBytes(a, b);
    case SortOrder::kFloat:
      if (type_ == PhysicalType::kFloat) return CompareNumbers(Load<float>(a), Load<float>(b));
      return CompareNumbers(Load<double>(a), Load<double>(b));
    case SortOrder::kHalfFloat:
      return CompareNumbers(HalfToFloat(Load<uint16_t>(a)), HalfToFloat(Load<uint16_t>(b)));
    case SortOrder::kDecimal:
      return CompareDecimal(a, b);
    default:
      return CompareBytes(a, b);
  }
}

StatisticValue ColumnStatistics::Min(int64_t max_length) const {
  StatisticValue out{min_, true};
  if (order_ == SortOrder::kFloat || order_ == SortOrder::kHalfFloat) {
    // A zero minimum is written as -0 so that it is <= both zeros.
    if (type_ == PhysicalType::kFloat && Load<float>(min_) == 0.0f) out.bytes = Store(-0.0f);
    if (type_ == PhysicalType::kDouble && Load<double>(min_) == 0.0) out.bytes = Store(-0.0);
    if (order_ == SortOrder::kHalfFloat && HalfToFloat(Load<uint16_t>(min_)) == 0.0f)
      out.bytes = Store(uint16_t{0x8000});
    return out;
  }
  if (type_ == PhysicalType::kByteArray && max_length > 0 &&
      static_cast<int64_t>(min_.size()) > max_length) {
    // Any prefix is <= the value; for text keep whole characters.
    size_t keep = order_ == SortOrder::kUtf8 ? Utf8Prefix(min_, static_cast<size_t>(max_length))
                                             : static_cast<size_t>(max_length);
    out.bytes.resize(keep);
    out.exact = false;
  }
  return out;
}

StatisticValue ColumnStatistics::Max(int64_t max_length) const {
  StatisticValue out{max_, true};
  if (order_ == SortOrder::kFloat || order_ == SortOrder::kHalfFloat) {
    if (type_ == PhysicalType::kFloat && Load<float>(max_) == 0.0f) out.bytes = Store(0.0f);
    if (type_ == PhysicalType::kDouble && Load<double>(max_) == 0.0) out.bytes = Store(0.0);
    if (order_ == SortOrder::kHalfFloat && HalfToFloat(Load<uint16_t>(max_)) == 0.0f)
      out.bytes = Store(uint16_t{0});
    return out;
  }
  if (type_ == PhysicalType::kByteArray && max_length > 0 &&
      static_cast<int64_t>(max_.size()) > max_length) {
    std::string bigger = IncrementedPrefix(max_, static_cast<size_t>(max_length),
                                           order_ == SortOrder::kUtf8);
    if (!bigger.empty()) {
      out.bytes = std::move(bigger);
      out.exact = false;
    }
  }
  return out;
}

}  // namespace alkaid::parquet::internal
