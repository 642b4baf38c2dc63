// The CSV reader across block boundaries and threads, against references:
// tiny blocks and several threads give the same table; the fast paths and
// the general one agree on random records; the tokenizer agrees with a
// scalar RFC 4180 reference at every block size; recycled block buffers;
// the order of batches and errors in the streaming pipeline.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "alkaid/csv/api.h"
#include "src/csv/csv_test_helpers.h"
#include "src/text/text_values.h"

namespace alkaid::csv {
namespace {

using ::testing::HasSubstr;
using test::Col;
using test::Read;
using test::ReadError;

// Records with quotes, line breaks and doubled quotes everywhere, read with
// blocks far smaller than a record, on several threads: same table.
TEST(CsvReader, TinyBlocksAndThreadsGiveTheSameTable) {
  std::mt19937 rng(42);
  std::string text = "id,s,v\n";
  for (int i = 0; i < 2000; ++i) {
    text += std::to_string(i) + ",";
    switch (rng() % 5) {
      case 0: text += "\"a,b\""; break;
      case 1: text += "\"x\ny\r\nz\""; break;
      case 2: text += "\"q\"\"q\"\"\""; break;
      case 3: text += "plain"; break;
      default: text += ""; break;
    }
    text += "," + std::to_string(i * 0.25) + (i % 3 == 0 ? "\r\n" : "\n");
  }
  auto reference = Read(text);
  ASSERT_EQ(reference->num_rows(), 2000);
  for (int64_t block : {1, 7, 64, 1000}) {
    for (int threads : {1, 2, 4}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.inference_rows = 10;
      auto t = Read(text, o);
      ASSERT_NE(t, nullptr);
      EXPECT_TRUE(t->Equals(*reference)) << "block " << block << " threads " << threads;
    }
  }
  // An error far into the input still names the right line.
  std::string broken = text + "2000,\"a\"b,1\n";
  for (int threads : {1, 3}) {
    ReadOptions o;
    o.block_size = 33;
    o.num_threads = threads;
    Status st = ReadError(broken, o);
    size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    EXPECT_THAT(st.message(), HasSubstr("CSV line " + std::to_string(lines + 1) + ":"));
  }
}


// Cells with the value they must read as, for the reader test below.
struct Cells {
  std::string text;
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<double>> doubles;
  std::vector<std::optional<int64_t>> stamps;
  std::vector<std::optional<std::string>> strings;
};

Cells RandomCsv(std::mt19937_64& rng, int rows, bool crlf_sometimes) {
  Cells c;
  c.text = "i,d,ts,s\n";
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  for (int r = 0; r < rows; ++r) {
    // int64: limits, long and short numbers, signs, leading zeros, quotes.
    std::string it;
    std::optional<int64_t> iv;
    switch (pick(9)) {
      case 0: iv = INT64_MAX; it = std::to_string(*iv); break;
      case 1: iv = INT64_MIN; it = std::to_string(*iv); break;
      case 2: it = ""; break;
      case 3: iv = static_cast<int64_t>(rng() >> (1 + pick(63))); it = "+" + std::to_string(*iv); break;
      case 4: iv = pick(1000); it = "000" + std::to_string(*iv); break;
      case 5: iv = -static_cast<int64_t>(rng() >> (1 + pick(63))); it = "\"" + std::to_string(*iv) + "\""; break;
      case 6: it = "NA"; break;
      default: iv = static_cast<int64_t>(rng() >> (1 + pick(63))) * (pick(2) ? 1 : -1); it = std::to_string(*iv); break;
    }
    // float64: plain decimals of any length, exponents, signed zero.
    std::string dt;
    std::optional<double> dv;
    switch (pick(6)) {
      case 0: dt = ""; break;
      case 1: dt = "-0.0"; break;
      case 2: dt = std::to_string(pick(100000)) + "e" + std::to_string(pick(40) - 20); break;
      default: {
        dt = (pick(3) == 0 ? "-" : "") + std::to_string(rng() >> pick(64));
        if (pick(4) != 0) {
          dt += '.';
          for (int i = pick(12) + 1; i > 0; --i) dt += static_cast<char>('0' + pick(10));
        }
      }
    }
    if (!dt.empty()) {
      double v = 0;
      std::from_chars(dt.data(), dt.data() + dt.size(), v);
      dv = v;
    }
    // timestamp[ms]: the fixed layout and general-only forms.
    std::string tt;
    std::optional<int64_t> tv;
    if (pick(10) != 0) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d%c%02d:%02d:%02d", 1900 + pick(200), 1 + pick(12),
                    1 + pick(28), pick(2) ? 'T' : ' ', pick(24), pick(60), pick(60));
      tt = buf;
      switch (pick(4)) {
        case 0: tt += "." + std::to_string(100 + pick(900)); break;
        case 1: tt += ".5"; break;
        case 2: tt = tt.substr(0, 16); break;  // no seconds: general parser only
        default: break;
      }
      text::TimestampText ts;
      int64_t v = 0;
      EXPECT_TRUE(text::ParseTimestampGeneral(tt, &ts) && text::TimestampToUnit(ts, TimeUnit::kMilli, &v)) << tt;
      tv = v;
    }
    // utf8: plain, quoted with delimiters, doubled quotes and line breaks.
    std::string st;
    std::optional<std::string> sv;
    switch (pick(6)) {
      case 0: st = ""; break;
      case 1: sv = "a,b\nc"; st = "\"a,b\nc\""; break;
      case 2: sv = "q\"q"; st = "\"q\"\"q\""; break;
      case 3: sv = ""; st = "\"\""; break;
      default: sv = std::string(static_cast<size_t>(1 + pick(39)), static_cast<char>('a' + pick(26))); st = *sv; break;
    }
    c.text += it + "," + dt + "," + tt + "," + st;
    c.text += crlf_sometimes && pick(5) == 0 ? "\r\n" : "\n";
    if (pick(50) == 0) c.text += "\n";  // an empty line, skipped
    c.ints.push_back(iv);
    c.doubles.push_back(dv);
    c.stamps.push_back(tv);
    c.strings.push_back(sv);
  }
  return c;
}

