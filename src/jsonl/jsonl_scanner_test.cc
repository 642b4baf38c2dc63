// The line scanner (line_scanner.h), the reader's first tier, against the
// tiers after it: the same text read with the scanner on and off
// (ALKAID_JSONL_SCANNER=0) must give the same table, to the bit, or the same
// error. The scanner is also called directly, to check that it does read
// the plain inputs (so the comparisons are not vacuous) and gives up on the
// broken ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "alkaid/bitmap.h"
#include "alkaid/builder.h"
#include "alkaid/jsonl/api.h"
#include "src/text/text_test_helpers.h"
#include "src/jsonl/line_scanner.h"

namespace alkaid::jsonl {
namespace {

using ::alkaid::testing::ExpectTable;
using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;

Result<TablePtr> Read(const std::string& text, const ReadOptions& o, bool scanner) {
  if (!scanner) ::setenv("ALKAID_JSONL_SCANNER", "0", 1);
  auto r = ReadString(text, o);
  ::unsetenv("ALKAID_JSONL_SCANNER");
  return r;
}

// Whether the scanner reads all of `text` as one block (padded like the
// loader's blocks), and its row count.
bool ScannerTakes(const std::string& text, const SchemaPtr& schema, int64_t* rows = nullptr) {
  auto type = struct_(schema->fields());
  if (!internal::ScannerSupports(*type)) return false;
  auto builder = MakeBuilder(type);
  if (!builder.ok()) return false;
  internal::Node root = internal::BuildNode(*type, builder->get());
  std::string padded = text + std::string(64, '\0');
  int64_t n = 0;
  bool ok = internal::ScanLines(padded.data(), static_cast<int64_t>(text.size()), &root, &n);
  if (rows != nullptr) *rows = n;
  return ok;
}

// The bits of the valid values of a float64 or float32 column (equality
// of arrays does not tell -0.0 from 0.0).
std::vector<uint64_t> FloatBits(const ChunkedArray& column) {
  std::vector<uint64_t> out;
  const bool wide = column.type()->id() == TypeId::kDouble;
  for (const ArrayDataPtr& d : column.chunks()) {
    const uint8_t* valid = d->buffers[0] ? d->buffers[0]->data() : nullptr;
    const uint8_t* values = d->buffers[1]->data();
    for (int64_t i = 0; i < d->length; ++i) {
      const int64_t j = d->offset + i;
      if (valid != nullptr && !bit_util::GetBit(valid, j)) continue;
      uint64_t bits = 0;
      std::memcpy(&bits, values + j * (wide ? 8 : 4), wide ? 8 : 4);
      out.push_back(bits);
    }
  }
  return out;
}

// Equal tables, floats to the bit.
void ExpectSame(const Table& got, const Table& want) {
  ExpectTablesEqual(got, want);
  for (int i = 0; i < got.num_columns() && i < want.num_columns(); ++i) {
    const TypeId id = want.schema()->field(i)->type()->id();
    if (id == TypeId::kDouble || id == TypeId::kFloat) {
      EXPECT_EQ(FloatBits(*got.column(i)), FloatBits(*want.column(i))) << "column " << i;
    }
  }
}

// Reads `text` with the scanner on and off; same table (returned) or same error.
TablePtr ExpectOnEqualsOff(const std::string& text, const ReadOptions& o) {
  auto on = Read(text, o, true);
  auto off = Read(text, o, false);
  EXPECT_EQ(on.ok(), off.ok()) << (on.ok() ? off.status() : on.status()).ToString() << "\n"
                               << text.substr(0, 300);
  if (!on.ok() || !off.ok()) {
    if (!on.ok() && !off.ok()) {
      EXPECT_EQ(on.status().message(), off.status().message());
    }
    return nullptr;
  }
  ExpectSame(**on, **off);
  return *on;
}

SchemaPtr WideSchema() {
  return schema({field("id", int64()), field("i32", int32()), field("u8", uint8()),
                 field("u", uint64()), field("f", float64()), field("f32", float32()),
                 field("s", utf8()), field("ls", large_utf8()), field("sv", utf8_view()),
                 field("ts", timestamp(TimeUnit::kMilli)),
                 field("tz", timestamp(TimeUnit::kMicro, "UTC")), field("d", date32()),
                 field("t", time64(TimeUnit::kMicro)), field("dur", duration(TimeUnit::kSecond)),
                 field("b", boolean()), field("l", list(int64())),
                 field("ll", large_list(list(int32()))), field("a_rather_long_key_name", int16()),
                 field("caf\xc3\xa9", utf8()),
                 field("st", struct_({field("x", int16()), field("y", float64()),
                                      field("z", list(utf8()))}))});
}

// Random lines for WideSchema. Without `special`, only forms the scanner
// reads (it must take the whole text); with it, also escapes, integers
// beyond 64 bits, huge and tiny floats, "-0" in float columns and such.
std::string RandomLines(int n, uint64_t seed, bool special) {
  std::mt19937_64 rng(seed);
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  const std::vector<std::string> ints = {"0", "-0", "-1", "9223372036854775807", "-9223372036854775808",
                                         "42", "12345678", "123456789", "1234567890123456",
                                         "12345678901234567", "-100000000000000000"};
  std::vector<std::string> floats = {"0", "0.0", "-0.0", "1.5", "-123.456", "0.1", "1e5", "1E5",
                                     "1e+5", "1.5e-7", "-2.5E+10", "1e308", "1.7976931348623157e308",
                                     "2.2250738585072014e-308", "9007199254740993", "123456789012345678",
                                     "1234567.1234567", "12345678.5", "0.12345678901234567", "3",
                                     "-7", "1234567.12345678", "4.35", "0.000001"};
  if (special) {
    for (const char* f : {"-0", "5e-324", "1e-400", "12345678901234567890", "0e0", "-0e-999",
                          "\"nan\"", "\"inf\"", "\"-inf\"", "4.9e-324"}) {
      floats.push_back(f);
    }
  }
  std::vector<std::string> strings = {"\"\"", "\"plain\"", "\"caf\xc3\xa9\"", "\"\xe4\xb8\xad\xe6\x96\x87\"",
                                      "\"\xf0\x9f\x98\x80 x\"", "\"0123456789abcdef0123456789\"",
                                      "\"\x7f del\"", "\"\xc2\x80\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf\"",
                                      "\"x\xc3\xa9" "0123456789abcdef\xe2\x82\xac\""};
  if (special) {
    for (const char* s : {"\"q\\\"b\\\\s\\n\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\/\\t\\r\\b\\f\""}) {
      strings.push_back(s);
    }
  }
  const std::vector<std::string> tss = {"\"2024-02-29T23:59:59.999\"", "\"1970-01-01 00:00:00\"",
                                        "\"0001-01-01T00:00:00.1\"", "\"9999-12-31T23:59:59.12\"",
                                        "-1", "1700000000000", "\"2024-03-04T05:06:07\"",
                                        "\"2024-03-04T05:06\""};
  const std::vector<std::string> tzs = {"\"2024-02-29T23:59:59Z\"", "\"2024-01-01T00:00:00.123456Z\"",
                                        "0", "\"2024-01-01T00:00:00+01:00\""};
  const std::vector<std::string> ds = {"\"2024-02-29\"", "\"1970-01-01\"", "\"1969-12-31\"", "19000",
                                       "-5"};
  const std::vector<std::string> times = {"\"12:34:56.789012\"", "\"00:00:00.000000\"", "86399999999"};
  std::vector<std::string> us = {"0", "18446744073709551", "9223372036854775808", "12345",
                                 "9999999999999999999"};
  if (special) us.push_back("18446744073709551615");
  const char* blanks[] = {"", "", "", "", " ", "\t", " \r ", "  "};
  auto blank = [&] { return std::string(blanks[rng() % std::size(blanks)]); };
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> parts;
    const bool python = rng() % 4 == 0;
    auto maybe = [&](const std::string& name, const std::string& v) {
      uint64_t r = rng() % 100;
      std::string value = r < 5 ? "null" : v;
      if (r >= 5 && r < 8) return;  // missing
      if (python) {
        parts.push_back("\"" + name + "\": " + value);
      } else {
        parts.push_back("\"" + name + "\"" + blank() + ":" + blank() + value + blank());
      }
    };
    maybe("id", rng() % 2 ? pick(ints) : std::to_string(static_cast<int64_t>(rng())));
    maybe("i32", rng() % 2 ? "-2147483648" : std::to_string(static_cast<int32_t>(rng())));
    maybe("u8", std::to_string(rng() % 256));
    maybe("u", rng() % 2 ? pick(us) : std::to_string(rng() % 10000000000000000000ull));
    char buf[64];
    const double r = static_cast<double>(rng() % 10000000) / 97.0 * (rng() % 2 ? 1 : -1);
    std::snprintf(buf, sizeof(buf), rng() % 2 ? "%.3f" : "%.17g", r);
    maybe("f", rng() % 2 ? pick(floats) : std::string(buf));
    maybe("f32", rng() % 2 ? pick(floats) : std::string(buf));
    maybe("s", pick(strings));
    maybe("ls", pick(strings));
    maybe("sv", pick(strings));
    maybe("ts", pick(tss));
    maybe("tz", pick(tzs));
    maybe("d", pick(ds));
    maybe("t", pick(times));
    maybe("dur", pick(ints));
    maybe("b", rng() % 2 ? "true" : "false");
    std::string l = "[" + blank();
    for (uint64_t k = 0, m = rng() % 4; k < m; ++k) {
      if (k) l += blank() + "," + blank();
      l += rng() % 10 == 0 ? std::string("null") : rng() % 3 == 0 ? pick(ints) : std::to_string(rng() % 1000);
    }
    maybe("l", l + blank() + "]");
    std::string ll = "[";
    for (uint64_t k = 0, m = rng() % 3; k < m; ++k) {
      ll += k ? ",[" : "[";
      for (uint64_t j = 0, mm = rng() % 3; j < mm; ++j) {
        ll += (j ? "," : "") + std::to_string(static_cast<int32_t>(rng()));
      }
      ll += "]";
    }
    maybe("ll", ll + "]");
    maybe("a_rather_long_key_name", std::to_string(static_cast<int16_t>(rng())));
    maybe("caf\xc3\xa9", pick(strings));
    std::string st;
    switch (rng() % 4) {
      case 0: st = "{}"; break;
      case 1: st = "{\"y\": 1.5, \"x\": " + std::to_string(rng() % 30000) + "}"; break;
      default:
        st = "{\"x\":" + std::to_string(static_cast<int16_t>(rng())) + ",\"y\":" + pick(floats) +
             ",\"z\":[" + pick(strings) + "," + pick(strings) + "]}";
    }
    maybe("st", st);
    if (rng() % 3 == 0) std::shuffle(parts.begin(), parts.end(), rng);
    std::string line = (rng() % 20 == 0 ? blank() : "") + "{" + blank();
    for (size_t k = 0; k < parts.size(); ++k) line += (k ? (python ? ", " : ",") : "") + parts[k];
    out += line + "}" + (rng() % 20 == 0 ? " \t" : "") + (rng() % 10 == 0 ? "\r\n" : "\n");
    if (rng() % 25 == 0) out += rng() % 2 ? "\n" : "  \r\n";
  }
  if (rng() % 2 == 0 && !out.empty()) out.pop_back();  // no line feed at the end
  return out;
}

TEST(JsonlScanner, Supports) {
  EXPECT_TRUE(internal::ScannerSupports(*struct_(WideSchema()->fields())));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("x", decimal128(10, 2))})));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("x", binary())})));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("x", list(float16()))})));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("a\\b", int64())})));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("bad\xff", int64())})));
  EXPECT_FALSE(internal::ScannerSupports(*struct_({field("s", struct_({field("q\"", int8())}))})));
}

