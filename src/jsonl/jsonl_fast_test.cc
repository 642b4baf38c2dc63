// The On-Demand fast path of the JSON Lines reader against the DOM path.
// A block whose first key is written with an escape ("\u0069d" for "id")
// always goes the DOM way (the fast path compares raw key text), so the same
// lines read with and without that escape must give equal tables; errors
// must be the DOM path's, with their line and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "alkaid/jsonl.h"
#include "src/csv/text_test_helpers.h"

namespace alkaid::jsonl {
namespace {

using ::alkaid::testing::ExpectError;
using ::alkaid::testing::ExpectTable;
using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;

SchemaPtr FastSchema() {
  return schema({field("id", int64()), field("i32", int32()), field("u", uint64()),
                 field("f", float64()), field("s", utf8()), field("ts", timestamp(TimeUnit::kMilli)),
                 field("tz", timestamp(TimeUnit::kMicro, "UTC")), field("d", date32()),
                 field("b", boolean()), field("l", list(int64())),
                 field("st", struct_({field("x", int16()), field("y", float32())}))});
}

// Random lines for FastSchema: ~5% nulls, some fields missing, fields in
// shuffled order in some lines, edge values mixed in.
std::string RandomLines(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const char* ints[] = {"0", "-1", "9223372036854775807", "-9223372036854775808", "42", "-0"};
  const char* i32s[] = {"2147483647", "-2147483648", "0", "7"};
  const char* us[] = {"18446744073709551615", "0", "9223372036854775808", "12345"};
  const char* fs[] = {"0", "-0.0", "1e308", "5e-324", "0.1", "1.7976931348623157e308", "1E5",
                      "-123.456", "3", "2.2250738585072014e-308", "9007199254740993"};
  const char* ss[] = {"\"\"", "\"plain\"", "\"q\\\"b\\\\s\\n\"", "\"\\u00e9\\ud83d\\ude00\"",
                      "\"caf\xc3\xa9 \xe4\xb8\xad\"", "\"\\/\\t\\r\\b\\f\""};
  const char* tss[] = {"\"2024-02-29T23:59:59.999\"", "\"1970-01-01 00:00:00\"",
                       "\"0001-01-01T00:00:00.1\"", "\"9999-12-31T23:59:59.12\"", "-1",
                       "1700000000000", "\"2024-03-04T05:06:07\""};
  const char* tzs[] = {"\"2024-02-29T23:59:59Z\"", "\"2024-01-01T00:00:00.123456Z\"",
                       "0"};
  const char* ds[] = {"\"2024-02-29\"", "\"1970-01-01\"", "\"1969-12-31\"", "19000"};
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> parts;
    auto pick = [&](auto& arr) { return std::string(arr[rng() % std::size(arr)]); };
    auto maybe = [&](const std::string& name, const std::string& v) {
      uint64_t r = rng() % 100;
      if (r < 5) parts.push_back("\"" + name + "\":null");
      else if (r < 8) return;  // missing
      else parts.push_back("\"" + name + "\":" + v);
    };
    maybe("id", std::to_string(static_cast<int64_t>(rng())));
    maybe("i32", rng() % 2 ? pick(i32s) : std::to_string(static_cast<int32_t>(rng())));
    maybe("u", rng() % 2 ? pick(us) : std::to_string(rng()));
    maybe("f", rng() % 2 ? pick(fs) : std::to_string(static_cast<double>(rng() % 1000000) / 97.0));
    maybe("s", pick(ss));
    maybe("ts", pick(tss));
    maybe("tz", pick(tzs));
    maybe("d", pick(ds));
    maybe("b", rng() % 2 ? "true" : "false");
    std::string l = "[";
    for (uint64_t k = 0, m = rng() % 4; k < m; ++k) {
      if (k) l += ",";
      l += rng() % 10 == 0 ? std::string("null") : rng() % 3 == 0 ? pick(ints) : std::to_string(rng() % 1000);
    }
    maybe("l", l + "]");
    maybe("st", rng() % 3 == 0 ? std::string("{}") : "{\"y\": 1.5, \"x\": " + std::to_string(rng() % 30000) + "}");
    if (rng() % 3 == 0) std::shuffle(parts.begin(), parts.end(), rng);
    std::string line = "{";
    for (size_t k = 0; k < parts.size(); ++k) line += (k ? ", " : "") + parts[k];
    out += line + "}" + (rng() % 10 == 0 ? "\r\n" : "\n");
    if (rng() % 20 == 0) out += "   \n";
  }
  return out;
}

// The same lines, the first key of the first line written with an escape
// (so the whole text is read by the DOM path when it is one block).
std::string EscapeFirstKey(const std::string& text) {
  size_t q = text.find('"');
  EXPECT_NE(q, std::string::npos);
  std::string out = text;
  char c = out[q + 1];
  char esc[8];
  std::snprintf(esc, sizeof(esc), "\\u%04x", static_cast<unsigned>(c));
  out.replace(q + 1, 1, esc);
  return out;
}

TEST(JsonlFastPath, RandomLinesEqualDomPath) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::string text = RandomLines(400, seed);
    ReadOptions o;
    o.schema = FastSchema();
    o.block_size = 1 << 20;
    auto dom = ExpectTable(ReadString(EscapeFirstKey(text), o), "dom");
    auto fast = ExpectTable(ReadString(text, o), "fast");
    ASSERT_NE(dom, nullptr);
    ASSERT_NE(fast, nullptr);
    EXPECT_EQ(fast->num_rows(), 400);
    ExpectTablesEqual(*fast, *dom);
    // Many small blocks, two threads: the same table.
    o.block_size = 700;
    o.num_threads = 2;
    auto small = ExpectTable(ReadString(text, o), "small blocks");
    ASSERT_NE(small, nullptr);
    ExpectTablesEqual(*small, *dom);
  }
}