TEST(CsvReader, FastPathsAgreeWithExpectedValues) {
  // The tokenizer's fast path (plain records) and the converters' fast
  // parsers against values computed independently, across block sizes that
  // cut records (and quoted fields) anywhere, with 1 and 2 threads.
  std::mt19937_64 rng(7);
  for (bool crlf : {false, true}) {
    Cells c = RandomCsv(rng, 3000, crlf);
    for (int64_t block : {int64_t{61}, int64_t{997}, int64_t{1} << 20}) {
      for (int threads : {1, 2}) {
        ReadOptions o;
        o.block_size = block;
        o.num_threads = threads;
        o.column_types = {{"i", int64()}, {"d", float64()}, {"ts", timestamp(TimeUnit::kMilli)},
                          {"s", utf8()}};
        auto t = Read(c.text, o);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->num_rows(), static_cast<int64_t>(c.ints.size()));
        auto i = Col(t, 0), d = Col(t, 1), ts = Col(t, 2), s = Col(t, 3);
        const auto* iv = reinterpret_cast<const int64_t*>(i->buffers[1]->data()) + i->offset;
        const auto* dv = reinterpret_cast<const double*>(d->buffers[1]->data()) + d->offset;
        const auto* tv = reinterpret_cast<const int64_t*>(ts->buffers[1]->data()) + ts->offset;
        const auto* so = reinterpret_cast<const int32_t*>(s->buffers[1]->data()) + s->offset;
        const char* sb = reinterpret_cast<const char*>(s->buffers[2]->data());
        for (size_t r = 0; r < c.ints.size(); ++r) {
          auto at = [&] { return "row " + std::to_string(r) + " block " + std::to_string(block) +
                                 " threads " + std::to_string(threads); };
          int64_t k = static_cast<int64_t>(r);
          ASSERT_EQ(i->IsValid(k), c.ints[r].has_value()) << at();
          if (c.ints[r]) {
            ASSERT_EQ(iv[r], *c.ints[r]) << at();
          }
          ASSERT_EQ(d->IsValid(k), c.doubles[r].has_value()) << at();
          if (c.doubles[r]) {
            ASSERT_EQ(std::memcmp(&dv[r], &*c.doubles[r], 8), 0) << at();
          }
          ASSERT_EQ(ts->IsValid(k), c.stamps[r].has_value()) << at();
          if (c.stamps[r]) {
            ASSERT_EQ(tv[r], *c.stamps[r]) << at();
          }
          ASSERT_EQ(s->IsValid(k), c.strings[r].has_value()) << at();
          if (c.strings[r]) {
            ASSERT_EQ(std::string_view(sb + so[r], static_cast<size_t>(so[r + 1] - so[r])), *c.strings[r]) << at();
          }
        }
      }
    }
  }
}

