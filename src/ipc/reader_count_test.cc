// Counting rows from record batch headers (StreamReader/FileReader
// CountRows, `alkaid count`): the sum of the headers' lengths, bodies never
// decompressed or validated, dictionary batches skipped.
#include <gtest/gtest.h>

#include <cstring>

#include "alkaid/io/input.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "reader_test_util.h"
#include "test_util/array_from_json.h"
#include "test_util/test_data.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;

SchemaPtr CountSchema() {
  return schema({field("i", int64()), field("d", dictionary(int8(), utf8()))});
}

std::vector<RecordBatchPtr> CountBatches() {
  auto s = CountSchema();
  // One dictionary for every batch (the file format refuses replacements).
  auto words = ArrayFromJSON(s->field(1)->type(), R"(["a", "b", null, "a", "b", "a", "b", "a"])");
  std::vector<RecordBatchPtr> out;
  int64_t at = 0;
  for (const char* ints : {"[1, 2, 3]", "[]", "[4, null, 6, 7, 8]"}) {
    auto i = ArrayFromJSON(int64(), ints);
    out.push_back(RecordBatch::Make(s, i->length, {i, words->Slice(at, i->length)}));
    at += i->length;
  }
  return out;
}

// The first zstd frame in `bytes` gets a broken frame header: decoding the
// body fails, framing the message does not.
void BreakFirstZstdFrame(Buffer* bytes) {
  uint8_t* p = bytes->mutable_data();
  static const uint8_t kMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
  for (int64_t at = 0; at + 8 < bytes->size(); ++at) {
    if (std::memcmp(p + at, kMagic, 4) == 0) {
      std::memset(p + at + 4, 0xFF, 4);
      return;
    }
  }
  FAIL() << "no zstd frame found";
}

TEST(CountRows, StreamFromMemoryAndFromAnInputStreamAndFile) {
  auto batches = CountBatches();
  auto stream = SerializeStream(CountSchema(), batches);
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto reader = StreamReader::Open(*stream);
  ASSERT_TRUE(reader.ok());
  auto rows = (*reader)->CountRows();
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, 8);
  // Counting consumed the stream.
  auto next = (*reader)->Next();
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(*next, nullptr);

  auto source = std::make_shared<io::BufferReader>(*stream);
  auto from_stream = StreamReader::Open(source);
  ASSERT_TRUE(from_stream.ok());
  // One batch read normally first: the rest are counted.
  auto first = (*from_stream)->Next();
  ASSERT_TRUE(first.ok() && *first != nullptr);
  rows = (*from_stream)->CountRows();
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, 5);

  auto file = SerializeFile(CountSchema(), batches);
  ASSERT_TRUE(file.ok());
  auto file_reader = FileReader::Open(*file);
  ASSERT_TRUE(file_reader.ok());
  rows = (*file_reader)->CountRows();
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, 8);
}

// With threads, the batches decoded ahead are counted once each.
TEST(CountRows, AfterPipelinedBatches) {
  auto stream = SerializeStream(CountSchema(), CountBatches());
  ASSERT_TRUE(stream.ok());
  IpcReadOptions options = IpcReadOptions::Defaults();
  options.use_threads = true;
  options.num_threads = 2;
  for (int round = 0; round < 20; ++round) {
    auto reader = StreamReader::Open(*stream, options);
    ASSERT_TRUE(reader.ok());
    auto first = (*reader)->Next();  // 3 rows; the next batch starts ahead
    ASSERT_TRUE(first.ok() && *first != nullptr);
    auto rows = (*reader)->CountRows();
    ASSERT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(*rows, 5);
    auto next = (*reader)->Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, nullptr);
  }
}

TEST(CountRows, BodiesAreNotDecompressed) {
  IpcWriteOptions options = IpcWriteOptions::Defaults();
  options.compression = CompressionType::kZstd;
  for (bool file_format : {false, true}) {
    SCOPED_TRACE(file_format ? "file" : "stream");
    auto bytes = file_format ? SerializeFile(CountSchema(), CountBatches(), options)
                             : SerializeStream(CountSchema(), CountBatches(), options);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    auto copy = *AllocateBuffer((*bytes)->size());
    std::memcpy(copy->mutable_data(), (*bytes)->data(), static_cast<size_t>((*bytes)->size()));
    BreakFirstZstdFrame(copy.get());
    // Reading the data fails (the first compressed buffer is the dictionary's
    // or the first batch's) ...
    Status read_status =
        file_format ? testing::ReadFile(copy).status() : testing::ReadStream(copy).status();
    EXPECT_FALSE(read_status.ok());
    // ... counting does not look at the bodies.
    Result<int64_t> rows = file_format ? (*FileReader::Open(copy))->CountRows()
                                       : (*StreamReader::Open(copy))->CountRows();
    ASSERT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(*rows, 8);
  }
}

TEST(CountRows, GoldFilesAgreeWithAFullRead) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  for (const char* name : {"generated_primitive", "generated_dictionary", "generated_nested",
                           "generated_primitive_no_batches"}) {
    SCOPED_TRACE(name);
    std::string base = dir + "/arrow-testing/integration/1.0.0-littleendian/" + name;
    auto file = FileReader::OpenMapped(base + ".arrow_file");
    ASSERT_TRUE(file.ok());
    auto all = (*file)->ReadAll();
    ASSERT_TRUE(all.ok());
    int64_t want = 0;
    for (const auto& b : *all) want += b->num_rows();
    auto rows = (*file)->CountRows();
    ASSERT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(*rows, want);
    auto in = io::ReadableFile::Open(base + ".stream");
    ASSERT_TRUE(in.ok());
    auto stream = StreamReader::Open(std::shared_ptr<io::InputStream>(*in));
    ASSERT_TRUE(stream.ok());
    rows = (*stream)->CountRows();
    ASSERT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(*rows, want);
  }
}

}  // namespace
}  // namespace alkaid::ipc
