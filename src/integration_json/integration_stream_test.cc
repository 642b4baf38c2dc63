// Integration JSON written and read without documents: the text writer lays
// values out exactly as nlohmann's dump does; the pull parser is as strict as
// nlohmann's parser, whatever the chunking; the reader takes members in any
// order and yields one batch at a time.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alkaid/integration_json/integration.h"
#include "integration_internal.h"
#include "json_pull_parser.h"
#include "json_text_writer.h"
#include "test_util/test_data.h"

namespace alkaid::integration_json {
namespace {

namespace fs = std::filesystem;
using internal::JsonPullParser;
using internal::JsonToken;
using internal::OrderedJson;
using ::testing::HasSubstr;

class StringSink final : public io::OutputStream {
 public:
  Status Write(const void* data, int64_t nbytes) override {
    text.append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return static_cast<int64_t>(text.size()); }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }
  std::string text;
};

std::string WriteDom(const OrderedJson& value) {
  StringSink sink;
  internal::JsonTextWriter writer(&sink);
  EXPECT_TRUE(writer.Dom(value).ok());
  EXPECT_TRUE(writer.Flush().ok());
  return sink.text;
}

// ---------------------------------------------------------------------------
// Text writer

TEST(JsonTextWriter, LaysOutValuesAsNlohmannDumps) {
  std::string every_byte;
  for (int c = 1; c < 0x80; ++c) every_byte.push_back(static_cast<char>(c));
  OrderedJson doc = OrderedJson::object();
  doc["ascii"] = every_byte;
  doc["unicode"] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf";
  doc["nul"] = std::string("a\0b", 3);
  doc["empty_string"] = "";
  doc["empty_array"] = OrderedJson::array();
  doc["empty_object"] = OrderedJson::object();
  doc["ints"] = {0, -1, 1, INT64_MIN, INT64_MAX};
  doc["uint"] = UINT64_MAX;
  doc["doubles"] = {0.0, -0.0, 0.1, 1.0, -2.5, 1e21, 1e22, 1e-5, 1e-7, 123456789012345678.0, 5e-324,
                    1.7976931348623157e308, 641.818, 3.4028234663852886e38, 1e15, 1e16, 1e17};
  doc["flags"] = {true, false, nullptr};
  doc["nested"] = {{{"a", {1, {{"b", OrderedJson::array()}}}}}, OrderedJson::object(), {1, 2}};
  doc["\xc3\xa9t\xc3\xa9 \"key\"\n"] = 1;
  EXPECT_EQ(WriteDom(doc), doc.dump(2, ' ', true));

  // Random doubles and strings, and strings longer than the buffer.
  std::mt19937_64 rng(42);
  OrderedJson values = OrderedJson::array();
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    if (std::isfinite(d)) values.push_back(d);
    values.push_back(static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) / 1000.0);
  }
  std::string long_text;
  for (int i = 0; i < 300000; ++i) long_text += (i % 7 == 0) ? "\xe2\x82\xac" : (i % 11 == 0 ? "\n" : "x");
  values.push_back(long_text);
  EXPECT_EQ(WriteDom(values), values.dump(2, ' ', true));
}

TEST(JsonTextWriter, RefusesTextThatIsNotUtf8) {
  StringSink sink;
  internal::JsonTextWriter writer(&sink);
  Status st = writer.String("ab\xff");
  EXPECT_TRUE(st.IsInvalid()) << st;
  EXPECT_THAT(st.message(), HasSubstr("not UTF-8"));
}

// ---------------------------------------------------------------------------
// Pull parser

// Hands the text out `n` bytes at a time, so every token can straddle chunks.
class SmallChunks final : public internal::TextSource {
 public:
  SmallChunks(std::string text, size_t n) : text_(std::move(text)), n_(n) {}
  Result<std::string_view> Next() override {
    std::string_view out = std::string_view(text_).substr(pos_, n_);
    pos_ += out.size();
    return out;
  }
  Status Seek(int64_t offset) override {
    pos_ = static_cast<size_t>(offset);
    return Status::OK();
  }

 private:
  std::string text_;
  size_t n_;
  size_t pos_ = 0;
};

// Every token of `text` as "kind:text", or the error.
std::string Tokens(internal::TextSource* source) {
  JsonPullParser parser(source, 64);
  std::string out;
  while (true) {
    JsonToken token;
    Status st = parser.Next(&token);
    if (!st.ok()) return out + "ERROR " + st.message();
    if (token == JsonToken::kEnd) return out;
    out += std::to_string(static_cast<int>(token));
    if (token == JsonToken::kKey || token == JsonToken::kString || token == JsonToken::kNumber)
      out += ":" + std::string(parser.text());
    out += " ";
  }
}

std::string TokensOf(const std::string& text, size_t chunk = 0) {
  if (chunk == 0) return Tokens(internal::MemoryText(text).get());
  SmallChunks source(text, chunk);
  return Tokens(&source);
}

