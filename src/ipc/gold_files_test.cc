// Reads every integration gold file (stream and file form of each case) with
// full validation and checks that both forms agree.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/reader.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

namespace fs = std::filesystem;

// "<version>/<case>" for every X.stream that has a sibling X.arrow_file.
std::vector<std::string> DiscoverCases() {
  std::vector<std::string> cases = ::alkaid::testing::GoldIntegrationCases(".stream");
  const fs::path dir = fs::path(::alkaid::testing::TestDataDir()) / "arrow-testing" / "integration";
  std::erase_if(cases, [&dir](const std::string& c) {
    return c != "<no test data>" && !fs::exists(dir / (c + ".arrow_file"));
  });
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

int64_t TotalRows(const std::vector<RecordBatchPtr>& batches) {
  int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows();
  return rows;
}

// Batches must be equal column by column (schema checked separately).
void ExpectSameBatches(const std::vector<RecordBatchPtr>& a, const std::vector<RecordBatchPtr>& b,
                       const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i]->num_rows(), b[i]->num_rows()) << what << " batch " << i;
    ASSERT_EQ(a[i]->num_columns(), b[i]->num_columns()) << what << " batch " << i;
    for (int c = 0; c < a[i]->num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*a[i]->column_data(c), *b[i]->column_data(c),
                              EqualOptions().with_nans_equal()))
          << what << " batch " << i << " column " << c << ": "
          << ArrayDiff(*a[i]->column_data(c), *b[i]->column_data(c),
                       EqualOptions().with_nans_equal());
    }
  }
}

class GoldFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldFiles, StreamAndFileAgree) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  const std::string base = data_dir + "/arrow-testing/integration/" + GetParam();
  const bool expect_no_batches = GetParam().find("no_batches") != std::string::npos;

  // Stream through a file descriptor (copying reads).
  auto in = io::FdInputStream::Open(base + ".stream").ValueOrDie();
  auto stream_reader_result = StreamReader::Open(in);
  ASSERT_TRUE(stream_reader_result.ok()) << stream_reader_result.status();
  auto stream_reader = std::move(stream_reader_result).ValueOrDie();
  auto stream_batches_result = stream_reader->ReadAll();
  ASSERT_TRUE(stream_batches_result.ok()) << stream_batches_result.status();
  auto stream_batches = *stream_batches_result;
  ASSERT_NE(stream_reader->schema(), nullptr);
  EXPECT_FALSE(stream_reader->schema()->ToString().empty());
  EXPECT_EQ(stream_reader->schema()->endianness(), NativeEndianness());
  EXPECT_EQ(stream_reader->stats().num_record_batches, static_cast<int64_t>(stream_batches.size()));
  if (expect_no_batches) {
    EXPECT_EQ(stream_batches.size(), 0u);
  } else {
    EXPECT_GT(stream_batches.size(), 0u);
  }

  // File via pread and via mmap.
  auto file = io::ReadableFile::Open(base + ".arrow_file").ValueOrDie();
  auto file_reader_result = FileReader::Open(file);
  ASSERT_TRUE(file_reader_result.ok()) << file_reader_result.status();
  auto file_reader = std::move(file_reader_result).ValueOrDie();
  auto file_batches_result = file_reader->ReadAll();
  ASSERT_TRUE(file_batches_result.ok()) << file_batches_result.status();
  auto file_batches = *file_batches_result;

  auto mapped_result = FileReader::OpenMapped(base + ".arrow_file");
  ASSERT_TRUE(mapped_result.ok()) << mapped_result.status();
  auto mapped_batches_result = (*mapped_result)->ReadAll();
  ASSERT_TRUE(mapped_batches_result.ok()) << mapped_batches_result.status();
  auto mapped_batches = *mapped_batches_result;

  // Same schema (with metadata) and row counts everywhere.
  EXPECT_TRUE(stream_reader->schema()->Equals(*file_reader->schema(), /*check_metadata=*/true))
      << stream_reader->schema()->ToString(true) << "\nvs\n"
      << file_reader->schema()->ToString(true);
  EXPECT_EQ(stream_reader->schema()->ToString(true), file_reader->schema()->ToString(true));
  EXPECT_EQ(file_reader->num_record_batches(), static_cast<int>(file_batches.size()));
  EXPECT_EQ(TotalRows(stream_batches), TotalRows(file_batches));
  EXPECT_EQ(TotalRows(file_batches), TotalRows(mapped_batches));
  for (const auto& b : file_batches) {
    EXPECT_EQ(b->num_columns(), file_reader->schema()->num_fields());
    EXPECT_TRUE(b->ValidateFull().ok()) << b->ValidateFull();
  }

  ExpectSameBatches(stream_batches, file_batches, "stream vs file");
  ExpectSameBatches(file_batches, mapped_batches, "file vs mapped file");
}