TEST(JsonlFastPath, EdgeValues) {
  ReadOptions o;
  o.schema = schema({field("n", int64()), field("u", uint8()), field("f", float64()),
                     field("t", timestamp(TimeUnit::kNano))});
  const std::string text =
      R"({"n": -9223372036854775808, "u": 255, "f": 5e-324, "t": "2262-04-11T23:47:16.854775807"}
{"n": 9223372036854775807, "u": 0, "f": -0.0, "t": "1677-09-21T00:12:43.145224192"}
{"n": 0, "u": null, "f": 0.5, "t": null}
)";
  auto t = ExpectTable(ReadString(text, o), "edge");
  ASSERT_NE(t, nullptr);
  auto want = MakeTable(o.schema, {"[-9223372036854775808, 9223372036854775807, 0]", "[255, 0, null]",
                                   "[5e-324, -0.0, 0.5]",
                                   "[9223372036854775807, -9223372036854775808, null]"});
  ExpectTablesEqual(*t, *want);
  // Values the fast path leaves to the DOM path ("inf" in a float column,
  // tiny and huge numbers): the same table as the DOM path's.
  o.schema = schema({field("f", float64()), field("t", timestamp(TimeUnit::kNano))});
  const std::string odd =
      "{\"f\": \"inf\", \"t\": \"2024-01-01T00:00:00.5\"}\n{\"f\": 1e-400, \"t\": 0}\n"
      "{\"f\": 12345678901234567890, \"t\": \"2024-01-01 00:00:00\"}\n"
      "{\"f\": -9200000000000000000.5, \"t\": \"2024-01-01 00:00:00.000000001\"}\n"
      "{\"f\": 1.5e300, \"t\": \"2024-01-01T00:00:00\"}\n";
  auto fast = ExpectTable(ReadString(odd, o), "odd");
  auto dom = ExpectTable(ReadString(EscapeFirstKey(odd), o), "odd dom");
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(dom, nullptr);
  ExpectTablesEqual(*fast, *dom);
}

