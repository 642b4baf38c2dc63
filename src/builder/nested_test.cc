// List, list view, fixed-size list, struct and map builders, and deep nesting.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "src/builder/builder_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using namespace builder_test;
using testing::ArrayFromJSON;

TEST(ListBuilder, ListOfInt8) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListBuilder>(list(int8())));
  auto* values = static_cast<Int8Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  for (int8_t v : {12, -7, 25}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  for (int8_t v : {0, -127, 127, 50}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->Append());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b1101});
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 3, 3, 7, 7}));
  ASSERT_EQ(data->child_data.size(), 1u);
  EXPECT_EQ(ValuesOf<int8_t>(data->child_data[0]->buffers[1]),
            (std::vector<int8_t>{12, -7, 25, 0, -127, 127, 50}));
  ExpectValid(data);
  EXPECT_EQ(b->length(), 0);
  EXPECT_EQ(values->length(), 0);
}

TEST(ListBuilder, LargeListAndEmptyValues) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<LargeListBuilder>(large_list(utf8())));
  auto* values = static_cast<StringBuilder*>(b->value_builder());
  ASSERT_OK(b->AppendEmptyValues(2));
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append("a"));
  ASSERT_OK(values->Append("b"));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->null_count, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), (std::vector<int64_t>{0, 0, 0, 2}));
}

TEST(ListViewBuilder, OffsetsAndSizes) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListViewBuilder>(list_view(int8())));
  auto* values = static_cast<Int8Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  for (int8_t v : {12, -7, 25}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  for (int8_t v : {0, -127, 127, 50}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->Append());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  ASSERT_EQ(data->buffers.size(), 3u);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 3, 3, 7}));
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[2]), (std::vector<int32_t>{3, 0, 4, 0}));
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b1101});
  ExpectValid(data);
}

TEST(ListViewBuilder, LargeListView) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<LargeListViewBuilder>(large_list_view(int32())));
  auto* values = static_cast<Int32Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(1));
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(2));
  ASSERT_OK(values->Append(3));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[2]), (std::vector<int64_t>{1, 2}));
}

TEST(FixedSizeListBuilder, ChecksChildCount) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<FixedSizeListBuilder>(fixed_size_list(int16(), 2)));
  auto* values = static_cast<Int16Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(1));
  ASSERT_OK(values->Append(2));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(5));
  // Only one of two values: the next append must notice.
  EXPECT_TRUE(b->Append().IsInvalid());
  ASSERT_OK(values->Append(6));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(data->buffers.size(), 1u);
  EXPECT_EQ(data->child_data[0]->length, 6);
  EXPECT_EQ(ValuesOf<int16_t>(data->child_data[0]->buffers[1]),
            (std::vector<int16_t>{1, 2, 0, 0, 5, 6}));
  ExpectValid(data);

  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(9));
  EXPECT_TRUE(b->Finish().status().IsInvalid());
}

// ---------------------------------------------------------------------------
// Struct and map

TEST(StructBuilder, ChildrenAndNulls) {
  auto type = struct_({field("name", utf8()), field("age", int32())});
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<StructBuilder>(type));
  auto* names = static_cast<StringBuilder*>(b->field_builder(0));
  auto* ages = static_cast<Int32Builder*>(b->field_builder(1));
  ASSERT_OK(b->Append());
  ASSERT_OK(names->Append("joe"));
  ASSERT_OK(ages->Append(1));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->AppendEmptyValue());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b101});
  ASSERT_EQ(data->child_data.size(), 2u);
  EXPECT_EQ(data->child_data[0]->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[0]->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3}));
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[1]->buffers[1]), (std::vector<int32_t>{1, 0, 0}));
  ExpectValid(data);
}

TEST(StructBuilder, ChildLengthMismatchFails) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<StructBuilder>(struct_({field("a", int8())})));
  ASSERT_OK(b->Append());
  Status st = b->Finish().status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("'a'"), std::string::npos) << st.message();
  EXPECT_EQ(b->length(), 0);  // reset even after a failure
}

