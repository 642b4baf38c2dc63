// The arrow-testing fuzz regression corpus: every input must produce either
// an error or fully valid data, never a crash or a hang (the suite also runs
// under ASan and UBSan).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/ipc/reader.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ListCorpus(const std::string& subdir) {
  std::vector<std::string> out;
  std::string root = ::alkaid::testing::TestDataDir();
  std::error_code ec;
  fs::path dir = fs::path(root) / "arrow-testing" / subdir;
  if (root.empty() || !fs::is_directory(dir, ec)) return {"<no test data>"};
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) out.push_back(entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back("<no test data>");
  return out;
}

BufferPtr ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return Buffer::FromString(ss.str());
}

std::string SafeName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Any batch we hand out must pass full validation on its own.
void ExpectValid(const std::vector<RecordBatchPtr>& batches) {
  for (const auto& batch : batches) {
    Status st = batch->ValidateFull();
    EXPECT_TRUE(st.ok()) << st;
  }
}

class FuzzStream : public ::testing::TestWithParam<std::string> {};
class FuzzFile : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzStream, ReaderErrorsOrReturnsValidData) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  BufferPtr bytes = ReadWhole(data_dir + "/arrow-testing/fuzz-stream/" + GetParam());
  auto start = std::chrono::steady_clock::now();
  auto reader = StreamReader::Open(bytes);
  if (reader.ok()) {
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || *batch == nullptr) break;
      ExpectValid({*batch});
    }
  }
  // Also the push decoder, in small pieces.
  struct Check : StreamDecoder::Listener {
    Status OnRecordBatch(RecordBatchPtr b) override {
      ExpectValid({b});
      return Status::OK();
    }
  };
  StreamDecoder decoder(std::make_shared<Check>());
  for (int64_t pos = 0; pos < bytes->size(); pos += 13) {
    if (!decoder.Consume(bytes->data() + pos, std::min<int64_t>(13, bytes->size() - pos)).ok()) break;
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count(), 20);
}

TEST_P(FuzzFile, ReaderErrorsOrReturnsValidData) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  BufferPtr bytes = ReadWhole(data_dir + "/arrow-testing/fuzz-file/" + GetParam());
  auto start = std::chrono::steady_clock::now();
  auto reader = FileReader::Open(bytes);
  if (reader.ok()) {
    for (int i = 0; i < (*reader)->num_record_batches(); ++i) {
      auto batch = (*reader)->ReadRecordBatch(i);
      if (batch.ok()) ExpectValid({*batch});
    }
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count(), 20);
}

INSTANTIATE_TEST_SUITE_P(Corpus, FuzzStream, ::testing::ValuesIn(ListCorpus("fuzz-stream")),
                         SafeName);
INSTANTIATE_TEST_SUITE_P(Corpus, FuzzFile, ::testing::ValuesIn(ListCorpus("fuzz-file")), SafeName);

}  // namespace
}  // namespace alkaid::ipc
