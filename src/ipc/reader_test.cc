// Byte-level tests of the IPC readers: framing, verification, body checks,
// compression caps, dictionaries, projection, byte order and the decoder.
#include "alkaid/ipc/reader.h"

#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/writer.h"
#include "src/ipc/reader_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using testing::BodyBuilder;
using testing::CollectingListener;
using testing::IpcBuilder;
using testing::ReadFile;
using testing::ReadStream;
using testing::Utf8DictBody;
using internal::BufferMeta;
using internal::FileBlock;
using internal::RecordBatchMeta;
namespace fb = internal::fb;

bool IsInside(const uint8_t* p, const Buffer& region) {
  return p >= region.data() && p < region.data() + region.size();
}

SchemaPtr IntStringSchema() {
  return schema({field("i", int32()), field("s", utf8()), field("d", float64())});
}

RecordBatchPtr IntStringBatch(const std::string& ints, const std::string& strs,
                              const std::string& doubles) {
  auto s = IntStringSchema();
  auto i = ArrayFromJSON(int32(), ints);
  auto t = ArrayFromJSON(utf8(), strs);
  auto d = ArrayFromJSON(float64(), doubles);
  return RecordBatch::Make(s, i->length, {i, t, d});
}

std::vector<RecordBatchPtr> SampleBatches() {
  return {IntStringBatch("[1, 2, null]", R"(["a", null, "ccc"])", "[1.5, 2.5, 3.5]"),
          IntStringBatch("[4, 5]", R"(["dd", "eeeee"])", "[null, -1]")};
}

void ExpectBatchesEqual(const std::vector<RecordBatchPtr>& expected,
                        const std::vector<RecordBatchPtr>& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t b = 0; b < expected.size(); ++b) {
    ASSERT_EQ(expected[b]->num_rows(), actual[b]->num_rows());
    ASSERT_EQ(expected[b]->num_columns(), actual[b]->num_columns());
    for (int c = 0; c < expected[b]->num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*expected[b]->column_data(c), *actual[b]->column_data(c)))
          << "batch " << b << " column " << c << ": "
          << ArrayDiff(*expected[b]->column_data(c), *actual[b]->column_data(c));
    }
  }
}

// A one-column int32 stream built by hand: nodes and buffers as given.
SchemaPtr Int32Schema() { return schema({field("x", int32())}); }

std::string Int32Body(BodyBuilder* body, std::vector<int32_t> values, RecordBatchMeta* meta,
                      int64_t misalign = 0) {
  meta->length = static_cast<int64_t>(values.size());
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body->Absent(), body->AddValues(values, misalign)};
  return body->bytes();
}

// ===========================================================================
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

class BodyTest : public ::testing::Test {
 protected:
  // Builds a stream with the Int32Schema and one hand-made batch.
  Status ReadOne(const RecordBatchMeta& meta, const std::string& body,
                 const IpcReadOptions& options = IpcReadOptions::Defaults(),
                 SchemaPtr s = Int32Schema()) {
    IpcBuilder b(std::move(s));
    b.AddSchema();
    b.AddRecordBatch(meta, body);
    b.AddEndOfStream();
    auto result = ReadStream(b.FinishStream(), options);
    if (result.ok()) batches_ = *result;
    return result.status();
  }
  std::vector<RecordBatchPtr> batches_;
};

TEST_F(BodyTest, ValidBatch) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {10, 20, 30}, &meta);
  ASSERT_TRUE(ReadOne(meta, bytes).ok());
  ASSERT_EQ(batches_.size(), 1u);
  EXPECT_TRUE(ArrayEquals(*batches_[0]->column_data(0), *ArrayFromJSON(int32(), "[10, 20, 30]")));
  // A length-0 validity buffer means "no nulls".
  EXPECT_EQ(batches_[0]->column_data(0)->buffers[0], nullptr);
}

TEST_F(BodyTest, BufferOutsideBody) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {1, 2, 3}, &meta);
  meta.buffers[1].offset = 64;
  auto st = ReadOne(meta, bytes);
  EXPECT_FALSE(st.ok());
  EXPECT_ERROR_CONTAINS(st, "buffer 1");
  meta.buffers[1] = {0, int64_t{1} << 62};
  EXPECT_FALSE(ReadOne(meta, bytes).ok());
  meta.buffers[1] = {INT64_MAX - 4, 8};  // offset + length overflows
  EXPECT_FALSE(ReadOne(meta, bytes).ok());
}

