// Export -> import round trips of every type, slice, dictionary, extension
// and gold file, at struct level and through the C Stream Interface, with
// release-exactly-once checks.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/c_data/bridge.h"
#include "alkaid/compare.h"
#include "alkaid/extension/api.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/validate.h"
#include "src/c_data/test_cases.h"
#include "test_util/array_from_json.h"
#include "test_util/test_data.h"

namespace alkaid::c_data {
namespace {

using ::alkaid::testing::ArrayFromJSON;

// Exports `data` (type and array), imports both back and checks equality.
void ExpectArrayRoundTrip(const ArrayDataPtr& data) {
  ArrowSchema c_schema;
  ArrowArray c_array;
  ASSERT_TRUE(ExportArray(*data, &c_array, &c_schema).ok());
  ASSERT_NE(c_array.release, nullptr);
  auto type = ImportType(&c_schema);
  ASSERT_TRUE(type.ok()) << type.status();
  EXPECT_EQ(c_schema.release, nullptr);  // consumed
  EXPECT_TRUE((*type)->Equals(*data->type, /*check_metadata=*/true))
      << (*type)->ToString() << " vs " << data->type->ToString();
  auto back = ImportArray(&c_array, *type);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(c_array.release, nullptr);  // moved into the import
  EXPECT_EQ(ArrayDiff(**back, *data), "");
  // Zero-copy: a slice stays a slice. An empty one has no slot to point
  // at: it goes out and comes back at offset 0.
  EXPECT_EQ((*back)->offset, data->length == 0 ? 0 : data->offset);
}

TEST(CDataRoundTrip, EveryType) {
  for (const TypeCase& tc : AllTypeCases()) {
    SCOPED_TRACE(tc.name + ": " + tc.type->ToString());
    auto array = ArrayFromJSON(tc.type, tc.json);
    ASSERT_NE(array, nullptr);
    ExpectArrayRoundTrip(array);
    ExpectArrayRoundTrip(array->Slice(1, array->length - 2));
    ExpectArrayRoundTrip(array->Slice(array->length, 0));
  }
}

TEST(CDataRoundTrip, EveryTypeAsRecordBatchAndStream) {
  FieldVector fields;
  ArrayDataVector columns;
  for (const TypeCase& tc : AllTypeCases()) {
    auto array = ArrayFromJSON(tc.type, tc.json);
    ASSERT_NE(array, nullptr);
    fields.push_back(field(tc.name, tc.type));
    columns.push_back(array->Slice(0, 3));
  }
  auto s = schema(fields, KeyValueMetadata::Make({{"origin", "alkaid"}, {"k", ""}}));
  auto batch = RecordBatch::Make(s, 3, columns);
  ArrowSchema c_schema;
  ArrowArray c_array;
  ASSERT_TRUE(ExportRecordBatch(*batch, &c_array, &c_schema).ok());
  auto back = ImportRecordBatch(&c_array, &c_schema);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE((*back)->schema()->Equals(*s, /*check_metadata=*/true));
  EXPECT_TRUE((*back)->Equals(*batch));

  auto slice = batch->Slice(1, 2);
  auto reader = RecordBatchReader::Make({batch, slice, batch->Slice(3, 0)}, s).ValueOrDie();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportRecordBatchReader(std::move(reader), &stream).ok());
  auto imported = ImportRecordBatchReader(&stream);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_TRUE((*imported)->schema()->Equals(*s, true));
  auto all = (*imported)->ReadRemaining();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_TRUE((*all)[0]->Equals(*batch));
  EXPECT_TRUE((*all)[1]->Equals(*slice));
  EXPECT_EQ((*all)[2]->num_rows(), 0);
  EXPECT_EQ((*imported)->Next().ValueOrDie(), nullptr);  // stays at the end
}

TEST(CDataRoundTrip, FieldFlagsAndMetadata) {
  auto md = KeyValueMetadata::Make({{"a", "1"}, {"a", "2"}, {"", "empty key"}, {"bin", std::string("\0x", 2)}});
  auto f = field("col", map(utf8(), list(int8()), /*keys_sorted=*/true), false, md);
  ArrowSchema c;
  ASSERT_TRUE(ExportField(*f, &c).ok());
  EXPECT_STREQ(c.format, "+m");
  EXPECT_EQ(c.flags, ARROW_FLAG_MAP_KEYS_SORTED);
  auto back = ImportField(&c);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE((*back)->Equals(*f, true)) << (*back)->ToString(true);
  EXPECT_TRUE(checked_cast<MapType>(*(*back)->type()).keys_sorted());

  auto d = field("d", dictionary(int16(), utf8(), /*ordered=*/true));
  ASSERT_TRUE(ExportField(*d, &c).ok());
  EXPECT_STREQ(c.format, "s");
  EXPECT_EQ(c.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
  ASSERT_NE(c.dictionary, nullptr);
  EXPECT_STREQ(c.dictionary->format, "u");
  auto dback = ImportField(&c);
  ASSERT_TRUE(dback.ok()) << dback.status();
  EXPECT_TRUE((*dback)->Equals(*d, true));
}

TEST(CDataRoundTrip, ExtensionTypes) {
  RegisterCanonicalExtensionTypes();
  auto uuids = MakeUuidArray({std::string("123e4567-e89b-12d3-a456-426614174000"), std::nullopt})
                   .ValueOrDie();
  ArrowSchema c;
  ASSERT_TRUE(ExportType(*uuids->type, &c).ok());
  EXPECT_STREQ(c.format, "w:16");
  auto md = DecodeForTest(c.metadata);
  EXPECT_EQ(md->Get(kExtensionNameKey).ValueOrDie(), "arrow.uuid");
  c.release(&c);
  ExpectArrayRoundTrip(uuids);
  ExpectArrayRoundTrip(uuids->Slice(1, 1));

  // A dictionary of an extension, and an extension inside a list.
  auto dict_ext = dictionary(int8(), Bool8Type::Make());
  ExpectArrayRoundTrip(ArrayFromJSON(dict_ext, "[1, 0, null, 1]"));
  ExpectArrayRoundTrip(ArrayFromJSON(list(Bool8Type::Make()), "[[1], null, [0, null]]"));

  // Unregistered: storage type, both keys kept in the field metadata.
  struct Private final : ExtensionType {
    Private() : ExtensionType(int16()) {}
    std::string extension_name() const override { return "alkaid.test.private"; }
    std::string Serialize() const override { return "params"; }
    Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
      return DataTypePtr(std::make_shared<Private>());
    }
  };
  auto f = field("p", std::make_shared<Private>());
  ASSERT_TRUE(ExportField(*f, &c).ok());
  auto back = ImportField(&c);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE((*back)->type()->Equals(*int16()));
  ASSERT_NE((*back)->metadata(), nullptr);
  EXPECT_EQ((*back)->metadata()->Get(kExtensionNameKey).ValueOrDie(), "alkaid.test.private");
  EXPECT_EQ((*back)->metadata()->Get(kExtensionMetadataKey).ValueOrDie(), "params");
}

TEST(CDataRoundTrip, ViewsCarryVariadicSizes) {
  auto array = ArrayFromJSON(
      utf8_view(), R"(["short", null, "a value longer than twelve bytes", "another long one!"])");
  ASSERT_NE(array, nullptr);
  ArrowArray c;
  ASSERT_TRUE(ExportArray(*array, &c).ok());
  const int64_t num_data = static_cast<int64_t>(array->buffers.size()) - 2;
  ASSERT_EQ(c.n_buffers, 2 + num_data + 1);
  const auto* sizes = static_cast<const int64_t*>(c.buffers[c.n_buffers - 1]);
  for (int64_t i = 0; i < num_data; ++i) {
    EXPECT_EQ(sizes[i], array->buffers[static_cast<size_t>(2 + i)]->size());
  }
  auto back = ImportArray(&c, utf8_view());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->buffers.size(), array->buffers.size());  // sizes buffer dropped
  EXPECT_TRUE(ArrayEquals(**back, *array));
}

