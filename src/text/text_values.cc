#include "text_values.h"

#include "fast_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <fast_float/fast_float.h>

#include "alkaid/array.h"
#include "alkaid/visit_type.h"

namespace alkaid::text {
namespace {

using civil::DaysInMonth;
using civil::ParseClock;
using civil::ParseDatePrefix;

}  // namespace

bool ParseBool(std::string_view s, bool* out) {
  if (s == "true" || s == "True" || s == "TRUE") {
    *out = true;
    return true;
  }
  if (s == "false" || s == "False" || s == "FALSE") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseUInt64(std::string_view s, uint64_t* out) {
  size_t p = 0;
  if (!s.empty() && s[0] == '+') p = 1;
  if (p == s.size()) return false;
  uint64_t v = 0;
  // Up to 19 digits cannot overflow 64 bits: check only beyond that.
  size_t fast_end = std::min(s.size(), p + 19);
  for (; p < fast_end; ++p) {
    unsigned d = static_cast<unsigned char>(s[p]) - '0';
    if (d > 9) return false;
    v = v * 10 + d;
  }
  for (; p < s.size(); ++p) {
    unsigned d = static_cast<unsigned char>(s[p]) - '0';
    if (d > 9) return false;
    if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) return false;
  }
  *out = v;
  return true;
}

bool ParseInt64(std::string_view s, int64_t* out) {
  // Up to 18 digits fit without overflow checks: one tight loop for the
  // common case, the general code (range checks) for the rest.
  {
    const char* p = s.data();
    size_t n = s.size();
    bool neg = false;
    if (n > 0 && (p[0] == '-' || p[0] == '+')) {
      neg = p[0] == '-';
      ++p;
      --n;
    }
    if (n > 0 && n <= 18) {
      uint64_t v = 0;
      for (size_t i = 0; i < n; ++i) {
        unsigned d = static_cast<unsigned char>(p[i]) - static_cast<unsigned>('0');
        if (d > 9) return false;
        v = v * 10 + d;
      }
      *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
      return true;
    }
  }
  bool neg = !s.empty() && s[0] == '-';
  uint64_t mag = 0;
  if (neg) {
    if (s.size() == 1 || s[1] == '+') return false;
    if (!ParseUInt64(s.substr(1), &mag) || mag > uint64_t{1} << 63) return false;
    *out = static_cast<int64_t>(0 - mag);
    return true;
  }
  if (!ParseUInt64(s, &mag) || mag > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = static_cast<int64_t>(mag);
  return true;
}

template <typename F>
static bool ParseFloating(std::string_view s, F* out) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s[0] == '-') return false;
  }
  if (s.empty()) return false;
  {
    // fast_float (exact, like from_chars, but several times faster) for
    // what it takes whole; anything else goes the from_chars way below, so
    // both accept the same texts.
    F v;
    auto r = fast_float::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v)) {
      *out = v;
      return true;
    }
  }
  // from_chars also takes "inf"/"nan"; a leading '.' or digit otherwise.
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (ec == std::errc::result_out_of_range) {
    // Too large or too small for the type: strtod's answer (inf or 0) is the
    // nearest value, which is what a reader of decimal text expects.
    std::string copy(s);
    char* e = nullptr;
    double d = std::strtod(copy.c_str(), &e);
    if (e != copy.c_str() + copy.size()) return false;
    *out = static_cast<F>(d);
    return true;
  }
  return ec == std::errc() && end == s.data() + s.size();
}

bool ParseDouble(std::string_view s, double* out) {
  // Plain decimals ([-]digits[.digits], at most 15 digits): the integer of
  // all the digits and one division by an exact power of ten, both exact
  // doubles, so the quotient is the correctly rounded value (Clinger's fast
  // path) -- the same double the general parser gives.
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* p = s.data();
  const char* end = p + s.size();
  const bool neg = p < end && *p == '-';
  p += neg;
  uint64_t m = 0;
  int digits = 0, frac = -1;
  const char* first = p;
  for (; p < end && digits <= 15; ++p) {
    unsigned d = static_cast<unsigned char>(*p) - static_cast<unsigned>('0');
    if (d <= 9) {
      m = m * 10 + d;
      ++digits;
    } else if (*p == '.' && frac < 0 && p > first) {
      frac = static_cast<int>(end - p) - 1;  // digits after the point, if all are digits
    } else {
      break;
    }
  }
  if (p == end && digits <= 15 && frac != 0 && digits > 0) {
    double v = static_cast<double>(m);
    if (frac > 0) v /= kPow10[frac];
    *out = neg ? -v : v;
    return true;
  }
  return ParseFloating(s, out);
}
bool ParseFloat(std::string_view s, float* out) { return ParseFloating(s, out); }

