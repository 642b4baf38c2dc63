// The IPC file reader (magic, footer, blocks, memory mapping) and the push decoder
// (StreamDecoder).
#include "alkaid/ipc/reader.h"

#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/writer.h"
#include "src/ipc/reader_test_util.h"
#include "src/ipc/reader_test_helpers.h"
#include "test_util/array_from_json.h"
#include "test_util/temp_path.h"

namespace alkaid::ipc {
namespace {

using namespace reader_test;  // NOLINT: the shared helpers of the reader tests

TEST(FileReader, ReadsWriterOutputRandomAccess) {
  auto batches = SampleBatches();
  auto metadata = KeyValueMetadata::Make({{"origin", "test"}});
  BufferPtr bytes = SerializeFile(IntStringSchema(), batches, IpcWriteOptions::Defaults(), metadata)
                        .ValueOrDie();
  auto reader = FileReader::Open(bytes).ValueOrDie();
  EXPECT_EQ(reader->num_record_batches(), 2);
  EXPECT_EQ(reader->dialect(), IpcDialect::kArrow);
  ASSERT_NE(reader->metadata(), nullptr);
  EXPECT_EQ(reader->metadata()->Get("origin").ValueOrDie(), "test");
  auto second = reader->ReadRecordBatch(1).ValueOrDie();
  auto first = reader->ReadRecordBatch(0).ValueOrDie();
  ExpectBatchesEqual(batches, {first, second});
  EXPECT_TRUE(IsInside(first->column_data(0)->buffers[1]->data(), *bytes));
  EXPECT_TRUE(reader->ReadRecordBatch(2).status().IsIndexError());
  EXPECT_TRUE(reader->ReadRecordBatch(-1).status().IsIndexError());
}

TEST(FileReader, AlkaidDialect) {
  IpcWriteOptions options;
  options.dialect = IpcDialect::kAlkaid;
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeFile(IntStringSchema(), batches, options).ValueOrDie();
  ASSERT_EQ(std::string(bytes->view().substr(0, 7)), "ALKAID1");
  auto reader = FileReader::Open(bytes).ValueOrDie();
  EXPECT_EQ(reader->dialect(), IpcDialect::kAlkaid);
  ExpectBatchesEqual(batches, reader->ReadAll().ValueOrDie());
}

TEST(FileReader, HandBuiltFileWithBothMagics) {
  for (std::string_view magic : {"ARROW1", "ALKAID1"}) {
    IpcBuilder b(Int32Schema());
    b.BeginFile(magic);
    b.AddSchema();
    BodyBuilder body;
    RecordBatchMeta meta;
    b.AddRecordBatch(meta, Int32Body(&body, {3, 1, 4}, &meta));
    b.AddEndOfStream();
    auto read = ReadFile(b.FinishFile(magic));
    ASSERT_TRUE(read.ok()) << magic << ": " << read.status();
    EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int32(), "[3, 1, 4]")));
  }
}

TEST(FileReader, MagicChecks) {
  std::string good(SerializeFile(IntStringSchema(), SampleBatches()).ValueOrDie()->view());
  std::string bad_lead = good;
  bad_lead[0] = 'X';
  EXPECT_ERROR_CONTAINS(FileReader::Open(Buffer::FromString(bad_lead)).status(), "leading bytes");
  std::string bad_tail = good;
  bad_tail.back() = 'X';
  EXPECT_ERROR_CONTAINS(FileReader::Open(Buffer::FromString(bad_tail)).status(),
                        "does not end with the same magic");
  // Mixed dialects are refused.
  std::string mixed = "ALKAID1" + good.substr(7);
  EXPECT_FALSE(FileReader::Open(Buffer::FromString(mixed)).ok());
  EXPECT_ERROR_CONTAINS(FileReader::Open(Buffer::FromString("ARROW1")).status(), "too small");
  // A stream is not a file.
  BufferPtr stream = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  EXPECT_FALSE(FileReader::Open(stream).ok());
}

