// Value parsing shared by the CSV and JSON Lines readers: temporal inference,
// and the fast number and timestamp paths against the general parsers.
#include <gtest/gtest.h>

#include <charconv>
#include <cstring>
#include <random>
#include <string>

#include "src/text/fast_values.h"
#include "src/text/text_values.h"

namespace alkaid::text {
namespace {

TEST(TextValues, TemporalInferenceTakesOneKindOfText) {
  text::TemporalInference none;
  EXPECT_EQ(none.Type(), nullptr);  // nothing noted: no temporal type
  text::TemporalInference times;
  EXPECT_TRUE(times.Add("12:00:00"));
  EXPECT_FALSE(times.Add("2024-01-01"));
  EXPECT_FALSE(times.Add("12:00"));
  EXPECT_TRUE(times.Add("00:00:00.0001"));
  EXPECT_TRUE(times.Type()->Equals(time64(TimeUnit::kMicro))) << times.Type()->ToString();
  text::TemporalInference dates;
  EXPECT_TRUE(dates.Add("2024-01-01"));
  EXPECT_FALSE(dates.Add("12:00:00"));
  EXPECT_TRUE(dates.Type()->Equals(date32()));
  EXPECT_TRUE(dates.Add("2024-01-01T00:00:00Z"));
  EXPECT_EQ(dates.Type(), nullptr);  // a date has no zone, this timestamp has one
}

// A random timestamp-like text: mostly the fixed layout the fast path takes
// (with fields sometimes out of range), sometimes mutated, cut or extended so
// that invalid and general-only forms are covered too.
std::string RandomTimestampText(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  char buf[64];
  int year = pick(10) == 0 ? pick(10000) : 1900 + pick(200);
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d%c%02d:%02d:%02d", year, pick(14), pick(33),
                "T t_"[pick(4)], pick(26), pick(62), pick(62));
  std::string s = buf;
  if (pick(3) != 0) {
    s += pick(8) == 0 ? ',' : '.';
    for (int i = pick(12); i > 0; --i) s += static_cast<char>('0' + pick(10));
  }
  static const char* kZones[] = {"", "", "Z", "z", "+05:30", "-0800", "+01", "ZZ", "Z ", "-24:00"};
  s += kZones[pick(10)];
  switch (pick(6)) {
    case 0: {
      static const char kBytes[] = "0123456789-:.Tt Zz+,a\xff";
      s[static_cast<size_t>(pick(static_cast<int>(s.size())))] = kBytes[pick(sizeof(kBytes) - 1)];
      break;
    }
    case 1: s.resize(static_cast<size_t>(pick(static_cast<int>(s.size()) + 1))); break;
    case 2: s.insert(static_cast<size_t>(pick(static_cast<int>(s.size()) + 1)), 1, "0-:"[pick(3)]); break;
    default: break;
  }
  return s;
}

TEST(TextValues, TimestampFastPathAgreesWithGeneralParser) {
  std::mt19937_64 rng(2026);
  int accepted = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string s = RandomTimestampText(rng);
    text::TimestampText fast, slow;
    bool ok_fast = text::ParseTimestamp(s, &fast);
    bool ok_slow = text::ParseTimestampGeneral(s, &slow);
    ASSERT_EQ(ok_fast, ok_slow) << s;
    // Both fixed-layout checkers (16-byte and 8-byte) only ever accept what
    // the general parser accepts, with the same instant.
    text::fast::Instant w{}, v{};
    if (text::fast::FixedTimestampWords(s.data(), s.size(), &w)) {
      ASSERT_TRUE(ok_slow && w.seconds == slow.seconds && w.nanos == slow.nanos &&
                  w.zoned == slow.has_zone) << s;
    }
    if (text::fast::FixedTimestamp(s.data(), s.size(), &v)) {
      ASSERT_TRUE(ok_slow && v.seconds == slow.seconds && v.nanos == slow.nanos &&
                  v.zoned == slow.has_zone) << s;
    }
    accepted += ok_fast;
    if (ok_fast) {
      ASSERT_EQ(fast.seconds, slow.seconds) << s;
      ASSERT_TRUE(fast.seconds128 == slow.seconds128) << s;
      ASSERT_EQ(fast.nanos, slow.nanos) << s;
      ASSERT_EQ(fast.frac_digits, slow.frac_digits) << s;
      ASSERT_EQ(fast.has_zone, slow.has_zone) << s;
      ASSERT_EQ(fast.date_only, slow.date_only) << s;
    }
    for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
      for (bool zoned : {false, true}) {
        int64_t a = 0, b = 0;
        bool ok_a = text::ParseTimestampAs(s, unit, zoned, &a);
        bool ok_b = ok_slow && slow.has_zone == zoned && text::TimestampToUnit(slow, unit, &b);
        ASSERT_EQ(ok_a, ok_b) << s << " unit " << static_cast<int>(unit) << " zoned " << zoned;
        if (ok_a) {
          ASSERT_EQ(a, b) << s;
        }
      }
    }
  }
  // Both kinds must be well represented for the comparison to mean anything.
  EXPECT_GT(accepted, 20000);
  EXPECT_LT(accepted, 180000);
}