TEST(CDataRoundTrip, ZeroCopyBothWays) {
  auto array = ArrayFromJSON(utf8(), R"(["abc", null, "de"])");
  ArrowArray c;
  ASSERT_TRUE(ExportArray(*array, &c).ok());
  EXPECT_EQ(c.buffers[1], array->buffers[1]->data());
  EXPECT_EQ(c.buffers[2], array->buffers[2]->data());
  auto back = ImportArray(&c, utf8()).ValueOrDie();
  EXPECT_EQ(back->buffers[1]->data(), array->buffers[1]->data());
  EXPECT_EQ(back->buffers[2]->data(), array->buffers[2]->data());
}

// alkaid's empty arrays may hold offsets of no bytes (the layout asks for
// none without slots; the IPC reader keeps what the file has). Consumers
// such as DuckDB read the first offset of every array all the same: the
// export hands them a zero, at offset 0, wherever the slice was.
TEST(CDataRoundTrip, EmptyArraysWithoutOffsetBytesExportAZero) {
  auto none = std::make_shared<Buffer>(nullptr, 0);
  auto child = ArrayFromJSON(int32(), "[1, 2]");
  const std::vector<std::pair<DataTypePtr, ArrayDataPtr>> cases = {
      {utf8(), ArrayData::Make(utf8(), 0, {nullptr, none, none}, 0, /*offset=*/5)},
      {large_binary(), ArrayData::Make(large_binary(), 0, {nullptr, none, nullptr}, 0)},
      {list(int32()), ArrayData::Make(list(int32()), 0, {nullptr, none}, {child}, 0, /*offset=*/1)},
      {large_list(int32()), ArrayData::Make(large_list(int32()), 0, {nullptr, nullptr}, {child}, 0)},
  };
  for (const auto& [type, data] : cases) {
    SCOPED_TRACE(type->ToString());
    ArrowArray c;
    ASSERT_TRUE(ExportArray(*data, &c).ok());
    EXPECT_EQ(c.offset, 0);
    ASSERT_NE(c.buffers[1], nullptr);
    int64_t first = -1;
    std::memcpy(&first, c.buffers[1], type->layout().buffers[1].byte_width == 4 ? 4 : 8);
    if (type->layout().buffers[1].byte_width == 4) first = static_cast<int32_t>(first);
    EXPECT_EQ(first, 0);
    auto back = ImportArray(&c, type);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ((*back)->length, 0);
    EXPECT_TRUE(ValidateArrayFull(**back).ok());
  }
}

