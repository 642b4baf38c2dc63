// IPC stream framing: continuation markers, legacy framing, end of stream, truncated and
// corrupted messages, pipes; and schemas refused at open.
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

namespace alkaid::ipc {
namespace {

using namespace reader_test;  // NOLINT: the shared helpers of the reader tests

// Framing

TEST(StreamFraming, ReadsWriterOutputZeroCopy) {
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeStream(IntStringSchema(), batches).ValueOrDie();
  auto reader = StreamReader::Open(bytes).ValueOrDie();
  EXPECT_TRUE(reader->schema()->Equals(*IntStringSchema()));
  auto read = reader->ReadAll().ValueOrDie();
  ExpectBatchesEqual(batches, read);
  // Values are slices of the input, not copies.
  EXPECT_TRUE(IsInside(read[0]->column_data(0)->buffers[1]->data(), *bytes));
  EXPECT_TRUE(IsInside(read[1]->column_data(1)->buffers[2]->data(), *bytes));
  EXPECT_EQ(reader->stats().num_record_batches, 2);
  EXPECT_EQ(reader->stats().num_messages, 3);
  // After the end, Next keeps returning null.
  EXPECT_EQ(reader->Next().ValueOrDie(), nullptr);
}

TEST(StreamFraming, LegacyFramingWithoutContinuation) {
  IpcWriteOptions options;
  options.write_legacy_format = true;
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeStream(IntStringSchema(), batches, options).ValueOrDie();
  uint32_t first;
  std::memcpy(&first, bytes->data(), 4);
  ASSERT_NE(first, 0xFFFFFFFFu);
  ExpectBatchesEqual(batches, ReadStream(bytes).ValueOrDie());
}

TEST(StreamFraming, HandBuiltLegacyMessages) {
  IpcBuilder b(Int32Schema(), /*legacy=*/true);
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  b.AddRecordBatch(meta, Int32Body(&body, {7, 8, 9}, &meta));
  b.AddEndOfStream();
  auto read = ReadStream(b.FinishStream()).ValueOrDie();
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *ArrayFromJSON(int32(), "[7, 8, 9]")));
}

TEST(StreamFraming, MissingEndOfStreamIsEndOfInput) {
  IpcWriteOptions options;
  options.emit_eos = false;
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeStream(IntStringSchema(), batches, options).ValueOrDie();
  ExpectBatchesEqual(batches, ReadStream(bytes).ValueOrDie());
}

TEST(StreamFraming, StopsAtEndOfStreamMarker) {
  BufferPtr bytes = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  std::string with_garbage(bytes->view());
  with_garbage += "this is not a message at all";
  auto read = ReadStream(Buffer::FromString(with_garbage)).ValueOrDie();
  EXPECT_EQ(read.size(), 2u);
}

TEST(StreamFraming, EmptyInputFails) {
  EXPECT_ERROR_CONTAINS(StreamReader::Open(Buffer::FromString("")).status(), "before its schema");
  // Only an end-of-stream marker: no schema either.
  EXPECT_ERROR_CONTAINS(StreamReader::Open(Buffer::FromString(std::string("\xff\xff\xff\xff\0\0\0\0", 8)))
                            .status(),
                        "before its schema");
}

TEST(StreamFraming, FirstMessageMustBeSchema) {
  IpcBuilder b(Int32Schema());
  BodyBuilder body;
  RecordBatchMeta meta;
  b.AddRecordBatch(meta, Int32Body(&body, {1}, &meta));
  EXPECT_ERROR_CONTAINS(StreamReader::Open(b.FinishStream()).status(), "must be a schema");
}

TEST(StreamFraming, SecondSchemaFails) {
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddSchema();
  EXPECT_ERROR_CONTAINS(ReadStream(b.FinishStream()).status(), "second schema");
}

TEST(StreamFraming, MetadataLengthLargerThanInput) {
  std::string bytes("\xff\xff\xff\xff", 4);
  int32_t length = 1000;
  bytes.append(reinterpret_cast<const char*>(&length), 4);
  bytes += std::string(40, 'x');
  auto st = StreamReader::Open(Buffer::FromString(bytes)).status();
  EXPECT_ERROR_CONTAINS(st, "metadata length 1000 exceeds the 40 bytes left");
  EXPECT_ERROR_CONTAINS(st, "stream message 0");
}

TEST(StreamFraming, BadContinuationIsNegativeLength) {
  std::string bytes("\xfe\xff\xff\xff", 4);
  bytes += std::string(16, '\0');
  EXPECT_ERROR_CONTAINS(StreamReader::Open(Buffer::FromString(bytes)).status(),
                        "negative metadata length");
}

TEST(StreamFraming, PartialPrefixFails) {
  EXPECT_ERROR_CONTAINS(StreamReader::Open(Buffer::FromString(std::string("\xff\xff", 2))).status(),
                        "inside a message prefix");
  EXPECT_ERROR_CONTAINS(
      StreamReader::Open(Buffer::FromString(std::string("\xff\xff\xff\xff\x10", 5))).status(),
      "inside a message length");
}