bool ParseDate(std::string_view s, int64_t* days) {
  size_t pos = 0;
  return ParseDatePrefix(s, &pos, days) && pos == s.size();
}

namespace {

// The common fixed layout YYYY-MM-DD[T ]HH:MM:SS[.f{1,9}][Z] (fast_values.h).
// Returns false for anything else, valid or not, so the caller falls back to
// the general parser.
inline bool FastTimestamp(std::string_view s, int64_t* seconds, int32_t* nanos, int* frac_digits,
                          bool* has_zone) {
  fast::Instant t;
  if (!fast::FixedTimestamp(s.data(), s.size(), &t)) return false;
  *seconds = t.seconds;
  *nanos = t.nanos;
  *frac_digits = t.frac_digits;
  *has_zone = t.zoned;
  return true;
}

}  // namespace

bool ParseTimestampAs(std::string_view s, TimeUnit unit, bool zoned, int64_t* out) {
  if (fast::FixedTimestampAs(s.data(), s.size(), unit, zoned, out)) return true;
  int64_t seconds;
  int32_t nanos;
  int digits;
  bool has_zone;
  if (FastTimestamp(s, &seconds, &nanos, &digits, &has_zone)) {
    // Fixed layout but not taken above: a zone mismatch, digits finer than
    // the unit, or nanoseconds near the ends of the range.
    if (has_zone != zoned) return false;
    TimestampText ts;
    ts.seconds128 = seconds;
    ts.nanos = nanos;
    return TimestampToUnit(ts, unit, out);
  }
  TimestampText ts;
  return ParseTimestamp(s, &ts) && ts.has_zone == zoned && TimestampToUnit(ts, unit, out);
}

bool ParseTimestamp(std::string_view s, TimestampText* out) {
  {
    TimestampText ts;
    if (FastTimestamp(s, &ts.seconds, &ts.nanos, &ts.frac_digits, &ts.has_zone)) {
      ts.seconds128 = ts.seconds;
      *out = ts;
      return true;
    }
  }
  return ParseTimestampGeneral(s, out);
}

