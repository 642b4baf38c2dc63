// Differential tests of the CSV reader's fast paths against its general
// ones: the tokenizer at every fast-path level (off, baseline masks, AVX2
// and AVX-512 masks where the CPU has them) on random CSV, and the column converters' fast
// parsers on random and edge values against the general text parsers.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alkaid/csv/api.h"
#include "src/csv/csv_test_helpers.h"
#include "src/text/text_values.h"
#include "src/csv/tokenizer.h"

namespace alkaid::csv {
namespace {

using internal::BlockError;
using internal::FieldRef;
using internal::TokenizeOptions;
using internal::Tokens;
using test::Col;
using test::Read;

struct TokenizeResult {
  bool ok = false;
  Tokens tokens;
  BlockError error;
};

// Tokenizes text[begin, size) from a buffer whose bytes past `size` (up to
// the next multiple of 64 and beyond) hold `junk`, as a block buffer may.
TokenizeResult RunTokenizer(const std::string& text, int64_t begin, const TokenizeOptions& o,
                            int64_t max_rows, int preset_columns, char junk) {
  std::vector<char> buf(text.size() + 192, junk);
  std::memcpy(buf.data(), text.data(), text.size());
  TokenizeResult r;
  r.tokens.num_columns = preset_columns;
  r.ok = internal::Tokenize(buf.data(), begin, static_cast<int64_t>(text.size()), o, max_rows,
                            &r.tokens, &r.error);
  return r;
}

std::string Describe(const Tokens& t) {
  std::string s = "cols " + std::to_string(t.num_columns) + " rows " + std::to_string(t.num_rows) +
                  " end " + std::to_string(t.end) + " lines " + std::to_string(t.lines) + " fields";
  for (const FieldRef& f : t.fields) s += " " + std::to_string(f.start) + ":" + std::to_string(f.bits);
  // Line numbers by row (the paths may record the same ones in different
  // extra_lines entries).
  s += " lines by row";
  for (int64_t r = 0; r < t.num_rows; ++r) s += " " + std::to_string(t.LineDelta(r));
  return s;
}

// Random CSV: plain records mostly (long runs of them, so the fast path
// takes whole chunks), with quoted fields (delimiters, doubled quotes, LF
// and CRLF inside), empty fields, CRLF and lone CR line ends, empty lines,
// records of another width, stray quotes and unclosed quotes sometimes.
std::string RandomCsvText(std::mt19937_64& rng, int columns, bool malformed) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  std::string s;
  const int rows = 1 + pick(120);
  const int odd_rate = 1 + pick(40);  // records per odd one
  for (int r = 0; r < rows; ++r) {
    const bool odd = pick(odd_rate) == 0;
    int width = columns;
    if (odd && malformed && pick(4) == 0) width = std::max(1, columns + pick(3) - 1);
    for (int c = 0; c < width; ++c) {
      if (c > 0) s += ',';
      switch (odd ? pick(9) : 6 + pick(3)) {
        case 0: s += "\"a,b\"\"c\nd\r\ne\""; break;
        case 1: s += "\"\""; break;
        case 2: s += "\"" + std::string(static_cast<size_t>(pick(90)), 'q') + "\""; break;
        case 3: s += malformed && pick(3) == 0 ? "x\"y" : "xy"; break;
        case 4: s += malformed && pick(3) == 0 ? "\"ab\"c" : "\"ab\""; break;
        case 5: s += std::string(static_cast<size_t>(pick(100)), static_cast<char>('a' + pick(26))); break;
        case 6: break;  // empty
        default: s += std::to_string(rng() >> pick(64)); break;
      }
    }
    if (r + 1 == rows && pick(3) == 0) break;  // no final line end
    static const char* kEnds[] = {"\n", "\n", "\n", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n"};
    s += odd ? kEnds[pick(8)] : "\n";
  }
  if (malformed && pick(10) == 0) s += "\"never closed,";
  return s;
}

TEST(CsvFastPaths, TokenizerLevelsAgreeWithTheGeneralPath) {
  std::mt19937_64 rng(4242);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  int compared = 0, with_errors = 0;
  for (int round = 0; round < 3000; ++round) {
    const int columns = 1 + pick(6);
    const bool malformed = pick(3) == 0;
    std::string text = RandomCsvText(rng, columns, malformed);
    TokenizeOptions o;
    o.ignore_empty_lines = pick(4) != 0;
    o.fill_missing = pick(3) == 0;
    if (pick(8) == 0) o.quote = '\0';
    const int64_t begin = text.empty() ? 0 : pick(3) == 0 ? pick(static_cast<int>(text.size())) : 0;
    const int64_t max_rows = pick(4) == 0 ? 1 + pick(50) : INT64_MAX;
    const int preset = pick(2) == 0 ? columns : -1;
    const char junk = ",\n\"\r0"[pick(5)];
    o.fast_path = 0;
    TokenizeResult want = RunTokenizer(text, begin, o, max_rows, preset, junk);
    for (int level : {1, 2, 3}) {
      o.fast_path = level;
      TokenizeResult got = RunTokenizer(text, begin, o, max_rows, preset, junk);
      ASSERT_EQ(got.ok, want.ok) << "level " << level << " text:\n" << text;
      if (!want.ok) {
        ASSERT_EQ(got.error.status.message(), want.error.status.message()) << text;
        ASSERT_EQ(got.error.line_delta, want.error.line_delta) << text;
        continue;
      }
      ASSERT_EQ(Describe(got.tokens), Describe(want.tokens)) << "level " << level << " text:\n" << text;
    }
    ++compared;
    with_errors += !want.ok;
  }
  EXPECT_GT(with_errors, 50);
  EXPECT_GT(compared - with_errors, 1500);
}

// Long plain runs: the fast path at each level ends exactly where the
// general one does, whatever the chunk alignment, max_rows and a record of
// another width or a quote at any position.
TEST(CsvFastPaths, TokenizerLevelsAgreeOnLongPlainRuns) {
  std::mt19937_64 rng(77);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const int rows = 50 + pick(400);
    for (int r = 0; r < rows; ++r) {
      text += std::to_string(rng() >> pick(64)) + "," + std::string(static_cast<size_t>(pick(20)), 'z') + "," +
              (pick(20) == 0 ? "" : "2024-01-02T03:04:05.678") + "\n";
    }
    const size_t at = static_cast<size_t>(pick(static_cast<int>(text.size())));
    switch (pick(5)) {
      case 0: text.insert(at, "\""); break;
      case 1: text.insert(at, ","); break;
      case 2: text.insert(at, "\r"); break;
      case 3: text.insert(at, "\n"); break;
      default: break;
    }
    TokenizeOptions o;
    o.fill_missing = pick(2) == 0;
    const int64_t max_rows = pick(3) == 0 ? pick(rows) + 1 : INT64_MAX;
    o.fast_path = 0;
    TokenizeResult want = RunTokenizer(text, 0, o, max_rows, 3, '\n');
    for (int level : {1, 2, 3}) {
      o.fast_path = level;
      TokenizeResult got = RunTokenizer(text, 0, o, max_rows, 3, '\n');
      ASSERT_EQ(got.ok, want.ok) << text;
      if (want.ok) {
        ASSERT_EQ(Describe(got.tokens), Describe(want.tokens)) << "level " << level;
      } else {
        ASSERT_EQ(got.error.status.message(), want.error.status.message());
        ASSERT_EQ(got.error.line_delta, want.error.line_delta);
      }
    }
  }
}

// Texts for the value test: random and edge values of each type.
std::vector<std::string> IntTexts(std::mt19937_64& rng) {
  std::vector<std::string> v = {
      "0", "-0", "+0", "00000000000000000000", "-00000000000000000001", "9223372036854775807",
      "-9223372036854775808", "9223372036854775806", "-9223372036854775807", "1000000000000000000",
      "999999999999999999", "-999999999999999999", "1234567890123456", "12345678901234567",
      "123456789012345678", "1234567890123456789", "0000000000000000012", "+12345678", "-12345678",
      "12345678", "123456789", "1", "-1", "99999999", "100000000", "0000000012345678"};
  for (int i = 0; i < 4000; ++i) {
    int digits = 1 + static_cast<int>(rng() % 19);
    std::string s = rng() % 3 == 0 ? "-" : rng() % 10 == 0 ? "+" : "";
    for (int d = 0; d < digits; ++d) s += static_cast<char>('0' + rng() % 10);
    v.push_back(s);
  }
  return v;
}

std::vector<std::string> DoubleTexts(std::mt19937_64& rng) {
  std::vector<std::string> v = {
      "0", "-0", "0.0", "-0.0", "+1.5", "1e22", "1e23", "-1e-22", "4.9e-324", "2.2250738585072011e-308",
      "2.2250738585072014e-308", "1.7976931348623157e308", "9007199254740993", "9007199254740992.5",
      "123456789012345678901234567890", "0.1", "0.30000000000000004", "1234567.1234567",
      "12345678.12345678", "99999999.99999999", "00001.5000", "1.", "1.0e0", "7E-3", ".5",
      "123456789.5", "0.000000001", "1234567890123456789"};
  for (int i = 0; i < 4000; ++i) {
    std::string s = rng() % 3 == 0 ? "-" : "";
    int ip = 1 + static_cast<int>(rng() % 12), fp = static_cast<int>(rng() % 12);
    for (int d = 0; d < ip; ++d) s += static_cast<char>('0' + rng() % 10);
    if (fp > 0) {
      s += '.';
      for (int d = 0; d < fp; ++d) s += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 8 == 0) s += "e" + std::to_string(static_cast<int>(rng() % 60) - 30);
    v.push_back(s);
  }
  return v;
}

std::vector<std::string> TimestampTexts(std::mt19937_64& rng) {
  std::vector<std::string> v = {"1899-12-31T23:59:59.999", "1900-01-01T00:00:00", "1900-02-28 12:00:00.5",
                                "2000-02-29T00:00:00.123456", "2100-02-28T23:59:59.999999999",
                                "2155-12-31T23:59:59.001", "2156-01-01T00:00:00.000", "1970-01-01T00:00:00",
                                "1969-12-31T23:59:59.999", "0000-01-01T00:00:00", "9999-12-31T23:59:59.999",
                                "2024-01-02T03:04:05.6789", "2024-01-02T03:04:05.1234567",
                                "2024-01-02T03:04:05.000000", "2024-01-02T03:04:05.000001000"};
  for (int i = 0; i < 4000; ++i) {
    char buf[64];
    const int year = rng() % 8 == 0 ? static_cast<int>(rng() % 10000) : 1880 + static_cast<int>(rng() % 300);
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d", year, 1 + static_cast<int>(rng() % 12),
                  1 + static_cast<int>(rng() % 28), static_cast<int>(rng() % 24), static_cast<int>(rng() % 60),
                  static_cast<int>(rng() % 60));
    std::string s = buf;
    const int frac = static_cast<int>(rng() % 10);
    if (frac > 0) {
      s += '.';
      for (int d = 0; d < frac; ++d) s += static_cast<char>('0' + (rng() % 3 == 0 ? 0 : rng() % 10));
    }
    v.push_back(s);
  }
  // The 23-byte millisecond layout (its own fast path): every day of every
  // month (the ends of months and February 29th), years around the table's
  // ends, each separator, and one byte changed in a quarter of them.
  const char kSeparators[] = {'T', 't', ' '};
  const char kOddBytes[] = {'/', ':', '.', '-', 'a', 'Z', ' ', '0' - 1, '9' + 1, '\x80'};
  for (int i = 0; i < 6000; ++i) {
    char buf[64];
    const int year = rng() % 4 == 0 ? 1895 + static_cast<int>(rng() % 10)
                                    : rng() % 4 == 0 ? 2150 + static_cast<int>(rng() % 10)
                                                     : 1900 + static_cast<int>(rng() % 256);
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d%c%02d:%02d:%02d.%03d", year, static_cast<int>(rng() % 14),
                  static_cast<int>(rng() % 33), kSeparators[rng() % 3], static_cast<int>(rng() % 25),
                  static_cast<int>(rng() % 61), static_cast<int>(rng() % 61), static_cast<int>(rng() % 1000));
    std::string s = buf;
    if (rng() % 4 == 0) s[rng() % s.size()] = kOddBytes[rng() % sizeof(kOddBytes)];
    v.push_back(s);
  }
  return v;
}