TEST(JsonlScanner, PlainLinesAreScannedAndEqualTheOtherTiers) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int n = 300;
    std::string text = RandomLines(n, seed, false);
    int64_t rows = 0;
    ASSERT_TRUE(ScannerTakes(text, WideSchema(), &rows)) << "seed " << seed;
    EXPECT_EQ(rows, n);
    ReadOptions o;
    o.schema = WideSchema();
    TablePtr t = ExpectOnEqualsOff(text, o);
    ASSERT_NE(t, nullptr) << "seed " << seed;
    EXPECT_EQ(t->num_rows(), n);
  }
}

TEST(JsonlScanner, SpecialLinesEqualTheOtherTiers) {
  for (uint64_t seed = 100; seed <= 112; ++seed) {
    std::string text = RandomLines(200, seed, true);
    ReadOptions o;
    o.schema = WideSchema();
    // Some blocks of a few lines are scanned, others (escapes, odd numbers)
    // go to the tiers after the scanner.
    o.block_size = 1500;
    ExpectOnEqualsOff(text, o);
    o.block_size = 1 << 20;
    ExpectOnEqualsOff(text, o);
  }
}

TEST(JsonlScanner, BlocksAndThreads) {
  for (uint64_t seed = 200; seed <= 204; ++seed) {
    std::string text = RandomLines(400, seed, seed % 2 == 0);
    ReadOptions o;
    o.schema = WideSchema();
    auto whole = ExpectTable(Read(text, o, false), "whole, scanner off");
    ASSERT_NE(whole, nullptr);
    for (int64_t block : {300, 4096, 1 << 16}) {
      for (int threads : {1, 2}) {
        o.block_size = block;
        o.num_threads = threads;
        // To the bit against the same blocks without the scanner; equal
        // (as arrays) to the whole text's table. (Not to the bit: the tiers
        // after the scanner differ on -0 in a float column, -0.0 On-Demand
        // and 0.0 on the DOM path, and which one reads a block depends on
        // the other lines in it.)
        auto t = ExpectOnEqualsOff(text, o);
        ASSERT_NE(t, nullptr);
        ExpectTablesEqual(*t, *whole);
      }
    }
  }
}