TEST_F(BodyTest, TooFewAndTooManyBuffers) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {1, 2, 3}, &meta);
  RecordBatchMeta fewer = meta;
  fewer.buffers.pop_back();
  EXPECT_ERROR_CONTAINS(ReadOne(fewer, bytes), "fewer than the schema needs");
  RecordBatchMeta more = meta;
  more.buffers.push_back(meta.buffers[1]);
  EXPECT_ERROR_CONTAINS(ReadOne(more, bytes), "the schema uses only 2");
}

TEST_F(BodyTest, TooFewAndTooManyNodes) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {1, 2, 3}, &meta);
  RecordBatchMeta fewer = meta;
  fewer.nodes.clear();
  EXPECT_ERROR_CONTAINS(ReadOne(fewer, bytes), "field nodes, fewer than the schema needs");
  RecordBatchMeta more = meta;
  more.nodes.push_back({3, 0});
  EXPECT_ERROR_CONTAINS(ReadOne(more, bytes), "2 field nodes but the schema uses only 1");
}

TEST_F(BodyTest, NodeCountsAreChecked) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {1, 2, 3}, &meta);
  RecordBatchMeta bad = meta;
  bad.nodes[0] = {3, 4};  // more nulls than slots
  EXPECT_FALSE(ReadOne(bad, bytes).ok());
  bad.nodes[0] = {-1, 0};
  EXPECT_FALSE(ReadOne(bad, bytes).ok());
  // Nulls declared, but no validity bitmap.
  bad.nodes[0] = {3, 1};
  EXPECT_ERROR_CONTAINS(ReadOne(bad, bytes), "validity buffer 0 is empty");
  // A node longer than its buffer: validation catches it.
  bad.nodes[0] = {4, 0};
  bad.length = 4;
  EXPECT_FALSE(ReadOne(bad, bytes).ok());
}

TEST_F(BodyTest, ColumnLengthMustMatchBatchLength) {
  BodyBuilder body;
  RecordBatchMeta meta;
  std::string bytes = Int32Body(&body, {1, 2, 3}, &meta);
  meta.length = 2;
  EXPECT_ERROR_CONTAINS(ReadOne(meta, bytes), "has 3 rows but the record batch declares 2");
}

TEST_F(BodyTest, MisalignedBufferIsCopiedToAlignedMemory) {
  auto s = schema({field("x", int64())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int64_t>{-1, 1LL << 40, 7}, 4)};
  ASSERT_EQ(meta.buffers[1].offset % 8, 4);
  ASSERT_TRUE(ReadOne(meta, body.bytes(), IpcReadOptions::Defaults(), s).ok());
  const auto& data = batches_[0]->column_data(0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data->buffers[1]->data()) % 8, 0u);
  EXPECT_TRUE(ArrayEquals(*data, *ArrayFromJSON(int64(), "[-1, 1099511627776, 7]")));
}

TEST_F(BodyTest, NullTypeHasNoBuffers) {
  auto s = schema({field("n", null())});
  RecordBatchMeta meta;
  meta.length = 5;
  meta.nodes = {{5, 5}};
  ASSERT_TRUE(ReadOne(meta, "", IpcReadOptions::Defaults(), s).ok()) << ReadOne(meta, "", IpcReadOptions::Defaults(), s);
  const auto& data = batches_[0]->column_data(0);
  EXPECT_EQ(data->length, 5);
  EXPECT_EQ(data->GetNullCount(), 5);
  EXPECT_TRUE(data->buffers.empty());
}

TEST_F(BodyTest, ValidationRejectsBadOffsetsUnlessTrusted) {
  auto s = schema({field("s", utf8())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}};
  // Offsets go backwards: only full validation reads them.
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{0, 3, 1}), body.Add("abc")};
  EXPECT_FALSE(ReadOne(meta, body.bytes(), IpcReadOptions::Defaults(), s).ok());
  IpcReadOptions trusted;
  trusted.validate_full = false;
  EXPECT_TRUE(ReadOne(meta, body.bytes(), trusted, s).ok());
}