TEST(MapBuilder, KeysAndItems) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<MapBuilder>(map(utf8(), int32())));
  auto* keys = static_cast<StringBuilder*>(b->key_builder());
  auto* items = static_cast<Int32Builder*>(b->item_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(keys->Append("a"));
  ASSERT_OK(items->Append(1));
  ASSERT_OK(keys->Append("b"));
  ASSERT_OK(items->AppendNull());
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  ASSERT_OK(b->Append());
  ASSERT_OK(keys->Append("c"));
  ASSERT_OK(items->Append(3));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  const auto& entries = data->child_data[0];
  EXPECT_EQ(entries->length, 3);
  EXPECT_EQ(entries->null_count, 0);
  EXPECT_EQ(entries->child_data[0]->buffers[2]->view(), "abc");
  EXPECT_EQ(entries->child_data[1]->null_count, 1);
  MapArray arr(data);
  EXPECT_EQ(arr.value_length(3), 1);
  ExpectValid(data);
}

TEST(MapBuilder, KeyItemCountMismatchFails) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<MapBuilder>(map(int8(), int8())));
  ASSERT_OK(b->Append());
  ASSERT_OK(static_cast<Int8Builder*>(b->key_builder())->Append(1));
  EXPECT_TRUE(b->Finish().status().IsInvalid());
}

// Deep nesting: list<struct<a: map<utf8, list<int32>>, b: int8>>

TEST(NestedBuilders, ListOfStructOfMapOfList) {
  auto inner = list(int32());
  auto m = map(utf8(), inner);
  auto st = struct_({field("a", m), field("b", int8())});
  auto type = list(st);
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListBuilder>(type));
  auto* structs = static_cast<StructBuilder*>(b->value_builder());
  auto* maps = static_cast<MapBuilder*>(structs->field_builder(0));
  auto* bs = static_cast<Int8Builder*>(structs->field_builder(1));
  auto* keys = static_cast<StringBuilder*>(maps->key_builder());
  auto* lists = static_cast<ListBuilder*>(maps->item_builder());
  auto* ints = static_cast<Int32Builder*>(lists->value_builder());

  // Slot 0: [{a: {"x": [1, 2], "y": null}, b: 7}, null]
  ASSERT_OK(b->Append());
  ASSERT_OK(structs->Append());
  ASSERT_OK(maps->Append());
  ASSERT_OK(keys->Append("x"));
  ASSERT_OK(lists->Append());
  ASSERT_OK(ints->Append(1));
  ASSERT_OK(ints->Append(2));
  ASSERT_OK(keys->Append("y"));
  ASSERT_OK(lists->AppendNull());
  ASSERT_OK(bs->Append(7));
  ASSERT_OK(structs->AppendNull());
  // Slot 1: null
  ASSERT_OK(b->AppendNull());
  // Slot 2: [{a: {}, b: null}]
  ASSERT_OK(b->Append());
  ASSERT_OK(structs->Append());
  ASSERT_OK(maps->Append());
  ASSERT_OK(bs->AppendNull());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());

  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 2, 2, 3}));
  const auto& sdata = data->child_data[0];
  EXPECT_EQ(sdata->length, 3);
  EXPECT_EQ(sdata->null_count, 1);
  const auto& mdata = sdata->child_data[0];
  EXPECT_EQ(mdata->length, 3);
  EXPECT_EQ(ValuesOf<int32_t>(mdata->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2}));
  const auto& entries = mdata->child_data[0];
  EXPECT_EQ(entries->child_data[0]->buffers[2]->view(), "xy");
  const auto& ldata = entries->child_data[1];
  EXPECT_EQ(ldata->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(ldata->buffers[1]), (std::vector<int32_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(ldata->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 2}));
  ExpectValid(data);

  // The JSON literal builds the same layout.
  auto from_json = ArrayFromJSON(type, R"([
      [{"a": [["x", [1, 2]], ["y", null]], "b": 7}, null],
      null,
      [{"a": [], "b": null}]])");
  ASSERT_NE(from_json, nullptr);
  EXPECT_EQ(ValuesOf<int32_t>(from_json->buffers[1]), (std::vector<int32_t>{0, 2, 2, 3}));
  const auto& jl = from_json->child_data[0]->child_data[0]->child_data[0]->child_data[1];
  EXPECT_EQ(ValuesOf<int32_t>(jl->buffers[1]), (std::vector<int32_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(jl->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 2}));
}

}  // namespace
}  // namespace alkaid