TEST(CsvReader, FastPathHandsOddRecordsToTheGeneralOne) {
  // Plain records around ones the fast path must give back: too many or too
  // few fields (errors naming the line), a quote in the middle, a lone CR.
  std::string plain;
  for (int r = 0; r < 200; ++r) plain += std::to_string(r) + ",x" + std::to_string(r) + "\n";
  ReadOptions typed;
  typed.column_types = {{"a", int64()}};
  EXPECT_THAT(ReadError("a,b\n" + plain + "1,2,3\n" + plain, typed).message(),
              HasSubstr("CSV line 202: a record has more than 2 fields"));
  EXPECT_THAT(ReadError("a,b\n" + plain + "1\n" + plain, typed).message(),
              HasSubstr("CSV line 202: a record has 1 field where 2 were expected"));
  auto t = Read("a,b\n" + plain + "7,\"q,\"\"r\"\n8,s\r9,t\n" + plain, typed);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->num_rows(), 403);
  auto a = Col(t, 0), b = Col(t, 1);
  const auto* av = reinterpret_cast<const int64_t*>(a->buffers[1]->data()) + a->offset;
  const auto* bo = reinterpret_cast<const int32_t*>(b->buffers[1]->data()) + b->offset;
  const char* bb = reinterpret_cast<const char*>(b->buffers[2]->data());
  std::vector<int64_t> want_a = {198, 199, 7, 8, 9, 0};
  std::vector<std::string> want_b = {"x198", "x199", "q,\"r", "s", "t", "x0"};
  for (size_t k = 0; k < want_a.size(); ++k) {
    EXPECT_EQ(av[198 + k], want_a[k]) << k;
    EXPECT_EQ(std::string(bb + bo[198 + k], static_cast<size_t>(bo[199 + k] - bo[198 + k])), want_b[k]) << k;
  }
}



// A scalar RFC 4180 reference: records of fields, quotes removed, doubled
// quotes collapsed, CRLF / LF / lone CR ending records, empty lines skipped.
std::vector<std::vector<std::string>> ReferenceCsv(const std::string& s) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  size_t i = 0;
  bool any = false;  // the record under way has some byte
  while (i < s.size()) {
    char c = s[i];
    if (c == '"' && field.empty()) {
      ++i;
      while (true) {
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += s[i++];
      }
      any = true;
      continue;
    }
    if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
      ++i;
      continue;
    }
    if (c == '\n' || c == '\r') {
      i += (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      if (any) {
        row.push_back(field);
        rows.push_back(row);
      }
      row.clear();
      field.clear();
      any = false;
      continue;
    }
    field += c;
    any = true;
    ++i;
  }
  if (any) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