TEST_F(BodyTest, ErrorNamesFieldPath) {
  auto s = schema({field("outer", struct_({field("inner", int32())}))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {2, 0}};
  meta.buffers = {body.Absent(), body.Absent()};  // inner's values buffer missing
  auto st = ReadOne(meta, body.bytes(), IpcReadOptions::Defaults(), s);
  EXPECT_ERROR_CONTAINS(st, "outer.inner");
  EXPECT_ERROR_CONTAINS(st, "stream message 1");
}

TEST_F(BodyTest, VariadicBufferCounts) {
  auto s = schema({field("v", utf8_view())});
  BodyBuilder body;
  // Two views: one inline, one pointing into data buffer 0.
  std::string views(32, '\0');
  int32_t len_a = 2;
  std::memcpy(&views[0], &len_a, 4);
  std::memcpy(&views[4], "hi", 2);
  int32_t len_b = 20, index = 0, offset = 0;
  std::memcpy(&views[16], &len_b, 4);
  std::memcpy(&views[20], "abcd", 4);
  std::memcpy(&views[24], &index, 4);
  std::memcpy(&views[28], &offset, 4);
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}};
  meta.buffers = {body.Absent(), body.Add(views), body.Add("abcdefghijklmnopqrst")};
  meta.variadic_buffer_counts = {1};
  ASSERT_TRUE(ReadOne(meta, body.bytes(), IpcReadOptions::Defaults(), s).ok())
      << ReadOne(meta, body.bytes(), IpcReadOptions::Defaults(), s);
  EXPECT_TRUE(ArrayEquals(*batches_[0]->column_data(0),
                          *ArrayFromJSON(utf8_view(), R"(["hi", "abcdefghijklmnopqrst"])")));

  RecordBatchMeta missing = meta;
  missing.variadic_buffer_counts.clear();
  EXPECT_ERROR_CONTAINS(ReadOne(missing, body.bytes(), IpcReadOptions::Defaults(), s),
                        "variadic buffer count");
  RecordBatchMeta negative = meta;
  negative.variadic_buffer_counts = {-1};
  EXPECT_FALSE(ReadOne(negative, body.bytes(), IpcReadOptions::Defaults(), s).ok());
  RecordBatchMeta too_many = meta;
  too_many.variadic_buffer_counts = {5};
  EXPECT_ERROR_CONTAINS(ReadOne(too_many, body.bytes(), IpcReadOptions::Defaults(), s),
                        "exceeds the 1 buffers left");
  RecordBatchMeta extra = meta;
  extra.variadic_buffer_counts = {1, 0};
  EXPECT_ERROR_CONTAINS(ReadOne(extra, body.bytes(), IpcReadOptions::Defaults(), s),
                        "variadic buffer counts");
  // A view pointing past its data buffer fails full validation.
  RecordBatchMeta zero = meta;
  zero.variadic_buffer_counts = {0};
  zero.buffers.pop_back();
  EXPECT_FALSE(ReadOne(zero, body.bytes(), IpcReadOptions::Defaults(), s).ok());
}

TEST_F(BodyTest, MetadataV4UnionSkipsValidityBuffer) {
  auto s = schema({field("u", sparse_union({field("a", int32()), field("b", utf8())}, {0, 1}))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {2, 0}, {2, 0}};
  meta.buffers = {body.Absent(),                                    // V4 union validity
                  body.AddValues(std::vector<int8_t>{0, 1}),        // type ids
                  body.Absent(), body.AddValues(std::vector<int32_t>{5, 0}),  // a
                  body.Absent(), body.AddValues(std::vector<int32_t>{0, 0, 2}),
                  body.Add("xy")};  // b
  IpcBuilder b(s, false, fb::MetadataVersion::V4);
  b.AddSchema();
  b.AddRecordBatch(meta, body.bytes());
  auto read = ReadStream(b.FinishStream());
  ASSERT_TRUE(read.ok()) << read.status();
  auto expected = ArrayFromJSON(s->field(0)->type(), R"([[0, 5], [1, "xy"]])");
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *expected))
      << ArrayDiff(*(*read)[0]->column_data(0), *expected);
  // The same buffers under V5 have one buffer too many.
  IpcBuilder v5(s);
  v5.AddSchema();
  v5.AddRecordBatch(meta, body.bytes());
  EXPECT_FALSE(ReadStream(v5.FinishStream()).ok());
}

TEST(Nesting, DepthLimitFromOptions) {
  DataTypePtr type = int32();
  for (int i = 0; i < 6; ++i) type = list(type);
  auto s = schema({field("deep", type)});
  auto batch = RecordBatch::Make(s, 0, {ArrayFromJSON(type, "[]")});
  BufferPtr bytes = SerializeStream(s, {batch}).ValueOrDie();
  IpcReadOptions shallow;
  shallow.max_recursion_depth = 3;
  EXPECT_FALSE(StreamReader::Open(bytes, shallow).ok());
  EXPECT_TRUE(ReadStream(bytes).ok());
}

// ===========================================================================
// Compression

class CompressionTest : public ::testing::TestWithParam<CompressionType> {};