TEST(JsonlScanner, ExactValues) {
  ReadOptions o;
  o.schema = schema({field("i", int64()), field("f", float64()), field("s", utf8()),
                     field("l", list(int64()))});
  const std::string text =
      "{\"i\": -9223372036854775808, \"f\": -0.0, \"s\": \"caf\xc3\xa9\", \"l\": [1, -0, null]}\n"
      "\r\n"
      "  {\"l\":[],\"s\":\"\",\"f\":1e-7,\"i\":9223372036854775807}  \r\n"
      "{ }\n"
      "{\"i\" : 0 , \"f\" : 123456789012345678 , \"s\" : null , \"l\" : null }";
  ASSERT_TRUE(ScannerTakes(text, o.schema));
  auto t = ExpectTable(Read(text, o, true), "exact");
  ASSERT_NE(t, nullptr);
  ExpectSame(*t, *MakeTable(o.schema, {"[-9223372036854775808, 9223372036854775807, null, 0]",
                                       "[-0.0, 1e-7, null, 123456789012345678]",
                                       "[\"caf\xc3\xa9\", \"\", null, null]",
                                       "[[1, 0, null], [], null, null]"}));
}

// Lines each broken in one way (and one valid line with an escaped key):
// the scanner gives up on them, and the reader's error (line, field, words)
// is the same with the scanner on and off.
TEST(JsonlScanner, BrokenLinesGiveTheSameErrors) {
  const std::vector<std::string> breaks = {
      "{\"s\": \"a\xff\"}", "{\"s\": \"\xc3\"}", "{\"s\": \"\xed\xa0\x80\"}", "{\"s\": \"\xc0\xaf\"}",
      "{\"s\": \"\xf4\x90\x80\x80\"}", "{\"s\": \"0123456789abcdef\xe2\x82\"}",
      "{\"s\": \"a\x01" "b\"}", "{\"s\": \"a\tb\"}", "{\"id\": 01}", "{\"id\": +1}", "{\"f\": 1.}",
      "{\"f\": .5}", "{\"f\": 01.5}", "{\"f\": -01}", "{\"f\": 1e}", "{\"f\": 1e+}", "{\"f\": -}",
      "{\"f\": 1.5.2}", "{\"f\": 00}", "{\"b\": tru}", "{\"b\": True}", "{\"b\": nul}",
      "{\"id\": 1}x", "{\"id\": 1}}", "{\"id\": 1} {\"id\": 2}", "{\"id\": 1 \"s\": \"x\"}",
      "{\"id\" 1}", "{\"id\": 1,}", "{,}", "{\"l\": [1,]}", "{\"l\": [1 2]}", "{\"l\": [,1]}",
      "{\"zz\": 1}", "{\"id\": 1, \"id\": 2}", "{\"i\\u0064\": 1}", "{\"id\": 1.5}",
      "{\"id\": 1e5}", "{\"id\": 9223372036854775808}", "{\"id\": -9223372036854775809}",
      "{\"id\": 123456789012345678901}", "{\"i32\": 2147483648}", "{\"u\": -1}",
      "{\"u\": 18446744073709551616}", "{\"f\": 1e400}", "{\"f\": -1e400}", "{\"f\": \"x\"}",
      "{\"f\": NaN}", "{\"f\": Infinity}", "[1]", "5", "\"x\"", "{\"id\": 1", "{\"id\":\n1}",
      "{\"s\": 'x'}", "{'id': 1}", "{\"id\": 0x10}", "{\"id\": --1}", "{\"id\": -}",
      std::string("{\"id\": 1}\0", 10), std::string("{\"id\": 1\0}", 10), "{\"id\": 1}\f",
      "{\"ts\": \"2024-13-01T00:00:00\"}", "{\"ts\": \"2024-01-01T00:00:00\xc3\xa9\"}",
      "{\"d\": \"2024-02-30\"}", "{\"l\": [1, [2]]}", "{\"st\": {\"x\": 1, \"x\": 2}}",
      "{\"st\": {\"q\": 1}}", "{\"st\": [1]}", "{\"st\": {\"x\": 1,}}", "{\"l\": [1]]}",
      "{\"s\": \"x\\q\"}", "{\"s\": \"\\ud800\"}", "{\"b\": truex}", "{\"b\": nullx}",
      "{\"l\": [1, 2.5]}", "{\"i32\": 1e2}", "{\"u8\": 256}", "{\"ts\": 1.5}", "\xef\xbb\xbf{}",
      "{\"s\": \"x\"}\x0b", "{\"id\":1}\r\r{\"id\":2}", "{\"s\": \"\x80\"}", "{\"caf\xc3\": 1}",
      "{\"id\":1,}", "{\"id\":1,,\"i32\":2}", "{\"id\":1\"i32\":2}", "{\"id\":1,\"i32\":2,}",
      "{\"id\":1,\"i32\":2 ,}", "{\"id\":1,\"i32\"2}", "{\"id\":1,\"i32:2}", "{,\"id\":1}",
      "{\"st\":{\"x\":1,}}", "{\"st\":{\"x\":1,\"y\":2,\"z\":[],}}", "{\"id\":1,\"id\":2}"};
  std::mt19937_64 rng(7);
  for (size_t bi = 0; bi < breaks.size(); ++bi) {
    const std::string& b = breaks[bi];
    for (bool at_end : {false, true}) {
      std::string text = RandomLines(30, 500 + bi, false);
      std::vector<std::string> lines = ::alkaid::testing::SplitLines(text);
      const size_t k = at_end ? lines.size() - 1 : 1 + rng() % (lines.size() - 1);
      lines[k] = b;
      std::string broken = ::alkaid::testing::JoinLines(lines);
      EXPECT_FALSE(ScannerTakes(broken, WideSchema())) << b;
      ReadOptions o;
      o.schema = WideSchema();
      for (int64_t block : {int64_t{1} << 20, int64_t{700}}) {
        o.block_size = block;
        auto on = Read(broken, o, true);
        auto off = Read(broken, o, false);
        if (b.find("\\u0064") != std::string::npos) {
          // Valid, with an escaped key: the tiers after the scanner read it.
          ASSERT_TRUE(on.ok() && off.ok()) << b;
          ExpectSame(**on, **off);
          continue;
        }
        ASSERT_FALSE(off.ok()) << "not an error: " << b;
        ASSERT_FALSE(on.ok()) << "accepted by the scanner: " << b;
        EXPECT_EQ(on.status().message(), off.status().message()) << b;
      }
    }
  }
  // A string left open at the end of the input (and of a block).
  ReadOptions o;
  o.schema = WideSchema();
  const std::string open_end = "{\"id\": 1}\n{\"s\": \"abc";
  EXPECT_FALSE(ScannerTakes(open_end, WideSchema()));
  auto on = Read(open_end, o, true);
  auto off = Read(open_end, o, false);
  ASSERT_FALSE(on.ok());
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(on.status().message(), off.status().message());
  EXPECT_THAT(on.status().message(), HasSubstr("line 2"));
}