TEST(FileReader, FooterLengthOutOfRange) {
  std::string good(SerializeFile(IntStringSchema(), SampleBatches()).ValueOrDie()->view());
  const size_t length_at = good.size() - 10;
  for (int32_t bad : {0, -5, static_cast<int32_t>(good.size()), INT32_MAX}) {
    std::string bytes = good;
    std::memcpy(&bytes[length_at], &bad, 4);
    EXPECT_ERROR_CONTAINS(FileReader::Open(Buffer::FromString(bytes)).status(), "footer length");
  }
  // In range but wrong: the verifier refuses the misplaced footer.
  std::string bytes = good;
  int32_t length;
  std::memcpy(&length, &bytes[length_at], 4);
  length -= 8;
  std::memcpy(&bytes[length_at], &length, 4);
  EXPECT_FALSE(FileReader::Open(Buffer::FromString(bytes)).ok());
}

TEST(FileReader, BlocksOutsideTheFileFail) {
  IpcBuilder b(Int32Schema());
  b.BeginFile();
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  FileBlock block = b.AddRecordBatch(meta, Int32Body(&body, {1}, &meta));
  b.AddEndOfStream();
  std::vector<FileBlock> dicts;
  std::vector<FileBlock> batches = {block};
  batches[0].offset = 1 << 20;
  EXPECT_ERROR_CONTAINS(FileReader::Open(b.FinishFile("ARROW1", nullptr, &dicts, &batches)).status(),
                        "record batch block 0");
}

TEST(FileReader, BlockMetadataLengthMismatch) {
  IpcBuilder b(Int32Schema());
  b.BeginFile();
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  FileBlock block = b.AddRecordBatch(meta, Int32Body(&body, {1}, &meta));
  b.AddEndOfStream();
  std::vector<FileBlock> dicts;
  std::vector<FileBlock> batches = {block};
  batches[0].metadata_length = 8;  // prefix only: the length inside does not fit
  auto reader = FileReader::Open(b.FinishFile("ARROW1", nullptr, &dicts, &batches)).ValueOrDie();
  EXPECT_ERROR_CONTAINS(reader->ReadRecordBatch(0).status(), "does not fit");
}

TEST(FileReader, BlockPointingAtWrongMessageType) {
  IpcBuilder b(Int32Schema());
  b.BeginFile();
  b.AddSchema();
  b.AddEndOfStream();
  std::vector<FileBlock> dicts;
  // The schema message at offset 8.
  std::vector<FileBlock> batches = {FileBlock{8, 0, 0}};
  int32_t framed;
  std::memcpy(&framed, b.bytes().data() + 12, 4);
  batches[0].metadata_length = framed + 8;
  auto reader = FileReader::Open(b.FinishFile("ARROW1", nullptr, &dicts, &batches)).ValueOrDie();
  EXPECT_ERROR_CONTAINS(reader->ReadRecordBatch(0).status(), "expected a record batch");
}

TEST(FileReader, TruncationsAndFlipsNeverCrash) {
  std::string good(SerializeFile(IntStringSchema(), SampleBatches()).ValueOrDie()->view());
  for (size_t n = 0; n < good.size(); n += 3) {
    auto r = ReadFile(Buffer::FromString(good.substr(0, n)));
    (void)r;
  }
  int failures = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bytes = good;
    bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    auto r = ReadFile(Buffer::FromString(bytes));
    if (!r.ok()) {
      ++failures;
      continue;
    }
    for (const auto& batch : *r) EXPECT_TRUE(batch->ValidateFull().ok());
  }
  EXPECT_GT(failures, 0);
}

TEST(FileReader, MappedFileBuffersPointIntoMapping) {
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeFile(IntStringSchema(), batches).ValueOrDie();
  std::string path = alkaid::testing::ProcessTempPath("reader_test_mapped.arrow");
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(bytes->data(), 1, static_cast<size_t>(bytes->size()), f);
    std::fclose(f);
  }
  std::vector<RecordBatchPtr> read;
  const uint8_t* map_base = nullptr;
  {
    auto mapped = io::MemoryMappedFile::Open(path).ValueOrDie();
    map_base = mapped->buffer()->data();
    auto reader = FileReader::Open(mapped).ValueOrDie();
    read = reader->ReadAll().ValueOrDie();
  }
  // The batches outlive the reader and the file object and still point into
  // the mapping.
  const uint8_t* p = read[0]->column_data(0)->buffers[1]->data();
  EXPECT_TRUE(p >= map_base && p < map_base + bytes->size());
  ExpectBatchesEqual(batches, read);
  EXPECT_FALSE(FileReader::OpenMapped(path + ".missing").status().ok());
  EXPECT_TRUE(FileReader::OpenMapped(path + ".missing").status().IsIOError());
  std::remove(path.c_str());
}