// Each text read through a one-column CSV of the type (the converters'
// fast parsers, fields padded by the block) must give the general parser's
// value, or a read error where the general parser refuses it.
template <typename C, typename Ref>
void CheckColumn(const DataTypePtr& type, const std::vector<std::string>& texts, Ref ref) {
  std::vector<std::string> ok_texts;
  std::vector<C> want;
  for (const std::string& s : texts) {
    C v{};
    if (ref(s, &v)) {
      ok_texts.push_back(s);
      want.push_back(v);
    } else {
      ReadOptions o;
      o.column_types = {{"v", type}};
      EXPECT_FALSE(ReadString("v\n" + s + "\n", o).ok()) << type->ToString() << " took \"" << s << "\"";
    }
  }
  std::string csv = "v\n";
  for (const std::string& s : ok_texts) csv += s + "\n";
  for (int64_t block : {int64_t{100}, int64_t{1} << 20}) {
    ReadOptions o;
    o.block_size = block;
    o.column_types = {{"v", type}};
    auto t = Read(csv, o);
    ASSERT_NE(t, nullptr) << type->ToString();
    ASSERT_EQ(t->num_rows(), static_cast<int64_t>(want.size()));
    auto col = Col(t, 0);
    const C* got = reinterpret_cast<const C*>(col->buffers[1]->data()) + col->offset;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_TRUE(col->IsValid(static_cast<int64_t>(i)));
      ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(C)), 0)
          << type->ToString() << " \"" << ok_texts[i] << "\"";
    }
  }
}

