// Arrays from hostile or careless callers: slices past the end, logical
// lengths near 2^62 that need no buffers, comparisons of invalid arrays,
// allocation sizes taken from input, and concurrent readers of one array.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/concatenate.h"
#include "alkaid/pretty_print.h"
#include "alkaid/table.h"
#include "alkaid/validate.h"
#include "array_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using ::testing::HasSubstr;
using array_test::Buf;
using testing::ArrayFromJSON;

constexpr int64_t kHuge = int64_t{1} << 62;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---------------------------------------------------------------------------
// Slices clamp to the array, whatever the arguments.

TEST(SliceClampTest, ArraySlicePastTheEnd) {
  ArrayPtr a = MakeArray(ArrayFromJSON(int32(), "[1, 2, 3]"));
  ArrayPtr s = a->Slice(2, 10);
  EXPECT_EQ(s->length(), 1);
  EXPECT_EQ(s->offset(), 2);
  EXPECT_EQ(s->ToString(), "[\n  3\n]");
  EXPECT_EQ(a->Slice(5, 1)->length(), 0);
  EXPECT_EQ(a->Slice(5)->length(), 0);
  EXPECT_EQ(a->Slice(-4, 2)->length(), 2);
  EXPECT_EQ(a->Slice(-4, 2)->offset(), 0);
  EXPECT_EQ(a->Slice(1, -1)->length(), 0);
  // offset + length past INT64_MAX must not wrap around.
  EXPECT_EQ(a->Slice(1, std::numeric_limits<int64_t>::max())->length(), 2);
  EXPECT_EQ(a->Slice(std::numeric_limits<int64_t>::max(), 1)->length(), 0);
  EXPECT_EQ(a->Slice(std::numeric_limits<int64_t>::min())->length(), 3);
  EXPECT_TRUE(ValidateArrayFull(*a->Slice(2, 10)->data()).ok());
}

TEST(SliceClampTest, SliceSafeRefuses) {
  ArrayPtr a = MakeArray(ArrayFromJSON(utf8(), R"(["a", "b", "c"])"));
  EXPECT_TRUE(a->SliceSafe(2, 10).status().IsIndexError());
  EXPECT_TRUE(a->SliceSafe(-1, 1).status().IsIndexError());
  EXPECT_TRUE(a->SliceSafe(1, std::numeric_limits<int64_t>::max()).status().IsIndexError());
  ASSERT_TRUE(a->SliceSafe(1, 2).ok());
  EXPECT_EQ((*a->SliceSafe(1, 2))->length(), 2);
}

TEST(SliceClampTest, CheckedFieldAccess) {
  auto s = MakeArray(ArrayFromJSON(struct_({field("a", int32())}), R"([{"a": 1}, {"a": 2}])"));
  auto& st = static_cast<const StructArray&>(*s);
  EXPECT_TRUE(st.GetField(1).status().IsIndexError());
  EXPECT_TRUE(st.GetField(-1).status().IsIndexError());
  ASSERT_TRUE(st.GetField(0).ok());
  EXPECT_EQ((*st.GetField(0))->length(), 2);
}

TEST(SliceClampTest, ArrayDataSliceKeepsNullCountRules) {
  auto a = ArrayFromJSON(int32(), "[1, null, 3]");
  EXPECT_EQ(a->Slice(1, 100)->GetNullCount(), 1);
  EXPECT_EQ(a->Slice(2, 100)->GetNullCount(), 0);
  auto n = ArrayFromJSON(null(), "[null, null, null]");
  EXPECT_EQ(n->Slice(1, 100)->null_count, 2);
}