// ===========================================================================
// StreamDecoder

TEST(StreamDecoder, NextRequiredSizeFollowsTheFraming) {
  BufferPtr bytes = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  EXPECT_EQ(decoder.next_required_size(), 4);
  ASSERT_TRUE(decoder.Consume(bytes->data(), 4).ok());  // continuation
  EXPECT_EQ(decoder.next_required_size(), 4);
  ASSERT_TRUE(decoder.Consume(bytes->data() + 4, 2).ok());
  EXPECT_EQ(decoder.next_required_size(), 2);
  ASSERT_TRUE(decoder.Consume(bytes->data() + 6, 2).ok());
  int32_t metadata_length;
  std::memcpy(&metadata_length, bytes->data() + 4, 4);
  EXPECT_EQ(decoder.next_required_size(), metadata_length);
  EXPECT_EQ(decoder.schema(), nullptr);
  // Feed exactly what is asked for until the end.
  int64_t pos = 8;
  while (!decoder.finished()) {
    int64_t n = decoder.next_required_size();
    ASSERT_GT(n, 0);
    ASSERT_LE(pos + n, bytes->size());
    ASSERT_TRUE(decoder.Consume(SliceBuffer(bytes, pos, n)).ok());
    pos += n;
  }
  EXPECT_EQ(pos, bytes->size());
  EXPECT_TRUE(listener->eos);
  EXPECT_EQ(listener->batches.size(), 2u);
  EXPECT_EQ(decoder.next_required_size(), 0);
  EXPECT_EQ(decoder.stats().num_record_batches, 2);
}

TEST(StreamDecoder, ZeroCopyWhenGivenBuffers) {
  BufferPtr bytes = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  ASSERT_TRUE(decoder.Consume(bytes).ok());
  ASSERT_EQ(listener->batches.size(), 2u);
  EXPECT_TRUE(IsInside(listener->batches[1]->column_data(0)->buffers[1]->data(), *bytes));
}

TEST(StreamDecoder, DataAfterEndOfStreamFails) {
  BufferPtr bytes = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  ASSERT_TRUE(decoder.Consume(bytes).ok());
  EXPECT_ERROR_CONTAINS(decoder.Consume(bytes->data(), 4), "after the end-of-stream");
}

TEST(StreamDecoder, ErrorsAreSticky) {
  auto listener = std::make_shared<CollectingListener>();
  StreamDecoder decoder(listener);
  std::string bad("\xff\xff\xff\xff\x08\0\0\0garbage!", 16);
  EXPECT_FALSE(decoder.Consume(reinterpret_cast<const uint8_t*>(bad.data()), 16).ok());
  EXPECT_FALSE(decoder.Consume(reinterpret_cast<const uint8_t*>(bad.data()), 4).ok());
  EXPECT_EQ(decoder.next_required_size(), 0);
}

TEST(StreamDecoder, TruncatedAndFlippedInputNeverCrashes) {
  std::string good(SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie()->view());
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bytes = good;
    bytes[i] = static_cast<char>(bytes[i] ^ 0x21);
    auto listener = std::make_shared<CollectingListener>();
    StreamDecoder decoder(listener);
    for (size_t pos = 0; pos < bytes.size(); pos += 5) {
      size_t n = std::min<size_t>(5, bytes.size() - pos);
      if (!decoder.Consume(reinterpret_cast<const uint8_t*>(bytes.data() + pos),
                           static_cast<int64_t>(n))
               .ok()) {
        break;
      }
    }
    for (const auto& batch : listener->batches) EXPECT_TRUE(batch->ValidateFull().ok());
  }
}

TEST(StreamDecoder, ListenerErrorStopsDecoding) {
  struct Failing : StreamDecoder::Listener {
    Status OnRecordBatch(RecordBatchPtr) override { return Status::Invalid("listener says no"); }
  };
  BufferPtr bytes = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  StreamDecoder decoder(std::make_shared<Failing>());
  EXPECT_ERROR_CONTAINS(decoder.Consume(bytes), "listener says no");
}

}  // namespace
}  // namespace alkaid::ipc
