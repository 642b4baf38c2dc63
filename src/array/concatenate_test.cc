#include "alkaid/concatenate.h"

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/validate.h"
#include "src/array/array_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using namespace array_test;  // NOLINT
using testing::ArrayFromJSON;
using Strs = std::vector<std::string>;

void ExpectValidOrNotImplemented(const ArrayData& data) {
  Status st = ValidateArrayFull(data);
  if (!st.IsNotImplemented()) {
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
}

// Concatenates `inputs` and checks the result slot by slot against the
// inputs' own renderings, plus length, null count and validity.
ArrayDataPtr CheckConcat(const ArrayDataVector& inputs, MemoryPool* pool = default_memory_pool()) {
  Strs expected;
  int64_t length = 0, nulls = 0;
  for (const auto& a : inputs) {
    for (auto& s : RenderAll(a)) expected.push_back(std::move(s));
    length += a->length;
    nulls += a->GetNullCount();
  }
  auto result = Concatenate(inputs, pool);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return nullptr;
  ArrayDataPtr out = *result;
  EXPECT_TRUE(out->type->Equals(*inputs[0]->type));
  EXPECT_EQ(out->length, length);
  EXPECT_EQ(out->offset, 0);
  EXPECT_EQ(out->GetNullCount(), nulls);
  EXPECT_EQ(RenderAll(out), expected);
  ExpectValidOrNotImplemented(*out);
  return out;
}

// The same JSON pieces concatenated whole, and again with each piece sliced
// by one slot at each end.
void CheckJsonPieces(const DataTypePtr& type, const std::vector<std::string>& pieces) {
  SCOPED_TRACE(type->ToString());
  ArrayDataVector whole, sliced;
  for (const auto& json : pieces) {
    auto a = ArrayFromJSON(type, json);
    ASSERT_NE(a, nullptr) << json;
    whole.push_back(a);
    if (a->length >= 2) sliced.push_back(a->Slice(1, a->length - 2));
  }
  auto out = CheckConcat(whole);
  ASSERT_NE(out, nullptr);
  // Once comparison lands, the result also equals the literal of all pieces.
  if (ArrayEquals(*whole[0], *whole[0])) {
    std::string all = "[";
    for (const auto& p : pieces) {
      std::string inner = p.substr(p.find('[') + 1);
      inner = inner.substr(0, inner.rfind(']'));
      if (inner.find_first_not_of(" \n") == std::string::npos) continue;
      if (all.size() > 1) all += ",";
      all += inner;
    }
    all += "]";
    auto expected = ArrayFromJSON(type, all);
    ASSERT_NE(expected, nullptr);
    EXPECT_TRUE(ArrayEquals(*out, *expected)) << ArrayDiff(*out, *expected);
  }
  if (!sliced.empty()) CheckConcat(sliced);
}

TEST(Concatenate, Primitives) {
  const std::vector<std::string> ints{"[1, null, 3, 4]", "[]", "[5, 6, null]", "[7, 8]"};
  for (const auto& type : {int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(),
                           date32(), date64(), time32(TimeUnit::kMilli), time64(TimeUnit::kMicro),
                           timestamp(TimeUnit::kSecond, "UTC"), duration(TimeUnit::kNano),
                           month_interval()}) {
    CheckJsonPieces(type, ints);
  }
  for (const auto& type : {float16(), float32(), float64()}) {
    CheckJsonPieces(type, {"[1.5, null, -2]", "[0.25, 8]"});
  }
  CheckJsonPieces(day_time_interval(), {"[[1, 2], null, [3, 4]]", "[[5, 6], [7, 8]]"});
  CheckJsonPieces(month_day_nano_interval(), {"[[1, 2, 3], null, [4, 5, 6]]", "[[7, 8, 9], null]"});
  CheckJsonPieces(decimal128(10, 2), {"[\"1.25\", null, \"-3.50\"]", "[\"100.00\", \"0.01\"]"});
  CheckJsonPieces(decimal32(5, 1), {"[\"1.2\", null, \"-3.5\"]", "[\"10.0\", \"0.1\"]"});
  CheckJsonPieces(decimal64(12, 0), {"[\"1\", null, \"-3\"]", "[\"10\", \"7\"]"});
  CheckJsonPieces(decimal256(50, 3), {"[\"1.000\", null, \"-3.125\"]", "[\"10.5\", \"7\"]"});
  CheckJsonPieces(fixed_size_binary(3), {"[\"abc\", null, \"def\"]", "[\"ghi\", \"jkl\"]"});
  CheckJsonPieces(boolean(), {"[true, null, false, true]", "[false, true, null]"});
  CheckJsonPieces(null(), {"[null, null, null]", "[null]", "[null, null]"});
}

TEST(Concatenate, HandBuiltPrimitivesWithoutJson) {
  auto a = Int32s({1, std::nullopt, 3});
  auto b = Int32s({4, 5});
  auto out = CheckConcat({a, b->Slice(1, 1), Tail(a, 1)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(RenderAll(out), (Strs{"1", "null", "3", "5", "null", "3"}));
  // No nulls anywhere: no validity bitmap is allocated.
  auto clean = Concatenate({b, b}).ValueOrDie();
  EXPECT_EQ(clean->buffers[0], nullptr);
  EXPECT_EQ(clean->null_count, 0);
}

TEST(Concatenate, BooleansAtUnalignedOffsets) {
  std::vector<std::optional<bool>> values;
  for (int i = 0; i < 200; ++i) values.push_back(i % 11 == 0 ? std::nullopt : std::optional<bool>(i % 3 == 1));
  auto data = Bools(values);
  CheckConcat({data->Slice(3, 70), data->Slice(0, 1), data->Slice(77, 123), data->Slice(64, 64)});
}

TEST(Concatenate, BinaryLike) {
  for (const auto& type : {binary(), utf8(), large_binary(), large_utf8(), binary_view(), utf8_view()}) {
    CheckJsonPieces(type, {"[\"a\", null, \"\", \"bcd\"]", "[\"a string that is not inline\", \"x\"]",
                           "[null, \"yz\", \"another string longer than twelve\"]"});
  }
}

TEST(Concatenate, ViewsWithSeveralDataBuffers) {
  auto a = Views(utf8_view(), {"first long string value", "inline", std::nullopt,
                               "second long string value", "third long string value"},
                 3);
  auto b = Views(binary_view(), {"x"}, 1);
  auto c = Views(utf8_view(), {"tiny", "yet another long string", "and one more long string"}, 2);
  auto out = CheckConcat({a, c, a->Slice(3, 2)});
  ASSERT_NE(out, nullptr);
  // Data buffers are shared, not copied: 3 from a, 2 from c, 3 from a again.
  EXPECT_EQ(out->buffers.size(), 2u + 3 + 2 + 3);
  EXPECT_EQ(out->buffers[2], a->buffers[2]);
  EXPECT_EQ(out->buffers[5], c->buffers[2]);
  auto err = Concatenate({a, b});
  EXPECT_TRUE(err.status().IsTypeError());
}

TEST(Concatenate, Lists) {
  for (const auto& type : {list(int32()), large_list(int32()), list_view(int32()),
                           large_list_view(int32()), fixed_size_list(int32(), 2)}) {
    if (type->id() == TypeId::kFixedSizeList) {
      CheckJsonPieces(type, {"[[1, 2], null, [3, null]]", "[[4, 5], [6, 7], [8, 9]]"});
    } else {
      CheckJsonPieces(type, {"[[1, 2], null, [], [3]]", "[[4, null, 5], [6]]", "[[], [7, 8, 9]]"});
    }
  }
  CheckJsonPieces(list(utf8()), {"[[\"a\", \"b\"], null]", "[[\"c\"], [], [\"d\", null]]"});
}

TEST(Concatenate, ListViewsOutOfOrderAndShared) {
  // Views point backwards and share child ranges; the child holds extra junk.
  auto child = Int32s({100, 1, 2, 3, 4, 5, 200});
  std::vector<int32_t> offsets{4, 1, 2, 0}, sizes{2, 3, 2, 0};
  auto a = ArrayData::Make(list_view(int32()), 4, {nullptr, Buf(offsets), Buf(sizes)}, {child}, 0);
  auto out = CheckConcat({a, a->Slice(1, 2), a});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(RenderAll(out)[0], "[4,5]");
  // Only the referenced part of each child is copied: 5 + 3 + 5 values.
  EXPECT_EQ(out->child_data[0]->length, 13);
}

TEST(Concatenate, StructsAndMaps) {
  auto st = struct_({field("a", int32()), field("b", utf8())});
  CheckJsonPieces(st, {R"([{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}])",
                       R"([{"a": 3, "b": null}, {"a": 4, "b": "z"}, {"a": 5, "b": "w"}])"});
  CheckJsonPieces(map(utf8(), int32()), {R"([[["a", 1], ["b", null]], null, []])",
                                          R"([[["c", 3]], [["d", 4], ["e", 5]], [["f", 6]]])"});
}

TEST(Concatenate, StructWithLongChildren) {
  // A struct sliced from longer children, plus one whose children are longer
  // than the struct itself: only the struct's window is taken.
  auto type = struct_({field("v", int32())});
  auto child = Int32s({1, 2, 3, 4, 5, 6});
  auto s1 = StructOf(type, 6, {child}, {true, false, true, true, true, true})->Slice(2, 3);
  auto s2 = StructOf(type, 2, {child});
  auto out = CheckConcat({s1, s2});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(RenderAll(out), (Strs{"{3}", "{4}", "{5}", "{1}", "{2}"}));
  EXPECT_EQ(out->child_data[0]->length, 5);
}

TEST(Concatenate, NestedThreeLevels) {
  auto inner = struct_({field("a", list(int32())), field("b", utf8())});
  auto type = list(inner);
  CheckJsonPieces(type, {
                            R"([[{"a": [1, 2], "b": "x"}, {"a": null, "b": "y"}], null, [], [{"a": [], "b": null}]])",
                            R"([[{"a": [3], "b": "z"}], [{"a": [4, 5, 6], "b": "w"}, null]])",
                            R"([null, [{"a": [7], "b": "v"}], [{"a": [8, null], "b": "u"}]])",
                        });
  CheckJsonPieces(large_list_view(fixed_size_list(map(utf8(), list(int8())), 1)),
                  {R"([[[[["k", [1, 2]]]]], null, [[null]]])", R"([[[[]]], [[[["q", null]]]], []])"});
}

TEST(Concatenate, SparseUnions) {
  auto type = sparse_union({field("i", int32()), field("s", utf8())}, {5, 2});
  CheckJsonPieces(type, {R"([[5, 1], [2, "x"], [5, null], [2, "y"]])", R"([[2, null], [5, 7], [5, 8]])"});
  // Hand-built sparse union with a sliced input.
  std::vector<int8_t> codes{5, 2, 5};
  auto u = ArrayData::Make(type, 3, {Buf(codes)}, {Int32s({1, 0, 3}), Utf8s({"", "b", ""})}, 0);
  auto out = CheckConcat({Tail(u, 1), u});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(RenderAll(out), (Strs{"2:\"b\"", "5:3", "5:1", "2:\"b\"", "5:3"}));
}

TEST(Concatenate, DenseUnions) {
  auto type = dense_union({field("i", int32()), field("s", utf8())}, {0, 9});
  CheckJsonPieces(type, {R"([[0, 1], [9, "x"], [0, null], [9, "y"]])", R"([[9, null], [0, 7], [0, 8]])"});
  // Offsets that skip child values and go backwards.
  std::vector<int8_t> codes{0, 9, 0, 9};
  std::vector<int32_t> offsets{3, 1, 0, 1};
  auto u = ArrayData::Make(type, 4, {Buf(codes), Buf(offsets)},
                           {Int32s({10, 11, 12, 13}), Utf8s({"p", "q", "r"})}, 0);
  auto out = CheckConcat({u, u->Slice(2, 2), u->Slice(1, 1)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(RenderAll(out), (Strs{"0:13", "9:\"q\"", "0:10", "9:\"q\"", "0:10", "9:\"q\"", "9:\"q\""}));
  // Child 0: [0, 4) of the first input, [0, 1) of the second; child 1: one value each.
  EXPECT_EQ(out->child_data[0]->length, 5);
  EXPECT_EQ(out->child_data[1]->length, 3);
}

TEST(Concatenate, DictionariesSharingOneDictionary) {
  auto type = dictionary(int8(), utf8());
  auto dict = Utf8s({"a", "b", "c"});
  auto a = Prim<int8_t>(type, {std::optional<int8_t>(0), std::nullopt, std::optional<int8_t>(2)});
  a->dictionary = dict;
  auto b = Prim<int8_t>(type, {std::optional<int8_t>(1), std::optional<int8_t>(1)});
  b->dictionary = dict;
  auto out = CheckConcat({a, Tail(b, 1), Tail(a, 1)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->dictionary, dict);  // kept, not copied
  EXPECT_EQ(RenderAll(out), (Strs{"\"a\"", "null", "\"c\"", "\"b\"", "null", "\"c\""}));
}

TEST(Concatenate, DictionariesThatDiffer) {
  auto type = dictionary(uint16(), utf8());
  auto a = Prim<uint16_t>(type, {std::optional<uint16_t>(1), std::nullopt, std::optional<uint16_t>(0)});
  a->dictionary = Utf8s({"x", "y"});
  auto b = Prim<uint16_t>(type, {std::optional<uint16_t>(2), std::optional<uint16_t>(0)});
  b->dictionary = Utf8s({"p", "q", "r"});
  auto out = CheckConcat({a, b, Tail(a, 2)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->dictionary->length, 7);
  EXPECT_EQ(RenderAll(out), (Strs{"\"y\"", "null", "\"x\"", "\"r\"", "\"p\"", "\"x\""}));
  EXPECT_EQ(out->GetValues<uint16_t>(1)[3], 4);  // 2 shifted by a's 2 entries
  EXPECT_EQ(out->GetValues<uint16_t>(1)[5], 5);  // 0 shifted by 2 + 3
  CheckJsonPieces(dictionary(int32(), utf8()), {R"(["a", "b", null, "a"])", R"(["c", "a", "c"])"});
}

TEST(Concatenate, DictionaryIndexOverflowIsCapacityError) {
  auto type = dictionary(int8(), int32());
  std::vector<std::optional<int32_t>> big;
  for (int i = 0; i < 100; ++i) big.push_back(i);
  auto a = Prim<int8_t>(type, {std::optional<int8_t>(99)});
  a->dictionary = Int32s(big);
  auto b = Prim<int8_t>(type, {std::optional<int8_t>(50)});
  b->dictionary = Int32s(big);
  b->dictionary->buffers[1] = Buf(std::vector<int32_t>(100, 7));  // unequal dictionaries
  auto result = Concatenate({a, b});
  EXPECT_EQ(result.status().code(), StatusCode::kCapacityError) << result.status().ToString();
  // Index 0 of b shifted by 100 still fits int8.
  auto c = Prim<int8_t>(type, {std::optional<int8_t>(0), std::nullopt});
  c->dictionary = b->dictionary;
  auto ok = CheckConcat({a, c});
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(RenderAll(ok), (Strs{"99", "7", "null"}));
}

template <typename E>
ArrayDataPtr Ree(const DataTypePtr& run_end_type, std::vector<E> ends, ArrayDataPtr values) {
  const int64_t length = ends.empty() ? 0 : static_cast<int64_t>(ends.back());
  auto run_ends = ArrayData::Make(run_end_type, static_cast<int64_t>(ends.size()), {nullptr, Buf(ends)}, 0);
  return ArrayData::Make(run_end_encoded(run_end_type, values->type), length, {}, {run_ends, values}, 0);
}

TEST(Concatenate, RunEndEncoded) {
  auto a = Ree<int32_t>(int32(), {2, 5, 6}, Utf8s({"a", std::nullopt, "c"}));
  auto b = Ree<int32_t>(int32(), {3, 4}, Utf8s({"d", "e"}));
  auto out = CheckConcat({a, b, a->Slice(1, 3), Tail(b, 3), a->Slice(5, 1)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->length, 6 + 4 + 3 + 1 + 1);
  const ArrayData& ends = *out->child_data[0];
  // a: 2,5,6 | b: 9,10 | a[1..4): 11,13 | b[3..4): 14 | a[5..6): 15
  std::vector<int32_t> expected{2, 5, 6, 9, 10, 11, 13, 14, 15};
  ASSERT_EQ(ends.length, static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(ends.GetValues<int32_t>(1)[i], expected[i]) << i;
  EXPECT_EQ(out->child_data[1]->length, 9);
  CheckJsonPieces(run_end_encoded(int16(), int64()), {"[1, 1, null, null, 2]", "[2, 2, 3]"});
}

TEST(Concatenate, RunEndOverflowIsCapacityError) {
  auto a = Ree<int16_t>(int16(), {30000}, Int32s({1}));
  EXPECT_EQ(Concatenate({a, a}).status().code(), StatusCode::kCapacityError);
}

TEST(Concatenate, ExtensionKeepsItsType) {
  auto type = std::make_shared<TestExtensionType>();
  auto a = std::make_shared<ArrayData>(*Int32s({1, std::nullopt}));
  a->type = type;
  auto b = std::make_shared<ArrayData>(*Int32s({3}));
  b->type = type;
  auto out = CheckConcat({a, b, Tail(a, 1)});
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->type, a->type);
  EXPECT_EQ(RenderAll(out), (Strs{"1", "null", "3", "null"}));
}

TEST(Concatenate, EmptyInputsAndErrors) {
  EXPECT_TRUE(Concatenate({}).status().IsInvalid());
  auto empty = Concatenate({Int32s({}), Int32s({})}).ValueOrDie();
  EXPECT_EQ(empty->length, 0);
  EXPECT_TRUE(empty->type->Equals(int32()));
  auto mismatch = Concatenate({Int32s({1}), Int32s({2}), Int64s({3})});
  ASSERT_TRUE(mismatch.status().IsTypeError());
  EXPECT_NE(mismatch.status().message().find("array 2"), std::string::npos)
      << mismatch.status().message();
  // Single input: a compact copy of the visible window.
  auto one = Concatenate({Int32s({1, 2, 3})->Slice(1, 2)}).ValueOrDie();
  EXPECT_EQ(one->offset, 0);
  EXPECT_EQ(RenderAll(one), (Strs{"2", "3"}));
}

TEST(Concatenate, OffsetOverflowIsCapacityError) {
  // Offsets claim nearly 2 GiB of data; the check fires before any data is read.
  const int32_t huge = std::numeric_limits<int32_t>::max() - 10;
  std::vector<int32_t> offsets{0, huge};
  auto s = ArrayData::Make(utf8(), 1, {nullptr, Buf(offsets), Buffer::FromString("")}, 0);
  EXPECT_EQ(Concatenate({s, s}).status().code(), StatusCode::kCapacityError);
  auto l = ArrayData::Make(list(int8()), 1, {nullptr, Buf(offsets)}, {Int8s({})}, 0);
  EXPECT_EQ(Concatenate({l, l}).status().code(), StatusCode::kCapacityError);
}

TEST(Concatenate, ReleasesEverythingItAllocates) {
  SystemMemoryPool pool;
  {
    auto type = list(struct_({field("a", int32()), field("b", utf8())}));
    auto x = ArrayFromJSON(type, R"([[{"a": 1, "b": "x"}], null, [{"a": null, "b": "long enough string"}]])");
    ASSERT_NE(x, nullptr);
    auto out = CheckConcat({x, Tail(x, 1)}, &pool);
    ASSERT_NE(out, nullptr);
    EXPECT_GT(pool.bytes_allocated(), 0);
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

}  // namespace
}  // namespace alkaid