TEST(JsonPullParser, SameTokensWhateverTheChunks) {
  const std::string text =
      "{\"a\": [1, -0, 2.5e-3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\\\"\"],\n"
      " \"long key with \xc3\xa9\": {\"n\": 123456789012345678901234567890}, \"e\": [], \"o\": {}}";
  const std::string whole = TokensOf(text);
  EXPECT_EQ(whole.find("ERROR"), std::string::npos) << whole;
  EXPECT_THAT(whole, HasSubstr("x\xc3\xa9\xf0\x9f\x98\x80\n\""));
  for (size_t chunk : {1, 2, 3, 5, 7, 64}) EXPECT_EQ(TokensOf(text, chunk), whole) << chunk;
}

TEST(JsonPullParser, IsAsStrictAsTheGrammar) {
  const char* bad[] = {
      "{\"a\": 1,}",       "[1 2]",          "{\"a\" 1}",         "{a: 1}",          "[01]",
      "[1.]",              "[.5]",           "[+1]",              "[-]",             "[1e]",
      "[\"abc]",           "[\"a\x01\"]",    "[\"\\x\"]",         "[\"\\ud800\"]",   "[\"\\udc00\"]",
      "[\"\\ud800\\u0041\"]", "[\"\\u12\"]", "[\"\xff\"]",        "[\"\xc0\x80\"]",  "[\"\xed\xa0\x80\"]",
      "[tru]",             "[NaN]",          "[Infinity]",        "[1] x",           "[1] [2]",
      "// c\n[1]",         "['a']",          "{\"a\": 1",         "",                "[1e400]"};
  for (const char* text : bad) {
    for (size_t chunk : {0, 1, 3}) {
      std::string tokens = TokensOf(text, chunk);
      if (std::string(text) == "[1e400]") {
        // The grammar allows it; reading it as a double does not.
        EXPECT_FALSE(internal::NumberAsDouble("1e400").ok());
        continue;
      }
      EXPECT_THAT(tokens, HasSubstr("ERROR integration JSON is not valid JSON")) << text << " / " << chunk;
    }
  }
  EXPECT_EQ(*internal::NumberAsDouble("1e-400"), 0.0);
  // Errors say where.
  EXPECT_THAT(TokensOf("{\"a\":\n  [1,, 2]}"), HasSubstr("line 2, column 6"));
}

TEST(JsonPullParser, NestingIsBoundedWithoutRecursion) {
  std::string deep(100000, '[');
  EXPECT_THAT(TokensOf(deep), HasSubstr("nested deeper than 64 levels"));
}

// ---------------------------------------------------------------------------
// Reader: members in any order

// `value` with the members of every object in reverse order.
OrderedJson Reversed(const OrderedJson& value) {
  if (value.is_array()) {
    OrderedJson out = OrderedJson::array();
    for (const auto& element : value) out.push_back(Reversed(element));
    return out;
  }
  if (!value.is_object()) return value;
  std::vector<std::pair<std::string, OrderedJson>> members;
  for (const auto& [key, member] : value.items()) members.emplace_back(key, Reversed(member));
  OrderedJson out = OrderedJson::object();
  for (auto it = members.rbegin(); it != members.rend(); ++it) out[it->first] = it->second;
  return out;
}

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("alkaid_stream_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::vector<std::string> GoldJsonFiles() {
  std::vector<std::string> out;
  std::string dir = testing::TestDataDir();
  if (dir.empty()) return out;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(dir) / "arrow-testing" / "integration")) {
    const std::string path = entry.path().string();
    if (path.size() > 8 && path.compare(path.size() - 8, 8, ".json.gz") == 0) out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every gold file read from text whose objects all list their members in
// reverse (batches before dictionaries before schema, "data" before "id",
// "columns" before "count", children and DATA before OFFSET and count):
// the same file comes out. Read from memory, from a file and from gzip, so
// that going back works on each source.
TEST(IntegrationJsonReader, ReadsMembersInAnyOrder) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  const auto files = GoldJsonFiles();
  ASSERT_GE(files.size(), 59u);
  int with_dictionaries = 0;
  for (const std::string& gold : files) {
    auto file = ReadIntegrationFile(gold);
    ASSERT_TRUE(file.ok()) << gold << ": " << file.status();
    auto canonical = WriteIntegrationJson(*file);
    ASSERT_TRUE(canonical.ok()) << gold << ": " << canonical.status();
    if (!file->dictionaries.empty()) ++with_dictionaries;
    const std::string reversed = Reversed(OrderedJson::parse(*canonical)).dump(1);

    auto from_text = ParseIntegrationJson(reversed);
    ASSERT_TRUE(from_text.ok()) << gold << ": " << from_text.status();
    auto again = WriteIntegrationJson(*from_text);
    ASSERT_TRUE(again.ok()) << gold;
    EXPECT_EQ(*again, *canonical) << gold;

    const std::string plain = TempPath("reversed.json");
    std::ofstream(plain, std::ios::binary) << reversed;
    const std::string gz = TempPath("reversed.json.gz");
    std::ofstream(gz, std::ios::binary) << *GzipCompress(reversed);
    for (const std::string& path : {plain, gz}) {
      auto reader = IntegrationJsonReader::OpenFile(path);
      ASSERT_TRUE(reader.ok()) << gold << ": " << reader.status();
      IntegrationFile read;
      read.schema = (*reader)->schema();
      read.dictionary_ids = (*reader)->dictionary_ids();
      read.dictionaries = (*reader)->dictionaries();
      while (true) {
        auto batch = (*reader)->Next();
        ASSERT_TRUE(batch.ok()) << gold << ": " << batch.status();
        if (*batch == nullptr) break;
        read.batches.push_back(*batch);
      }
      EXPECT_EQ((*reader)->num_batches_read(), static_cast<int64_t>(file->batches.size()));
      auto written = WriteIntegrationJson(read);
      ASSERT_TRUE(written.ok()) << gold;
      EXPECT_EQ(*written, *canonical) << gold << " from " << path;
    }
    fs::remove(plain);
    fs::remove(gz);
  }
  EXPECT_GT(with_dictionaries, 0);
}

