// The structural rules the IPC loader enforces as it cuts buffers (the
// readers no longer run the structural pass of ValidateArray on loaded
// batches): one smallest hand-built batch per rule, read both with full
// validation and trusted (validate_full = false), which must refuse alike.
#include <cstring>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/ipc/reader.h"
#include "src/ipc/reader_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using testing::BodyBuilder;
using testing::IpcBuilder;
using testing::ReadStream;
using internal::BufferMeta;
using internal::RecordBatchMeta;

// Reads one hand-made batch of `s` as a stream.
Result<std::vector<RecordBatchPtr>> ReadBatch(const SchemaPtr& s, const RecordBatchMeta& meta,
                                              const std::string& body, bool full = true) {
  IpcBuilder b(s);
  b.AddSchema();
  b.AddRecordBatch(meta, body);
  b.AddEndOfStream();
  IpcReadOptions options;
  options.validate_full = full;
  return ReadStream(b.FinishStream(), options);
}

// Expects the batch refused with `text` in the message, with and without
// full validation.
void ExpectRefused(const SchemaPtr& s, const RecordBatchMeta& meta, const std::string& body,
                   const std::string& text) {
  for (bool full : {true, false}) {
    SCOPED_TRACE(full ? "full validation" : "trusted");
    EXPECT_ERROR_CONTAINS(ReadBatch(s, meta, body, full).status(), text);
  }
}

void ExpectRead(const SchemaPtr& s, const RecordBatchMeta& meta, const std::string& body,
                const std::string& json) {
  auto read = ReadBatch(s, meta, body);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  auto expected = ArrayFromJSON(s->field(0)->type(), json);
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *expected))
      << ArrayDiff(*(*read)[0]->column_data(0), *expected);
}

TEST(LoaderLayout, FixedWidthValuesTooSmall) {
  auto s = schema({field("x", int32())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{1, 2})};
  ExpectRefused(s, meta, body.bytes(),
                "field x (path [0]): values buffer (buffer 1 of the record batch) has 8 bytes but "
                "12 are needed (length = 3 elements of 4 bytes)");
  // Exactly enough is fine; more is fine too (writers pad).
  meta.length = 2;
  meta.nodes = {{2, 0}};
  ExpectRead(s, meta, body.bytes(), "[1, 2]");
  meta.length = 1;
  meta.nodes = {{1, 0}};
  ExpectRead(s, meta, body.bytes(), "[1]");
}

TEST(LoaderLayout, WidthOfEachFixedWidthKind) {
  // One slot more than the 8 bytes given: every width is checked by its own size.
  struct Case {
    DataTypePtr type;
    int64_t length;
    const char* needed;
  };
  for (const Case& c : {Case{int64(), 2, "16 are needed"}, Case{float64(), 2, "16 are needed"},
                        Case{int8(), 9, "9 are needed"}, Case{decimal128(10, 2), 1, "16 are needed"},
                        Case{fixed_size_binary(3), 3, "9 are needed"},
                        Case{month_day_nano_interval(), 1, "16 are needed"},
                        Case{day_time_interval(), 2, "16 are needed"},
                        Case{dictionary(int32(), utf8()), 3, "12 are needed"}}) {
    SCOPED_TRACE(c.type->ToString());
    auto s = schema({field("x", c.type)});
    BodyBuilder body;
    RecordBatchMeta meta;
    meta.length = c.length;
    meta.nodes = {{c.length, 0}};
    meta.buffers = {body.Absent(), body.Add(std::string(8, '\0'))};
    ExpectRefused(s, meta, body.bytes(), c.needed);
  }
}

