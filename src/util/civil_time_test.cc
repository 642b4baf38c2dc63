#include "civil_time.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace alkaid::civil {
namespace {

std::string Date(int64_t days) {
  std::string s;
  AppendDate(&s, days);
  return s;
}

std::string DateTime(int64_t v, TimeUnit unit, int64_t offset = 0) {
  std::string s;
  AppendDateTime(&s, v, unit, offset);
  return s;
}

int64_t ReadDate(const std::string& s) {
  size_t pos = 0;
  int64_t days = 0;
  EXPECT_TRUE(ParseDatePrefix(s, &pos, &days)) << s;
  EXPECT_EQ(pos, s.size()) << s;
  return days;
}

TEST(CivilTime, DaysAndDatesAgreeEveryDayOverEightHundredYears) {
  // Two full 400-year cycles either side of year 0, day by day.
  int64_t days = DaysFromCivil(-400, 1, 1);
  for (int64_t y = -400; y < 400; ++y) {
    for (int m = 1; m <= 12; ++m) {
      for (int d = 1; d <= DaysInMonth(y, m); ++d, ++days) {
        ASSERT_EQ(DaysFromCivil(y, m, d), days) << y << "-" << m << "-" << d;
        const civil::Date c = CivilFromDays(days);
        ASSERT_EQ(c.year, y);
        ASSERT_EQ(c.month, m);
        ASSERT_EQ(c.day, d);
      }
    }
  }
}

TEST(CivilTime, LeapYears) {
  EXPECT_TRUE(IsLeapYear(2000));
  EXPECT_TRUE(IsLeapYear(0));
  EXPECT_TRUE(IsLeapYear(-4));
  EXPECT_FALSE(IsLeapYear(1900));
  EXPECT_FALSE(IsLeapYear(-1));
  EXPECT_EQ(DaysInMonth(2024, 2), 29);
  EXPECT_EQ(DaysInMonth(2100, 2), 28);
  EXPECT_EQ(Date(DaysFromCivil(2024, 2, 29)), "2024-02-29");
  EXPECT_EQ(Date(DaysFromCivil(0, 2, 29)), "0000-02-29");
  size_t pos = 0;
  int64_t days = 0;
  EXPECT_FALSE(ParseDatePrefix("2023-02-29", &pos, &days));
  EXPECT_FALSE(ParseDatePrefix("1900-02-29", &pos, &days));
  EXPECT_TRUE(ParseDatePrefix("2000-02-29", &pos, &days));
}

TEST(CivilTime, YearsOutsideFourDigitsUseExpandedForm) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(DaysFromCivil(0, 1, 1)), "0000-01-01");
  EXPECT_EQ(Date(DaysFromCivil(-1, 12, 31)), "-0001-12-31");
  EXPECT_EQ(Date(DaysFromCivil(9999, 12, 31)), "9999-12-31");
  EXPECT_EQ(Date(DaysFromCivil(10000, 1, 1)), "+10000-01-01");
  EXPECT_EQ(Date(DaysFromCivil(-12345, 6, 7)), "-12345-06-07");
  // Whatever is written reads back, at the edges of date32 too.
  for (int64_t days : {int64_t{0}, DaysFromCivil(0, 1, 1), DaysFromCivil(0, 1, 1) - 1,
                       DaysFromCivil(9999, 12, 31), DaysFromCivil(10000, 1, 1),
                       int64_t{std::numeric_limits<int32_t>::min()},
                       int64_t{std::numeric_limits<int32_t>::max()}}) {
    EXPECT_EQ(ReadDate(Date(days)), days) << Date(days);
  }
  size_t pos = 0;
  int64_t days = 0;
  EXPECT_FALSE(ParseDatePrefix("10000-01-01", &pos, &days));  // more than 4 digits needs a sign
  EXPECT_FALSE(ParseDatePrefix("+999-01-01", &pos, &days));   // a sign needs at least 4
}

TEST(CivilTime, TimestampsAtTheEndsOfInt64InEveryUnit) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(DateTime(kMin, TimeUnit::kNano), "1677-09-21T00:12:43.145224192");
  EXPECT_EQ(DateTime(kMax, TimeUnit::kNano), "2262-04-11T23:47:16.854775807");
  EXPECT_EQ(DateTime(kMin, TimeUnit::kMicro), "-290308-12-21T19:59:05.224192");
  EXPECT_EQ(DateTime(kMax, TimeUnit::kMicro), "+294247-01-10T04:00:54.775807");
  EXPECT_EQ(DateTime(kMin, TimeUnit::kMilli), "-292275055-05-16T16:47:04.192");
  EXPECT_EQ(DateTime(kMax, TimeUnit::kMilli), "+292278994-08-17T07:12:55.807");
  EXPECT_EQ(DateTime(kMin, TimeUnit::kSecond), "-292277022657-01-27T08:29:52");
  EXPECT_EQ(DateTime(kMax, TimeUnit::kSecond), "+292277026596-12-04T15:30:07");
  // Fixed offsets shift the clock without overflowing at the ends.
  EXPECT_EQ(DateTime(kMax, TimeUnit::kSecond, 3600), "+292277026596-12-04T16:30:07");
  EXPECT_EQ(DateTime(kMin, TimeUnit::kSecond, -9 * 3600), "-292277022657-01-26T23:29:52");
  EXPECT_EQ(DateTime(-1, TimeUnit::kMilli), "1969-12-31T23:59:59.999");
}

TEST(CivilTime, ClockParsesWhatItWrites) {
  std::string s;
  AppendClock(&s, 86399, 999'999'999, TimeUnit::kNano);
  EXPECT_EQ(s, "23:59:59.999999999");
  size_t pos = 0;
  int64_t nanos = 0;
  int digits = 0;
  ASSERT_TRUE(ParseClock(s, &pos, true, &nanos, &digits));
  EXPECT_EQ(nanos, 86'399'999'999'999);
  EXPECT_EQ(digits, 9);
  pos = 0;
  EXPECT_FALSE(ParseClock("24:00:00", &pos, true, &nanos, &digits));
  EXPECT_FALSE(ParseClock("12:00", &pos, true, &nanos, &digits));
  EXPECT_TRUE(ParseClock("12:00", &pos, false, &nanos, &digits));
}

}  // namespace
}  // namespace alkaid::civil