TEST_P(CompressionTest, RoundTripSerialAndParallel) {
  IpcWriteOptions write;
  write.compression = GetParam();
  std::string many;
  for (int i = 0; i < 2000; ++i) many += (i ? ", " : "") + std::to_string(i % 17);
  auto s = schema({field("x", int64())});
  auto batch = RecordBatch::Make(s, 2000, {ArrayFromJSON(int64(), "[" + many + "]")});
  BufferPtr bytes = SerializeStream(s, {batch}, write).ValueOrDie();
  for (bool threads : {false, true}) {
    IpcReadOptions read;
    read.use_threads = threads;
    auto batches = ReadStream(bytes, read).ValueOrDie();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_TRUE(ArrayEquals(*batches[0]->column_data(0), *batch->column_data(0)));
  }
}

// A compressed int32 column whose uncompressed-length prefix says `declared`.
std::string CompressedInt32Body(CompressionType type, const std::vector<int32_t>& values,
                                int64_t declared, RecordBatchMeta* meta) {
  auto codec = Codec::Create(type).ValueOrDie();
  int64_t raw_size = static_cast<int64_t>(values.size() * 4);
  std::string frame(static_cast<size_t>(codec->MaxCompressedLength(raw_size)), '\0');
  int64_t n = codec->Compress(reinterpret_cast<const uint8_t*>(values.data()), raw_size,
                              reinterpret_cast<uint8_t*>(frame.data()),
                              static_cast<int64_t>(frame.size()))
                  .ValueOrDie();
  frame.resize(static_cast<size_t>(n));
  std::string encoded(8, '\0');
  std::memcpy(encoded.data(), &declared, 8);
  encoded += frame;
  BodyBuilder body;
  meta->length = static_cast<int64_t>(values.size());
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body.Absent(), body.Add(encoded)};
  meta->compression = type;
  return body.bytes();
}

TEST_P(CompressionTest, TruthfulPrefixReads) {
  RecordBatchMeta meta;
  std::string body = CompressedInt32Body(GetParam(), {1, 2, 3}, 12, &meta);
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  auto read = ReadStream(b.FinishStream()).ValueOrDie();
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *ArrayFromJSON(int32(), "[1, 2, 3]")));
}

TEST_P(CompressionTest, HugeDeclaredLengthRefusedBeforeAllocating) {
  RecordBatchMeta meta;
  std::string body = CompressedInt32Body(GetParam(), {1, 2, 3}, int64_t{1} << 40, &meta);
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  EXPECT_ERROR_CONTAINS(ReadStream(b.FinishStream(), options).status(), "justifies");
  EXPECT_LT(pool.max_memory(), 1 << 20);
}

TEST_P(CompressionTest, NegativePrefixNamesTheBuffer) {
  RecordBatchMeta meta;
  // -1 means "stored raw"; anything lower is no length at all.
  std::string body = CompressedInt32Body(GetParam(), {1, 2, 3}, -5, &meta);
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  EXPECT_ERROR_CONTAINS(ReadStream(b.FinishStream()).status(),
                        "compressed buffer 1: compressed body buffer declares a negative length "
                        "(-5)");
}

TEST_P(CompressionTest, LengthMismatchFails) {
  RecordBatchMeta meta;
  // Says 16 bytes, the frame holds 12.
  std::string body = CompressedInt32Body(GetParam(), {1, 2, 3}, 16, &meta);
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  EXPECT_FALSE(ReadStream(b.FinishStream()).ok());
}

TEST_P(CompressionTest, MessageWideCapApplies) {
  // Many buffers each within what their node justifies, but more in total
  // than the options allow for a message this small.
  RecordBatchMeta meta;
  std::vector<int32_t> values(1000, 42);
  std::string body = CompressedInt32Body(GetParam(), values, 4000, &meta);
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  IpcReadOptions options;
  options.max_decompressed_message_bytes = 1000;
  Result<std::vector<RecordBatchPtr>> refused = ReadStream(b.FinishStream(), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("max_decompressed_message_bytes"), std::string::npos)
      << refused.status();
  EXPECT_TRUE(ReadStream(b.FinishStream()).ok());
}

TEST_P(CompressionTest, RawPrefixMeansUncompressed) {
  std::vector<int32_t> values = {4, 5, 6};
  std::string encoded(8, '\0');
  int64_t raw = -1;
  std::memcpy(encoded.data(), &raw, 8);
  encoded.append(reinterpret_cast<const char*>(values.data()), 12);
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.Add(encoded)};
  meta.compression = GetParam();
  IpcBuilder b(Int32Schema());
  b.AddSchema();
  b.AddRecordBatch(meta, body.bytes());
  auto read = ReadStream(b.FinishStream()).ValueOrDie();
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *ArrayFromJSON(int32(), "[4, 5, 6]")));
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressionTest,
                         ::testing::Values(CompressionType::kLz4Frame, CompressionType::kZstd),
                         [](const auto& info) {
                           return std::string(CompressionTypeName(info.param));
                         });