const char* kTwoBatches = R"({"schema": {"fields": [{"name": "a", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []}]},
  "batches": [{"count": 1, "columns": [{"name": "a", "count": 1, "VALIDITY": [1], "DATA": [7]}]},
              {"count": 2, "columns": [{"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [8, 9]}]},
              {"count": 1, "columns": [{"name": "a", "count": 1, "VALIDITY": [1], "DATA": ["x"]}]}]})";

TEST(IntegrationJsonReader, YieldsOneBatchAtATimeAndKeepsItsFirstError) {
  auto reader = IntegrationJsonReader::OpenText(kTwoBatches);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->schema()->num_fields(), 1);
  auto first = (*reader)->Next();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ((*first)->num_rows(), 1);
  auto second = (*reader)->Next();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ((*second)->num_rows(), 2);
  EXPECT_EQ((*reader)->num_batches_read(), 2);
  auto third = (*reader)->Next();
  ASSERT_FALSE(third.ok());
  EXPECT_THAT(third.status().message(), HasSubstr("batches[2].columns[0](a).DATA[0]"));
  auto after = (*reader)->Next();
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.status().message(), third.status().message());
}

TEST(IntegrationJsonReader, ChecksTheTextAfterTheLastBatch) {
  std::string text = R"({"schema": {"fields": []}, "batches": [{"count": 0, "columns": []}]})";
  auto ok = ParseIntegrationJson(text);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->batches.size(), 1u);
  auto reader = IntegrationJsonReader::OpenText(text + " x");
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_TRUE((*reader)->Next().ok());
  auto end = (*reader)->Next();
  ASSERT_FALSE(end.ok());
  EXPECT_THAT(end.status().message(), HasSubstr("unexpected text after the end of the document"));
  // A member after the batches is read (and checked) too.
  auto late = ParseIntegrationJson(R"({"schema": {"fields": []}, "batches": [], "dictionaries": [{"id": 1}]})");
  ASSERT_FALSE(late.ok());
  EXPECT_THAT(late.status().message(), HasSubstr("no field of the schema uses dictionary id 1"));
  auto twice = ParseIntegrationJson(R"({"schema": {"fields": []}, "batches": [], "batches": []})");
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(), HasSubstr("\"batches\" appears twice"));
}

// A count is only a claim: room is made for no more than a million entries
// before they come, so 2^40 slots in 300 bytes cost nothing.
TEST(IntegrationJsonReader, HugeCountsCostNothingUntilValuesCome) {
  const std::string text =
      R"({"schema": {"fields": [{"name": "a", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 64}, "children": []}]},
          "batches": [{"count": 1099511627776, "columns": [{"name": "a", "count": 1099511627776, "VALIDITY": [1], "DATA": ["1"]}]}]})";
  const int64_t before = default_memory_pool()->max_memory();
  auto file = ParseIntegrationJson(text);
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr("VALIDITY: has 1 entries but 1099511627776 are expected"));
  EXPECT_LT(default_memory_pool()->max_memory() - before, int64_t{64} << 20);
}

TEST(IntegrationJsonReader, GzipTextIsInflatedAsItIsRead) {
  auto compressed = GzipCompress(kTwoBatches);
  ASSERT_TRUE(compressed.ok());
  auto reader = IntegrationJsonReader::OpenText(*compressed);
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ((*batch)->num_rows(), 1);
}

}  // namespace
}  // namespace alkaid::integration_json