TEST(SliceClampTest, ChunkedArrayAndBufferSlices) {
  auto chunked = std::make_shared<ChunkedArray>(
      ArrayDataVector{ArrayFromJSON(int32(), "[1, 2]"), ArrayFromJSON(int32(), "[3]")}, int32());
  EXPECT_EQ(chunked->Slice(2, 10)->length(), 1);
  EXPECT_EQ(chunked->Slice(-3, 2)->length(), 2);
  EXPECT_EQ(chunked->Slice(1, std::numeric_limits<int64_t>::max())->length(), 2);

  auto buffer = Buffer::FromString("abcdef");
  EXPECT_EQ(SliceBuffer(buffer, 4, 10)->size(), 2);
  EXPECT_EQ(SliceBuffer(buffer, 10, 1)->size(), 0);
  EXPECT_EQ(SliceBuffer(buffer, -2, 3)->view(), "abc");
  EXPECT_TRUE(SliceBufferSafe(buffer, 4, 10).status().IsIndexError());
}

// ---------------------------------------------------------------------------
// Logical lengths near 2^62 that need no buffers: everything that consumes
// them works on the runs (or not at all), never slot by slot or by
// materializing them.

ArrayDataPtr HugeRunEndEncoded(int32_t last = 3) {
  auto run_ends = ArrayData::Make(int64(), 3, {nullptr, Buf<int64_t>({1, 2, kHuge})}, 0);
  auto values = ArrayData::Make(int32(), 3, {nullptr, Buf<int32_t>({1, 2, last})}, 0);
  return ArrayData::Make(run_end_encoded(int64(), int32()), kHuge, {}, {run_ends, values}, 0);
}

ArrayDataPtr HugeStructOfNull(int64_t length = kHuge) {
  auto child = ArrayData::Make(null(), length, {}, length);
  return ArrayData::Make(struct_({field("n", null())}), length, {nullptr}, {child}, 0);
}

TEST(HugeLengthTest, RunEndEncodedIsValidAndCheapToUse) {
  auto start = std::chrono::steady_clock::now();
  auto ree = HugeRunEndEncoded();
  EXPECT_TRUE(ValidateArrayFull(*ree).ok()) << ValidateArrayFull(*ree).ToString();
  EXPECT_EQ(ree->GetNullCount(), 0);
  std::string text = PrettyPrintToString(*ree);
  EXPECT_THAT(text, HasSubstr("1,\n  2,\n  3,"));
  EXPECT_THAT(text, HasSubstr("..."));
  EXPECT_LT(text.size(), 200u);
  EXPECT_TRUE(ArrayEquals(*ree, *ree));
  EXPECT_EQ(ArrayDiff(*ree, *HugeRunEndEncoded(4)), "at [2]: 3 vs 4");
  EXPECT_EQ(FormatValue(*ree, kHuge - 1), "3");
  // Doubling it does not fit in int64.
  auto twice = Concatenate({ree, ree});
  EXPECT_TRUE(twice.status().code() == StatusCode::kCapacityError) << twice.status().ToString();
  EXPECT_LT(SecondsSince(start), 2.0);
}

TEST(HugeLengthTest, StructOfNullIsValidAndCheapToUse) {
  auto start = std::chrono::steady_clock::now();
  auto s = HugeStructOfNull();
  EXPECT_TRUE(ValidateArrayFull(*s).ok()) << ValidateArrayFull(*s).ToString();
  EXPECT_EQ(s->GetNullCount(), 0);
  EXPECT_EQ(s->child_data[0]->GetNullCount(), kHuge);
  std::string text = PrettyPrintToString(*s);
  EXPECT_THAT(text, HasSubstr("n: null"));
  EXPECT_LT(text.size(), 1000u);
  EXPECT_EQ(FormatValue(*s, kHuge - 1), "{n: null}");
  EXPECT_TRUE(ArrayEquals(*s, *s));
  EXPECT_EQ(ArrayDiff(*s, *HugeStructOfNull()), "");
  EXPECT_TRUE(Concatenate({s, s}).status().code() == StatusCode::kCapacityError);
  // Two halves make a whole without a buffer.
  SystemMemoryPool pool(int64_t{1} << 20);
  auto joined = Concatenate({HugeStructOfNull(kHuge / 2), HugeStructOfNull(kHuge / 2)}, &pool);
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_EQ((*joined)->length, kHuge);
  EXPECT_LT(SecondsSince(start), 2.0);
}