TEST(TextValues, TimestampFastPathValues) {
  int64_t v = 0;
  ASSERT_TRUE(text::ParseTimestampAs("1970-01-01T00:00:00", TimeUnit::kSecond, false, &v));
  EXPECT_EQ(v, 0);
  ASSERT_TRUE(text::ParseTimestampAs("2024-02-29 23:59:59.5Z", TimeUnit::kMilli, true, &v));
  EXPECT_EQ(v, 1709251199500);
  EXPECT_FALSE(text::ParseTimestampAs("2023-02-29T00:00:00", TimeUnit::kSecond, false, &v));
  EXPECT_FALSE(text::ParseTimestampAs("2024-01-01T00:00:00.1234", TimeUnit::kMilli, false, &v));
  EXPECT_FALSE(text::ParseTimestampAs("2024-01-01T00:00:00Z", TimeUnit::kSecond, false, &v));
  // Past year 2262 nanoseconds overflow int64.
  EXPECT_FALSE(text::ParseTimestampAs("2300-01-01T00:00:00", TimeUnit::kNano, false, &v));
  // The smallest nanosecond instant: seconds * 10^9 alone overflows.
  ASSERT_TRUE(text::ParseTimestampAs("1677-09-21T00:12:43.145224192", TimeUnit::kNano, false, &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_FALSE(text::ParseTimestampAs("1677-09-21T00:12:43.145224191", TimeUnit::kNano, false, &v));
  ASSERT_TRUE(text::ParseTimestampAs("0000-03-01T00:00:00", TimeUnit::kSecond, false, &v));
  EXPECT_EQ(v, -62162035200);
}

TEST(TextValues, Int64FastPathAgreesWithReference) {
  std::mt19937_64 rng(13);
  static const char kBytes[] = "0123456789+-a ";
  for (int n = 0; n < 200000; ++n) {
    std::string s;
    int len = static_cast<int>(rng() % 22);
    for (int i = 0; i < len; ++i) {
      // Mostly digits, sometimes a sign or junk anywhere.
      s += rng() % 8 == 0 ? kBytes[rng() % (sizeof(kBytes) - 1)] : static_cast<char>('0' + rng() % 10);
    }
    // Reference: std::from_chars, which takes '-' but not '+'.
    std::string_view body = s;
    bool plus = !body.empty() && body[0] == '+';
    if (plus) body.remove_prefix(1);
    int64_t want = 0;
    auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), want);
    bool ok_want = !body.empty() && ec == std::errc() && end == body.data() + body.size() &&
                   !(plus && body[0] == '-');
    int64_t got = 0;
    bool ok_got = text::ParseInt64(s, &got);
    ASSERT_EQ(ok_got, ok_want) << s;
    if (ok_got) {
      ASSERT_EQ(got, want) << s;
    }
  }
  int64_t v;
  ASSERT_TRUE(text::ParseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_FALSE(text::ParseInt64("9223372036854775808", &v));
  ASSERT_TRUE(text::ParseInt64("-999999999999999999", &v));
  EXPECT_EQ(v, -999999999999999999);
}

TEST(TextValues, DoubleFastPathAgreesWithFromChars) {
  // Plain decimals take a short path (integer of the digits over a power of
  // ten); every text must give from_chars's double, bit for bit, and be
  // accepted exactly when from_chars takes all of it.
  std::mt19937_64 rng(99);
  static const char kBytes[] = "0123456789.-+eE";
  int fast_shaped = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string s;
    if (rng() % 4 != 0) {
      // [-]digits.digits, up to 17 digits in all: mostly the fast shape.
      if (rng() % 3 == 0) s += '-';
      for (int i = static_cast<int>(rng() % 9); i >= 0; --i) s += static_cast<char>('0' + rng() % 10);
      if (rng() % 4 != 0) {
        s += '.';
        for (int i = static_cast<int>(rng() % 9); i > 0; --i) s += static_cast<char>('0' + rng() % 10);
      }
      ++fast_shaped;
    } else {
      for (int i = static_cast<int>(rng() % 12); i > 0; --i) s += kBytes[rng() % (sizeof(kBytes) - 1)];
    }
    double want = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), want);
    bool ok_want = !s.empty() && ec == std::errc() && end == s.data() + s.size();
    double got = 0;
    bool ok_got = text::ParseDouble(s, &got);
    if (!s.empty() && s[0] == '+') continue;  // the reader also takes '+'; from_chars does not
    if (ec == std::errc::result_out_of_range) continue;  // the reader gives inf or 0 there
    ASSERT_EQ(ok_got, ok_want) << s;
    if (ok_got) {
      ASSERT_EQ(std::memcmp(&got, &want, sizeof(double)), 0) << s;
    }
  }
  EXPECT_GT(fast_shaped, 100000);
}

