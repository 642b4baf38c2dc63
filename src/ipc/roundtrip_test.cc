// Writer → reader round trips for every type, through the stream and file
// formats, uncompressed and with both codecs, at 8- and 64-byte alignment.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/extension/api.h"
#include "alkaid/extension_registry.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/validate.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;

struct TypeCase {
  std::string name;
  DataTypePtr type;
  std::string json;
};

std::vector<TypeCase> AllTypeCases() {
  std::vector<TypeCase> c;
  auto add = [&](std::string name, DataTypePtr type, std::string json) {
    c.push_back({std::move(name), std::move(type), std::move(json)});
  };
  add("null", null(), "[null, null, null]");
  add("bool", boolean(), "[true, false, null, true, true, false, false, true, true]");
  add("int8", int8(), "[1, null, -128, 127]");
  add("int16", int16(), "[1, null, -32768, 32767]");
  add("int32", int32(), "[1, null, -2147483648, 2147483647]");
  add("int64", int64(), "[1, null, -9223372036854775808, 9223372036854775807]");
  add("uint8", uint8(), "[1, null, 0, 255]");
  add("uint16", uint16(), "[1, null, 0, 65535]");
  add("uint32", uint32(), "[1, null, 0, 4294967295]");
  add("uint64", uint64(), "[1, null, 0, 18446744073709551615]");
  add("float16", float16(), "[1.5, null, -2, 0]");
  add("float32", float32(), "[1.5, null, -2.25, 1e30]");
  add("float64", float64(), "[1.5, null, -2.25, 1e300]");
  add("decimal32", decimal32(7, 2), R"(["1.23", null, "-99999.99"])");
  add("decimal64", decimal64(15, 3), R"(["1.234", null, "-999999999999.999"])");
  add("decimal128", decimal128(30, 4), R"(["1.2345", null, "-12345678901234567890.1234"])");
  add("decimal256", decimal256(60, 5),
      R"(["1.23456", null, "-1234567890123456789012345678901234567890.12345"])");
  add("date32", date32(), "[0, null, 19000, -1]");
  add("date64", date64(), "[0, null, 86400000, -86400000]");
  add("time32_s", time32(TimeUnit::kSecond), "[0, null, 86399]");
  add("time32_ms", time32(TimeUnit::kMilli), "[0, null, 86399999]");
  add("time64_us", time64(TimeUnit::kMicro), "[0, null, 86399999999]");
  add("time64_ns", time64(TimeUnit::kNano), "[0, null, 86399999999999]");
  for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    std::string u = TimeUnitName(unit);
    add("timestamp_" + u, timestamp(unit), "[0, null, 1700000000, -5]");
    add("timestamp_tz_" + u, timestamp(unit, "Europe/Paris"), "[0, null, 1700000000]");
    add("duration_" + u, duration(unit), "[0, null, -86400, 123456789]");
  }
  add("month_interval", month_interval(), "[1, null, -12]");
  add("day_time_interval", day_time_interval(), "[[1, 2], null, [-3, -4]]");
  add("month_day_nano", month_day_nano_interval(), "[[1, 2, 3], null, [-1, -2, -3000000000000]]");
  add("fixed_size_binary", fixed_size_binary(3), R"(["abc", null, "xyz"])");
  add("binary", binary(), R"(["abc", null, "", "\u0001\u0002"])");
  add("utf8", utf8(), R"(["héllo", null, "", "world"])");
  add("large_binary", large_binary(), R"(["abc", null, ""])");
  add("large_utf8", large_utf8(), R"(["abc", null, "ünïcode"])");
  add("binary_view", binary_view(),
      R"(["short", null, "a value longer than twelve bytes", "", "another long value, out of line"])");
  add("utf8_view", utf8_view(),
      R"(["short", null, "a value longer than twelve bytes", "twelve bytes"])");
  add("list", list(int32()), "[[1, 2], null, [], [3]]");
  add("large_list", large_list(int32()), "[[1, 2], null, [], [3]]");
  add("list_view", list_view(int32()), "[[1, 2], null, [], [3]]");
  add("large_list_view", large_list_view(int32()), "[[1, 2], null, [], [3]]");
  add("fixed_size_list", fixed_size_list(int16(), 2), "[[1, 2], null, [3, null]]");
  add("list_of_utf8", list(utf8()), R"([["a", null], null, ["bc"]])");
  add("struct", struct_({field("a", int32()), field("b", utf8())}),
      R"([{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}])");
  add("nested_struct", struct_({field("s", struct_({field("x", float64())})), field("l", list(int8()))}),
      R"([{"s": {"x": 1.5}, "l": [1]}, {"s": null, "l": null}, null])");
  add("map", map(utf8(), int32()), R"([[["k", 1], ["j", null]], null, []])");
  add("sparse_union", sparse_union({field("a", int32()), field("b", utf8())}, {5, 7}),
      R"([[5, 1], [7, "x"], [5, null], [7, "yy"]])");
  add("dense_union", dense_union({field("a", int32()), field("b", utf8())}, {5, 7}),
      R"([[5, 1], [7, "x"], [5, null], [7, "yy"]])");
  add("dictionary", dictionary(int32(), utf8()), R"(["a", "b", null, "a"])");
  add("dictionary_uint8", dictionary(uint8(), int64()), "[10, 20, null, 10, 30]");
  add("dictionary_nested", dictionary(int16(), list(dictionary(int8(), utf8()))),
      R"([["x", "y"], null, ["y"], ["x", "y"]])");
  add("list_of_dictionary", list(dictionary(int8(), utf8())), R"([["p", "q"], null, ["q"]])");
  add("ree_int16", run_end_encoded(int16(), utf8()), R"(["a", "a", null, "b", "b"])");
  add("ree_int32", run_end_encoded(int32(), int64()), "[1, 1, 1, null, 2]");
  add("ree_int64", run_end_encoded(int64(), float32()), "[1.5, 1.5, null, null, 2]");
  return c;
}

