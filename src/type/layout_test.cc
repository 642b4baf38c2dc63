// The layout table (DataType::layout()) and the integer-width dispatch
// (alkaid/visit_width.h): the facts every consumer takes from them.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "alkaid/type.h"
#include "alkaid/visit_width.h"

namespace alkaid {
namespace {

using S = BufferSpec;

// One expected buffer: kind, width, alignment, swap, length + 1 offsets.
struct Expected {
  S::Kind kind;
  int width;
  int alignment;
  S::ByteSwap swap;
  bool plus_one = false;
};

struct Case {
  DataTypePtr type;
  std::vector<Expected> buffers;
  bool variadic = false;
};

void ExpectLayout(const Case& c) {
  SCOPED_TRACE(c.type->ToString());
  const DataTypeLayout& layout = c.type->layout();
  ASSERT_EQ(layout.buffers.size(), c.buffers.size());
  EXPECT_EQ(layout.variadic_data, c.variadic);
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    SCOPED_TRACE("buffer " + std::to_string(i));
    const BufferSpec& got = layout.buffers[i];
    const Expected& want = c.buffers[i];
    EXPECT_EQ(got.kind, want.kind);
    EXPECT_EQ(got.byte_width, want.width);
    EXPECT_EQ(got.alignment, want.alignment);
    EXPECT_EQ(got.swap, want.swap);
    EXPECT_EQ(got.offsets_plus_one, want.plus_one);
    // Alignments are powers of two no wider than the element (except bitmaps/bytes: 1).
    EXPECT_GT(got.alignment, 0);
    EXPECT_EQ(got.alignment & (got.alignment - 1), 0);
  }
}

const Expected kValidity{S::kValidity, 0, 1, S::kSwapNone};

Expected Values(int width, int alignment, S::ByteSwap swap) {
  return {S::kFixedWidth, width, alignment, swap};
}

TEST(LayoutTable, EveryTypeStatesKindWidthAlignmentAndByteSwap) {
  const auto item = int32();
  const std::vector<Case> cases = {
      {null(), {}},
      {boolean(), {kValidity, {S::kBitmapValues, 0, 1, S::kSwapNone}}},
      {int8(), {kValidity, Values(1, 1, S::kSwapNone)}},
      {uint8(), {kValidity, Values(1, 1, S::kSwapNone)}},
      {int16(), {kValidity, Values(2, 2, S::kSwapElement)}},
      {uint16(), {kValidity, Values(2, 2, S::kSwapElement)}},
      {int32(), {kValidity, Values(4, 4, S::kSwapElement)}},
      {uint32(), {kValidity, Values(4, 4, S::kSwapElement)}},
      {int64(), {kValidity, Values(8, 8, S::kSwapElement)}},
      {uint64(), {kValidity, Values(8, 8, S::kSwapElement)}},
      {float16(), {kValidity, Values(2, 2, S::kSwapElement)}},
      {float32(), {kValidity, Values(4, 4, S::kSwapElement)}},
      {float64(), {kValidity, Values(8, 8, S::kSwapElement)}},
      {decimal32(9, 2), {kValidity, Values(4, 4, S::kSwapElement)}},
      {decimal64(18, 2), {kValidity, Values(8, 8, S::kSwapElement)}},
      {decimal128(38, 2), {kValidity, Values(16, 8, S::kSwapElement)}},
      {decimal256(76, 2), {kValidity, Values(32, 8, S::kSwapElement)}},
      {date32(), {kValidity, Values(4, 4, S::kSwapElement)}},
      {date64(), {kValidity, Values(8, 8, S::kSwapElement)}},
      {time32(TimeUnit::kMilli), {kValidity, Values(4, 4, S::kSwapElement)}},
      {time64(TimeUnit::kNano), {kValidity, Values(8, 8, S::kSwapElement)}},
      {timestamp(TimeUnit::kMicro, "UTC"), {kValidity, Values(8, 8, S::kSwapElement)}},
      {duration(TimeUnit::kSecond), {kValidity, Values(8, 8, S::kSwapElement)}},
      {month_interval(), {kValidity, Values(4, 4, S::kSwapElement)}},
      {day_time_interval(), {kValidity, Values(8, 4, S::kSwapInt32Pairs)}},
      {month_day_nano_interval(), {kValidity, Values(16, 8, S::kSwapMonthDayNano)}},
      {fixed_size_binary(7), {kValidity, Values(7, 1, S::kSwapNone)}},
      {fixed_size_binary(0), {kValidity, Values(0, 1, S::kSwapNone)}},
      {binary(), {kValidity, {S::kOffsets, 4, 4, S::kSwapElement, true}, {S::kData, 0, 1, S::kSwapNone}}},
      {utf8(), {kValidity, {S::kOffsets, 4, 4, S::kSwapElement, true}, {S::kData, 0, 1, S::kSwapNone}}},
      {large_binary(),
       {kValidity, {S::kOffsets, 8, 8, S::kSwapElement, true}, {S::kData, 0, 1, S::kSwapNone}}},
      {large_utf8(),
       {kValidity, {S::kOffsets, 8, 8, S::kSwapElement, true}, {S::kData, 0, 1, S::kSwapNone}}},
      {binary_view(), {kValidity, {S::kViews, 16, 4, S::kSwapViews}}, true},
      {utf8_view(), {kValidity, {S::kViews, 16, 4, S::kSwapViews}}, true},
      {list(item), {kValidity, {S::kOffsets, 4, 4, S::kSwapElement, true}}},
      {large_list(item), {kValidity, {S::kOffsets, 8, 8, S::kSwapElement, true}}},
      {map(utf8(), item), {kValidity, {S::kOffsets, 4, 4, S::kSwapElement, true}}},
      {list_view(item),
       {kValidity, {S::kOffsets, 4, 4, S::kSwapElement, false}, {S::kSizes, 4, 4, S::kSwapElement}}},
      {large_list_view(item),
       {kValidity, {S::kOffsets, 8, 8, S::kSwapElement, false}, {S::kSizes, 8, 8, S::kSwapElement}}},
      {fixed_size_list(item, 3), {kValidity}},
      {struct_({field("a", item)}), {kValidity}},
      {sparse_union({field("a", item)}), {{S::kTypeIds, 1, 1, S::kSwapNone}}},
      {dense_union({field("a", item)}),
       {{S::kTypeIds, 1, 1, S::kSwapNone}, Values(4, 4, S::kSwapElement)}},
      {dictionary(int8(), utf8()), {kValidity, Values(1, 1, S::kSwapNone)}},
      {dictionary(uint16(), utf8()), {kValidity, Values(2, 2, S::kSwapElement)}},
      {dictionary(int64(), utf8()), {kValidity, Values(8, 8, S::kSwapElement)}},
      {run_end_encoded(int32(), utf8()), {}},
  };
  for (const Case& c : cases) ExpectLayout(c);
}

TEST(LayoutTable, ValidityFollowsTheFirstBuffer) {
  EXPECT_FALSE(null()->layout().has_validity());
  EXPECT_FALSE(sparse_union({field("a", int8())})->layout().has_validity());
  EXPECT_FALSE(dense_union({field("a", int8())})->layout().has_validity());
  EXPECT_FALSE(run_end_encoded(int16(), int8())->layout().has_validity());
  EXPECT_TRUE(boolean()->layout().has_validity());
  EXPECT_TRUE(struct_({})->layout().has_validity());
}

TEST(LayoutTable, RequiredBytesFollowsTheCountRule) {
  const BufferSpec validity = BufferSpec::Validity();
  EXPECT_EQ(validity.RequiredBytes(0), 0);
  EXPECT_EQ(validity.RequiredBytes(1), 1);
  EXPECT_EQ(validity.RequiredBytes(8), 1);
  EXPECT_EQ(validity.RequiredBytes(9), 2);
  EXPECT_EQ(BufferSpec::Offsets(4).RequiredBytes(0), 0);  // empty arrays may omit offsets
  EXPECT_EQ(BufferSpec::Offsets(4).RequiredBytes(3), 16);
  EXPECT_EQ(BufferSpec::Offsets(8).RequiredBytes(3), 32);
  EXPECT_EQ(BufferSpec::ViewOffsets(4).RequiredBytes(3), 12);
  EXPECT_EQ(BufferSpec::Sizes(8).RequiredBytes(3), 24);
  EXPECT_EQ(BufferSpec::Views().RequiredBytes(2), 32);
  EXPECT_EQ(BufferSpec::TypeIds().RequiredBytes(5), 5);
  EXPECT_EQ(BufferSpec::Data().RequiredBytes(100), 0);
  EXPECT_EQ(BufferSpec::FixedWidth(16, 8, BufferSpec::kSwapElement).RequiredBytes(3), 48);
  // Overflow and nonsense are reported, not wrapped.
  EXPECT_EQ(BufferSpec::Offsets(8).RequiredBytes(INT64_MAX), -1);
  EXPECT_EQ(BufferSpec::Sizes(8).RequiredBytes(INT64_MAX / 4), -1);
  EXPECT_EQ(BufferSpec::Sizes(8).RequiredBytes(-1), -1);
}

// --- visit_width.h

template <typename T>
Result<std::string> Describe(T) {
  return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

TEST(VisitWidth, RunEndTypes) {
  const std::vector<std::pair<DataTypePtr, std::string>> ok = {
      {int16(), "int16"}, {int32(), "int32"}, {int64(), "int64"}};
  for (const auto& [type, name] : ok) {
    Result<std::string> got =
        VisitRunEndType(*type, [](auto zero) -> Result<std::string> { return Describe(zero); });
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, name);
  }
  for (const DataTypePtr& bad : {int8(), uint16(), uint32(), uint64(), float64(), utf8(), null()}) {
    bool called = false;
    Status st = VisitRunEndType(*bad, [&](auto) -> Status {
      called = true;
      return Status::OK();
    });
    EXPECT_FALSE(called) << bad->ToString();
    EXPECT_EQ(st.code(), StatusCode::kTypeError) << bad->ToString();
    EXPECT_NE(st.message().find(bad->ToString()), std::string::npos) << st.ToString();
  }
}

TEST(VisitWidth, DictionaryIndexTypes) {
  const std::vector<std::pair<DataTypePtr, std::string>> ok = {
      {int8(), "int8"},   {int16(), "int16"},   {int32(), "int32"},   {int64(), "int64"},
      {uint8(), "uint8"}, {uint16(), "uint16"}, {uint32(), "uint32"}, {uint64(), "uint64"}};
  for (const auto& [type, name] : ok) {
    Result<std::string> got =
        VisitIndexType(*type, [](auto zero) -> Result<std::string> { return Describe(zero); });
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, name);
  }
  for (const DataTypePtr& bad : {boolean(), float16(), float32(), date32(), utf8(), decimal128(5, 1)}) {
    bool called = false;
    Status st = VisitIndexType(*bad, [&](auto) -> Status {
      called = true;
      return Status::OK();
    });
    EXPECT_FALSE(called) << bad->ToString();
    EXPECT_EQ(st.code(), StatusCode::kTypeError) << bad->ToString();
    EXPECT_NE(st.message().find(bad->ToString()), std::string::npos) << st.ToString();
  }
}

TEST(VisitWidth, SignedWidths) {
  for (int width : {1, 2, 4, 8}) {
    Result<int> got = VisitSignedWidth(width, [](auto zero) -> Result<int> {
      static_assert(std::is_signed_v<decltype(zero)>);
      return static_cast<int>(sizeof(zero));
    });
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, width);
  }
  for (int width : {-1, 0, 3, 16, 1 << 30}) {
    Status st = VisitSignedWidth(width, [](auto) -> Status { return Status::Invalid("called"); });
    EXPECT_EQ(st.code(), StatusCode::kTypeError) << width;
    EXPECT_NE(st.message().find(std::to_string(width)), std::string::npos) << st.ToString();
  }
}

TEST(VisitWidth, CallableErrorsPassThrough) {
  Status st = VisitIndexType(*uint32(), [](auto) -> Status { return Status::Invalid("mine"); });
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(), "mine");
}

}  // namespace
}  // namespace alkaid