// ---------------------------------------------------------------------------
// Release exactly once

TEST(CDataRelease, ImportedArrayReleasedWhenLastBufferDies) {
  ReleaseCounter counter;
  auto array = ArrayFromJSON(list(utf8()), R"([["a", "b"], null, ["c"]])");
  ArrowArray c;
  ASSERT_TRUE(ExportArray(*array, &c).ok());
  counter.Wrap(&c);
  auto back = ImportArray(&c, array->type).ValueOrDie();
  EXPECT_EQ(counter.calls, 0);
  BufferPtr keep = back->child_data[0]->buffers[2];  // the innermost data buffer
  back.reset();
  EXPECT_EQ(counter.calls, 0);
  keep.reset();
  EXPECT_EQ(counter.calls, 1);
}

TEST(CDataRelease, FailedImportReleasesOnce) {
  ReleaseCounter counter;
  auto array = ArrayFromJSON(int32(), "[1, 2]");
  ArrowArray c;
  ASSERT_TRUE(ExportArray(*array, &c).ok());
  counter.Wrap(&c);
  auto back = ImportArray(&c, utf8());  // wrong type: 2 buffers, utf8 needs 3
  EXPECT_FALSE(back.ok());
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(counter.calls, 1);
}

TEST(CDataRelease, ExportedStructsReleaseChildrenAndMovedChildren) {
  auto array = ArrayFromJSON(struct_({field("a", int32()), field("b", dictionary(int8(), utf8()))}),
                             R"([{"a": 1, "b": "x"}, null])");
  ArrowArray c;
  ASSERT_TRUE(ExportArray(*array, &c).ok());
  ASSERT_EQ(c.n_children, 2);
  // A consumer moves child 0 out and releases it separately.
  ArrowArray moved = *c.children[0];
  c.children[0]->release = nullptr;
  moved.release(&moved);
  EXPECT_EQ(moved.release, nullptr);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);

  ArrowSchema s;
  ASSERT_TRUE(ExportType(*array->type, &s).ok());
  ArrowSchema moved_schema = *s.children[1];
  s.children[1]->release = nullptr;
  s.release(&s);
  ASSERT_NE(moved_schema.dictionary, nullptr);
  EXPECT_STREQ(moved_schema.dictionary->format, "u");
  moved_schema.release(&moved_schema);
}

TEST(CDataRelease, StreamReleasesEveryBatch) {
  auto s = schema({field("x", int64())});
  auto b = ::alkaid::testing::RecordBatchFromJSON(s, R"([{"x": 1}, {"x": 2}])");
  auto reader = RecordBatchReader::Make({b, b}, s).ValueOrDie();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportRecordBatchReader(std::move(reader), &stream).ok());
  ArrowSchema cs;
  ASSERT_EQ(stream.get_schema(&stream, &cs), 0);
  cs.release(&cs);
  ReleaseCounter counter;
  ArrowArray a;
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  counter.Wrap(&a);
  auto batch = ImportRecordBatch(&a, s).ValueOrDie();
  batch.reset();
  EXPECT_EQ(counter.calls, 1);
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  a.release(&a);
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  EXPECT_EQ(a.release, nullptr);  // end of stream
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(CDataStream, ReaderErrorsBecomeErrnoAndMessage) {
  struct Failing final : RecordBatchReader {
    SchemaPtr s = ::alkaid::schema({field("x", int8())});
    const SchemaPtr& schema() const override { return s; }
    Result<RecordBatchPtr> Next() override { return Status::IOError("disk on fire"); }
  };
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportRecordBatchReader(std::make_shared<Failing>(), &stream).ok());
  ArrowArray a;
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("disk on fire"), std::string::npos);
  auto imported = ImportRecordBatchReader(&stream).ValueOrDie();
  auto next = imported->Next();
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.status().message().find("disk on fire"), std::string::npos);
}

