#include "civil_time.h"

#include <charconv>

namespace alkaid::civil {
namespace {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void AppendPadded(std::string* out, int64_t v, int width) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  for (int i = static_cast<int>(r.ptr - buf); i < width; ++i) out->push_back('0');
  out->append(buf, r.ptr);
}

}  // namespace

Date CivilFromDays(int64_t days) {
  const int64_t since_0000_03_01 = days + 719468;
  const int64_t cycle = FloorDiv(since_0000_03_01, 146097);         // 400-year cycles
  const int64_t day_of_cycle = since_0000_03_01 - cycle * 146097;    // [0, 146096]
  const int64_t year_of_cycle =
      (day_of_cycle - day_of_cycle / 1460 + day_of_cycle / 36524 - day_of_cycle / 146096) / 365;
  const int64_t day_of_year =
      day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);  // [0, 365]
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;                       // [0, 11]
  Date d;
  d.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  d.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  d.year = year_of_cycle + cycle * 400 + (d.month <= 2 ? 1 : 0);
  return d;
}

bool ParseDigits(std::string_view s, size_t* pos, int n, int64_t* out) {
  if (*pos + static_cast<size_t>(n) > s.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < n; ++i) {
    const char c = s[*pos + static_cast<size_t>(i)];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *pos += static_cast<size_t>(n);
  *out = v;
  return true;
}

DayTime SplitTimestamp(int64_t value, TimeUnit unit) {
  const int64_t per_second = UnitsPerSecond(unit);
  const int64_t seconds = FloorDiv(value, per_second);
  DayTime t;
  // The remainder, not value - seconds * per_second: near INT64_MIN that product overflows.
  t.fraction = value % per_second;
  if (t.fraction < 0) t.fraction += per_second;
  t.days = FloorDiv(seconds, 86400);
  t.seconds_of_day = seconds % 86400;  // likewise: t.days * 86400 overflows at the far end
  if (t.seconds_of_day < 0) t.seconds_of_day += 86400;
  return t;
}

void AppendDate(std::string* out, int64_t days) {
  const Date d = CivilFromDays(days);
  if (d.year < 0 || d.year > 9999) out->push_back(d.year < 0 ? '-' : '+');
  AppendPadded(out, d.year < 0 ? -d.year : d.year, 4);
  out->push_back('-');
  AppendPadded(out, d.month, 2);
  out->push_back('-');
  AppendPadded(out, d.day, 2);
}

void AppendClock(std::string* out, int64_t seconds_of_day, int64_t fraction, TimeUnit unit) {
  AppendPadded(out, seconds_of_day / 3600, 2);
  out->push_back(':');
  AppendPadded(out, seconds_of_day / 60 % 60, 2);
  out->push_back(':');
  AppendPadded(out, seconds_of_day % 60, 2);
  if (const int digits = FractionDigits(unit); digits > 0) {
    out->push_back('.');
    AppendPadded(out, fraction, digits);
  }
}

void AppendDateTime(std::string* out, int64_t value, TimeUnit unit, int64_t offset_seconds) {
  DayTime t = SplitTimestamp(value, unit);
  // The offset moves the clock, and at most one day either way: applied to
  // the split parts so no int64 near the ends of its range can overflow.
  t.seconds_of_day += offset_seconds;
  if (t.seconds_of_day < 0) {
    t.seconds_of_day += 86400;
    --t.days;
  } else if (t.seconds_of_day >= 86400) {
    t.seconds_of_day -= 86400;
    ++t.days;
  }
  AppendDate(out, t.days);
  out->push_back('T');
  AppendClock(out, t.seconds_of_day, t.fraction, unit);
}

bool ParseDatePrefix(std::string_view s, size_t* pos, int64_t* days) {
  size_t p = 0;
  bool neg = false;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    neg = s[p] == '-';
    ++p;
  }
  const size_t start = p;
  int64_t year = 0;
  while (p < s.size() && IsDigit(s[p])) {
    if (p - start >= 12) return false;  // keeps the day count far from overflow
    year = year * 10 + (s[p] - '0');
    ++p;
  }
  if (p - start < 4 || (p - start > 4 && start == 0)) return false;
  if (neg) year = -year;
  int64_t month = 0, day = 0;
  if (p >= s.size() || s[p] != '-') return false;
  ++p;
  if (!ParseDigits(s, &p, 2, &month) || month < 1 || month > 12) return false;
  if (p >= s.size() || s[p] != '-') return false;
  ++p;
  if (!ParseDigits(s, &p, 2, &day) || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  *days = DaysFromCivil(year, month, day);
  *pos = p;
  return true;
}

bool ParseClock(std::string_view s, size_t* pos, bool seconds_required, int64_t* nanos,
                int* frac_digits) {
  size_t p = *pos;
  int64_t h = 0, mi = 0, sec = 0, frac = 0;
  int digits = 0;
  if (!ParseDigits(s, &p, 2, &h) || h > 23) return false;
  if (p >= s.size() || s[p] != ':') return false;
  ++p;
  if (!ParseDigits(s, &p, 2, &mi) || mi > 59) return false;
  if (p < s.size() && s[p] == ':') {
    ++p;
    if (!ParseDigits(s, &p, 2, &sec) || sec > 59) return false;
    if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
      ++p;
      while (p < s.size() && IsDigit(s[p])) {
        if (digits == 9) return false;
        frac = frac * 10 + (s[p] - '0');
        ++digits;
        ++p;
      }
      if (digits == 0) return false;
    }
  } else if (seconds_required) {
    return false;
  }
  for (int i = digits; i < 9; ++i) frac *= 10;
  *nanos = ((h * 60 + mi) * 60 + sec) * 1'000'000'000 + frac;
  *frac_digits = digits;
  *pos = p;
  return true;
}

}  // namespace alkaid::civil