struct Format {
  bool file;
  CompressionType compression;
  int32_t alignment;
};

void PrintTo(const Format& f, std::ostream* os) {
  *os << (f.file ? "file" : "stream") << "/" << CompressionTypeName(f.compression) << "/" << f.alignment;
}

std::string FormatName(const ::testing::TestParamInfo<Format>& info) {
  return std::string(info.param.file ? "file" : "stream") + "_" +
         CompressionTypeName(info.param.compression) + "_" + std::to_string(info.param.alignment);
}

class RoundTrip : public ::testing::TestWithParam<Format> {
 protected:
  void SetUp() override { RegisterCanonicalExtensionTypes(); }

  IpcWriteOptions WriteOptions() const {
    IpcWriteOptions options;
    options.compression = GetParam().compression;
    options.alignment = GetParam().alignment;
    return options;
  }

  Result<BufferPtr> Write(const SchemaPtr& s, const std::vector<RecordBatchPtr>& batches,
                          const IpcWriteOptions& options) const {
    return GetParam().file ? SerializeFile(s, batches, options) : SerializeStream(s, batches, options);
  }

  // Writes, reads back with full validation, and returns the batches read.
  std::vector<RecordBatchPtr> RoundTripBatches(const SchemaPtr& s,
                                               const std::vector<RecordBatchPtr>& batches,
                                               IpcWriteOptions options, ReadStats* stats = nullptr,
                                               SchemaPtr* read_schema = nullptr) {
    auto bytes = Write(s, batches, options);
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    if (!bytes.ok()) return {};
    std::vector<RecordBatchPtr> out;
    if (GetParam().file) {
      auto reader = FileReader::Open(*bytes);
      EXPECT_TRUE(reader.ok()) << reader.status();
      if (!reader.ok()) return {};
      auto read = (*reader)->ReadAll();
      EXPECT_TRUE(read.ok()) << read.status();
      if (read.ok()) out = *read;
      if (stats) *stats = (*reader)->stats();
      if (read_schema) *read_schema = (*reader)->schema();
    } else {
      auto reader = StreamReader::Open(*bytes);
      EXPECT_TRUE(reader.ok()) << reader.status();
      if (!reader.ok()) return {};
      auto read = (*reader)->ReadAll();
      EXPECT_TRUE(read.ok()) << read.status();
      if (read.ok()) out = *read;
      if (stats) *stats = (*reader)->stats();
      if (read_schema) *read_schema = (*reader)->schema();
    }
    return out;
  }