TEST(HugeLengthTest, MaterializingIsRefusedNotThrown) {
  // A capped pool is the caller's budget; the default pool refuses sizes no
  // machine has. Neither may throw.
  SystemMemoryPool pool(int64_t{1} << 30);
  auto ints = MakeArrayOfNull(int32(), kHuge, &pool);
  EXPECT_TRUE(ints.status().IsOutOfMemory() || ints.status().code() == StatusCode::kCapacityError)
      << ints.status().ToString();
  auto views = MakeArrayOfNull(utf8_view(), kHuge);
  EXPECT_FALSE(views.ok());
  auto lists = MakeArrayOfNull(fixed_size_list(null(), 1 << 20), kHuge / 8, &pool);
  EXPECT_TRUE(lists.status().IsOutOfMemory()) << lists.status().ToString();  // the bitmap
  auto list_children = MakeArrayOfNull(fixed_size_list(null(), 1 << 20), 1 << 12, &pool);
  EXPECT_TRUE(list_children.ok());  // 2^32 null children need no buffer
  auto strings = MakeArrayOfNull(utf8(), std::numeric_limits<int64_t>::max(), &pool);
  EXPECT_TRUE(strings.status().code() == StatusCode::kCapacityError) << strings.status().ToString();
  auto structs = MakeArrayOfNull(struct_({field("n", null())}), kHuge, &pool);
  EXPECT_TRUE(structs.status().IsOutOfMemory()) << structs.status().ToString();
  // Run-end encoded nulls need one run, whatever the length.
  auto ree = MakeArrayOfNull(run_end_encoded(int64(), utf8()), kHuge, &pool);
  ASSERT_TRUE(ree.ok()) << ree.status().ToString();
  EXPECT_TRUE(ValidateArrayFull(**ree).ok());
  EXPECT_LT(pool.max_memory(), 4096);

  EXPECT_TRUE(AllocateBuffer(std::numeric_limits<int64_t>::max()).status().IsOutOfMemory());
  EXPECT_TRUE(AllocateBitmap(std::numeric_limits<int64_t>::max()).status().IsOutOfMemory());
  EXPECT_TRUE(AllocateBuffer(kHuge, &pool).status().IsOutOfMemory());
}

// ---------------------------------------------------------------------------
// Comparison never reads where an invalid array points.

TEST(CompareUntrustedTest, DictionaryIndexOutOfRange) {
  auto dict = ArrayFromJSON(utf8(), R"(["only"])");
  auto good = ArrayData::Make(dictionary(int32(), utf8()), 2, {nullptr, Buf<int32_t>({0, 0})}, 0);
  good->dictionary = dict;
  auto bad = ArrayData::Make(dictionary(int32(), utf8()), 2, {nullptr, Buf<int32_t>({0, 100000})}, 0);
  bad->dictionary = dict;
  EXPECT_FALSE(ArrayEquals(*good, *bad));
  EXPECT_FALSE(ArrayEquals(*bad, *bad));
  std::string diff = ArrayDiff(*good, *bad);
  EXPECT_THAT(diff, HasSubstr("right array is invalid"));
  EXPECT_THAT(diff, HasSubstr("dictionary index 100000 is outside the dictionary of length 1"));
  EXPECT_THAT(ArrayDiff(*bad, *good), HasSubstr("left array is invalid"));
}

