// Calendar arithmetic and the text of dates, times of day and timestamps, in
// one place for the pretty printer and the CSV and JSON Lines readers and
// writers, so all of them agree on every value.
//
// Dates are proleptic Gregorian day counts since 1970-01-01. Years 0..9999
// print as four digits; every other year prints as ISO 8601's expanded form, a
// sign and at least four digits ("-0001-01-01", "+10000-01-01"). The parser
// accepts exactly four unsigned digits, or a sign and 4..12 digits, so
// everything written here reads back.
//
// Thread safety: every function is pure and may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::civil {

struct Date {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

constexpr bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

constexpr int DaysInMonth(int64_t y, int m) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// Rounds toward negative infinity (b > 0), so instants before 1970 fall on
// the day and second they belong to.
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// Days since 1970-01-01 of y-m-d (m 1..12, d 1..31; |y| below 10^12). Years
// are counted from March 1st so the leap day ends its year, and months map
// linearly onto days (153 days per five months); 400-year cycles of 146097
// days make it exact for every year.
constexpr int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t cycle = FloorDiv(y, 400);
  const int64_t year_of_cycle = y - cycle * 400;                                  // [0, 399]
  const int64_t day_of_year = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;    // [0, 365]
  const int64_t day_of_cycle =
      year_of_cycle * 365 + year_of_cycle / 4 - year_of_cycle / 100 + day_of_year;  // [0, 146096]
  return cycle * 146097 + day_of_cycle - 719468;
}

// The calendar date of a day count since 1970-01-01 (any int64 day count
// whose year fits: |days| below about 3 * 10^17).
ALKAID_EXPORT Date CivilFromDays(int64_t days);

// 1, 10^3, 10^6, 10^9 for seconds, milli, micro, nano; and the fraction
// digits a value of that unit prints with (0, 3, 6, 9).
constexpr int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1'000;
    case TimeUnit::kMicro: return 1'000'000;
    case TimeUnit::kNano: return 1'000'000'000;
  }
  return 1;
}
constexpr int FractionDigits(TimeUnit unit) { return 3 * static_cast<int>(unit); }

// A count of `unit` since the epoch split into whole days, seconds of that
// day and the sub-second remainder (all floor-based: never negative).
struct DayTime {
  int64_t days;
  int64_t seconds_of_day;  // [0, 86399]
  int64_t fraction;        // [0, UnitsPerSecond(unit))
};
ALKAID_EXPORT DayTime SplitTimestamp(int64_t value, TimeUnit unit);

// YYYY-MM-DD (expanded years as described above).
ALKAID_EXPORT void AppendDate(std::string* out, int64_t days);
// HH:MM:SS, then '.' and FractionDigits(unit) digits of `fraction` when the
// unit is finer than seconds. seconds_of_day must be in [0, 86399].
ALKAID_EXPORT void AppendClock(std::string* out, int64_t seconds_of_day, int64_t fraction,
                               TimeUnit unit);
// Date 'T' clock of a timestamp value, shifted by offset_seconds (a fixed
// zone offset, |offset| below a day) and without any zone suffix.
ALKAID_EXPORT void AppendDateTime(std::string* out, int64_t value, TimeUnit unit,
                                  int64_t offset_seconds = 0);

// Exactly n decimal digits at s[*pos] (no sign); moves *pos past them.
ALKAID_EXPORT bool ParseDigits(std::string_view s, size_t* pos, int n, int64_t* out);
// A date at the start of s (as AppendDate writes it); sets *pos past it.
ALKAID_EXPORT bool ParseDatePrefix(std::string_view s, size_t* pos, int64_t* days);
// HH:MM[:SS[.f]] at s[*pos] ('.' or ',' before at most 9 fraction digits),
// as nanoseconds since midnight and the number of fraction digits seen.
ALKAID_EXPORT bool ParseClock(std::string_view s, size_t* pos, bool seconds_required,
                              int64_t* nanos, int* frac_digits);

}  // namespace alkaid::civil
