// The On-Demand fast path of the JSON Lines reader against the DOM path.
// A block whose first key is written with an escape ("\u0069d" for "id")
// always goes the DOM way (the fast path compares raw key text), so the same
// lines read with and without that escape must give equal tables; errors
// must be the DOM path's, with their line and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "alkaid/jsonl/api.h"
#include "src/text/text_test_helpers.h"

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

// `text` read whole with `o` on the fast path, and again with its first key
// escaped (which sends every block to the DOM path): equal tables of `rows`
// rows. Returns the DOM path's table for further comparisons.
TablePtr ExpectFastEqualsDom(const std::string& text, const ReadOptions& o, int64_t rows) {
  auto dom = ExpectTable(ReadString(EscapeFirstKey(text), o), "dom");
  auto fast = ExpectTable(ReadString(text, o), "fast");
  if (dom == nullptr || fast == nullptr) {
    ADD_FAILURE() << "a path failed to read";
    return nullptr;
  }
  EXPECT_EQ(fast->num_rows(), rows);
  ExpectTablesEqual(*fast, *dom);
  return dom;
}

TEST(JsonlFastPath, RandomLinesEqualDomPath) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::string text = RandomLines(400, seed);
    ReadOptions o;
    o.schema = FastSchema();
    o.block_size = 1 << 20;
    TablePtr dom = ExpectFastEqualsDom(text, o, 400);
    ASSERT_NE(dom, nullptr);
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


// Strings in every position the fast path appends them from the raw text
// (plain ones) or from simdjson's unescaped copy (escaped ones): columns of
// utf8, large_utf8 and utf8_view, lists of strings, structs in lists, big
// strings past the reserved room, blanks around values; nested lists.
SchemaPtr StringSchema() {
  return schema({field("id", int64()), field("s", utf8()), field("ls", large_utf8()),
                 field("sv", utf8_view()), field("tags", list(utf8())),
                 field("recs", list(struct_({field("k", utf8()), field("v", int64())}))),
                 field("ts", timestamp(TimeUnit::kMilli)), field("big", uint64()),
                 field("nest", struct_({field("a", list(list(int32()))), field("t", utf8())}))});
}

std::string RandomString(std::mt19937_64& rng) {
  static const char* pieces[] = {"a", "xyz", " ", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00",
                                 "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\\/", "\\t", "0123456789"};
  std::string out = "\"";
  uint64_t r = rng() % 100;
  size_t n = r < 3 ? 5000 + rng() % 30000 : r < 40 ? 0 : rng() % 12;
  bool plain = rng() % 2 == 0;
  for (size_t i = 0; i < n; ++i) {
    const char* p = pieces[rng() % std::size(pieces)];
    if (plain && std::strchr(p, '\\') != nullptr) p = "p";
    out += p;
  }
  return out + "\"";
}

std::string RandomStringLines(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const char* blanks[] = {"", "", "", " ", "\t", "  \t "};
  auto blank = [&] { return std::string(blanks[rng() % std::size(blanks)]); };
  const char* tss[] = {"\"2024-02-29T23:59:59.999\"", "\"2024\\u002d01-01T00:00:00\"",
                       "\"1970-01-01 00:00:00\"", "17", "\"2024-03-04T05:06:07\" "};
  const char* bigs[] = {"18446744073709551615", "9223372036854775808", "0", "1"};
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> parts;
    auto maybe = [&](const std::string& name, const std::string& v) {
      uint64_t r = rng() % 100;
      if (r < 5) parts.push_back("\"" + name + "\":null");
      else if (r < 8) return;
      else parts.push_back("\"" + name + "\"" + blank() + ":" + blank() + v + blank());
    };
    maybe("id", std::to_string(static_cast<int64_t>(rng())));
    maybe("s", RandomString(rng));
    maybe("ls", RandomString(rng));
    maybe("sv", RandomString(rng));
    std::string l = "[";
    for (uint64_t k = 0, m = rng() % 5; k < m; ++k) {
      if (k) l += ",";
      l += blank();
      l += rng() % 8 ? RandomString(rng) : std::string("null");
    }
    maybe("tags", l + "]");
    std::string recs = "[";
    for (uint64_t k = 0, m = rng() % 3; k < m; ++k) {
      recs += std::string(k ? "," : "") + "{\"k\":" + RandomString(rng) + ",\"v\":" + std::to_string(rng() % 100) + "}";
    }
    maybe("recs", recs + "]");
    maybe("ts", tss[rng() % std::size(tss)]);
    maybe("big", bigs[rng() % std::size(bigs)]);
    std::string a = "[";
    for (uint64_t k = 0, m = rng() % 3; k < m; ++k) {
      a += k ? ",[" : "[";
      for (uint64_t j = 0, mm = rng() % 3; j < mm; ++j) {
        if (j) a += ",";
        a += std::to_string(static_cast<int32_t>(rng()));
      }
      a += "]";
    }
    maybe("nest", "{\"a\":" + a + "],\"t\":" + RandomString(rng) + "}");
    if (rng() % 3 == 0) std::shuffle(parts.begin(), parts.end(), rng);
    std::string line = (rng() % 40 == 0 ? blank() : "") + "{";
    for (size_t k = 0; k < parts.size(); ++k) line += (k ? "," : "") + parts[k];
    out += line + "}" + (rng() % 30 == 0 ? " " : "") + (rng() % 10 == 0 ? "\r\n" : "\n");
    if (rng() % 50 == 0) out += "\n";
  }
  if (rng() % 2 == 0 && !out.empty()) out.pop_back();  // no line feed at the end
  return out;
}