TEST_P(GoldFiles, DecoderMatchesStreamReader) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  const std::string path = data_dir + "/arrow-testing/integration/" + GetParam() + ".stream";
  auto mapped = io::MemoryMappedFile::Open(path).ValueOrDie();
  BufferPtr bytes = mapped->buffer();

  auto reader_result = StreamReader::Open(bytes);
  ASSERT_TRUE(reader_result.ok()) << reader_result.status();
  auto reader = std::move(reader_result).ValueOrDie();
  auto expected_result = reader->ReadAll();
  ASSERT_TRUE(expected_result.ok()) << expected_result.status();
  auto expected = *expected_result;

  struct Collect : StreamDecoder::Listener {
    std::vector<RecordBatchPtr> batches;
    bool eos = false;
    SchemaPtr schema;
    Status OnSchema(const SchemaPtr& s) override {
      schema = s;
      return Status::OK();
    }
    Status OnRecordBatch(RecordBatchPtr b) override {
      batches.push_back(std::move(b));
      return Status::OK();
    }
    Status OnEOS() override {
      eos = true;
      return Status::OK();
    }
  };
  // Odd chunk sizes through the copying entry point, and whole-buffer
  // zero-copy slices.
  for (int64_t chunk : {int64_t{1}, int64_t{7}, int64_t{4096}}) {
    if (chunk == 1 && bytes->size() > 200000) continue;
    auto listener = std::make_shared<Collect>();
    StreamDecoder decoder(listener);
    for (int64_t pos = 0; pos < bytes->size(); pos += chunk) {
      int64_t n = std::min(chunk, bytes->size() - pos);
      Status st = decoder.Consume(bytes->data() + pos, n);
      ASSERT_TRUE(st.ok()) << "chunk " << chunk << " at " << pos << ": " << st;
    }
    EXPECT_TRUE(listener->eos) << "chunk " << chunk;
    EXPECT_TRUE(decoder.finished());
    ASSERT_NE(listener->schema, nullptr);
    EXPECT_TRUE(listener->schema->Equals(*reader->schema(), true));
    ExpectSameBatches(expected, listener->batches, "decoder chunk " + std::to_string(chunk));
  }
  {
    auto listener = std::make_shared<Collect>();
    StreamDecoder decoder(listener);
    ASSERT_TRUE(decoder.Consume(bytes).ok());
    EXPECT_TRUE(listener->eos);
    ExpectSameBatches(expected, listener->batches, "decoder whole buffer");
  }
}

INSTANTIATE_TEST_SUITE_P(Integration, GoldFiles, ::testing::ValuesIn(DiscoverCases()), CaseName);

// Every directory the task names must be present and yield cases.
TEST(GoldFilesCoverage, ExpectedCasesExist) {
  ALKAID_REQUIRE_TEST_DATA(data_dir);
  auto cases = DiscoverCases();
  auto has = [&](const std::string& c) {
    return std::find(cases.begin(), cases.end(), c) != cases.end();
  };
  EXPECT_TRUE(has("2.0.0-compression/generated_lz4"));
  EXPECT_TRUE(has("2.0.0-compression/generated_zstd"));
  EXPECT_TRUE(has("4.0.0-shareddict/generated_shared_dict"));
  EXPECT_TRUE(has("cpp-21.0.0/generated_binary_view"));
  EXPECT_TRUE(has("cpp-21.0.0/generated_list_view"));
  EXPECT_TRUE(has("cpp-21.0.0/generated_run_end_encoded"));
  EXPECT_TRUE(has("cpp-21.0.0/generated_extension"));
  EXPECT_GE(cases.size(), 59u);
}

}  // namespace
}  // namespace alkaid::ipc