// ===========================================================================
// Dictionaries

SchemaPtr DictSchema() { return schema({field("d", dictionary(int8(), utf8()))}); }


std::string Int8IndicesBody(const std::vector<int8_t>& indices, RecordBatchMeta* meta) {
  BodyBuilder body;
  meta->length = static_cast<int64_t>(indices.size());
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body.Absent(), body.AddValues(indices)};
  return body.bytes();
}

std::vector<std::string> DecodeDict(const RecordBatch& batch) {
  DictionaryArray array(batch.column_data(0));
  auto dict = std::static_pointer_cast<StringArray>(array.dictionary());
  std::vector<std::string> out;
  for (int64_t i = 0; i < array.length(); ++i) out.push_back(dict->GetString(array.GetValueIndex(i)));
  return out;
}

TEST(Dictionaries, StreamDeltasAndReplacement) {
  IpcBuilder b(DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  RecordBatchMeta rm;
  std::string body = Utf8DictBody({"a", "b"}, 0, false, &dm);
  b.AddDictionaryBatch(dm, body);
  body = Int8IndicesBody({0, 1, 1}, &rm);
  b.AddRecordBatch(rm, body);
  body = Utf8DictBody({"c"}, 0, true, &dm);
  b.AddDictionaryBatch(dm, body);
  body = Int8IndicesBody({2, 0}, &rm);
  b.AddRecordBatch(rm, body);
  body = Utf8DictBody({"x"}, 0, false, &dm);
  b.AddDictionaryBatch(dm, body);
  body = Int8IndicesBody({0}, &rm);
  b.AddRecordBatch(rm, body);
  b.AddEndOfStream();

  auto reader = StreamReader::Open(b.FinishStream()).ValueOrDie();
  auto batches = reader->ReadAll().ValueOrDie();
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(DecodeDict(*batches[0]), (std::vector<std::string>{"a", "b", "b"}));
  EXPECT_EQ(DecodeDict(*batches[1]), (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ(DecodeDict(*batches[2]), (std::vector<std::string>{"x"}));
  // Earlier batches keep the dictionary they were read with.
  EXPECT_EQ(batches[0]->column_data(0)->dictionary->length, 2);
  EXPECT_EQ(batches[1]->column_data(0)->dictionary->length, 3);
  EXPECT_EQ(reader->stats().num_dictionary_batches, 3);
  EXPECT_EQ(reader->stats().num_dictionary_deltas, 1);
  EXPECT_EQ(reader->stats().num_replaced_dictionaries, 1);
  EXPECT_EQ(reader->dictionary_ids().Get({0}), std::optional<int64_t>(0));
}

TEST(Dictionaries, UnknownIdFails) {
  IpcBuilder b(DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  std::string body = Utf8DictBody({"a"}, 99, false, &dm);
  b.AddDictionaryBatch(dm, body);
  auto st = ReadStream(b.FinishStream()).status();
  EXPECT_TRUE(st.IsKeyError()) << st;
  EXPECT_ERROR_CONTAINS(st, "id 99");
}

TEST(Dictionaries, UseBeforeDefinitionFails) {
  IpcBuilder b(DictSchema());
  b.AddSchema();
  RecordBatchMeta rm;
  std::string body = Int8IndicesBody({0}, &rm);
  b.AddRecordBatch(rm, body);
  EXPECT_ERROR_CONTAINS(ReadStream(b.FinishStream()).status(), "before any dictionary batch");
}

TEST(Dictionaries, DeltaBeforeDefinitionFails) {
  IpcBuilder b(DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  std::string body = Utf8DictBody({"a"}, 0, true, &dm);
  b.AddDictionaryBatch(dm, body);
  EXPECT_ERROR_CONTAINS(ReadStream(b.FinishStream()).status(), "delta dictionary batch");
}

TEST(Dictionaries, IndexOutOfRangeFailsValidation) {
  IpcBuilder b(DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  RecordBatchMeta rm;
  std::string body = Utf8DictBody({"a", "b"}, 0, false, &dm);
  b.AddDictionaryBatch(dm, body);
  body = Int8IndicesBody({0, 5}, &rm);
  b.AddRecordBatch(rm, body);
  EXPECT_FALSE(ReadStream(b.FinishStream()).ok());
}

TEST(Dictionaries, FileAppliesDeltasAndRefusesReplacement) {
  auto build = [](bool replacement) {
    IpcBuilder b(DictSchema());
    b.BeginFile();
    b.AddSchema();
    testing::DictionaryBatchMeta dm;
    RecordBatchMeta rm;
    std::string body = Utf8DictBody({"a", "b"}, 0, false, &dm);
    b.AddDictionaryBatch(dm, body);
    body = Utf8DictBody({"c"}, 0, !replacement, &dm);
    b.AddDictionaryBatch(dm, body);
    body = Int8IndicesBody({2, 1, 0}, &rm);
    b.AddRecordBatch(rm, body);
    b.AddEndOfStream();
    return b.FinishFile();
  };
  auto reader = FileReader::Open(build(false)).ValueOrDie();
  EXPECT_EQ(reader->num_dictionaries(), 2);
  auto batch = reader->ReadRecordBatch(0).ValueOrDie();
  EXPECT_EQ(DecodeDict(*batch), (std::vector<std::string>{"c", "b", "a"}));

  auto bad = FileReader::Open(build(true)).ValueOrDie();
  auto st = bad->ReadRecordBatch(0).status();
  EXPECT_ERROR_CONTAINS(st, "does not allow replacing");
  EXPECT_ERROR_CONTAINS(st, "dictionary block 1");
  // The error sticks.
  EXPECT_FALSE(bad->ReadRecordBatch(0).ok());
}

TEST(Dictionaries, NestedAndSharedThroughWriter) {
  auto inner = dictionary(int16(), utf8());
  auto s = schema({field("a", dictionary(int32(), list(inner))),
                   field("b", dictionary(int8(), utf8())), field("c", dictionary(int8(), utf8()))});
  auto a = ArrayFromJSON(s->field(0)->type(), R"([["x", "y"], null, ["y"], ["x", "y"]])");
  auto bcol = ArrayFromJSON(s->field(1)->type(), R"(["p", "q", "p", null])");
  auto ccol = ArrayFromJSON(s->field(2)->type(), R"(["q", "q", "p", "p"])");
  auto batch = RecordBatch::Make(s, 4, {a, bcol, ccol});
  for (bool file : {false, true}) {
    BufferPtr bytes = file ? SerializeFile(s, {batch}).ValueOrDie()
                           : SerializeStream(s, {batch}).ValueOrDie();
    auto read = file ? ReadFile(bytes) : ReadStream(bytes);
    ASSERT_TRUE(read.ok()) << read.status();
    ExpectBatchesEqual({batch}, *read);
  }
}

// ===========================================================================
// Projection

TEST(Projection, SelectsAndReordersColumns) {
  auto batches = SampleBatches();
  BufferPtr stream = SerializeStream(IntStringSchema(), batches).ValueOrDie();
  BufferPtr file = SerializeFile(IntStringSchema(), batches).ValueOrDie();
  IpcReadOptions options;
  options.included_fields = {2, 0};
  auto reader = StreamReader::Open(stream, options).ValueOrDie();
  ASSERT_EQ(reader->schema()->num_fields(), 2);
  EXPECT_EQ(reader->schema()->field(0)->name(), "d");
  EXPECT_EQ(reader->schema()->field(1)->name(), "i");
  auto read = reader->ReadAll().ValueOrDie();
  auto file_read = ReadFile(file, options).ValueOrDie();
  for (const auto& got : {read, file_read}) {
    ASSERT_EQ(got.size(), 2u);
    for (size_t b = 0; b < 2; ++b) {
      ASSERT_EQ(got[b]->num_columns(), 2);
      EXPECT_TRUE(ArrayEquals(*got[b]->column_data(0), *batches[b]->column_data(2)));
      EXPECT_TRUE(ArrayEquals(*got[b]->column_data(1), *batches[b]->column_data(0)));
    }
  }
}

TEST(Projection, BadIndicesFail) {
  BufferPtr stream = SerializeStream(IntStringSchema(), SampleBatches()).ValueOrDie();
  IpcReadOptions options;
  options.included_fields = {3};
  EXPECT_TRUE(StreamReader::Open(stream, options).status().IsIndexError());
  options.included_fields = {1, 1};
  EXPECT_ERROR_CONTAINS(StreamReader::Open(stream, options).status(), "listed twice");
}

TEST(Projection, UnselectedColumnsAreNotTouched) {
  // Column "s" has offsets that point far outside its data and a validity
  // bitmap that contradicts its null count: reading it fails, skipping it
  // must not.
  auto s = IntStringSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {2, 1}, {2, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{1, 2}),
                  body.Add("\x00", 1), body.AddValues(std::vector<int32_t>{0, 1000, -7}),
                  body.Add("zz"), body.Absent(), body.AddValues(std::vector<double>{0.5, 1.5})};
  IpcBuilder b(s);
  b.AddSchema();
  b.AddRecordBatch(meta, body.bytes());
  BufferPtr bytes = b.FinishStream();
  EXPECT_FALSE(ReadStream(bytes).ok());
  IpcReadOptions options;
  options.included_fields = {0, 2};
  auto read = ReadStream(bytes, options);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int32(), "[1, 2]")));
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(1), *ArrayFromJSON(float64(), "[0.5, 1.5]")));
}