// Fast path (src/text/fast_values.h) against the general parser on the edges of the
// fixed layout: every day from the 27th to the 31st of every month of
// century, leap and edge years, 0..10 fraction digits, each separator and
// zone spelling. In the fixed layout the two must accept exactly the same
// texts, with the same instant.
TEST(TextValues, FixedTimestampEdgesAgreeWithGeneralParser) {
  int accepted = 0, rejected = 0;
  for (int year : {0, 1, 4, 100, 400, 1582, 1900, 1970, 1999, 2000, 2023, 2024, 2100, 9996, 9999}) {
    for (int month = 0; month <= 13; ++month) {
      for (int day : {0, 1, 27, 28, 29, 30, 31, 32}) {
        for (int digits = 0; digits <= 10; ++digits) {
          for (const char* zone : {"", "Z", "z"}) {
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d%c%02d:%02d:%02d", year, month, day,
                          "T t"[(day + digits) % 3], (day * 7 + digits) % 25, (digits * 13) % 61,
                          (day + month * 5) % 61);
            std::string s = buf;
            if (digits > 0) s += "." + std::string("9876543210").substr(0, static_cast<size_t>(digits));
            s += zone;
            text::fast::Instant fast{}, words{};
            text::TimestampText slow;
            bool ok_fast = text::fast::FixedTimestamp(s.data(), s.size(), &fast);
            bool ok_words = text::fast::FixedTimestampWords(s.data(), s.size(), &words);
            bool ok_slow = text::ParseTimestampGeneral(s, &slow);
            ASSERT_EQ(ok_fast, ok_slow) << s;
            ASSERT_EQ(ok_words, ok_slow) << s;
            if (ok_words) {
              ASSERT_EQ(words.seconds, slow.seconds) << s;
              ASSERT_EQ(words.nanos, slow.nanos) << s;
              ASSERT_EQ(words.zoned, slow.has_zone) << s;
            }
            (ok_fast ? accepted : rejected)++;
            if (!ok_fast) continue;
            ASSERT_EQ(fast.seconds, slow.seconds) << s;
            ASSERT_EQ(fast.nanos, slow.nanos) << s;
            ASSERT_EQ(fast.frac_digits, slow.frac_digits) << s;
            ASSERT_EQ(fast.zoned, slow.has_zone) << s;
            for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
              for (bool zoned : {false, true}) {
                int64_t a = 0, b = 0;
                bool ok_a = text::fast::FixedTimestampAs(s.data(), s.size(), unit, zoned, &a);
                bool ok_b = slow.has_zone == zoned && text::TimestampToUnit(slow, unit, &b);
                // The fast conversion may only decline (nanoseconds out of
                // its range go to the general one); it never disagrees.
                if (ok_a) {
                  ASSERT_TRUE(ok_b) << s;
                  ASSERT_EQ(a, b) << s;
                } else if (unit != TimeUnit::kNano) {
                  ASSERT_FALSE(ok_b) << s << " unit " << static_cast<int>(unit);
                }
                int64_t c = 0;
                ASSERT_EQ(text::ParseTimestampAs(s, unit, zoned, &c), ok_b) << s;
                if (ok_b) {
                  ASSERT_EQ(c, b) << s;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(accepted, 10000);
  EXPECT_GT(rejected, 10000);
  // Known instants.
  text::fast::Instant t{};
  ASSERT_TRUE(text::fast::FixedTimestamp("0001-01-01T00:00:00", 19, &t));
  EXPECT_EQ(t.seconds, -62135596800);
  ASSERT_TRUE(text::fast::FixedTimestamp("9999-12-31 23:59:59.999999999Z", 30, &t));
  EXPECT_EQ(t.seconds, 253402300799);
  EXPECT_EQ(t.nanos, 999999999);
  EXPECT_TRUE(t.zoned);
  ASSERT_TRUE(text::fast::FixedTimestamp("2000-02-29T12:00:00.5", 21, &t));
  EXPECT_EQ(t.seconds, 951825600);
  EXPECT_EQ(t.nanos, 500000000);
  EXPECT_FALSE(text::fast::FixedTimestamp("1900-02-29T00:00:00", 19, &t));
  EXPECT_FALSE(text::fast::FixedTimestamp("2100-02-29T00:00:00", 19, &t));
  EXPECT_FALSE(text::fast::FixedTimestamp("2023-04-31T00:00:00", 19, &t));
  // Offsets and a comma before the fraction are the general parser's.
  EXPECT_FALSE(text::fast::FixedTimestamp("2023-04-30T00:00:00+01:00", 25, &t));
  EXPECT_FALSE(text::fast::FixedTimestamp("2023-04-30T00:00:00,5", 21, &t));
  int64_t v = 0;
  ASSERT_TRUE(text::ParseTimestampAs("2023-04-30T00:00:00+01:00", TimeUnit::kSecond, true, &v));
  EXPECT_EQ(v, 1682809200);
}

}  // namespace
}  // namespace alkaid::text