  void ExpectRoundTrip(const SchemaPtr& s, const std::vector<RecordBatchPtr>& batches) {
    auto read = RoundTripBatches(s, batches, WriteOptions());
    ASSERT_EQ(read.size(), batches.size());
    for (size_t b = 0; b < batches.size(); ++b) {
      ASSERT_EQ(read[b]->num_rows(), batches[b]->num_rows());
      ASSERT_EQ(read[b]->num_columns(), batches[b]->num_columns());
      for (int c = 0; c < batches[b]->num_columns(); ++c) {
        const ArrayData& expected = *batches[b]->column_data(c);
        const ArrayData& actual = *read[b]->column_data(c);
        EXPECT_TRUE(actual.type->Equals(*expected.type))
            << actual.type->ToString() << " vs " << expected.type->ToString();
        EXPECT_TRUE(ArrayEquals(expected, actual)) << "batch " << b << " column " << c << ": "
                                                   << ArrayDiff(expected, actual);
        EXPECT_TRUE(ValidateArrayFull(actual).ok());
      }
    }
  }
};

TEST_P(RoundTrip, EveryType) {
  for (const TypeCase& tc : AllTypeCases()) {
    SCOPED_TRACE(tc.name + ": " + tc.type->ToString());
    auto array = ArrayFromJSON(tc.type, tc.json);
    ASSERT_NE(array, nullptr);
    auto s = schema({field("col", tc.type), field("after", int32())});
    auto after = ArrayFromJSON(int32(), "[]");
    std::string ints = "[";
    for (int64_t i = 0; i < array->length; ++i) ints += (i ? ", " : "") + std::to_string(i * 3);
    after = ArrayFromJSON(int32(), ints + "]");
    auto batch = RecordBatch::Make(s, array->length, {array, after});
    // Whole, sliced in the middle, and empty.
    ExpectRoundTrip(s, {batch, batch->Slice(1, array->length - 2), batch->Slice(0, 0)});
  }
}

TEST_P(RoundTrip, AllTypesInOneBatch) {
  FieldVector fields;
  ArrayDataVector columns;
  int64_t length = -1;
  for (const TypeCase& tc : AllTypeCases()) {
    auto array = ArrayFromJSON(tc.type, tc.json);
    ASSERT_NE(array, nullptr);
    auto sliced = array->Slice(0, 3);
    fields.push_back(field(tc.name, tc.type));
    columns.push_back(sliced);
    length = 3;
  }
  auto s = schema(fields);
  ExpectRoundTrip(s, {RecordBatch::Make(s, length, columns)});
}

TEST_P(RoundTrip, ViewsWithSeveralDataBuffers) {
  // Hand-made utf8_view array whose out-of-line values live in two buffers.
  auto data0 = Buffer::FromString("first data buffer, plenty long");
  auto data1 = Buffer::FromString("SECOND DATA BUFFER, ALSO LONG");
  std::string views(16 * 4, '\0');
  auto put_view = [&](int slot, const std::string& inline_value, int32_t size, int32_t buffer,
                      int32_t offset, const BufferPtr& data) {
    char* v = &views[static_cast<size_t>(slot) * 16];
    std::memcpy(v, &size, 4);
    if (size <= 12) {
      std::memcpy(v + 4, inline_value.data(), inline_value.size());
    } else {
      std::memcpy(v + 4, data->data() + offset, 4);
      std::memcpy(v + 8, &buffer, 4);
      std::memcpy(v + 12, &offset, 4);
    }
  };
  put_view(0, "tiny", 4, 0, 0, nullptr);
  put_view(1, "", 17, 0, 6, data0);
  put_view(2, "", 18, 1, 0, data1);
  put_view(3, "", 13, 1, 7, data1);
  auto array = ArrayData::Make(utf8_view(), 4, {nullptr, Buffer::FromString(views), data0, data1}, 0);
  ASSERT_TRUE(ValidateArrayFull(*array).ok());
  auto s = schema({field("v", utf8_view())});
  ExpectRoundTrip(s, {RecordBatch::Make(s, 4, {array})});
}