TEST(Projection, UnselectedCompressedColumnsAreNotDecompressed) {
  auto s = schema({field("x", int32()), field("y", int32())});
  RecordBatchMeta meta;
  std::string body_x = CompressedInt32Body(CompressionType::kZstd, {1, 2, 3}, 12, &meta);
  // Column y: a frame of garbage that claims 12 bytes.
  BodyBuilder body;
  body.mutable_bytes() = body_x;
  std::string garbage(8, '\0');
  int64_t declared = 12;
  std::memcpy(garbage.data(), &declared, 8);
  garbage += "not a zstd frame";
  meta.nodes.push_back({3, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.Add(garbage));
  IpcBuilder b(s);
  b.AddSchema();
  b.AddRecordBatch(meta, body.bytes());
  BufferPtr bytes = b.FinishStream();
  EXPECT_FALSE(ReadStream(bytes).ok());
  IpcReadOptions options;
  options.included_fields = {0};
  auto read = ReadStream(bytes, options);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int32(), "[1, 2, 3]")));
}

TEST(Projection, DictionariesOfUnselectedFieldsAreSkipped) {
  auto s = schema({field("x", int32()), field("d", dictionary(int8(), utf8()))});
  for (bool file : {false, true}) {
    SCOPED_TRACE(file ? "file" : "stream");
    IpcBuilder b(s);
    if (file) b.BeginFile();
    b.AddSchema();
    // A dictionary batch whose body is nonsense (offsets out of range).
    testing::DictionaryBatchMeta dm;
    BodyBuilder dict_body;
    dm.id = 0;
    dm.data.length = 1;
    dm.data.nodes = {{1, 0}};
    dm.data.buffers = {dict_body.Absent(), dict_body.AddValues(std::vector<int32_t>{5, 900}),
                       dict_body.Add("q")};
    b.AddDictionaryBatch(dm, dict_body.bytes());
    BodyBuilder body;
    RecordBatchMeta meta;
    meta.length = 1;
    meta.nodes = {{1, 0}, {1, 0}};
    meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{9}), body.Absent(),
                    body.AddValues(std::vector<int8_t>{0})};
    b.AddRecordBatch(meta, body.bytes());
    b.AddEndOfStream();
    IpcReadOptions options;
    options.included_fields = {0};
    if (file) {
      BufferPtr bytes = b.FinishFile();
      EXPECT_FALSE(ReadFile(bytes).ok());
      auto reader = FileReader::Open(bytes, options).ValueOrDie();
      auto read = reader->ReadAll();
      ASSERT_TRUE(read.ok()) << read.status();
      EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int32(), "[9]")));
      EXPECT_EQ(reader->stats().num_dictionary_batches, 1);
      continue;
    }
    BufferPtr bytes = b.FinishStream();
    EXPECT_FALSE(ReadStream(bytes).ok());
    auto reader = StreamReader::Open(bytes, options).ValueOrDie();
    auto read = reader->ReadAll();
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int32(), "[9]")));
    EXPECT_EQ(reader->stats().num_dictionary_batches, 1);
    EXPECT_TRUE(reader->dictionary_ids().empty());
  }
}

