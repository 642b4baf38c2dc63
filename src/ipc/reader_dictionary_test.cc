// Dictionaries (deltas, replacement, ids, nesting) in streams and files, column projection,
// and big-endian input converted to native order.
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

}  // namespace
}  // namespace alkaid::ipc
