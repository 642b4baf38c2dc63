// Every canonical extension type written to an IPC stream and file and read
// back: the reader must rebuild the concrete extension class with the same
// parameters, and the data must survive unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/extension/api.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;

struct IpcCase {
  std::string label;
  DataTypePtr type;
  std::string json;
};

void PrintTo(const IpcCase& c, std::ostream* os) { *os << c.label; }

std::vector<IpcCase> Cases() {
  auto offset_dict = TimestampWithOffsetType::MakeFromStorage(
                         struct_({field("timestamp", timestamp(TimeUnit::kSecond, "UTC"), false),
                                  field("offset_minutes", dictionary(int8(), int16()), false)}))
                         .ValueOrDie();
  auto shredded =
      VariantType::Make(struct_({field("metadata", binary(), false), field("value", binary()),
                                 field("typed_value", int64())}))
          .ValueOrDie();
  return {
      {"fixed_shape_tensor",
       FixedShapeTensorType::Make(float32(), {2, 2}, {1, 0}, {"x", "y"}).ValueOrDie(),
       "[[1, 2, 3, 4], null, [5, 6, 7, 8]]"},
      {"variable_shape_tensor",
       VariableShapeTensorType::Make(int32(), 2, {}, {"h", "w"}, {std::nullopt, 2}).ValueOrDie(),
       R"([{"data": [1, 2], "shape": [1, 2]}, null, {"data": [1, 2, 3, 4], "shape": [2, 2]}])"},
      {"json", JsonExtensionType::Make(utf8()).ValueOrDie(), R"(["{\"a\": 1}", null, "[]"])"},
      {"json_large", JsonExtensionType::Make(large_utf8()).ValueOrDie(), R"(["1", "true"])"},
      {"uuid", UuidType::Make(), R"(["0123456789abcdef", null])"},
      {"opaque", OpaqueType::Make(binary(), "geometry", "PostGIS").ValueOrDie(),
       R"(["\u0001\u0002", null])"},
      {"bool8", Bool8Type::Make(), "[1, 0, null, -1]"},
      {"variant", VariantType::MakeUnshredded(),
       R"([{"metadata": "\u0001\u0000", "value": "\u0000"}])"},
      {"variant_shredded", shredded,
       R"([{"metadata": "m", "value": null, "typed_value": 5}, {"metadata": "m", "value": "v"}])"},
      {"timestamp_with_offset", TimestampWithOffsetType::Make(TimeUnit::kMilli),
       R"([{"timestamp": 1000, "offset_minutes": 60}, null, {"timestamp": -5, "offset_minutes": -90}])"},
      {"timestamp_with_offset_dict", offset_dict,
       R"([{"timestamp": 1, "offset_minutes": 30}, {"timestamp": 2, "offset_minutes": 30}])"},
  };
}

class ExtensionIpcRoundTrip : public ::testing::TestWithParam<IpcCase> {
 protected:
  void SetUp() override {
    const IpcCase& c = GetParam();
    column_ = ArrayFromJSON(c.type, c.json);
    ASSERT_NE(column_, nullptr);
    schema_ = schema({field("col", c.type)});
    batch_ = RecordBatch::Make(schema_, column_->length, {column_});
  }

  void CheckBatch(const RecordBatchPtr& read) {
    ASSERT_NE(read, nullptr);
    const DataTypePtr& type = read->schema()->field(0)->type();
    ASSERT_EQ(type->id(), TypeId::kExtension) << type->ToString();
    // The reader rebuilt the same concrete class, not a generic stand-in.
    EXPECT_EQ(typeid(*type), typeid(*GetParam().type));
    EXPECT_TRUE(type->Equals(*GetParam().type)) << type->ToString();
    EXPECT_EQ(checked_cast<ExtensionType>(*type).Serialize(),
              checked_cast<ExtensionType>(*GetParam().type).Serialize());
    ASSERT_EQ(read->num_rows(), column_->length);
    EXPECT_TRUE(ArrayEquals(*read->column_data(0), *column_))
        << ArrayDiff(*read->column_data(0), *column_);
    EXPECT_TRUE(ValidateExtensionArray(*read->column_data(0)).ok());
  }

  ArrayDataPtr column_;
  SchemaPtr schema_;
  RecordBatchPtr batch_;
};

TEST_P(ExtensionIpcRoundTrip, Stream) {
  auto buffer = ipc::SerializeStream(schema_, {batch_});
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  auto reader = ipc::StreamReader::Open(*buffer);
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status();
  ASSERT_EQ(batches->size(), 1u);
  CheckBatch((*batches)[0]);
}

TEST_P(ExtensionIpcRoundTrip, File) {
  auto buffer = ipc::SerializeFile(schema_, {batch_, batch_});
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  auto reader = ipc::FileReader::Open(*buffer);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->num_record_batches(), 2);
  for (int i = 0; i < 2; ++i) {
    auto batch = (*reader)->ReadRecordBatch(i);
    ASSERT_TRUE(batch.ok()) << batch.status();
    CheckBatch(*batch);
  }
}

INSTANTIATE_TEST_SUITE_P(Canonical, ExtensionIpcRoundTrip, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<IpcCase>& info) {
                           return info.param.label;
                         });

}  // namespace
}  // namespace alkaid