// ===========================================================================
// Byte order

template <typename T>
T ByteSwapped(T v) {
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  std::reverse(bytes, bytes + sizeof(T));
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <typename T>
std::vector<T> SwappedAll(std::vector<T> values) {
  for (auto& v : values) v = ByteSwapped(v);
  return values;
}

TEST(Endianness, BigEndianStreamIsConvertedToNative) {
  auto dict_type = dictionary(int16(), utf8());
  auto s = std::make_shared<Schema>(
      FieldVector{field("i", int32()), field("s", utf8()), field("dec", decimal128(10, 2)),
                  field("mdn", month_day_nano_interval()), field("v", utf8_view()),
                  field("l", list(int64())), field("u", dense_union({field("a", int16())})),
                  field("d", dict_type)},
      nullptr, Endianness::kBig);
  IpcBuilder b(s);
  b.AddSchema();
  // Dictionary: utf8 ["red", "green"] with big-endian offsets.
  {
    testing::DictionaryBatchMeta dm;
    BodyBuilder body;
    dm.id = 0;
    dm.data.length = 2;
    dm.data.nodes = {{2, 0}};
    dm.data.buffers = {body.Absent(), body.AddValues(SwappedAll<int32_t>({0, 3, 8})),
                       body.Add("redgreen")};
    b.AddDictionaryBatch(dm, body.bytes());
  }
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  // i
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int32_t>({1, -2})));
  // s
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int32_t>({0, 2, 5})));
  meta.buffers.push_back(body.Add("abcde"));
  // dec: 123.45 and -1.00 as big-endian 128-bit integers
  {
    std::string dec(32, '\0');
    int64_t v = 12345;
    for (int k = 0; k < 8; ++k) dec[15 - k] = static_cast<char>((v >> (8 * k)) & 0xff);
    for (int k = 0; k < 16; ++k) dec[16 + k] = static_cast<char>(0xff);
    dec[31] = static_cast<char>(0x9c);  // -100 = ...ff9c
    meta.nodes.push_back({2, 0});
    meta.buffers.push_back(body.Absent());
    meta.buffers.push_back(body.Add(dec));
  }
  // mdn: (1 month, 2 days, 3 ns), (-1, 0, 1e12)
  {
    std::string mdn;
    auto put = [&mdn](auto value) {
      auto s = ByteSwapped(value);
      mdn.append(reinterpret_cast<const char*>(&s), sizeof(s));
    };
    put(int32_t{1});
    put(int32_t{2});
    put(int64_t{3});
    put(int32_t{-1});
    put(int32_t{0});
    put(int64_t{1000000000000});
    meta.nodes.push_back({2, 0});
    meta.buffers.push_back(body.Absent());
    meta.buffers.push_back(body.Add(mdn));
  }
  // v: inline "hey" and out-of-line "0123456789abcdefXYZ" (19 bytes)
  {
    std::string views(32, '\0');
    int32_t len = ByteSwapped(int32_t{3});
    std::memcpy(&views[0], &len, 4);
    std::memcpy(&views[4], "hey", 3);
    len = ByteSwapped(int32_t{19});
    int32_t index = ByteSwapped(int32_t{0}), offset = ByteSwapped(int32_t{1});
    std::memcpy(&views[16], &len, 4);
    std::memcpy(&views[20], "0123", 4);
    std::memcpy(&views[24], &index, 4);
    std::memcpy(&views[28], &offset, 4);
    meta.nodes.push_back({2, 0});
    meta.buffers.push_back(body.Absent());
    meta.buffers.push_back(body.Add(views));
    meta.buffers.push_back(body.Add("_0123456789abcdefXYZ"));
    meta.variadic_buffer_counts = {1};
  }
  // l: [[10], [20, 30]]
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int32_t>({0, 1, 3})));
  meta.nodes.push_back({3, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int64_t>({10, 20, 30})));
  // u: dense union, both slots child a at offsets 1, 0; a = [7, 8]
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.AddValues(std::vector<int8_t>{0, 0}));
  meta.buffers.push_back(body.AddValues(SwappedAll<int32_t>({1, 0})));
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int16_t>({7, 8})));
  // d: indices [1, 0]
  meta.nodes.push_back({2, 0});
  meta.buffers.push_back(body.Absent());
  meta.buffers.push_back(body.AddValues(SwappedAll<int16_t>({1, 0})));
  b.AddRecordBatch(meta, body.bytes());
  b.AddEndOfStream();

  auto reader = StreamReader::Open(b.FinishStream()).ValueOrDie();
  EXPECT_EQ(reader->schema()->endianness(), NativeEndianness());
  auto read = reader->ReadAll();
  ASSERT_TRUE(read.ok()) << read.status();
  const RecordBatch& batch = *(*read)[0];
  auto expect_col = [&](int c, const DataTypePtr& type, const char* json) {
    auto expected = ArrayFromJSON(type, json);
    EXPECT_TRUE(ArrayEquals(*batch.column_data(c), *expected))
        << "column " << c << ": " << ArrayDiff(*batch.column_data(c), *expected);
  };
  expect_col(0, int32(), "[1, -2]");
  expect_col(1, utf8(), R"(["ab", "cde"])");
  expect_col(2, decimal128(10, 2), R"(["123.45", "-1.00"])");
  expect_col(3, month_day_nano_interval(), "[[1, 2, 3], [-1, 0, 1000000000000]]");
  expect_col(4, utf8_view(), R"(["hey", "0123456789abcdefXYZ"])");
  expect_col(5, list(int64()), "[[10], [20, 30]]");
  expect_col(6, s->field(6)->type(), "[[0, 8], [0, 7]]");
  EXPECT_EQ(DecodeDict(*batch.SelectColumns({7}).ValueOrDie()),
            (std::vector<std::string>{"green", "red"}));
}

// ===========================================================================
// Files

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
  std::string path = ::testing::TempDir() + "/alkaid_reader_test_mapped.arrow";
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