TEST(JsonlFastPath, RandomStringsEqualDomPath) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const int n = 300;
    std::string text = RandomStringLines(n, seed);
    ReadOptions o;
    o.schema = StringSchema();
    o.block_size = 1 << 22;
    TablePtr dom = ExpectFastEqualsDom(text, o, n);
    ASSERT_NE(dom, nullptr);
    // Blocks of a few lines each (the size hints of one block sizing the
    // next, smaller and bigger), one and two threads.
    for (int64_t block : {300, 2000, 20000}) {
      for (int threads : {1, 2}) {
        o.block_size = block;
        o.num_threads = threads;
        auto t = ExpectTable(ReadString(text, o), "blocks");
        ASSERT_NE(t, nullptr);
        ExpectTablesEqual(*t, *dom);
      }
    }
  }
}

// A random line of RandomStringLines broken in one of several ways: the
// error (line, field, words) is the DOM path's, whether or not the block
// started on the fast path.
TEST(JsonlFastPath, RandomErrorsAreTheDomPaths) {
  const char* breaks[] = {"{\"id\": 1.5}", "{\"id\": 1, \"id\": 2}", "{\"zz\": 1}", "{\"s\": 5}",
                          "{\"s\": \"a\xff\"}", "{\"s\": \"a\x01\"}", "{\"s\": \"\\x\"}",
                          "{\"tags\": [1]}", "{\"recs\": [{\"k\": \"a\", \"v\": \"b\"}]}",
                          "{\"big\": -1}", "{\"big\": 18446744073709551616}", "{\"id\": 1} {}",
                          "{\"id\": 1}}", "[1]", "{\"id\": 1", "{\"nest\": {\"a\": [[1], 2]}}",
                          "{\"ts\": \"2024-13-01T00:00:00\"}", "{\"ts\": \"x\\u0041\"}",
                          "{\"nest\": {\"a\": [[2147483648]]}}", "{\"s\": \"\\ud800\"}",
                          "{\"id\": 1,\n\"s\": \"x\"}", "{\"id\":\n1}"};
  std::mt19937_64 rng(99);
  for (int round = 0; round < 60; ++round) {
    std::string text = RandomStringLines(40, 1000 + static_cast<uint64_t>(round));
    // Replace line k (counting from 1) with a broken one.
    std::vector<std::string> lines = ::alkaid::testing::SplitLines(text);
    size_t k = 1 + rng() % (lines.size() - 1);
    const char* b = breaks[rng() % std::size(breaks)];
    lines[k] = b;
    std::string broken = ::alkaid::testing::JoinLines(lines);
    ReadOptions o;
    o.schema = StringSchema();
    o.block_size = round % 2 ? 1 << 20 : 1500;
    Status fast = ExpectError(ReadString(broken, o), broken);
    Status dom = ExpectError(ReadString(EscapeFirstKey(broken), o), broken);
    EXPECT_EQ(fast.message(), dom.message()) << b;
    EXPECT_THAT(fast.message(), HasSubstr("line " + std::to_string(k + 1) + ":")) << b;
  }
}

}  // namespace
}  // namespace alkaid::jsonl