// Plain lines with random bytes replaced, inserted or deleted (JSON's
// structural characters, digits, quotes, blanks, bytes of UTF-8 and
// control bytes): whatever the tiers after the scanner make of the text,
// table or error, the scanner must not change it.
TEST(JsonlScanner, RandomMutationsEqualTheOtherTiers) {
  std::mt19937_64 rng(11);
  const std::string alphabet = "{}[],:\"\\ \t\r\n0123456789-+.eEtrufalsn\x01\x7f\xc3\xa9\xe4\xf0\x80\xbfxZT";
  ReadOptions o;
  o.schema = WideSchema();
  int scanned = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string text = RandomLines(3, 9000 + static_cast<uint64_t>(round), false);
    for (int m = 0, k = 1 + static_cast<int>(rng() % 3); m < k && !text.empty(); ++m) {
      const size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text[at] = c; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: text.erase(at, 1);
      }
    }
    scanned += ScannerTakes(text, o.schema) ? 1 : 0;
    ExpectOnEqualsOff(text, o);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "round " << round << ": " << text;
      break;
    }
  }
  // Some mutations leave valid text the scanner reads (a digit for a digit).
  EXPECT_GT(scanned, 0);
}

// The plain in-order layout (keys compared with their separators as words)
// next to spaced, reordered and partial objects.
TEST(JsonlScanner, LayoutsAroundTheInOrderPath) {
  ReadOptions o;
  o.schema = schema({field("id", int64()), field("i32", int32()),
                     field("st", struct_({field("x", int16()), field("y", float64())}))});
  const std::string text =
      "{\"id\":1,\"i32\":2,\"st\":{\"x\":3,\"y\":4.5}}\n"
      "{\"id\":1 ,\"i32\":2, \"st\" :{\"x\":3 ,\"y\":4.5 } }\n"
      "{\"id\":1,\"st\":{\"y\":4.5,\"x\":3},\"i32\":2}\n"
      "{\"id\":1}\n{\"i32\":2}\n{\"st\":{}}\n{\"st\":{\"y\":1}}\n{\"id\":1,\"i32\":2}\n"
      "{\"i32\":2,\"id\":1}\n{ \"id\":1}\n{\"id\": 1,\"i32\": 2,\"st\": null}\n"
      "{\"id\":1,\"i32\":2,\"st\":{\"x\":3,\"y\":4.5}\t}\n"
      "{\"id\": 1, \"i32\": 2, \"st\": {\"x\": 3, \"y\": 4.5}}\n"
      "{\"id\": 1,\"i32\":2, \"st\":  {\"x\":3, \"y\" : 4.5}}\n";
  int64_t rows = 0;
  ASSERT_TRUE(ScannerTakes(text, o.schema, &rows));
  EXPECT_EQ(rows, 14);
  auto t = ExpectOnEqualsOff(text, o);
  ASSERT_NE(t, nullptr);
  ExpectTablesEqual(*t, *MakeTable(o.schema, {"[1, 1, 1, 1, null, null, null, 1, 1, 1, 1, 1, 1, 1]",
                                              "[2, 2, 2, null, 2, null, null, 2, 2, null, 2, 2, 2, 2]",
                                              "[{\"x\": 3, \"y\": 4.5}, {\"x\": 3, \"y\": 4.5}, "
                                              "{\"x\": 3, \"y\": 4.5}, null, null, "
                                              "{\"x\": null, \"y\": null}, {\"x\": null, \"y\": 1}, "
                                              "null, null, null, null, {\"x\": 3, \"y\": 4.5}, "
                                              "{\"x\": 3, \"y\": 4.5}, {\"x\": 3, \"y\": 4.5}]"}));
}

