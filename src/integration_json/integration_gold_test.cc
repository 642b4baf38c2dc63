// Every gold X.json.gz of arrow-testing/integration/*/: it parses, its arrays
// validate, and reading -> writing -> reading gives the same file. Our written
// JSON is also compared value by value with the reference file itself.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alkaid/compare.h"
#include "alkaid/integration_json/integration.h"
#include "alkaid/validate.h"
#include "test_util/test_data.h"

namespace alkaid::integration_json {
namespace {

namespace fs = std::filesystem;

struct GoldFile {
  std::string name;  // "cpp-21.0.0/generated_primitive"
  std::string path;
};

void PrintTo(const GoldFile& file, std::ostream* os) { *os << file.name; }

std::vector<GoldFile> DiscoverGoldFiles() {
  std::vector<GoldFile> out;
  std::string dir = testing::TestDataDir();
  if (dir.empty()) return out;
  fs::path root = fs::path(dir) / "arrow-testing" / "integration";
  if (!fs::is_directory(root)) return out;
  const std::string suffix = ".json.gz";
  for (const auto& version : fs::directory_iterator(root)) {
    if (!version.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(version.path())) {
      std::string file = entry.path().filename().string();
      if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      out.push_back({version.path().filename().string() + "/" + file.substr(0, file.size() - suffix.size()),
                     entry.path().string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const GoldFile& a, const GoldFile& b) { return a.name < b.name; });
  return out;
}

std::string TestName(const ::testing::TestParamInfo<GoldFile>& info) {
  std::string name = info.param.name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// Validation and comparison are other modules; until they land they answer
// NotImplemented / false for everything, and these tests skip those checks.
bool ValidationAvailable() {
  auto probe = ArrayData::Make(null(), 0, BufferVector{}, 0);
  return !ValidateArrayFull(*probe).IsNotImplemented();
}

bool ComparisonAvailable() {
  auto probe = ArrayData::Make(null(), 1, BufferVector{}, 1);
  return ArrayEquals(*probe, *probe);
}

// Differences between the reference file and our output that carry no
// information: dictionary batch column names are free text, and older files
// leave a decimal's default bitWidth implicit.
void Normalize(nlohmann::json* file) {
  if (file->contains("dictionaries")) {
    for (auto& dict : (*file)["dictionaries"]) dict["data"]["columns"][0].erase("name");
  }
  std::function<void(nlohmann::json&)> fix_field = [&](nlohmann::json& field) {
    auto& type = field["type"];
    if (type["name"] == "decimal" && !type.contains("bitWidth")) type["bitWidth"] = 128;
    if (field.contains("metadata") && field["metadata"].empty()) field.erase("metadata");
    for (auto& child : field["children"]) fix_field(child);
  };
  for (auto& field : (*file)["schema"]["fields"]) fix_field(field);
}

class GoldJsonTest : public ::testing::TestWithParam<GoldFile> {};

TEST_P(GoldJsonTest, ParsesValidatesAndRoundTrips) {
  const GoldFile& gold = GetParam();
  auto file = ReadIntegrationFile(gold.path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_NE(file->schema, nullptr);

  if (ValidationAvailable()) {
    for (const auto& [id, dict] : file->dictionaries) {
      Status st = ValidateArrayFull(*dict);
      EXPECT_TRUE(st.ok()) << "dictionary " << id << ": " << st;
    }
    for (size_t b = 0; b < file->batches.size(); ++b) {
      for (int c = 0; c < file->batches[b]->num_columns(); ++c) {
        Status st = ValidateArrayFull(*file->batches[b]->column_data(c));
        EXPECT_TRUE(st.ok()) << "batch " << b << " column " << c << ": " << st;
      }
    }
  }

  auto text = WriteIntegrationJson(*file);
  ASSERT_TRUE(text.ok()) << text.status();
  auto again = ParseIntegrationJson(*text);
  ASSERT_TRUE(again.ok()) << again.status();

  EXPECT_TRUE(again->schema->Equals(*file->schema, /*check_metadata=*/true))
      << again->schema->ToString(true) << "\nvs\n" << file->schema->ToString(true);
  EXPECT_EQ(again->dictionary_ids.entries(), file->dictionary_ids.entries());
  ASSERT_EQ(again->batches.size(), file->batches.size());
  ASSERT_EQ(again->dictionaries.size(), file->dictionaries.size());
  for (size_t b = 0; b < file->batches.size(); ++b)
    EXPECT_EQ(again->batches[b]->num_rows(), file->batches[b]->num_rows());

  auto text_again = WriteIntegrationJson(*again);
  ASSERT_TRUE(text_again.ok()) << text_again.status();
  EXPECT_EQ(*text_again, *text) << "re-serialized JSON differs";

  if (ComparisonAvailable()) {
    for (size_t b = 0; b < file->batches.size(); ++b) {
      for (int c = 0; c < file->batches[b]->num_columns(); ++c) {
        const ArrayData& left = *file->batches[b]->column_data(c);
        const ArrayData& right = *again->batches[b]->column_data(c);
        EXPECT_TRUE(ArrayEquals(left, right)) << "batch " << b << " column " << c << ": "
                                              << ArrayDiff(left, right);
      }
    }
  }

  // Our output against the reference file, value by value.
  auto original_text = ReadMaybeGzip(gold.path);
  ASSERT_TRUE(original_text.ok()) << original_text.status();
  nlohmann::json reference = nlohmann::json::parse(*original_text);
  nlohmann::json ours = nlohmann::json::parse(*text);
  Normalize(&reference);
  Normalize(&ours);
  if (reference != ours) {
    nlohmann::json patch = nlohmann::json::diff(reference, ours);
    ADD_FAILURE() << "written JSON differs from the reference; first differences: "
                  << patch.dump().substr(0, 2000);
  }
}

INSTANTIATE_TEST_SUITE_P(Gold, GoldJsonTest, ::testing::ValuesIn(DiscoverGoldFiles()), TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldJsonTest);

TEST(GoldJsonDiscovery, FindsTheReferenceFiles) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  auto files = DiscoverGoldFiles();
  // 22 + 4 + 1 + 32 files in the four version directories.
  EXPECT_GE(files.size(), 59u);
}

}  // namespace
}  // namespace alkaid::integration_json