TEST(JsonlFastPath, KeysLongShortAndPrefixes) {
  ReadOptions o;
  o.schema = schema({field("a_rather_long_field_name", int64()),
                     field("a_rather_long_field_name_2", int64()), field("abcdefg", int64()),
                     field("abcdefgh", int64()), field("", int64()), field("caf\xc3\xa9", int64())});
  const std::string text =
      "{\"a_rather_long_field_name\": 1, \"a_rather_long_field_name_2\": 2, \"abcdefg\": 3, "
      "\"abcdefgh\": 4, \"\": 5, \"caf\xc3\xa9\": 6}\n"
      "{\"caf\xc3\xa9\": 16, \"\": 15, \"abcdefgh\": 14, \"abcdefg\": 13, "
      "\"a_rather_long_field_name_2\": 12, \"a_rather_long_field_name\": 11}\n"
      "{\"abcdefgh\": 24}\n{}\n";
  auto fast = ExpectTable(ReadString(text, o), "keys");
  auto dom = ExpectTable(ReadString(EscapeFirstKey(text), o), "keys dom");
  ASSERT_NE(fast, nullptr);
  ASSERT_NE(dom, nullptr);
  EXPECT_EQ(fast->num_rows(), 4);
  ExpectTablesEqual(*fast, *dom);
  ExpectTablesEqual(*fast, *MakeTable(o.schema, {"[1, 11, null, null]", "[2, 12, null, null]",
                                                 "[3, 13, null, null]", "[4, 14, 24, null]",
                                                 "[5, 15, null, null]", "[6, 16, null, null]"}));
  // Prefixes and extensions of the names are other keys.
  for (const char* key : {"a_rather_long_field", "a_rather_long_field_name_", "abcdef",
                          "abcdefghi", "a_rather_long_field_name_23"}) {
    Status st = ExpectError(ReadString("{\"abcdefg\": 1}\n{\"" + std::string(key) + "\": 1}\n", o), key);
    EXPECT_THAT(st.message(), HasSubstr("line 2: field " + std::string(key) + ": a field not in the schema"));
  }
}

TEST(JsonlFastPath, ErrorsAreTheDomPaths) {
  ReadOptions o;
  o.schema = schema({field("a", int64()), field("b", utf8(), /*nullable=*/false)});
  o.block_size = 64;
  struct Case {
    std::string text;
    std::vector<std::string> want;
  };
  std::vector<Case> cases = {
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": \"x\"}}\n", {"line 2", "not valid JSON"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": \"x\"} {\"a\": 2, \"b\": \"y\"}\n", {"line 2", "not valid JSON"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1.5, \"b\": \"x\"}\n", {"line 3", "field a", "a number"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"a\": 2, \"b\": \"x\"}\n", {"line 2", "field a", "twice"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"c\": 2, \"b\": \"x\"}\n", {"line 2", "field c", "not in the schema"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1}\n", {"line 2", "field b", "not nullable"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": null}\n", {"line 2", "field b", "not nullable"}},
      {"{\"a\": 1, \"b\": \"x\"}\n5\n", {"line 2", "must hold a JSON object"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": \"x\"\n", {"line 2", "not valid JSON"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": [\"x\"]}\n", {"line 2", "field b", "an array"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 99999999999999999999, \"b\": \"x\"}\n", {"line 2"}},
      {"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 1, \"b\": \"\xff\"}\n", {"line 2"}},
  };
  // Integers beyond 64 bits are an error on the DOM path, in float columns too.
  ReadOptions of = o;
  of.schema = schema({field("a", int64()), field("b", float64())});
  for (const char* big : {"123456789012345678901234567890", "-9300000000000000000", "1e400"}) {
    Status st = ExpectError(
        ReadString("{\"a\": 1, \"b\": 2}\n{\"a\": 1, \"b\": " + std::string(big) + "}\n", of), big);
    EXPECT_THAT(st.message(), HasSubstr("line 2")) << big;
    EXPECT_THAT(st.message(), HasSubstr("not a valid 64-bit integer or double")) << big;
  }
  for (const auto& c : cases) {
    Status st = ExpectError(ReadString(c.text, o), c.text);
    for (const auto& w : c.want) EXPECT_THAT(st.message(), HasSubstr(w)) << c.text;
  }
  // Unexpected fields ignored: the DOM path reads the block the same.
  o.unexpected_fields = UnexpectedFields::kIgnore;
  auto t = ExpectTable(ReadString("{\"a\": 1, \"z\": [1, {\"q\": 2}], \"b\": \"x\"}\n{\"b\": \"y\"}\n", o), "ignore");
  ASSERT_NE(t, nullptr);
  ExpectTablesEqual(*t, *MakeTable(o.schema, {"[1, null]", "[\"x\", \"y\"]"}));
}

}  // namespace
}  // namespace alkaid::jsonl