TEST(JsonlScanner, NotNullableFields) {
  ReadOptions o;
  o.schema = schema({field("a", int64(), false), field("s", struct_({field("x", utf8(), false)}))});
  ASSERT_TRUE(ScannerTakes("{\"a\": 1, \"s\": {\"x\": \"y\"}}\n{\"a\": 2, \"s\": null}\n", o.schema));
  ExpectOnEqualsOff("{\"a\": 1, \"s\": {\"x\": \"y\"}}\n{\"a\": 2, \"s\": null}\n", o);
  for (const char* text : {"{\"a\": 1}\n{\"s\": {\"x\": \"y\"}}\n", "{\"a\": null}\n",
                           "{\"a\": 1, \"s\": {}}\n", "{\"a\": 1, \"s\": {\"x\": null}}\n"}) {
    EXPECT_FALSE(ScannerTakes(text, o.schema)) << text;
    auto on = Read(text, o, true);
    auto off = Read(text, o, false);
    ASSERT_FALSE(on.ok()) << text;
    ASSERT_FALSE(off.ok()) << text;
    EXPECT_EQ(on.status().message(), off.status().message());
  }
}

// Wide objects (more than 64 fields: the seen-fields test uses the node's
// stamps) and repeated names in the schema.
TEST(JsonlScanner, WideObjectsAndRepeatedNames) {
  FieldVector fields;
  std::string line = "{", reversed;
  for (int i = 0; i < 70; ++i) {
    fields.push_back(field("k" + std::to_string(i), int32()));
    line += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":" + std::to_string(i));
  }
  line += "}";
  ReadOptions o;
  o.schema = schema(fields);
  const std::string text = line + "\n{\"k69\": 1, \"k3\": 2}\n{}\n";
  ASSERT_TRUE(ScannerTakes(text, o.schema));
  ExpectOnEqualsOff(text, o);
  EXPECT_FALSE(ScannerTakes("{\"k5\": 1, \"k5\": 2}\n", o.schema));
  ExpectOnEqualsOff("{\"k5\": 1, \"k5\": 2}\n", o);
  o.schema = schema({field("a", int64()), field("a", int64())});
  for (const char* t : {"{\"a\": 1, \"a\": 2}\n", "{\"a\": 1}\n", "{\"a\": 1, \"a\": 2, \"a\": 3}\n"}) {
    ExpectOnEqualsOff(t, o);
  }
}

}  // namespace
}  // namespace alkaid::jsonl
