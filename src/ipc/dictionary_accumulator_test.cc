// Dictionaries grown by deltas in place: the snapshots equal the
// concatenation of everything appended, stay unchanged while the storage
// keeps growing, and alternating deltas with batches costs linear time.
#include <chrono>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/concatenate.h"
#include "alkaid/validate.h"
#include "src/ipc/dictionary_accumulator.h"
#include "src/ipc/dictionary_memo.h"
#include "test_util/array_from_json.h"
#include "test_util/sanitizers.h"

namespace alkaid::ipc::internal {
namespace {

using ::alkaid::testing::ArrayFromJSON;

ReadBudgetPtr Budget(int64_t bytes = 0) {
  IpcReadOptions options;
  options.memory_budget = bytes;
  return std::make_shared<ReadBudget>(options);
}

struct Case {
  const char* name;
  DataTypePtr type;
  std::vector<std::string> parts;  // JSON of each appended piece
};

std::vector<Case> Cases() {
  const std::string long_a = "\"a string long enough to live out of line\"";
  const std::string long_b = "\"another string that is longer than twelve\"";
  return {
      {"null", null(), {"[null, null]", "[null]", "[]", "[null]"}},
      {"bool", boolean(), {"[true, false, true]", "[null, true]", "[false]", "[true, true, true, false, null, true, false, true, false]"}},
      {"int8", int8(), {"[1, 2]", "[null]", "[3, 4, 5, 6, 7, 8, 9]"}},
      {"int64", int64(), {"[1]", "[2, 3]", "[null, 4]"}},
      {"float16", float16(), {"[1.5]", "[null, -2]"}},
      {"decimal128", decimal128(10, 2), {"[\"1.25\"]", "[null, \"-3.50\"]"}},
      {"fixed_size_binary", fixed_size_binary(3), {"[\"abc\"]", "[null, \"xyz\"]"}},
      {"utf8", utf8(), {"[\"a\", \"bc\"]", "[]", "[null, \"\", \"def\"]"}},
      {"large_binary", large_binary(), {"[\"x\"]", "[\"yz\", null]"}},
      {"utf8_view", utf8_view(), {"[\"short\", " + long_a + "]", "[null, " + long_b + ", \"s\"]", "[" + long_a + "]"}},
      {"binary_view", binary_view(), {"[\"ab\"]", "[" + long_b + ", " + long_b + "]"}},
      {"list", list(int32()), {"[[1, 2], [], null]", "[[3]]", "[null, [4, 5, 6]]"}},
      {"large_list_utf8", large_list(utf8()), {"[[\"a\"], null]", "[[\"b\", \"c\"], []]"}},
      {"map", map(utf8(), int32()), {"[[[\"k\", 1]]]", "[null, [[\"a\", 2], [\"b\", null]]]"}},
      {"fixed_size_list", fixed_size_list(int16(), 2), {"[[1, 2], null]", "[[3, null]]"}},
      {"struct", struct_({field("a", int32()), field("b", utf8())}),
       {"[{\"a\": 1, \"b\": \"x\"}, null]", "[{\"a\": null, \"b\": \"yz\"}]", "[{\"a\": 3, \"b\": null}]"}},
  };
}

class AccumulatorTypes : public ::testing::TestWithParam<Case> {};

TEST_P(AccumulatorTypes, SnapshotsEqualConcatenationAndStayUnchanged) {
  const Case& c = GetParam();
  ASSERT_TRUE(DictionaryAccumulator::Supports(*c.type));
  DictionaryAccumulator acc(c.type, Budget(), default_memory_pool());
  ArrayDataVector parts;
  std::vector<std::pair<ArrayDataPtr, ArrayDataPtr>> snapshots;  // (snapshot, expected)
  for (const std::string& json : c.parts) {
    ArrayDataPtr part = ArrayFromJSON(c.type, json);
    ASSERT_TRUE(acc.Append(*part).ok());
    parts.push_back(part);
    ArrayDataPtr expected = *Concatenate(parts);
    ArrayDataPtr snapshot = acc.Snapshot();
    ASSERT_TRUE(ValidateArrayFull(*snapshot).ok()) << ValidateArrayFull(*snapshot);
    EXPECT_TRUE(ArrayEquals(*snapshot, *expected)) << ArrayDiff(*snapshot, *expected);
    EXPECT_EQ(snapshot->GetNullCount(), expected->GetNullCount());
    snapshots.emplace_back(snapshot, expected);  // held: later appends must not disturb it
  }
  for (const auto& [snapshot, expected] : snapshots) {
    ASSERT_TRUE(ValidateArrayFull(*snapshot).ok());
    EXPECT_TRUE(ArrayEquals(*snapshot, *expected)) << ArrayDiff(*snapshot, *expected);
  }
}

TEST_P(AccumulatorTypes, SlicedInputsAppendTheirVisibleSlots) {
  const Case& c = GetParam();
  DictionaryAccumulator acc(c.type, Budget(), default_memory_pool());
  ArrayDataVector parts;
  for (const std::string& json : c.parts) {
    ArrayDataPtr whole = ArrayFromJSON(c.type, json);
    ArrayDataPtr part = whole->Slice(whole->length / 2, whole->length - whole->length / 2);
    ASSERT_TRUE(acc.Append(*part).ok());
    parts.push_back(part);
  }
  ArrayDataPtr expected = *Concatenate(parts);
  ArrayDataPtr snapshot = acc.Snapshot();
  ASSERT_TRUE(ValidateArrayFull(*snapshot).ok()) << ValidateArrayFull(*snapshot);
  EXPECT_TRUE(ArrayEquals(*snapshot, *expected)) << ArrayDiff(*snapshot, *expected);
}

INSTANTIATE_TEST_SUITE_P(Dictionary, AccumulatorTypes, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(DictionaryAccumulator, UnsupportedTypes) {
  EXPECT_FALSE(DictionaryAccumulator::Supports(*dense_union({field("a", int32())})));
  EXPECT_FALSE(DictionaryAccumulator::Supports(*list_view(int32())));
  EXPECT_FALSE(DictionaryAccumulator::Supports(*struct_({field("r", run_end_encoded(int32(), utf8()))})));
  EXPECT_FALSE(DictionaryAccumulator::Supports(*list(dictionary(int8(), utf8()))));
  EXPECT_TRUE(DictionaryAccumulator::Supports(*list(struct_({field("a", utf8_view())}))));
}

TEST(DictionaryAccumulator, HeldSnapshotsKeepTheirValidityWhileNullsAreAppended) {
  // Each append lands in the byte holding the previous snapshot's last bit:
  // a held snapshot forces a copy of the bitmap, a dropped one does not.
  DictionaryAccumulator acc(utf8(), Budget(), default_memory_pool());
  std::vector<ArrayDataPtr> held;
  std::string expected_json = "[";
  for (int i = 0; i < 40; ++i) {
    const bool null = i % 3 == 1;
    ASSERT_TRUE(acc.Append(*ArrayFromJSON(utf8(), null ? "[null]" : "[\"v\"]")).ok());
    expected_json += std::string(i == 0 ? "" : ", ") + (null ? "null" : "\"v\"");
    held.push_back(acc.Snapshot());
    ArrayDataPtr expected = ArrayFromJSON(utf8(), expected_json + "]");
    EXPECT_TRUE(ArrayEquals(*held.back(), *expected)) << i;
  }
  for (size_t i = 0; i < held.size(); ++i) {
    EXPECT_EQ(held[i]->length, static_cast<int64_t>(i + 1));
    for (size_t j = 0; j <= i; ++j) EXPECT_EQ(held[i]->IsNull(static_cast<int64_t>(j)), j % 3 == 1);
  }
}

TEST(DictionaryAccumulator, ChargesItsStorageToTheBudget) {
  DictionaryAccumulator acc(int64(), Budget(4096), default_memory_pool());
  ArrayDataPtr chunk = ArrayFromJSON(int64(), "[1, 2, 3, 4, 5, 6, 7, 8]");
  Status st;
  int appended = 0;
  while (st.ok() && appended < 1000) {
    st = acc.Append(*chunk);
    if (st.ok()) ++appended;
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("memory_budget"), std::string::npos) << st;
  EXPECT_LT(appended, 64);  // 4 KiB hold well under 512 int64 values with spare capacity
}

// The memo alternating one-value deltas with materializations (what a stream
// of delta, batch, delta, batch, ... does): linear for types grown in place,
// refused once the copying passes four times the budget for the others.
Status Alternate(const DataTypePtr& value_type, const std::string& value_json, int pairs,
                 int64_t budget_bytes, double* seconds) {
  auto schema_ = schema({field("d", dictionary(int32(), value_type))});
  DictionaryIds ids = DictionaryIds::AssignSequential(*schema_);
  DictionaryMemo memo;
  ALKAID_RETURN_NOT_OK(memo.Init(*schema_, ids, {true}));
  ReadBudgetPtr budget = Budget(budget_bytes);
  ArrayDataPtr value = ArrayFromJSON(value_type, value_json);
  auto start = std::chrono::steady_clock::now();
  ALKAID_RETURN_NOT_OK(memo.Apply(0, false, value, budget, default_memory_pool()));
  for (int i = 0; i < pairs; ++i) {
    ALKAID_RETURN_NOT_OK(memo.Apply(0, true, value, budget, default_memory_pool()));
    ALKAID_RETURN_NOT_OK(memo.MaterializeAll(budget, default_memory_pool()));
    if (memo.Find(0)->values->length != i + 2) return Status::Invalid("wrong length at ", i);
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::OK();
}

TEST(DictionaryMemoDeltas, AlternatingDeltasAndBatchesIsLinear) {
  // Quadratic work would take hours; the bound only separates that from linear, with room for
  // the sanitizers' slowdown.
  const double limit = ::alkaid::testing::kSanitizedBuild ? 15.0 : 3.0;
  double seconds = 0;
  // 300,000 pairs: concatenating per delta would copy ~4.5e10 values.
  ASSERT_TRUE(Alternate(utf8(), "[\"x\"]", 300000, 0, &seconds).ok());
  std::printf("300,000 alternating utf8 deltas: %.3f s\n", seconds);
  EXPECT_LT(seconds, limit);
  ASSERT_TRUE(Alternate(struct_({field("a", int64()), field("b", list(utf8()))}),
                        "[{\"a\": 1, \"b\": [\"q\"]}]", 100000, 0, &seconds)
                  .ok());
  EXPECT_LT(seconds, limit);
}

TEST(DictionaryMemoDeltas, TypesThatCannotGrowInPlaceHaveTheirCopyingCapped) {
  double seconds = 0;
  auto type = dense_union({field("i", int32())}, {0});
  Status st = Alternate(type, "[[0, 7]]", 200000, 64 * 1024, &seconds);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot grow in place"), std::string::npos) << st;
  // A handful of deltas stays well within the cap.
  EXPECT_TRUE(Alternate(type, "[[0, 7]]", 50, 64 * 1024, &seconds).ok());
}

}  // namespace
}  // namespace alkaid::ipc::internal