TEST(CDataDevice, CpuArraysAndStreams) {
  auto array = ArrayFromJSON(list(int32()), "[[1], null, [2, 3]]");
  ArrowDeviceArray d;
  ASSERT_TRUE(ExportDeviceArray(*array, &d).ok());
  EXPECT_EQ(d.device_type, ARROW_DEVICE_CPU);
  EXPECT_EQ(d.device_id, -1);
  EXPECT_EQ(d.sync_event, nullptr);
  auto back = ImportDeviceArray(&d, array->type);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(ArrayEquals(**back, *array));

  ASSERT_TRUE(ExportDeviceArray(*array, &d).ok());
  d.device_type = ARROW_DEVICE_CUDA;
  auto gpu = ImportDeviceArray(&d, array->type);
  EXPECT_TRUE(gpu.status().IsNotImplemented());
  EXPECT_EQ(d.array.release, nullptr);

  auto s = schema({field("l", array->type)});
  auto batch = RecordBatch::Make(s, 3, {array});
  ArrowDeviceArrayStream stream;
  ASSERT_TRUE(
      ExportDeviceRecordBatchReader(RecordBatchReader::Make({batch, batch}, s).ValueOrDie(),
                                    &stream)
          .ok());
  EXPECT_EQ(stream.device_type, ARROW_DEVICE_CPU);
  auto reader = ImportDeviceRecordBatchReader(&stream).ValueOrDie();
  auto all = reader->ReadRemaining().ValueOrDie();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[1]->Equals(*batch));
}

// ---------------------------------------------------------------------------
// Gold files

std::vector<std::string> GoldFiles() {
  std::vector<std::string> out;
  std::string root = ::alkaid::testing::TestDataDir();
  if (root.empty()) return {"<no test data>"};
  for (const auto& path : GoldFilePaths(root)) out.push_back(path);
  if (out.empty()) out.push_back("<no test data>");
  return out;
}

class CDataGold : public ::testing::TestWithParam<std::string> {};

TEST_P(CDataGold, RoundTripsAtStructAndStreamLevel) {
  if (GetParam() == "<no test data>") GTEST_SKIP() << "SKIPPED: test data not found";
  RegisterCanonicalExtensionTypes();
  auto reader = ipc::FileReader::OpenMapped(GetParam());
  ASSERT_TRUE(reader.ok()) << reader.status();
  SchemaPtr s = (*reader)->schema();
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status();

  // Schema.
  ArrowSchema cs;
  ASSERT_TRUE(ExportSchema(*s, &cs).ok());
  auto s_back = ImportSchema(&cs);
  ASSERT_TRUE(s_back.ok()) << s_back.status();
  EXPECT_TRUE((*s_back)->Equals(*s, /*check_metadata=*/true))
      << (*s_back)->ToString(true) << "\nvs\n" << s->ToString(true);

  // Each batch, whole and sliced, and each column on its own.
  for (const RecordBatchPtr& batch : *batches) {
    std::vector<RecordBatchPtr> variants = {batch};
    if (batch->num_rows() > 2) variants.push_back(batch->Slice(1, batch->num_rows() - 2));
    for (const RecordBatchPtr& b : variants) {
      ArrowArray ca;
      ASSERT_TRUE(ExportRecordBatch(*b, &ca).ok());
      auto back = ImportRecordBatch(&ca, s);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_TRUE((*back)->Equals(*b));
      for (int i = 0; i < b->num_columns(); ++i) {
        SCOPED_TRACE(b->column_name(i));
        ExpectArrayRoundTrip(b->column_data(i));
      }
    }
  }

  // Stream: the file reader itself exported.
  auto reader2 = ipc::FileReader::OpenMapped(GetParam()).ValueOrDie();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportRecordBatchReader(std::move(reader2), &stream).ok());
  auto imported = ImportRecordBatchReader(&stream);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_TRUE((*imported)->schema()->Equals(*s, true));
  auto all = (*imported)->ReadRemaining();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), batches->size());
  for (size_t i = 0; i < all->size(); ++i) EXPECT_TRUE((*all)[i]->Equals(*(*batches)[i]));
}

INSTANTIATE_TEST_SUITE_P(Gold, CDataGold, ::testing::ValuesIn(GoldFiles()), GoldCaseName);

}  // namespace
}  // namespace alkaid::c_data
