// JSON literals of arrays and record batches (alkaid/integration_json/array_from_json.h,
// through the test_util wrappers), for every kind of type, and their errors.
#include <cmath>
#include <memory>
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
using testing::ArrayFromJSONString;

TEST(ArrayFromJSON, Primitives) {
  auto ints = ArrayFromJSON(int16(), "[1, null, -3]");
  ASSERT_NE(ints, nullptr);
  EXPECT_EQ(ints->null_count, 1);
  EXPECT_EQ(ValuesOf<int16_t>(ints->buffers[1]), (std::vector<int16_t>{1, 0, -3}));

  auto floats = ArrayFromJSON(float64(), R"([1.5, "NaN", "Inf", "-Inf", 2])");
  DoubleArray f(floats);
  EXPECT_EQ(f.Value(0), 1.5);
  EXPECT_TRUE(std::isnan(f.Value(1)));
  EXPECT_EQ(f.Value(2), INFINITY);
  EXPECT_EQ(f.Value(3), -INFINITY);
  EXPECT_EQ(f.Value(4), 2.0);

  auto halves = ArrayFromJSON(float16(), "[1, -2.5]");
  EXPECT_EQ(ValuesOf<uint16_t>(halves->buffers[1]), (std::vector<uint16_t>{0x3C00, 0xC100}));

  auto bools = ArrayFromJSON(boolean(), "[true, false, null, true]");
  EXPECT_EQ(BytesOf(bools->buffers[1]), std::vector<uint8_t>{0b1001});
  EXPECT_EQ(BytesOf(bools->buffers[0]), std::vector<uint8_t>{0b1011});

  auto big = ArrayFromJSON(uint64(), "[18446744073709551615]");
  EXPECT_EQ(ValuesOf<uint64_t>(big->buffers[1]), std::vector<uint64_t>{UINT64_MAX});

  auto dt = ArrayFromJSON(day_time_interval(), "[[1, 2], null]");
  EXPECT_EQ(ValuesOf<int32_t>(dt->buffers[1]), (std::vector<int32_t>{1, 2, 0, 0}));
  auto mdn = ArrayFromJSON(month_day_nano_interval(), "[[1, -2, 3000000000]]");
  MonthDayNanoIntervalArray m(mdn);
  EXPECT_EQ(m.Value(0), (MonthDayNanoInterval{1, -2, 3000000000}));

  auto ts = ArrayFromJSON(timestamp(TimeUnit::kSecond), "[0, 86400]");
  EXPECT_EQ(ValuesOf<int64_t>(ts->buffers[1]), (std::vector<int64_t>{0, 86400}));

  auto nulls = ArrayFromJSON(null(), "[null, null]");
  EXPECT_EQ(nulls->length, 2);
}

TEST(ArrayFromJSON, StringsDecimalsAndBinaryKinds) {
  auto s = ArrayFromJSON(utf8(), R"(["joe", null, null, "mark"])");
  EXPECT_EQ(ValuesOf<int32_t>(s->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3, 7}));
  auto fsb = ArrayFromJSON(fixed_size_binary(2), R"(["ab", "cd"])");
  EXPECT_EQ(fsb->buffers[1]->view(), "abcd");
  auto v = ArrayFromJSON(binary_view(), R"(["short", "a much longer string value"])");
  BinaryViewArray va(v);
  EXPECT_EQ(va.GetView(1), "a much longer string value");
  auto d = ArrayFromJSON(decimal128(10, 2), R"(["-12.34", null, 3])");
  EXPECT_EQ(ValuesOf<int64_t>(d->buffers[1]), (std::vector<int64_t>{-1234, -1, 0, 0, 300, 0}));
}

