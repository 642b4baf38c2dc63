// Test helpers shared by the IPC reader tests (reader_*_test.cc): a three-column sample
// schema and batches, batch comparison, and a hand-built one-column int32 stream.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/ipc/compression.h"
#include "src/ipc/reader_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc::reader_test {

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

inline bool IsInside(const uint8_t* p, const Buffer& region) {
  return p >= region.data() && p < region.data() + region.size();
}

inline SchemaPtr IntStringSchema() {
  return schema({field("i", int32()), field("s", utf8()), field("d", float64())});
}

inline RecordBatchPtr IntStringBatch(const std::string& ints, const std::string& strs,
                              const std::string& doubles) {
  auto s = IntStringSchema();
  auto i = ArrayFromJSON(int32(), ints);
  auto t = ArrayFromJSON(utf8(), strs);
  auto d = ArrayFromJSON(float64(), doubles);
  return RecordBatch::Make(s, i->length, {i, t, d});
}

inline std::vector<RecordBatchPtr> SampleBatches() {
  return {IntStringBatch("[1, 2, null]", R"(["a", null, "ccc"])", "[1.5, 2.5, 3.5]"),
          IntStringBatch("[4, 5]", R"(["dd", "eeeee"])", "[null, -1]")};
}

inline void ExpectBatchesEqual(const std::vector<RecordBatchPtr>& expected,
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
inline SchemaPtr Int32Schema() { return schema({field("x", int32())}); }

inline std::string Int32Body(BodyBuilder* body, std::vector<int32_t> values, RecordBatchMeta* meta,
                      int64_t misalign = 0) {
  meta->length = static_cast<int64_t>(values.size());
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body->Absent(), body->AddValues(values, misalign)};
  return body->bytes();
}

// ===========================================================================

// A compressed int32 column whose uncompressed-length prefix says `declared`.
inline std::string CompressedInt32Body(CompressionType type, const std::vector<int32_t>& values,
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

// A one-column stream of dictionary-encoded strings (int8 indices).
inline SchemaPtr DictSchema() { return schema({field("d", dictionary(int8(), utf8()))}); }

}  // namespace alkaid::ipc::reader_test