// The tokenizer's vector fast path (64-byte masks) and its general path
// against the scalar reference, on random records of quoted and unquoted
// fields (delimiters, quotes and line breaks inside quotes, CRLF, lone CR,
// empty lines, no final line end), with the input cut into blocks at every
// possible size, on 1 and 2 threads.
TEST(CsvReader, TokenizerAgreesWithScalarReferenceAtEveryBlockSize) {
  std::mt19937_64 rng(99);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  for (int round = 0; round < 6; ++round) {
    std::string text = "a,b,c\n";
    int rows = 4 + pick(12);
    for (int r = 0; r < rows; ++r) {
      for (int f = 0; f < 3; ++f) {
        if (f > 0) text += ',';
        switch (pick(7)) {
          case 0: break;  // empty
          case 1: text += "\"" + std::string(static_cast<size_t>(pick(70)), 'w') + "\""; break;
          case 2: text += "\"x,\"\"y\"\"\nz\r\n\""; break;
          case 3: text += "\"\""; break;
          default: text += std::string(static_cast<size_t>(1 + pick(80)), static_cast<char>('k' + pick(8))); break;
        }
      }
      if (r + 1 == rows && round % 2 == 1) break;  // no final line end
      static const char* kEnds[] = {"\n", "\n", "\r\n", "\n\n"};
      text += kEnds[pick(4)];
    }
    auto want = ReferenceCsv(text);
    ASSERT_GE(want.size(), 2u);
    for (int64_t block = 1; block <= static_cast<int64_t>(text.size()) + 1; ++block) {
      for (int threads : {1, 2}) {
        ReadOptions o;
        o.block_size = block;
        o.num_threads = threads;
        o.null_values = {};
        o.column_types = {{"a", utf8()}, {"b", utf8()}, {"c", utf8()}};
        auto t = Read(text, o);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->num_rows(), static_cast<int64_t>(want.size() - 1)) << "block " << block;
        for (int c = 0; c < 3; ++c) {
          auto col = Col(t, c);
          const auto* off = reinterpret_cast<const int32_t*>(col->buffers[1]->data()) + col->offset;
          const char* bytes = reinterpret_cast<const char*>(col->buffers[2]->data());
          for (size_t r = 1; r < want.size(); ++r) {
            std::string got(bytes + off[r - 1], static_cast<size_t>(off[r] - off[r - 1]));
            ASSERT_EQ(got, want[r][static_cast<size_t>(c)])
                << "row " << r << " column " << c << " block " << block << " threads " << threads;
          }
        }
      }
    }
  }
}

// A block cut at the end of the input lands in a buffer that held an
// earlier block: the fast number parsers read a few bytes past the last
// field, and must not take the old bytes there for more digits.
TEST(CsvReader, LastFieldWithoutLineEndIgnoresRecycledBytes) {
  std::string text = "x,n\n";
  for (int i = 0; i < 3000; ++i) text += "2.5,1234567\n";
  text += "3,12";  // no final line end; old digits would follow in the buffer
  for (int threads : {1, 2}) {
    for (int64_t block : {int64_t{64}, int64_t{1000}, int64_t{4096}}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.column_types = {{"n", int64()}, {"x", float64()}};
      auto t = Read(text, o);
      ASSERT_NE(t, nullptr);
      ASSERT_EQ(t->num_rows(), 3001);
      auto x = Col(t, 0), n = Col(t, 1);
      EXPECT_EQ(reinterpret_cast<const int64_t*>(n->buffers[1]->data())[n->offset + 3000], 12);
      EXPECT_EQ(reinterpret_cast<const double*>(x->buffers[1]->data())[x->offset + 3000], 3.0);
    }
  }
}

// The streaming pipeline: the batches of the blocks before a bad record come
// out first, in order, then the error, which sticks; a reader dropped half way (helper
// threads still loading and parsing) stops cleanly.
TEST(CsvReader, PipelineErrorsComeInOrderAndReadersStopHalfWay) {
  std::string text = "n\n";
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + "\n";
  std::string bad = text + "x\n" + text.substr(2);
  for (int threads : {2, 3, 4}) {
    ReadOptions o;
    o.block_size = 64;
    o.num_threads = threads;
    o.column_types = {{"n", int64()}};
    auto reader = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(bad)), o);
    int64_t expect = 0;
    Status st;
    while (true) {
      auto b = reader->Next();
      if (!b.ok()) {
        st = b.status();
        break;
      }
      ASSERT_NE(*b, nullptr) << "the bad record was never reported";
      auto col = (*b)->column(0);
      for (int64_t i = 0; i < (*b)->num_rows(); ++i) {
        ASSERT_EQ(static_cast<const Int64Array&>(*col).Value(i), expect++);
      }
    }
    // Every batch before the block holding the bad record (64-byte blocks:
    // a few records each).
    EXPECT_LE(expect, 3000) << threads;
    EXPECT_GE(expect, 2980) << threads;
    EXPECT_THAT(st.message(), HasSubstr("CSV line 3002"));
    auto again = reader->Next();
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.status().message(), st.message());
    for (int taken = 0; taken < 3; ++taken) {
      auto half = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(text)), o);
      for (int k = 0; k < taken; ++k) ASSERT_TRUE(half->Next().ok());
    }  // destroyed with blocks in flight
  }
}

}  // namespace
}  // namespace alkaid::csv