TEST(CompareUntrustedTest, OffsetsViewsAndRunsPastTheEnd) {
  auto strings = ArrayFromJSON(utf8(), R"(["ab", "c"])");
  auto bad_strings = ArrayData::Make(utf8(), 2,
                                     {nullptr, Buf<int32_t>({0, 2, 1 << 30}), Buf<uint8_t>({'a', 'b', 'c'})}, 0);
  EXPECT_THAT(ArrayDiff(*strings, *bad_strings), HasSubstr("right array is invalid"));

  auto views = ArrayFromJSON(utf8_view(), R"(["a string longer than 12", "x"])");
  auto bad_views = std::make_shared<ArrayData>(*views);
  auto raw = Buffer::Copy(views->buffers[1]->data(), views->buffers[1]->size()).ValueOrDie();
  int32_t far = 1 << 30;
  std::memcpy(raw->mutable_data() + 12, &far, 4);  // slot 0's offset
  bad_views->buffers[1] = raw;
  EXPECT_THAT(ArrayDiff(*views, *bad_views), HasSubstr("right array is invalid"));
  EXPECT_FALSE(ArrayEquals(*bad_views, *views));

  auto ree = ArrayData::Make(run_end_encoded(int32(), int32()), 4, {},
                             {ArrayData::Make(int32(), 1, {nullptr, Buf<int32_t>({4})}, 0),
                              ArrayData::Make(int32(), 1, {nullptr, Buf<int32_t>({7})}, 0)},
                             0);
  auto short_runs = ArrayData::Make(run_end_encoded(int32(), int32()), 4, {},
                                    {ArrayData::Make(int32(), 1, {nullptr, Buf<int32_t>({2})}, 0),
                                     ArrayData::Make(int32(), 1, {nullptr, Buf<int32_t>({7})}, 0)},
                                    0);
  EXPECT_TRUE(ArrayEquals(*ree, *ree));
  EXPECT_THAT(ArrayDiff(*ree, *short_runs), HasSubstr("does not cover offset + length"));
}

TEST(CompareUntrustedTest, PrintingValidatesFirst) {
  auto bad = ArrayData::Make(utf8(), 2, {nullptr, Buf<int32_t>({0, 2, 1 << 30}), Buf<uint8_t>({'a'})}, 0);
  std::string text = PrettyPrintToString(*bad);
  EXPECT_THAT(text, HasSubstr("Invalid"));
  EXPECT_THAT(text, HasSubstr("offset[2]"));
  std::ostringstream out;
  EXPECT_TRUE(PrettyPrint(*bad, PrettyPrintOptions(), &out).IsInvalid());
  EXPECT_EQ(FormatValue(*ArrayFromJSON(int32(), "[1]"), 5), "<slot 5 out of range>");
}

// ---------------------------------------------------------------------------
// The cached null count may be filled in by several readers at once (run
// under TSan in CI: ctest -R Concurrency).

TEST(ArrayDataConcurrency, GetNullCountFromManyThreads) {
  std::vector<bool> bits(100000);
  int64_t nulls = 0;
  for (size_t i = 0; i < bits.size(); ++i) {
    bits[i] = i % 7 != 0;
    nulls += !bits[i];
  }
  auto validity = array_test::BitmapOf(bits);
  auto values = AllocateBuffer(static_cast<int64_t>(bits.size() * 4)).ValueOrDie();
  for (int round = 0; round < 20; ++round) {
    auto a = ArrayData::Make(int32(), static_cast<int64_t>(bits.size()), {validity, values});
    ASSERT_EQ(a->null_count, kUnknownNullCount);
    std::vector<std::thread> threads;
    std::vector<int64_t> seen(4, -2);
    for (size_t t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&, t] {
        seen[t] = a->GetNullCount();
        // Copies and slices read the cache too.
        ArrayData copy(*a);
        if (copy.null_count != kUnknownNullCount && copy.null_count != nulls) seen[t] = -3;
        auto slice = a->Slice(0, a->length);
        if (slice->GetNullCount() != nulls) seen[t] = -4;
      });
    }
    for (auto& thread : threads) thread.join();
    for (int64_t count : seen) EXPECT_EQ(count, nulls);
    EXPECT_EQ(a->null_count, nulls);
  }
}

}  // namespace
}  // namespace alkaid