TEST(LoaderLayout, ValidityBitmapTooSmall) {
  auto s = schema({field("x", int8())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 20;
  meta.nodes = {{20, 1}};
  meta.buffers = {body.Add(std::string(1, '\xfe')), body.Add(std::string(20, '\1'))};
  ExpectRefused(s, meta, body.bytes(),
                "validity bitmap buffer (buffer 0 of the record batch) has 1 bytes but 3 are "
                "needed (20 bits for length 20)");
  // Without nulls the bitmap is not used, whatever its size.
  meta.nodes = {{20, 0}};
  ASSERT_TRUE(ReadBatch(s, meta, body.bytes()).ok());
}

TEST(LoaderLayout, BooleanValuesTooSmall) {
  auto s = schema({field("b", boolean())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 9;
  meta.nodes = {{9, 0}};
  meta.buffers = {body.Absent(), body.Add(std::string(1, '\xff'))};
  ExpectRefused(s, meta, body.bytes(), "value bitmap buffer (buffer 1 of the record batch) has 1 "
                                       "bytes but 2 are needed");
}

TEST(LoaderLayout, OffsetsTooShort) {
  auto s = schema({field("s", utf8())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  // Three offsets for three strings: one short.
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{0, 1, 2}), body.Add("abc")};
  ExpectRefused(s, meta, body.bytes(),
                "offsets buffer (buffer 1 of the record batch) has 12 bytes but 16 are needed "
                "(length + 1 = 3 + 1 elements of 4 bytes)");
  // An empty array may come without offsets at all.
  meta.length = 0;
  meta.nodes = {{0, 0}};
  meta.buffers = {body.Absent(), body.Absent(), body.Absent()};
  ExpectRead(s, meta, body.bytes(), "[]");
}

TEST(LoaderLayout, ListOffsetsTooShort) {
  auto s = schema({field("l", large_list(int8()))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 1;
  meta.nodes = {{1, 0}, {2, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int64_t>{0}), body.Absent(),
                  body.AddValues(std::vector<int8_t>{1, 2})};
  ExpectRefused(s, meta, body.bytes(), "has 8 bytes but 16 are needed (length + 1 = 1 + 1");
}

TEST(LoaderLayout, ListViewOffsetsAndSizesOnePerSlot) {
  auto s = schema({field("l", list_view(int8()))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {3, 0}};
  const BufferMeta offsets = body.AddValues(std::vector<int32_t>{0, 1});
  const BufferMeta sizes = body.AddValues(std::vector<int32_t>{1, 2});
  const BufferMeta short_sizes = body.AddValues(std::vector<int32_t>{1});
  const BufferMeta values = body.AddValues(std::vector<int8_t>{7, 8, 9});
  // List views keep one offset per slot, not one more.
  meta.buffers = {body.Absent(), offsets, sizes, body.Absent(), values};
  ExpectRead(s, meta, body.bytes(), "[[7], [8, 9]]");
  meta.buffers = {body.Absent(), offsets, short_sizes, body.Absent(), values};
  ExpectRefused(s, meta, body.bytes(),
                "sizes buffer (buffer 2 of the record batch) has 4 bytes but 8 are needed");
}

TEST(LoaderLayout, ViewsTooShort) {
  auto s = schema({field("v", utf8_view())});
  BodyBuilder body;
  std::string view(16, '\0');
  const int32_t size = 1;
  std::memcpy(&view[0], &size, 4);
  view[4] = 'a';
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}};
  meta.buffers = {body.Absent(), body.Add(view)};
  meta.variadic_buffer_counts = {0};
  ExpectRefused(s, meta, body.bytes(),
                "views buffer (buffer 1 of the record batch) has 16 bytes but 32 are needed");
  meta.length = 1;
  meta.nodes = {{1, 0}};
  ExpectRead(s, meta, body.bytes(), R"(["a"])");
}

TEST(LoaderLayout, MissingVariadicCounts) {
  auto s = schema({field("v", binary_view())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 0;
  meta.nodes = {{0, 0}};
  meta.buffers = {body.Absent(), body.Absent()};
  ExpectRefused(s, meta, body.bytes(),
                "field v (path [0]): a view-typed field needs variadic buffer count 0 but the "
                "record batch lists 0");
  meta.variadic_buffer_counts = {0};
  ExpectRead(s, meta, body.bytes(), "[]");
}

TEST(LoaderLayout, UnionBuffersTooSmall) {
  auto s = schema({field("u", dense_union({field("a", int32())}, {0}))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {1, 0}};
  const BufferMeta ids = body.AddValues(std::vector<int8_t>{0, 0});
  const BufferMeta offsets = body.AddValues(std::vector<int32_t>{0, 0});
  const BufferMeta a = body.AddValues(std::vector<int32_t>{5});
  meta.buffers = {ids, offsets, body.Absent(), a};
  ExpectRead(s, meta, body.bytes(), "[[0, 5], [0, 5]]");
  meta.buffers = {body.AddValues(std::vector<int8_t>{0}), offsets, body.Absent(), a};
  ExpectRefused(s, meta, body.bytes(), "type ids buffer (buffer 0 of the record batch) has 1 bytes");
  meta.buffers = {ids, body.AddValues(std::vector<int32_t>{0}), body.Absent(), a};
  ExpectRefused(s, meta, body.bytes(), "values buffer (buffer 1 of the record batch) has 4 bytes");
}

TEST(LoaderChildren, TooFewNodesForChildren) {
  auto s = schema({field("st", struct_({field("a", int8()), field("b", int8())}))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 1;
  meta.nodes = {{1, 0}, {1, 0}};  // the struct and one child of two
  meta.buffers = {body.Absent(), body.Absent(), body.AddValues(std::vector<int8_t>{1})};
  ExpectRefused(s, meta, body.bytes(),
                "field st.b (path [0, 1]): the record batch has only 2 field nodes");
}

TEST(LoaderChildren, StructChildShorterThanParent) {
  auto s = schema({field("st", struct_({field("a", int8()), field("b", int8())}))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {2, 0}, {1, 0}};
  const BufferMeta two = body.AddValues(std::vector<int8_t>{1, 2});
  meta.buffers = {body.Absent(), body.Absent(), two, body.Absent(), two};
  ExpectRefused(s, meta, body.bytes(),
                "field st (path [0]): child 1 ('b') has length 1 but needs at least the parent's "
                "length 2");
  meta.nodes = {{2, 0}, {2, 0}, {2, 0}};
  ExpectRead(s, meta, body.bytes(), R"([{"a": 1, "b": 1}, {"a": 2, "b": 2}])");
}

TEST(LoaderChildren, FixedSizeListChildTooShort) {
  auto s = schema({field("f", fixed_size_list(int8(), 2))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {3, 0}};
  meta.buffers = {body.Absent(), body.Absent(), body.AddValues(std::vector<int8_t>{1, 2, 3, 4})};
  ExpectRefused(s, meta, body.bytes(),
                "the child has length 3 but needs at least length * list_size = 4");
  meta.nodes = {{2, 0}, {4, 0}};
  ExpectRead(s, meta, body.bytes(), "[[1, 2], [3, 4]]");
}

TEST(LoaderChildren, RunEndEncodedRules) {
  auto s = schema({field("r", run_end_encoded(int32(), int8()))});
  BodyBuilder body;
  const BufferMeta ends = body.AddValues(std::vector<int32_t>{2, 3});
  const BufferMeta values = body.AddValues(std::vector<int8_t>{7, 8});
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}, {2, 0}, {2, 0}};
  meta.buffers = {body.Absent(), ends, body.Absent(), values};
  ExpectRead(s, meta, body.bytes(), "[7, 7, 8]");

  RecordBatchMeta nulls = meta;
  nulls.nodes[0].null_count = 1;
  ExpectRefused(s, nulls, body.bytes(), "null count 1 must be 0: run-end encoded");
  RecordBatchMeta few_values = meta;
  few_values.nodes[2].length = 1;
  ExpectRefused(s, few_values, body.bytes(), "run_ends has length 2 but values has only 1");
  RecordBatchMeta no_runs = meta;
  no_runs.nodes = {{3, 0}, {0, 0}, {0, 0}};
  ExpectRefused(s, no_runs, body.bytes(), "length is 3 but there are no runs");
  RecordBatchMeta null_ends = meta;
  null_ends.nodes[1].null_count = 1;
  null_ends.buffers[0] = body.Add(std::string(1, '\x01'));
  ExpectRefused(s, null_ends, body.bytes(), "run_ends must not contain nulls");
}

TEST(LoaderChildren, MapKeysMustNotDeclareNulls) {
  auto s = schema({field("m", map(int8(), int8()))});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 1;
  meta.nodes = {{1, 0}, {1, 0}, {1, 1}, {1, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{0, 1}),  // map
                  body.Absent(),                                              // entries
                  body.Add(std::string(1, '\0')), body.AddValues(std::vector<int8_t>{1}),  // keys
                  body.Absent(), body.AddValues(std::vector<int8_t>{2})};                // items
  ExpectRefused(s, meta, body.bytes(), "map keys must not be null");
  meta.nodes[2].null_count = 0;
  ExpectRead(s, meta, body.bytes(), "[[[1, 2]]]");
}

TEST(LoaderLayout, CompressedBufferCheckedOnceDecompressed) {
  auto s = schema({field("x", int32())});
  BodyBuilder body;
  // A buffer stored raw in a compressed body: an int64 prefix of -1, then
  // the bytes. Eight bytes where three int32 need twelve.
  std::string raw(8, '\xff');
  raw += std::string(8, '\1');
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.Add(raw)};
  meta.compression = CompressionType::kLz4Frame;
  ExpectRefused(s, meta, body.bytes(), "values buffer (buffer 1 of the record batch) has 8 bytes "
                                       "but 12 are needed");
  meta.length = 2;
  meta.nodes = {{2, 0}};
  ExpectRead(s, meta, body.bytes(), "[16843009, 16843009]");
}

TEST(LoaderLayout, ProjectedAwayFieldsAreSkippedUnchecked) {
  // The skipped column's buffers are consumed, not cut: its too-small values
  // buffer is never looked at.
  auto s = schema({field("skip", int32()), field("keep", int8())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}, {2, 0}};
  meta.buffers = {body.Absent(), body.Absent(), body.Absent(),
                  body.AddValues(std::vector<int8_t>{4, 5})};
  IpcBuilder b(s);
  b.AddSchema();
  b.AddRecordBatch(meta, body.bytes());
  b.AddEndOfStream();
  IpcReadOptions options;
  options.included_fields = {1};
  auto read = ReadStream(b.FinishStream(), options);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(ArrayEquals(*(*read)[0]->column_data(0), *ArrayFromJSON(int8(), "[4, 5]")));
  // Selected, the same column is refused.
  EXPECT_ERROR_CONTAINS(ReadBatch(s, meta, body.bytes()).status(), "field skip (path [0])");
}

TEST(LoaderValidation, DataChecksStillRunOnLoadedColumns) {
  // Structurally sound, but the offsets decrease: only the data pass sees it.
  auto s = schema({field("s", utf8())});
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{0, 2, 1}), body.Add("ab")};
  EXPECT_ERROR_CONTAINS(ReadBatch(s, meta, body.bytes(), true).status(),
                        "column 0 's' failed validation");
  EXPECT_TRUE(ReadBatch(s, meta, body.bytes(), false).ok());
}

}  // namespace
}  // namespace alkaid::ipc