TEST(CsvFastPaths, ConvertersAgreeWithGeneralParsers) {
  std::mt19937_64 rng(1313);
  CheckColumn<int64_t>(int64(), IntTexts(rng), [](const std::string& s, int64_t* v) {
    // std::from_chars takes no '+'.
    std::string_view body = s;
    if (!body.empty() && body[0] == '+') body.remove_prefix(1);
    if (body.empty() || (body[0] == '-' && s[0] == '+')) return false;
    auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), *v);
    return ec == std::errc() && end == body.data() + body.size();
  });
  CheckColumn<double>(float64(), DoubleTexts(rng), [](const std::string& s, double* v) {
    return text::ParseDouble(s, v);
  });
  for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    CheckColumn<int64_t>(timestamp(unit), TimestampTexts(rng), [unit](const std::string& s, int64_t* v) {
      text::TimestampText ts;
      return text::ParseTimestampGeneral(s, &ts) && !ts.has_zone && text::TimestampToUnit(ts, unit, v);
    });
  }
}

// The general double parser itself against from_chars on the edge texts
// (the reader's fast path is compared with it above).
TEST(CsvFastPaths, DoubleEdgesMatchFromChars) {
  std::mt19937_64 rng(5);
  for (const std::string& s : DoubleTexts(rng)) {
    double want = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), want);
    if (ec != std::errc() || end != s.data() + s.size()) continue;
    double got = 0;
    ASSERT_TRUE(text::ParseDouble(s, &got)) << s;
    ASSERT_EQ(std::memcmp(&got, &want, 8), 0) << s;
  }
}

}  // namespace
}  // namespace alkaid::csv
