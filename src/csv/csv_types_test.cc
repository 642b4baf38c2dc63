// CSV round trips and parsing of the types with their own text forms:
// halffloat, day-time and month-day-nano intervals (ISO 8601 durations),
// and dictionary / run-end encoded columns read through their values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "alkaid/csv/api.h"
#include "src/text/text_test_helpers.h"
#include "src/text/text_values.h"

namespace alkaid::csv {
namespace {

using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;

TEST(CsvTypes, HalfFloatIntervalsDictionaryRunEndRoundTrip) {
  auto s = schema({
      field("half", float16()),
      field("dt", day_time_interval()),
      field("mdn", month_day_nano_interval()),
      field("dict", dictionary(int8(), utf8())),
      field("dict_i", dictionary(uint16(), int64())),
      field("ree", run_end_encoded(int32(), utf8())),
      field("ree_f", run_end_encoded(int16(), float64())),
  });
  auto t = MakeTable(
      s, {"[1.5, -0.0, null, 65504, 0.000061035156, -2]",
          "[[1, 2], [0, 0], null, [-3, -1500], [2147483647, -2147483648], [0, 1]]",
          "[[1, -2, 3000000000], [0, 0, 0], null, [-1, 0, -1], [0, 0, -9223372036854775808], "
          "[14, 3, 1]]",
          R"(["a", "b", null, "a", "", "a,b"])", "[5, 5, null, -1, 5, 9223372036854775807]",
          R"(["x", "x", null, null, "y", "x"])", "[1.5, 1.5, 1.5, null, 2, 2]"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = s;
  for (int threads : {1, 3}) {
    o.num_threads = threads;
    o.block_size = threads == 1 ? 1 << 20 : 40;
    auto back = ReadString(*text, o);
    ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *text;
    ExpectTablesEqual(**back, *t);
  }
  // The text forms themselves.
  EXPECT_THAT(*text, HasSubstr("1.5,P1DT0.002S,P1M-2DT3S,a,5,x,1.5\n"));
  EXPECT_THAT(*text, HasSubstr(",PT0S,PT0S,"));
  EXPECT_THAT(*text, HasSubstr("P-3DT-1.5S,P-1MT-0.000000001S,"));
  EXPECT_THAT(*text, HasSubstr("PT-9223372036.854775808S"));
}

TEST(CsvTypes, YearsOutsideFourDigitsRoundTripAsExpandedYears) {
  // The printer's rule (src/util/civil_time.h): a sign and at least four digits.
  auto s = schema({field("d", date32()), field("ts", timestamp(TimeUnit::kSecond))});
  auto t = MakeTable(s, {"[-719529, 2932897, -2147483648]",
                         "[-62167219201, 253402300800, 9223372036854775807]"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_THAT(*text, HasSubstr("-0001-12-31,-0001-12-31T23:59:59\n"));
  EXPECT_THAT(*text, HasSubstr("+10000-01-01,+10000-01-01T00:00:00\n"));
  EXPECT_THAT(*text, HasSubstr("-5877641-06-23,+292277026596-12-04T15:30:07\n"));
  ReadOptions o;
  o.schema = s;
  auto back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *text;
  ExpectTablesEqual(**back, *t);
}

TEST(CsvTypes, IntervalTextForms) {
  struct Case {
    const char* text;
    int64_t months, days, nanos;
  };
  const Case ok[] = {
      {"P1Y2M3W4DT5H6M7.5S", 14, 25, ((5 * 60 + 6) * 60 + 7) * 1'000'000'000LL + 500'000'000},
      {"PT0S", 0, 0, 0},
      {"P0D", 0, 0, 0},
      {"P-1M", -1, 0, 0},
      {"PT-0.5S", 0, 0, -500'000'000},
      {"PT1,25S", 0, 0, 1'250'000'000},
      {"P+2D", 0, 2, 0},
      {"PT0.000000001S", 0, 0, 1},
  };
  for (const auto& c : ok) {
    SCOPED_TRACE(c.text);
    int64_t m = 7, d = 7, ns = 7;
    ASSERT_TRUE(text::ParseInterval(c.text, &m, &d, &ns));
    EXPECT_EQ(m, c.months);
    EXPECT_EQ(d, c.days);
    EXPECT_EQ(ns, c.nanos);
    // Written back and read again: the same triple.
    std::string again;
    text::AppendInterval(&again, m, d, ns);
    int64_t m2, d2, ns2;
    ASSERT_TRUE(text::ParseInterval(again, &m2, &d2, &ns2)) << again;
    EXPECT_EQ(std::tie(m2, d2, ns2), std::tie(m, d, ns)) << again;
  }
  for (const char* bad : {"", "P", "PT", "1D", "P1", "P1DT", "PD", "P1D1D", "P1DT1D", "P1M1Y",
                          "PT1S1M", "P1.5D", "PT0.0000000001S", "PT1.S", "P1DTT1S", "P 1D",
                          "P99999999999999999999D", "PT9999999999H", "p1d", "P1D "}) {
    int64_t m, d, ns;
    EXPECT_FALSE(text::ParseInterval(bad, &m, &d, &ns)) << "accepted: '" << bad << "'";
  }
}

TEST(CsvTypes, OutOfRangeValuesAreErrorsNamingLineAndColumn) {
  ReadOptions o;
  o.schema = schema({field("h", float16()), field("dt", day_time_interval())});
  auto r = ReadString("h,dt\n1,P1D\n70000,P1D\n", o);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("line 3"));
  EXPECT_THAT(r.status().message(), HasSubstr("70000"));
  // Day-time intervals hold whole milliseconds and no months.
  for (const char* v : {"PT0.0005S", "P1M", "P3000000000D"}) {
    auto e = ReadString(std::string("h,dt\n1,") + v + "\n", o);
    ASSERT_FALSE(e.ok()) << v;
    EXPECT_THAT(e.status().message(), HasSubstr("column 2")) << e.status().ToString();
  }
  // A dictionary whose index type cannot number the distinct values.
  o.schema = schema({field("d", dictionary(int8(), int32()))});
  std::string many = "d\n";
  for (int i = 0; i < 200; ++i) many += std::to_string(i) + "\n";
  auto cap = ReadString(many, o);
  ASSERT_FALSE(cap.ok());
  EXPECT_EQ(cap.status().code(), StatusCode::kCapacityError) << cap.status().ToString();
}

// Found by fuzz_csv under UBSan: a block holding only the header has no
// rows, and the column loops did pointer arithmetic on the empty field list.
TEST(CsvReader, BlockWithoutRowsUnderTinyBlocks) {
  ReadOptions o;
  o.delimiter = ';';
  o.block_size = 37;
  o.num_threads = 1;
  auto r = ReadString("a;b;co,Brazil,false,114-01T00:00:00Z\n?3.5;\n", o);
  ASSERT_FALSE(r.ok());  // the second record has 2 fields, the header 3
  EXPECT_THAT(r.status().message(), HasSubstr("line 2"));
  auto ok = ReadString("a;b;c\n1;2;2024-01-01T00:00:00Z\n", o);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->num_rows(), 1);
}

// Found by fuzz_csv: readers drop a byte order mark at the start of the
// input, so a first column name (or, without a header, a first value) that
// begins with U+FEFF must be quoted by the writer to survive.
TEST(CsvWriter, LeadingByteOrderMarkInFirstFieldIsQuoted) {
  const std::string bom = "\xEF\xBB\xBF";
  auto s = schema({field(bom + "id", utf8()), field("b", utf8())});
  auto t = MakeTable(s, {R"(["\ufeffx", "y"])", R"(["\ufeff", "z"])"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->substr(0, 7), "\"" + bom + "id\"");
  ReadOptions o;
  auto back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, *t);

  WriteOptions no_header;
  no_header.header = false;
  text = WriteToString(*t, no_header);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->substr(0, 6), "\"" + bom + "x\"");
  o.header = false;
  o.column_names = {bom + "id", "b"};
  back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, *t);
}

}  // namespace
}  // namespace alkaid::csv