TEST(StreamFraming, TruncatedAtEveryByteNeverCrashes) {
  auto batches = SampleBatches();
  BufferPtr full = SerializeStream(IntStringSchema(), batches).ValueOrDie();
  int errors = 0;
  for (int64_t n = 0; n < full->size(); ++n) {
    auto truncated = SliceBuffer(full, 0, n);
    auto result = ReadStream(truncated);
    if (!result.ok()) {
      ++errors;
      continue;
    }
    // A clean cut between messages reads the batches before it.
    EXPECT_LT(result->size(), batches.size() + 1);
  }
  // Almost every cut lands inside a message.
  EXPECT_GT(errors, full->size() - 10);
}

TEST(StreamFraming, FlippedBytesNeverCrash) {
  BufferPtr full = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  std::string original(full->view());
  int failures = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      std::string bytes = original;
      bytes[i] = static_cast<char>(bytes[i] ^ mask);
      auto result = ReadStream(Buffer::FromString(bytes));
      if (!result.ok()) {
        ++failures;
        continue;
      }
      for (const auto& batch : *result) EXPECT_TRUE(batch->ValidateFull().ok());
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(StreamFraming, CorruptFlatbufferFailsVerification) {
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  std::string bytes = b.bytes();
  // Point the root table offset far outside the metadata.
  uint32_t bad_root = 0x7ffffff0u;
  std::memcpy(&bytes[8], &bad_root, 4);
  auto st = StreamReader::Open(Buffer::FromString(bytes)).status();
  EXPECT_TRUE(st.IsSerializationError()) << st;
  EXPECT_ERROR_CONTAINS(st, "failed verification");
}

TEST(StreamFraming, OldMetadataVersionRejected) {
  IpcBuilder b(Int32Schema(), false, fb::MetadataVersion::V3);
  b.AddSchema();
  EXPECT_ERROR_CONTAINS(StreamReader::Open(b.FinishStream()).status(), "metadata version");
}

TEST(StreamFraming, MisalignedInputIsAccepted) {
  // The whole stream shifted by 3 bytes: metadata and buffers are copied to
  // aligned memory where needed.
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeStream(IntStringSchema(), batches).ValueOrDie();
  std::string shifted = "xyz" + std::string(bytes->view());
  auto holder = Buffer::FromString(shifted);
  auto view = SliceBuffer(holder, 3, bytes->size());
  auto read = ReadStream(view).ValueOrDie();
  ExpectBatchesEqual(batches, read);
  for (const auto& batch : read) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(batch->column_data(2)->buffers[1]->data()) % 8, 0u);
  }
}

TEST(StreamFraming, ReadsFromPipeLikeStream) {
  auto batches = SampleBatches();
  BufferPtr bytes = SerializeStream(IntStringSchema(), batches).ValueOrDie();
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], bytes->data(), static_cast<size_t>(bytes->size())), bytes->size());
  ::close(fds[1]);
  auto in = std::make_shared<io::FdInputStream>(fds[0], true, "pipe");
  auto reader = StreamReader::Open(in).ValueOrDie();
  ExpectBatchesEqual(batches, reader->ReadAll().ValueOrDie());
}

TEST(StreamFraming, HugeDeclaredBodyFromPipeDoesNotAllocateIt) {
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  b.AddRecordBatch(meta, Int32Body(&body, {1, 2}, &meta), int64_t{1} << 40);
  std::string bytes = b.bytes();
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fds[1]);
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  auto in = std::make_shared<io::FdInputStream>(fds[0], true, "pipe", &pool);
  auto reader = StreamReader::Open(in, options).ValueOrDie();
  EXPECT_ERROR_CONTAINS(reader->Next().status(), "is truncated");
  EXPECT_LT(pool.max_memory(), 16 << 20);
}

// ===========================================================================
// Record batch bodies

}  // namespace
}  // namespace alkaid::ipc

namespace alkaid::ipc {
namespace {

// Types are checked once when the schema is read (batches are then validated
// with the types trusted): a schema whose parameters are out of range is
// refused at open, naming the field.
TEST(StreamReaderTest, SchemaWithInvalidTypeParametersIsRefusedAtOpen) {
  auto schema = alkaid::schema({field("ok", int32()), field("amount", decimal128(0, 0))});
  Result<BufferPtr> bytes = SerializeStream(schema, {});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto reader = StreamReader::Open(*bytes);
  ASSERT_FALSE(reader.ok());
  EXPECT_THAT(reader.status().message(), ::testing::HasSubstr("field 'amount'"));
  EXPECT_THAT(reader.status().message(), ::testing::HasSubstr("precision must be in [1, 38], got 0"));
}

}  // namespace
}  // namespace alkaid::ipc