TEST_P(RoundTrip, ExtensionTypes) {
  // Registered: arrow.uuid comes back as the extension type.
  auto uuid = UuidType::Make();
  auto uuids = MakeUuidArray({std::string("123e4567-e89b-12d3-a456-426614174000"), std::nullopt})
                   .ValueOrDie();
  auto s = schema({field("id", uuid)});
  ExpectRoundTrip(s, {RecordBatch::Make(s, 2, {uuids})});

  // Unregistered: read as the storage type, metadata keys kept.
  struct Private final : ExtensionType {
    Private() : ExtensionType(int16()) {}
    std::string extension_name() const override { return "alkaid.test.private"; }
    std::string Serialize() const override { return "params"; }
    Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
      return DataTypePtr(std::make_shared<Private>());
    }
  };
  auto priv = std::make_shared<Private>();
  auto storage = ArrayFromJSON(int16(), "[1, null, 3]");
  auto ext_data = ArrayData::Make(priv, 3, storage->buffers, storage->null_count);
  auto s2 = schema({field("p", priv)});
  SchemaPtr read_schema;
  auto read = RoundTripBatches(s2, {RecordBatch::Make(s2, 3, {ext_data})}, WriteOptions(), nullptr,
                               &read_schema);
  ASSERT_EQ(read.size(), 1u);
  ASSERT_NE(read_schema, nullptr);
  EXPECT_TRUE(read_schema->field(0)->type()->Equals(*int16()));
  ASSERT_NE(read_schema->field(0)->metadata(), nullptr);
  EXPECT_EQ(read_schema->field(0)->metadata()->Get(kExtensionNameKey).ValueOrDie(),
            "alkaid.test.private");
  EXPECT_EQ(read_schema->field(0)->metadata()->Get(kExtensionMetadataKey).ValueOrDie(), "params");
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *storage));
}

TEST_P(RoundTrip, SharedDictionaryIds) {
  auto type = dictionary(int8(), utf8());
  auto a = ArrayFromJSON(type, R"(["x", "y", "x"])");
  auto s = schema({field("a", type), field("b", type)});
  IpcWriteOptions options = WriteOptions();
  DictionaryIds ids;
  ids.Set({0}, 7);
  ids.Set({1}, 7);
  options.dictionary_ids = ids;
  ReadStats stats;
  SchemaPtr read_schema;
  auto batch = RecordBatch::Make(s, 3, {a, a});
  auto read = RoundTripBatches(s, {batch}, options, &stats, &read_schema);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *a));
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(1), *a));
  EXPECT_EQ(stats.num_dictionary_batches, 1);
  // Both columns share the one dictionary read.
  EXPECT_EQ(read[0]->column_data(0)->dictionary, read[0]->column_data(1)->dictionary);
}

TEST_P(RoundTrip, DictionaryDeltasAndReplacement) {
  auto type = dictionary(int16(), utf8());
  auto s = schema({field("d", type)});
  auto b1 = RecordBatch::Make(s, 2, {ArrayFromJSON(type, R"(["a", "b"])")});
  auto b2 = RecordBatch::Make(s, 3, {ArrayFromJSON(type, R"(["a", "b", "c"])")});
  auto b3 = RecordBatch::Make(s, 1, {ArrayFromJSON(type, R"(["x"])")});
  ReadStats stats;
  if (GetParam().file) {
    // Files cannot replace dictionaries, but deltas are fine.
    auto read = RoundTripBatches(s, {b1, b2}, WriteOptions(), &stats);
    ASSERT_EQ(read.size(), 2u);
    // In a file every batch sees the final (fully extended) dictionary.
    EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *b1->column_data(0)));
    EXPECT_TRUE(ArrayEquals(*read[1]->column_data(0), *b2->column_data(0)));
    EXPECT_EQ(stats.num_dictionary_deltas, 1);
    return;
  }
  auto read = RoundTripBatches(s, {b1, b2, b3}, WriteOptions(), &stats);
  ASSERT_EQ(read.size(), 3u);
  EXPECT_TRUE(ArrayEquals(*read[0]->column_data(0), *b1->column_data(0)));
  EXPECT_TRUE(ArrayEquals(*read[1]->column_data(0), *b2->column_data(0)));
  EXPECT_TRUE(ArrayEquals(*read[2]->column_data(0), *b3->column_data(0)));
  EXPECT_EQ(stats.num_dictionary_deltas, 1);
  EXPECT_EQ(stats.num_replaced_dictionaries, 1);
  EXPECT_EQ(stats.num_dictionary_batches, 3);
}

TEST_P(RoundTrip, ManyBatchesAndEmptySchema) {
  auto s = schema({field("x", int64()), field("y", utf8())});
  std::vector<RecordBatchPtr> batches;
  for (int i = 0; i < 20; ++i) {
    batches.push_back(RecordBatch::Make(
        s, 2, {ArrayFromJSON(int64(), "[" + std::to_string(i) + ", null]"),
               ArrayFromJSON(utf8(), R"(["v)" + std::to_string(i) + R"(", "w"])")}));
  }
  ExpectRoundTrip(s, batches);
  ExpectRoundTrip(s, {});
  auto empty = schema({});
  ExpectRoundTrip(empty, {RecordBatch::Make(empty, 5, {})});
}

