// Record batch bodies read by the IPC readers: buffers and nodes against the body, alignment,
// validation, variadic counts, nesting depth, and compressed buffers with their caps.
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

}  // namespace
}  // namespace alkaid::ipc
