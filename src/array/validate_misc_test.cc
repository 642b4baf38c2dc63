// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8:
// paths, extension types, depth, builders' output, garbage input.
//
// Pattern: build a valid array by hand from buffers, check that it passes both
// levels, then break exactly one thing and check the level that must catch it,
// the Invalid code, and the rule and location named in the message.
// Buffers are exact-size heap allocations (no padding), so a sanitizer build
// sees any read past the end.

#include "src/array/validate_test_helpers.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace alkaid {
namespace {

using namespace validate_test;  // NOLINT

// ---------------------------------------------------------------------------
// Paths, extension types, depth

TEST(ValidateTest, NestedPathThreeLevelsDeep) {
  auto inner_type = struct_({field("b", utf8())});
  auto list_type = list(inner_type);
  auto outer_type = struct_({field("x", int32()), field("a", list_type)});
  auto make = [&](const std::string& bad) {
    auto inner = Struct(inner_type, {Strings(utf8(), {"ok", bad, "fine"})}, 3);
    auto lists = ListOf(list_type, {0, 1, 3}, inner);
    return Struct(outer_type, {Int32s({1, 2}), lists}, 2);
  };
  ExpectValid(*make("good"));
  auto a = make("bad\xF5");
  ExpectDataInvalid(*a, {"string array at <root>.a.item.b: slot 1 is not valid UTF-8"});
  Status named = ValidateArrayFull(*a, "col");
  ExpectMessageHas(named, {"string array at col.a.item.b: slot 1"});
  auto b = make("good");
  b->child_data[1]->child_data[0]->child_data[0]->buffers[1] = Str("tiny");
  Status st = ValidateArray(*b, "col");
  ExpectMessageHas(st, {"string array at col.a.item.b: buffer 1 (offsets) has 4 bytes but 16"});
}

TEST(ValidateTest, UnnamedFieldsAreNamedByIndex) {
  auto type = struct_({field("", int32()), field("", int32())});
  auto a = Struct(type, {Int32s({1}), Int32s({1})}, 1);
  a->child_data[1]->offset = -1;
  ExpectStructureInvalid(*a, {"int32 array at <root>.[1]: offset -1 is negative"});
}

class TestInt32Extension : public ExtensionType {
 public:
  TestInt32Extension() : ExtensionType(int32()) {}
  std::string extension_name() const override { return "test.int32_ext"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return std::make_shared<TestInt32Extension>();
  }
};

TEST(ValidateTest, ExtensionIsValidatedAsStorage) {
  auto type = std::make_shared<TestInt32Extension>();
  auto a = ArrayData::Make(type, 3, {Bits("110"), Values(std::vector<int32_t>{1, 2, 3})}, 1);
  ExpectValid(*a);
  a->buffers[1] = Truncated(a->buffers[1], 8);
  ExpectStructureInvalid(*a, {"int32 array at <root>: buffer 1 (values) has 8 bytes but 12"});
  auto b = ArrayData::Make(type, 3, {Bits("110"), Values(std::vector<int32_t>{1, 2, 3})}, 2);
  ExpectDataInvalid(*b, {"null_count is 2 but the validity bitmap marks 1"});
}

ArrayDataPtr NestedEmptyLists(int levels) {
  DataTypePtr type = int32();
  ArrayDataPtr data = Int32s({});
  for (int i = 0; i < levels; ++i) {
    type = list(type);
    data = ArrayData::Make(type, 0, {nullptr, nullptr}, {data}, 0);
  }
  return data;
}

TEST(ValidateTest, NestingDepthIsBounded) {
  ExpectValid(*NestedEmptyLists(60));
  ExpectStructureInvalid(*NestedEmptyLists(70), {"nested deeper than 64 levels"});
}

// One limit, set by the caller: readers pass theirs down so that whatever
// they load at a raised depth also validates.
TEST(ValidateTest, MaxRecursionDepthOption) {
  auto deep = NestedEmptyLists(70);
  ValidateOptions options;
  EXPECT_EQ(options.max_recursion_depth, kDefaultMaxRecursionDepth);
  ExpectMessageHas(ValidateArray(*deep, options), {"nested deeper than 64 levels"});
  options.max_recursion_depth = 80;
  EXPECT_TRUE(ValidateArray(*deep, options).ok()) << ValidateArray(*deep, options).ToString();
  EXPECT_TRUE(ValidateType(*deep->type, 80).ok());
  EXPECT_FALSE(ValidateType(*deep->type).ok());

  auto shallow = NestedEmptyLists(10);
  EXPECT_TRUE(ValidateArray(*shallow, ValidateOptions{}).ok());
  options.max_recursion_depth = 5;
  ExpectMessageHas(ValidateArray(*shallow, options), {"deeper than 5 levels"});
  ExpectMessageHas(ValidateType(*shallow->type, 5), {"deeper than 5 levels"});
  options.max_recursion_depth = -1;
  ExpectMessageHas(ValidateArray(*shallow, options), {"max_recursion_depth must be >= 0"});
}

// ---------------------------------------------------------------------------
// Builders' output must validate (cross-check with the JSON literal helper).

TEST(ValidateTest, ArraysFromJsonValidate) {
  struct Case {
    DataTypePtr type;
    const char* json;
  };
  std::vector<Case> cases = {
      {int64(), "[1, null, 3]"},
      {utf8(), R"(["a", null, "caf\u00e9"])"},
      {utf8_view(), R"(["short", "a string that is long", null])"},
      {list(int32()), "[[1, 2], null, []]"},
      {struct_({field("a", int32()), field("b", utf8())}), R"([{"a": 1, "b": "x"}, null])"},
      {map(utf8(), int32()), R"([[["k", 1]], null, []])"},
      {dictionary(int32(), utf8()), R"(["a", "b", "a", null])"},
      {run_end_encoded(int32(), utf8()), R"(["a", "a", "b", null])"},
      {dense_union({field("i", int32()), field("s", utf8())}, {0, 1}), R"([[0, 1], [1, "x"]])"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type->ToString());
    auto result = testing::ArrayFromJSONString(c.type, c.json);
    if (!result.ok()) {
      ADD_FAILURE() << "ArrayFromJSON failed: " << result.status().ToString();
      continue;
    }
    ExpectValid(**result);
  }
}

// ---------------------------------------------------------------------------
// Garbage input: random corruption of valid arrays must yield OK or Invalid,
// never a crash or an out-of-bounds read (run under ASan to see the latter).

BufferPtr CorruptCopy(const BufferPtr& buffer, std::mt19937_64& rng) {
  if (!buffer) return Str(std::string(8, '\xFF'));
  std::string bytes(buffer->view());
  switch (rng() % 4) {
    case 0:
      if (!bytes.empty()) bytes.resize(rng() % bytes.size());
      break;
    case 1:
      for (int k = 0; k < 3 && !bytes.empty(); ++k)
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
      break;
    case 2: return nullptr;
    default:
      for (char& c : bytes) c = static_cast<char>(0xFF);
  }
  return Str(bytes);
}

int64_t GarbageInteger(std::mt19937_64& rng) {
  static const int64_t kPool[] = {0,
                                  1,
                                  2,
                                  3,
                                  7,
                                  64,
                                  -1,
                                  int64_t{1} << 31,
                                  int64_t{1} << 62,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()};
  return kPool[rng() % (sizeof(kPool) / sizeof(kPool[0]))];
}

void Corrupt(ArrayData* data, std::mt19937_64& rng, int depth) {
  switch (rng() % 5) {
    case 0: data->length = GarbageInteger(rng); break;
    case 1: data->offset = GarbageInteger(rng); break;
    case 2: data->null_count = GarbageInteger(rng); break;
    default:
      if (!data->buffers.empty()) {
        size_t i = rng() % data->buffers.size();
        data->buffers[i] = CorruptCopy(data->buffers[i], rng);
      }
  }
  if (depth < 3 && !data->child_data.empty() && rng() % 2 == 0) {
    size_t i = rng() % data->child_data.size();
    if (data->child_data[i]) {
      auto copy = std::make_shared<ArrayData>(*data->child_data[i]);
      Corrupt(copy.get(), rng, depth + 1);
      data->child_data[i] = copy;
    }
  }
  if (data->dictionary && rng() % 2 == 0) {
    auto copy = std::make_shared<ArrayData>(*data->dictionary);
    Corrupt(copy.get(), rng, depth + 1);
    data->dictionary = copy;
  }
}

TEST(ValidateTest, RandomCorruptionNeverCrashes) {
  std::vector<ArrayDataPtr> seeds = {
      Int32s({1, 2, 3}, "101"),
      Strings(utf8(), {"ab", "", "caf\xC3\xA9"}, "110"),
      Strings(large_binary(), {"ab", "cd"}),
      Views(utf8_view(), {"short", "a long string out of line", "x"}),
      ListOf(list(int32()), {0, 2, 3}, Int32s({1, 2, 3})),
      ArrayData::Make(
          list_view(int32()), 2,
          {nullptr, Values(std::vector<int32_t>{0, 1}), Values(std::vector<int32_t>{1, 2})},
          {Int32s({1, 2, 3})}, 0),
      ArrayData::Make(fixed_size_list(int32(), 2), 2, {nullptr}, {Int32s({1, 2, 3, 4})}, 0),
      SparseUnion({2, 5, 2}),
      DenseUnion({0, 7, 7}, {0, 0, 1}),
      DictArray<int16_t>(int16(), {0, 2, 1}, "101"),
      Ree({2, 5}, {1, 2}, 5),
      MakeMap(map(utf8(), int32()), Strings(utf8(), {"a", "b"}), Int32s({1, 2}), {0, 1, 2}),
      ArrayData::Make(boolean(), 9, {Bits("111111110"), Bits("101010101")}, 1),
  };
  for (const auto& seed : seeds) ExpectValid(*seed);
  std::mt19937_64 rng(7);
  int invalid = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    ArrayData copy = *seeds[static_cast<size_t>(iter) % seeds.size()];
    Corrupt(&copy, rng, 0);
    Status structural = ValidateArray(copy);
    Status full = ValidateArrayFull(copy);
    ASSERT_TRUE(structural.ok() || structural.IsInvalid()) << structural.ToString();
    ASSERT_TRUE(full.ok() || full.IsInvalid()) << full.ToString();
    // Full validation never accepts what structural validation rejects.
    if (!structural.ok()) {
      ASSERT_FALSE(full.ok());
    }
    invalid += !full.ok();
  }
  EXPECT_GT(invalid, 5000);  // the corruption really does break things
}

}  // namespace
}  // namespace alkaid