std::vector<Format> AllFormats() {
  std::vector<Format> out;
  for (bool file : {false, true}) {
    for (CompressionType c :
         {CompressionType::kNone, CompressionType::kLz4Frame, CompressionType::kZstd}) {
      for (int32_t alignment : {8, 64}) out.push_back({file, c, alignment});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Formats, RoundTrip, ::testing::ValuesIn(AllFormats()), FormatName);

TEST(RoundTripLegacy, LegacyStreamEveryType) {
  IpcWriteOptions options;
  options.write_legacy_format = true;
  for (const TypeCase& tc : AllTypeCases()) {
    SCOPED_TRACE(tc.name);
    auto array = ArrayFromJSON(tc.type, tc.json);
    ASSERT_NE(array, nullptr);
    auto s = schema({field("c", tc.type)});
    auto bytes = SerializeStream(s, {RecordBatch::Make(s, array->length, {array})}, options);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    auto reader = StreamReader::Open(*bytes);
    ASSERT_TRUE(reader.ok()) << reader.status();
    auto read = (*reader)->ReadAll();
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_EQ(read->size(), 1u);
    EXPECT_TRUE(ArrayEquals(*array, *(*read)[0]->column_data(0)));
  }
}

// Both readers used through the RecordBatchReader interface.
TEST(RoundTripReaderInterface, StreamAndFileReadersYieldEveryBatchThenNull) {
  auto s = schema({field("c", int32())});
  std::vector<RecordBatchPtr> batches;
  for (const char* json : {"[1, 2]", "[3]", "[null, 5, 6]"}) {
    auto array = ArrayFromJSON(int32(), json);
    ASSERT_NE(array, nullptr);
    batches.push_back(RecordBatch::Make(s, array->length, {array}));
  }
  auto stream = SerializeStream(s, batches).ValueOrDie();
  auto file = SerializeFile(s, batches).ValueOrDie();
  std::vector<std::unique_ptr<RecordBatchReader>> readers;
  readers.push_back(StreamReader::Open(stream).ValueOrDie());
  readers.push_back(FileReader::Open(file).ValueOrDie());
  for (auto& reader : readers) {
    EXPECT_TRUE(reader->schema()->Equals(*s));
    auto first = reader->Next().ValueOrDie();
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(first->Equals(*batches[0]));
    auto table = reader->ToTable().ValueOrDie();
    EXPECT_EQ(table->num_rows(), 4);
    EXPECT_EQ(reader->Next().ValueOrDie(), nullptr);
  }
}

// Two flatbuffer tables a field (the Field and its type): 520,000 columns
// put more than a million tables in the schema message and in the file
// footer. The verifier's table budget grows with the buffer, so what the
// writer wrote reads back; a fixed budget of a million refused it. The
// file's stream part (after its 8-byte magic) is read as a stream.
TEST(RoundTripWide, SchemaOfMoreThanAMillionTables) {
  constexpr int kColumns = 520'000;
  FieldVector fields;
  fields.reserve(kColumns);
  for (int i = 0; i < kColumns; ++i) {
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'c');  // not "c" + ...: GCC 12 warns wrongly (-Wrestrict)
    fields.push_back(field(std::move(name), null()));
  }
  auto s = schema(std::move(fields));
  auto column = ArrayData::Make(null(), 1, {nullptr}, 1);
  auto batch = RecordBatch::Make(s, 1, ArrayDataVector(kColumns, column));
  auto file = SerializeFile(s, {batch}).ValueOrDie();
  auto from_file = FileReader::Open(file);
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  auto from_stream = StreamReader::Open(SliceBuffer(file, 8, file->size() - 8));
  ASSERT_TRUE(from_stream.ok()) << from_stream.status();
  for (RecordBatchReader* reader : {static_cast<RecordBatchReader*>(from_file->get()),
                                    static_cast<RecordBatchReader*>(from_stream->get())}) {
    ASSERT_EQ(reader->schema()->num_fields(), kColumns);
    EXPECT_EQ(reader->schema()->field(kColumns - 1)->name(), "c519999");
    auto read = reader->Next();
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_NE(*read, nullptr);
    EXPECT_EQ((*read)->num_columns(), kColumns);
    EXPECT_EQ((*read)->num_rows(), 1);
  }
}

}  // namespace
}  // namespace alkaid::ipc