TEST(ArrayFromJSON, NestedKinds) {
  auto st = ArrayFromJSON(struct_({field("a", int32()), field("b", utf8())}),
                          R"([{"a": 1, "b": "x"}, {"b": "y"}, null, [4, "z"]])");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->null_count, 1);
  EXPECT_EQ(st->child_data[0]->null_count, 2);
  EXPECT_EQ(ValuesOf<int32_t>(st->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 0, 0, 4}));

  auto fsl = ArrayFromJSON(fixed_size_list(int8(), 2), "[[1, 2], null, [3, 4]]");
  EXPECT_EQ(ValuesOf<int8_t>(fsl->child_data[0]->buffers[1]), (std::vector<int8_t>{1, 2, 0, 0, 3, 4}));

  auto lv = ArrayFromJSON(list_view(int8()), "[[1], [], null, [2, 3]]");
  EXPECT_EQ(ValuesOf<int32_t>(lv->buffers[2]), (std::vector<int32_t>{1, 0, 0, 2}));

  auto du = ArrayFromJSON(dense_union({field("f", float64()), field("i", int32())}),
                          "[[0, 1.5], null, [1, 5]]");
  EXPECT_EQ(ValuesOf<int8_t>(du->buffers[0]), (std::vector<int8_t>{0, 0, 1}));
  EXPECT_EQ(ValuesOf<int32_t>(du->buffers[1]), (std::vector<int32_t>{0, 1, 0}));

  auto su = ArrayFromJSON(sparse_union({field("f", float64()), field("i", int32())}, {2, 4}),
                          "[[4, 5], [2, 0.5]]");
  EXPECT_EQ(ValuesOf<int8_t>(su->buffers[0]), (std::vector<int8_t>{4, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(su->child_data[1]->buffers[1]), (std::vector<int32_t>{5, 0}));

  auto dict = ArrayFromJSON(dictionary(int32(), utf8()),
                            R"(["foo", "bar", "foo", "bar", null, "baz"])");
  EXPECT_EQ(ValuesOf<int32_t>(dict->buffers[1]), (std::vector<int32_t>{0, 1, 0, 1, 0, 2}));
  EXPECT_EQ(dict->dictionary->buffers[2]->view(), "foobarbaz");

  auto nested_dict = ArrayFromJSON(dictionary(int8(), list(int8())), "[[1], [2], [1], null]");
  EXPECT_EQ(ValuesOf<int8_t>(nested_dict->buffers[1]), (std::vector<int8_t>{0, 1, 0, 0}));
  EXPECT_EQ(nested_dict->dictionary->length, 2);

  auto ree = ArrayFromJSON(run_end_encoded(int32(), float32()), "[1, 1, 1, 1, null, null, 2]");
  EXPECT_EQ(ValuesOf<int32_t>(ree->child_data[0]->buffers[1]), (std::vector<int32_t>{4, 6, 7}));

  auto ree_nested = ArrayFromJSON(run_end_encoded(int16(), list(int8())), "[[1], [1], null, [2]]");
  EXPECT_EQ(ValuesOf<int16_t>(ree_nested->child_data[0]->buffers[1]), (std::vector<int16_t>{2, 3, 4}));

  auto ext = ArrayFromJSON(std::make_shared<PointType>(), "[[1, 2], null]");
  EXPECT_EQ(ext->type->id(), TypeId::kExtension);
  EXPECT_EQ(ext->null_count, 1);
}

TEST(ArrayFromJSON, ErrorsNameTheSlot) {
  auto r = ArrayFromJSONString(list(int8()), "[[1], [2, 300]]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("[1][1]"), std::string::npos) << r.status().message();
  EXPECT_FALSE(ArrayFromJSONString(int32(), "[1,").ok());
  EXPECT_FALSE(ArrayFromJSONString(int32(), "{}").ok());
  EXPECT_FALSE(ArrayFromJSONString(utf8(), "[1]").ok());
  EXPECT_FALSE(ArrayFromJSONString(uint8(), "[-1]").ok());
  EXPECT_FALSE(ArrayFromJSONString(struct_({field("a", int8())}), R"([{"z": 1}])").ok());
  EXPECT_FALSE(ArrayFromJSONString(fixed_size_list(int8(), 2), "[[1]]").ok());
  EXPECT_FALSE(ArrayFromJSONString(dense_union({field("a", int8())}), "[[3, 1]]").ok());
  EXPECT_FALSE(ArrayFromJSONString(map(utf8(), int8()), R"([[[null, 1]]])").ok());
  EXPECT_FALSE(ArrayFromJSONString(decimal32(4, 1), R"(["1.25"])").ok());
}

TEST(ArrayFromJSON, MoreKindsAndPaths) {
  auto ll = ArrayFromJSON(large_list(large_binary()), R"([["ab", null], []])");
  ASSERT_NE(ll, nullptr);
  EXPECT_EQ(ValuesOf<int64_t>(ll->buffers[1]), (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int64_t>(ll->child_data[0]->buffers[1]), (std::vector<int64_t>{0, 2, 2}));
  auto dates = ArrayFromJSON(date32(), "[0, 19000, null]");
  EXPECT_EQ(ValuesOf<int32_t>(dates->buffers[1]), (std::vector<int32_t>{0, 19000, 0}));
  auto months = ArrayFromJSON(month_interval(), "[-3]");
  EXPECT_EQ(ValuesOf<int32_t>(months->buffers[1]), std::vector<int32_t>{-3});
  auto dec256 = ArrayFromJSON(decimal256(40, 0), R"(["-1"])");
  EXPECT_EQ(ValuesOf<int64_t>(dec256->buffers[1]), (std::vector<int64_t>{-1, -1, -1, -1}));

  auto r = ArrayFromJSONString(struct_({field("a", list(int8()))}), R"([{"a": [1]}, {"a": ["x"]}])");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("[1].a[0]: ", 0), 0u) << r.status().message();
}

TEST(RecordBatchFromJSON, Columns) {
  auto s = schema({field("a", int32()), field("b", utf8())});
  auto r = testing::RecordBatchFromJSONString(s, R"([{"a": 1, "b": "x"}, {"a": null, "b": "y"}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto batch = *r;
  EXPECT_EQ(batch->num_rows(), 2);
  EXPECT_EQ(batch->num_columns(), 2);
  EXPECT_EQ(batch->column_data(0)->null_count, 1);
  EXPECT_EQ(batch->column_data(1)->buffers[2]->view(), "xy");
  EXPECT_FALSE(testing::RecordBatchFromJSONString(s, "[null]").ok());
}

}  // namespace
}  // namespace alkaid