bool ParseTimestampGeneral(std::string_view s, TimestampText* out) {
  size_t p = 0;
  int64_t days = 0;
  if (!ParseDatePrefix(s, &p, &days)) return false;
  TimestampText ts;
  // 128-bit sums: an instant near the ends of the int64 range may need a
  // day count whose seconds alone would overflow.
  __int128 seconds = static_cast<__int128>(days) * 86400;
  if (p == s.size()) {
    ts.date_only = true;
  } else {
    if (s[p] != 'T' && s[p] != ' ' && s[p] != 't') return false;
    ++p;
    int64_t nanos = 0;
    if (!ParseClock(s, &p, false, &nanos, &ts.frac_digits)) return false;
    seconds += nanos / 1'000'000'000;
    ts.nanos = static_cast<int32_t>(nanos % 1'000'000'000);
    if (p < s.size()) {
      if (s[p] == 'Z' || s[p] == 'z') {
        ++p;
      } else if (s[p] == '+' || s[p] == '-') {
        int sign = s[p] == '-' ? -1 : 1;
        ++p;
        int64_t oh = 0, om = 0;
        if (!civil::ParseDigits(s, &p, 2, &oh) || oh > 23) return false;
        if (p < s.size() && s[p] == ':') ++p;
        if (p < s.size() && (!civil::ParseDigits(s, &p, 2, &om) || om > 59)) return false;
        // Local time minus its offset is UTC.
        seconds -= sign * (oh * 3600 + om * 60);
      } else {
        return false;
      }
      if (p != s.size()) return false;
      ts.has_zone = true;
    }
  }
  ts.seconds128 = seconds;
  if (seconds < INT64_MIN || seconds > INT64_MAX) {
    ts.seconds = 0;
  } else {
    ts.seconds = static_cast<int64_t>(seconds);
  }
  *out = ts;
  return true;
}

TimeUnit UnitForFractionDigits(int frac_digits) {
  if (frac_digits == 0) return TimeUnit::kSecond;
  if (frac_digits <= 3) return TimeUnit::kMilli;
  if (frac_digits <= 6) return TimeUnit::kMicro;
  return TimeUnit::kNano;
}

bool TemporalInference::Add(std::string_view s) {
  if (!times) {
    TimestampText ts;
    if (ParseTimestamp(s, &ts)) {
      frac_digits = std::max(frac_digits, ts.frac_digits);
      dates_only &= ts.date_only;
      (ts.has_zone ? zoned : unzoned) = true;
      any = true;
      return true;
    }
    if (any) return false;
  }
  int64_t nanos;
  int digits;
  if (!ParseTimeOfDay(s, &nanos, &digits)) return false;
  frac_digits = std::max(frac_digits, digits);
  times = any = true;
  return true;
}

DataTypePtr TemporalInference::Type() const {
  if (!any) return nullptr;
  if (times) {
    const TimeUnit unit = UnitForFractionDigits(frac_digits);
    return unit == TimeUnit::kSecond || unit == TimeUnit::kMilli ? time32(unit) : time64(unit);
  }
  if (dates_only) return date32();
  if (zoned && unzoned) return nullptr;
  return timestamp(UnitForFractionDigits(frac_digits), zoned ? "UTC" : "");
}

bool TimestampToUnit(const TimestampText& ts, TimeUnit unit, int64_t* out) {
  int64_t per = UnitsPerSecond(unit);
  int64_t nanos_per_unit = 1'000'000'000 / per;
  if (ts.nanos % nanos_per_unit != 0) return false;
  __int128 v = ts.seconds128 * per + ts.nanos / nanos_per_unit;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

bool ParseTimeOfDay(std::string_view s, int64_t* nanos, int* frac_digits) {
  size_t p = 0;
  return ParseClock(s, &p, true, nanos, frac_digits) && p == s.size();
}

bool ParseTemporal(std::string_view s, const DataType& type, int64_t* out) {
  switch (type.id()) {
    case TypeId::kDate32: {
      int64_t days;
      if (!ParseDate(s, &days) || days < INT32_MIN || days > INT32_MAX) return false;
      *out = days;
      return true;
    }
    case TypeId::kDate64: {
      int64_t days;
      if (ParseDate(s, &days)) return !__builtin_mul_overflow(days, 86'400'000, out);
      TimestampText ts;
      return ParseTimestamp(s, &ts) && !ts.has_zone && TimestampToUnit(ts, TimeUnit::kMilli, out);
    }
    case TypeId::kTimestamp: {
      const auto& t = checked_cast<TimestampType>(type);
      return ParseTimestampAs(s, t.unit(), !t.timezone().empty(), out);
    }
    case TypeId::kTime32:
    case TypeId::kTime64: {
      TimeUnit unit = checked_cast<TemporalUnitType>(type).unit();
      int64_t lo = type.id() == TypeId::kTime32 ? INT32_MIN : INT64_MIN;
      int64_t hi = type.id() == TypeId::kTime32 ? INT32_MAX : INT64_MAX;
      int64_t nanos;
      int digits;
      if (ParseTimeOfDay(s, &nanos, &digits)) {
        int64_t div = 1'000'000'000 / UnitsPerSecond(unit);
        if (nanos % div != 0) return false;
        *out = nanos / div;
        return true;
      }
      int64_t v;
      if (!ParseInt64(s, &v) || v < lo || v > hi) return false;
      *out = v;
      return true;
    }
    default:
      return false;
  }
}

// Shortest text of a number (std::to_chars: round-trip exact for floats).
template <typename T>
static void AppendChars(std::string* out, T v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}
void AppendInt(std::string* out, int64_t v) { AppendChars(out, v); }
void AppendUInt(std::string* out, uint64_t v) { AppendChars(out, v); }
void AppendDouble(std::string* out, double v) { AppendChars(out, v); }
void AppendFloat(std::string* out, float v) { AppendChars(out, v); }

void AppendDate(std::string* out, int64_t days) { civil::AppendDate(out, days); }

void AppendTimestamp(std::string* out, int64_t v, TimeUnit unit, bool zone) {
  civil::AppendDateTime(out, v, unit);
  if (zone) out->push_back('Z');
}

void AppendTimeOfDay(std::string* out, int64_t v, TimeUnit unit) {
  const int64_t per = UnitsPerSecond(unit);
  const int64_t secs = v / per, sub = v % per;
  if (v < 0 || secs >= 86400) {
    // Not a time of day (invalid data): print the raw count rather than lie.
    AppendInt(out, v);
    return;
  }
  civil::AppendClock(out, secs, sub, unit);
}

// Intervals as ISO 8601 durations -------------------------------------------
// Each component carries its own sign ("P-1M2DT-0.5S"), so every
// (months, days, nanoseconds) triple has a text form that reads back exactly.

void AppendInterval(std::string* out, int64_t months, int64_t days, int64_t nanos) {
  out->push_back('P');
  if (months != 0) {
    AppendInt(out, months);
    out->push_back('M');
  }
  if (days != 0) {
    AppendInt(out, days);
    out->push_back('D');
  }
  if (nanos == 0 && (months != 0 || days != 0)) return;
  out->push_back('T');
  // Magnitude in unsigned arithmetic: INT64_MIN has no positive int64.
  uint64_t mag = nanos < 0 ? 0 - static_cast<uint64_t>(nanos) : static_cast<uint64_t>(nanos);
  if (nanos < 0) out->push_back('-');
  AppendUInt(out, mag / 1'000'000'000u);
  uint64_t frac = mag % 1'000'000'000u;
  if (frac != 0) {
    char digits[11] = ".000000000";
    for (int i = 9; i >= 1; --i, frac /= 10) digits[i] = static_cast<char>('0' + frac % 10);
    int end = 10;
    while (digits[end - 1] == '0') --end;
    out->append(digits, static_cast<size_t>(end));
  }
  out->push_back('S');
}

bool ParseInterval(std::string_view s, int64_t* months, int64_t* days, int64_t* nanos) {
  if (s.size() < 3 || s[0] != 'P') return false;
  // Designators in the order ISO 8601 writes them; each at most once.
  static constexpr char kDate[] = {'Y', 'M', 'W', 'D'};
  static constexpr char kTime[] = {'H', 'M', 'S'};
  __int128 m = 0, d = 0, ns = 0;
  size_t pos = 1;
  int next_date = 0, next_time = 0;
  bool in_time = false, any = false;
  while (pos < s.size()) {
    if (s[pos] == 'T') {
      if (in_time) return false;
      in_time = true;
      ++pos;
      if (pos == s.size()) return false;
      continue;
    }
    bool neg = false;
    if (s[pos] == '-' || s[pos] == '+') {
      neg = s[pos] == '-';
      ++pos;
    }
    size_t start = pos;
    uint64_t whole = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (pos - start >= 19) return false;  // keeps whole below 10^19
      whole = whole * 10 + static_cast<uint64_t>(s[pos] - '0');
      ++pos;
    }
    if (pos == start || pos == s.size()) return false;
    int64_t frac_ns = 0;
    if (s[pos] == '.' || s[pos] == ',') {
      ++pos;
      size_t fstart = pos;
      int64_t scale = 100'000'000;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        if (pos - fstart >= 9) return false;  // finer than a nanosecond
        frac_ns += (s[pos] - '0') * scale;
        scale /= 10;
        ++pos;
      }
      if (pos == fstart || pos == s.size() || !in_time || s[pos] != 'S') return false;
    }
    char unit = s[pos++];
    __int128 v = neg ? -static_cast<__int128>(whole) : static_cast<__int128>(whole);
    if (!in_time) {
      int k = next_date;
      while (k < 4 && kDate[k] != unit) ++k;
      if (k == 4) return false;
      next_date = k + 1;
      if (unit == 'Y') m += v * 12;
      else if (unit == 'M') m += v;
      else if (unit == 'W') d += v * 7;
      else d += v;
    } else {
      int k = next_time;
      while (k < 3 && kTime[k] != unit) ++k;
      if (k == 3) return false;
      next_time = k + 1;
      if (unit == 'H') ns += v * 3'600'000'000'000;
      else if (unit == 'M') ns += v * 60'000'000'000;
      else ns += v * 1'000'000'000 + (neg ? -frac_ns : frac_ns);
    }
    any = true;
  }
  if (!any) return false;
  if (m < INT64_MIN || m > INT64_MAX || d < INT64_MIN || d > INT64_MAX || ns < INT64_MIN ||
      ns > INT64_MAX) {
    return false;
  }
  *months = static_cast<int64_t>(m);
  *days = static_cast<int64_t>(d);
  *nanos = static_cast<int64_t>(ns);
  return true;
}

}  // namespace alkaid::text
