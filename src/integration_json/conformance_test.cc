// Conformance with the reference implementation, case by case, over every
// gold file in arrow-testing/integration/*/:
//   (a) X.arrow_file and X.stream read equal to X.json.gz;
//   (b) X.json.gz written by us as IPC file and stream, uncompressed, LZ4 and
//       ZSTD, reads back equal to the JSON;
//   (c) our integration JSON of X.arrow_file parses back equal to X.json.gz.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/extension.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/integration_json/integration.h"
#include "test_util/test_data.h"

namespace alkaid {
namespace {

namespace fs = std::filesystem;

struct GoldCase {
  std::string name;  // e.g. "cpp-21.0.0/generated_binary_view"
  std::string stem;  // full path without extension
};

// Names the case in test listings instead of dumping its bytes.
void PrintTo(const GoldCase& c, std::ostream* os) { *os << c.name; }

std::vector<GoldCase> DiscoverCases() {
  std::vector<GoldCase> cases;
  std::string dir = testing::TestDataDir();
  if (dir.empty()) return cases;
  fs::path root = fs::path(dir) / "arrow-testing" / "integration";
  if (!fs::is_directory(root)) return cases;
  for (const auto& version : fs::directory_iterator(root)) {
    if (!version.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(version.path())) {
      std::string file = entry.path().filename().string();
      const std::string suffix = ".json.gz";
      if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      std::string stem = entry.path().string();
      stem.resize(stem.size() - suffix.size());
      cases.push_back({version.path().filename().string() + "/" + file.substr(0, file.size() - suffix.size()), stem});
    }
  }
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return cases;
}

struct ReadBack {
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
};

// Empty when equal, else where the first difference is.
std::string Difference(const integration_json::IntegrationFile& expected, const ReadBack& actual) {
  if (!actual.schema->Equals(*expected.schema, /*check_metadata=*/true)) {
    return "schema differs:\nactual:\n" + actual.schema->ToString(true) + "\nexpected:\n" +
           expected.schema->ToString(true);
  }
  if (actual.batches.size() != expected.batches.size())
    return std::to_string(actual.batches.size()) + " batches, expected " +
           std::to_string(expected.batches.size());
  for (size_t b = 0; b < actual.batches.size(); ++b) {
    const auto& got = *actual.batches[b];
    const auto& want = *expected.batches[b];
    if (got.num_rows() != want.num_rows())
      return "batch " + std::to_string(b) + ": " + std::to_string(got.num_rows()) + " rows, expected " +
             std::to_string(want.num_rows());
    for (int c = 0; c < got.num_columns(); ++c) {
      std::string diff = ArrayDiff(*got.column_data(c), *want.column_data(c));
      if (!diff.empty())
        return "batch " + std::to_string(b) + ", column " + std::to_string(c) + " (" +
               got.column_name(c) + "): " + diff;
    }
  }
  return "";
}

class Conformance : public ::testing::TestWithParam<GoldCase> {
 protected:
  void SetUp() override {
    RegisterCanonicalExtensionTypes();
    auto expected = integration_json::ReadIntegrationFile(GetParam().stem + ".json.gz");
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    expected_ = std::move(expected).ValueOrDie();
  }

  static Result<ReadBack> ReadFile(BufferPtr bytes) {
    ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::FileReader::Open(std::move(bytes)));
    ReadBack out{reader->schema(), {}};
    ALKAID_ASSIGN_OR_RAISE(out.batches, reader->ReadAll());
    return out;
  }
  static Result<ReadBack> ReadStream(BufferPtr bytes) {
    ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::StreamReader::Open(std::move(bytes)));
    ReadBack out{reader->schema(), {}};
    ALKAID_ASSIGN_OR_RAISE(out.batches, reader->ReadAll());
    return out;
  }
  static Result<ReadBack> ReadMapped(const std::string& path) {
    ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::FileReader::OpenMapped(path));
    ReadBack out{reader->schema(), {}};
    ALKAID_ASSIGN_OR_RAISE(out.batches, reader->ReadAll());
    return out;
  }

  void ExpectEqualToJson(const Result<ReadBack>& actual, const std::string& what) {
    ASSERT_TRUE(actual.ok()) << what << ": " << actual.status().ToString();
    std::string diff = Difference(expected_, *actual);
    EXPECT_EQ(diff, "") << what;
  }

  // JSON -> our IPC (stream or file, with a codec) -> read back.
  void CheckOurIpc(bool file_format, ipc::CompressionType codec) {
    ipc::IpcWriteOptions options;
    options.compression = codec;
    if (!expected_.dictionary_ids.empty()) options.dictionary_ids = expected_.dictionary_ids;
    auto bytes = file_format ? ipc::SerializeFile(expected_.schema, expected_.batches, options)
                             : ipc::SerializeStream(expected_.schema, expected_.batches, options);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    ExpectEqualToJson(file_format ? ReadFile(*bytes) : ReadStream(*bytes),
                      file_format ? "our file" : "our stream");
  }

  integration_json::IntegrationFile expected_;
};

TEST_P(Conformance, A_ReferenceFileEqualsJson) {
  ExpectEqualToJson(ReadMapped(GetParam().stem + ".arrow_file"), "reference .arrow_file");
}

TEST_P(Conformance, A_ReferenceStreamEqualsJson) {
  auto bytes = integration_json::ReadMaybeGzip(GetParam().stem + ".stream");  // plain read of the bytes
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  ExpectEqualToJson(ReadStream(Buffer::FromString(std::move(bytes).ValueOrDie())), "reference .stream");
}

TEST_P(Conformance, B_OurFileUncompressed) { CheckOurIpc(true, ipc::CompressionType::kNone); }
TEST_P(Conformance, B_OurFileLz4) { CheckOurIpc(true, ipc::CompressionType::kLz4Frame); }
TEST_P(Conformance, B_OurFileZstd) { CheckOurIpc(true, ipc::CompressionType::kZstd); }
TEST_P(Conformance, B_OurStreamUncompressed) { CheckOurIpc(false, ipc::CompressionType::kNone); }
TEST_P(Conformance, B_OurStreamLz4) { CheckOurIpc(false, ipc::CompressionType::kLz4Frame); }
TEST_P(Conformance, B_OurStreamZstd) { CheckOurIpc(false, ipc::CompressionType::kZstd); }

TEST_P(Conformance, C_ToJsonOfReferenceFileEqualsJson) {
  auto reader = ipc::FileReader::OpenMapped(GetParam().stem + ".arrow_file");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  auto text = integration_json::WriteIntegrationJson(*(*reader)->schema(), *batches, &(*reader)->dictionary_ids());
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto parsed = integration_json::ParseIntegrationJson(*text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ExpectEqualToJson(ReadBack{parsed->schema, parsed->batches}, "to-json of .arrow_file");
}

std::string CaseName(const ::testing::TestParamInfo<GoldCase>& info) {
  std::string out;
  for (char c : info.param.name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(Gold, Conformance, ::testing::ValuesIn(DiscoverCases()), CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

TEST(ConformanceData, GoldFilesPresentOrSkipped) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  EXPECT_GE(DiscoverCases().size(), 30u) << "expected the arrow-testing integration cases under " << dir;
}

}  // namespace
}  // namespace alkaid
