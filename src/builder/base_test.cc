// MakeBuilder over every type, FinishArray, and the extension builder.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

std::vector<DataTypePtr> AllTypes() {
  return {null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(),
          uint64(), float16(), float32(), float64(), decimal32(7, 2), decimal64(15, 3),
          decimal128(30, 4), decimal256(60, 5), date32(), date64(), time32(TimeUnit::kSecond),
          time64(TimeUnit::kNano), timestamp(TimeUnit::kMicro), duration(TimeUnit::kMilli),
          month_interval(), day_time_interval(), month_day_nano_interval(),
          fixed_size_binary(5), binary(), utf8(), large_binary(), large_utf8(), binary_view(),
          utf8_view(), list(int8()), large_list(utf8()), list_view(int16()),
          large_list_view(boolean()), fixed_size_list(int32(), 3),
          struct_({field("a", int8()), field("b", utf8())}), map(utf8(), float64()),
          sparse_union({field("x", int8()), field("y", utf8())}),
          dense_union({field("x", int8()), field("y", utf8())}, {3, 7}),
          dictionary(int16(), utf8()), run_end_encoded(int32(), int64()),
          std::make_shared<PointType>()};
}

TEST(MakeBuilder, EveryTypeNullsAndEmptyValues) {
  for (const auto& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    ASSERT_OK_AND_ASSIGN(auto b, MakeBuilder(type));
    EXPECT_EQ(b->type().get(), type.get());
    ASSERT_OK(b->AppendNull());
    ASSERT_OK(b->AppendEmptyValues(2));
    ASSERT_OK(b->AppendNulls(2));
    EXPECT_EQ(b->length(), 5);
    ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
    EXPECT_EQ(data->length, 5);
    EXPECT_TRUE(data->type->Equals(type));
    ExpectValid(data);
    ASSERT_OK_AND_ASSIGN(auto empty, b->Finish());
    EXPECT_EQ(empty->length, 0);
    ExpectValid(empty);
  }
}

TEST(MakeBuilder, RejectsBadParameters) {
  auto bad_dict = std::make_shared<DictionaryType>(float32(), utf8());
  EXPECT_TRUE(MakeBuilder(bad_dict).status().IsTypeError());
  EXPECT_TRUE(MakeBuilderAs<ListBuilder>(int32()).status().IsTypeError());
}

TEST(ArrayBuilder, FinishArrayGivesTypedView) {
  StringBuilder b;
  ASSERT_OK(b.Append("x"));
  ASSERT_OK_AND_ASSIGN(auto arr, b.FinishArray());
  ASSERT_NE(arr, nullptr);
  EXPECT_EQ(arr->length(), 1);
  auto* typed = dynamic_cast<StringArray*>(arr.get());
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->GetView(0), "x");
}

TEST(ExtensionBuilder, WrapsStorage) {
  auto type = std::make_shared<PointType>();
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ExtensionBuilder>(type));
  auto* storage = static_cast<FixedSizeListBuilder*>(b->storage_builder());
  auto* coords = static_cast<DoubleBuilder*>(storage->value_builder());
  ASSERT_OK(storage->Append());
  ASSERT_OK(coords->Append(1.0));
  ASSERT_OK(coords->Append(2.0));
  ASSERT_OK(b->AppendNull());
  EXPECT_EQ(b->length(), 2);
  EXPECT_EQ(b->null_count(), 1);
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->type.get(), type.get());
  EXPECT_EQ(data->length, 2);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<double>(data->child_data[0]->buffers[1]), (std::vector<double>{1, 2, 0, 0}));
}

}  // namespace
}  // namespace alkaid
